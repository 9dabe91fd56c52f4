/**
 * Per-destination state of an association: the {@link org.sctpj.stack.path.Path} with its status,
 * error counter, T3-rtx deadline, flight size and congestion variables, and the {@link
 * org.sctpj.stack.path.RtoEstimator} (RFC 9260 section 6.3). {@code Path} is what a congestion
 * controller of the exported {@code org.sctpj.stack.cc} package sees through its {@code
 * PathCongestionState} view (RFC 9260 section 7); which paths take data, CMT included, is decided
 * in {@code org.sctpj.stack.tx}. Internal to the stack: driven by the association and the data
 * sender, no I/O, no clock (times are {@code long} nanoseconds passed in).
 */
package org.sctpj.stack.path;
