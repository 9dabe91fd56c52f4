/**
 * Future home of authenticated chunks (RFC 4895): the shared key negotiated from both sides'
 * random numbers, the HMAC of the chunks the peer asks to be authenticated, and the check of
 * received ones. It will act on {@link org.sctpj.stack.wire.chunk.AuthChunk} and the {@link
 * org.sctpj.stack.wire.param.RandomParameter}, {@link
 * org.sctpj.stack.wire.param.ChunkListParameter} and {@link
 * org.sctpj.stack.wire.param.RequestedHmacAlgorithmParameter} of INIT and INIT ACK. Empty for now.
 */
package org.sctpj.stack.auth;
