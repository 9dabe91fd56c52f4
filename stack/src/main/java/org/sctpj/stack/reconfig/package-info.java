/**
 * Future home of stream reconfiguration (RFC 6525): resetting incoming and outgoing streams,
 * resetting the SSN/TSN, adding streams, with its request/response matching and its timer. It
 * will act on {@link org.sctpj.stack.wire.chunk.ReConfigChunk} and its parameters ({@link
 * org.sctpj.stack.wire.param.OutgoingSsnResetRequestParameter}, {@link
 * org.sctpj.stack.wire.param.IncomingSsnResetRequestParameter}, {@link
 * org.sctpj.stack.wire.param.SsnTsnResetRequestParameter}, {@link
 * org.sctpj.stack.wire.param.AddOutgoingStreamsRequestParameter}, {@link
 * org.sctpj.stack.wire.param.AddIncomingStreamsRequestParameter}, {@link
 * org.sctpj.stack.wire.param.ReconfigurationResponseParameter}). Empty for now.
 */
package org.sctpj.stack.reconfig;
