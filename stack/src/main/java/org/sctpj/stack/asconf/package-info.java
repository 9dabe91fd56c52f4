/**
 * Dynamic address reconfiguration (RFC 5061): adding and deleting addresses of a live association
 * and setting the peer's primary, with the ASCONF serial numbers, retransmission and error causes,
 * in {@link org.sctpj.stack.asconf.AddressReconfiguration}. It acts on {@link
 * org.sctpj.stack.wire.chunk.AsconfChunk}, {@link org.sctpj.stack.wire.chunk.AsconfAckChunk} and
 * their parameters ({@link org.sctpj.stack.wire.param.AddIpAddressParameter}, {@link
 * org.sctpj.stack.wire.param.DeleteIpAddressParameter}, {@link
 * org.sctpj.stack.wire.param.SetPrimaryAddressParameter}, {@link
 * org.sctpj.stack.wire.param.SuccessIndicationParameter}, {@link
 * org.sctpj.stack.wire.param.ErrorCauseIndicationParameter}); the paths themselves change in
 * {@link org.sctpj.stack.pathmgmt.PathSet}. ASCONF must be authenticated (see {@code auth}).
 */
package org.sctpj.stack.asconf;
