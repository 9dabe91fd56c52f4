/**
 * Per-destination state of an association: the {@link org.sctpj.stack.path.Path} with its error
 * counter, T3-rtx deadline and counters, the {@link org.sctpj.stack.path.RtoEstimator} (RFC 9260
 * section 6.3) and the pluggable {@link org.sctpj.stack.path.CongestionController} (RFC 9260
 * section 7). Internal to the stack: driven by the association and the data sender, no I/O, no
 * clock (times are {@code long} nanoseconds passed in).
 */
package org.sctpj.stack.path;
