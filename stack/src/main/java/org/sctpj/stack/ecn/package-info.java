/**
 * Future home of explicit congestion notification (RFC 9260 appendix A): ECN capability announced
 * in INIT and INIT ACK, an ECNE for each congestion-experienced mark, the sender's window reduction
 * answered by a CWR. It will act on {@link org.sctpj.stack.wire.chunk.EcneChunk}, {@link
 * org.sctpj.stack.wire.chunk.CwrChunk} and the {@link org.sctpj.stack.wire.param.EcnCapableParameter}.
 * Empty for now.
 */
package org.sctpj.stack.ecn;
