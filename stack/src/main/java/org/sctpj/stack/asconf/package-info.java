/**
 * Future home of dynamic address reconfiguration (RFC 5061): adding and deleting addresses of a
 * live association and setting the peer's primary, with the ASCONF serial numbers and
 * retransmission. It will act on {@link org.sctpj.stack.wire.chunk.AsconfChunk}, {@link
 * org.sctpj.stack.wire.chunk.AsconfAckChunk} and their parameters ({@link
 * org.sctpj.stack.wire.param.AddIpAddressParameter}, {@link
 * org.sctpj.stack.wire.param.DeleteIpAddressParameter}, {@link
 * org.sctpj.stack.wire.param.SetPrimaryAddressParameter}, {@link
 * org.sctpj.stack.wire.param.SuccessIndicationParameter}, {@link
 * org.sctpj.stack.wire.param.ErrorCauseIndicationParameter}). ASCONF must be authenticated (see
 * {@code auth}). Empty for now.
 */
package org.sctpj.stack.asconf;
