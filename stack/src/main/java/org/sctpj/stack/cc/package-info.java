/**
 * Congestion control that applications can supply (RFC 9260 section 7.2; RFC 6356 for coupled
 * multipath control): the {@link org.sctpj.stack.cc.CongestionController} interface, the view of a
 * path it works on ({@link org.sctpj.stack.cc.PathCongestionState}), the factory that makes one
 * controller per association ({@link org.sctpj.stack.cc.CongestionControllerFactory}, chosen with
 * {@code SctpOptions.Builder.congestionController}), and the stack's two controllers: {@link
 * org.sctpj.stack.cc.Rfc9260CongestionController} (standard, per destination) and {@link
 * org.sctpj.stack.cc.LinkedIncreasesCongestionController} (coupled, for CMT).
 *
 * <p>Controllers run on the stack's owner thread, inside endpoint calls; they do no I/O and read
 * no clock.
 */
package org.sctpj.stack.cc;
