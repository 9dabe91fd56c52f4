/**
 * Authenticated chunks (RFC 4895): {@link org.sctpj.stack.auth.Authentication}, the procedure of
 * one association (the key vectors of INIT and INIT ACK, the association shared keys of section
 * 6.1, the check of received AUTH chunks and of the chunks we require authenticated, section 6.3,
 * and the AUTH chunk of our packets, section 6.2), over {@link org.sctpj.stack.auth.KeyVector},
 * {@link org.sctpj.stack.auth.SharedKeys} and {@link org.sctpj.stack.auth.HmacAlgorithm}. It acts
 * on the codec's {@link org.sctpj.stack.wire.chunk.AuthChunk}, {@link
 * org.sctpj.stack.wire.param.RandomParameter}, {@link org.sctpj.stack.wire.param.ChunkListParameter}
 * and {@link org.sctpj.stack.wire.param.RequestedHmacAlgorithmParameter}. Pure computation (HMACs
 * through {@code javax.crypto}): no I/O, clock or thread.
 */
package org.sctpj.stack.auth;
