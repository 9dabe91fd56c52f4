/**
 * Stream reconfiguration (RFC 6525): resetting incoming and outgoing streams, resetting the
 * SSN/TSN, adding streams, with its request/response matching and its timer, in {@link
 * org.sctpj.stack.reconfig.StreamReset}. It acts on {@link org.sctpj.stack.wire.chunk.ReConfigChunk}
 * and its parameters ({@link org.sctpj.stack.wire.param.OutgoingSsnResetRequestParameter}, {@link
 * org.sctpj.stack.wire.param.IncomingSsnResetRequestParameter}, {@link
 * org.sctpj.stack.wire.param.SsnTsnResetRequestParameter}, {@link
 * org.sctpj.stack.wire.param.AddOutgoingStreamsRequestParameter}, {@link
 * org.sctpj.stack.wire.param.AddIncomingStreamsRequestParameter}, {@link
 * org.sctpj.stack.wire.param.ReconfigurationResponseParameter}), and reaches the data path through
 * small methods of {@link org.sctpj.stack.tx.DataSender} (holding and releasing streams, the
 * Sender's Last Assigned TSN, the TSN restart) and {@link org.sctpj.stack.rx.DataReceiver} (SSN
 * and TSN resets, added inbound streams).
 */
package org.sctpj.stack.reconfig;
