/**
 * Future home of partial reliability: the FORWARD TSN of RFC 3758 and the I-FORWARD-TSN of RFC
 * 8260 section 2.3 (abandoning messages by lifetime or retransmission count, moving the peer's
 * cumulative TSN past them, and the receiver's side of it). It will act on {@link
 * org.sctpj.stack.wire.chunk.ForwardTsnChunk}, {@link org.sctpj.stack.wire.chunk.IForwardTsnChunk}
 * and the {@link org.sctpj.stack.wire.param.ForwardTsnSupportedParameter} of INIT and INIT ACK.
 * Empty for now.
 */
package org.sctpj.stack.forwardtsn;
