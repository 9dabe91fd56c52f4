/**
 * Future home of path MTU discovery: packetization-layer PMTU discovery with probes (RFC 8899, for
 * SCTP with HEARTBEAT and {@link org.sctpj.stack.wire.chunk.PadChunk} probes, section 6.2; and the
 * classic RFC 4821), raising or lowering {@link org.sctpj.stack.path.Path#setMtu} per destination.
 * It will act on {@link org.sctpj.stack.wire.chunk.PadChunk}, {@link
 * org.sctpj.stack.wire.param.PaddingParameter} and the heartbeats of {@code pathmgmt}. Empty for now.
 */
package org.sctpj.stack.pmtu;
