/**
 * The association: {@link org.sctpj.stack.assoc.Association}, the dispatcher the endpoint drives
 * (chunks to the procedure named after them, expired timers to their owner, user commands to the
 * procedure they start); {@link org.sctpj.stack.assoc.Tcb}, the transmission control block every
 * procedure shares (RFC 9260 section 14.1); {@link org.sctpj.stack.assoc.TimerTable} with {@link
 * org.sctpj.stack.assoc.TimerKind}, all protocol timers of an association in one table; {@link
 * org.sctpj.stack.assoc.DataTransfer}, DATA, SACK, T3-rtx and the assembly of outgoing packets (RFC
 * 9260 section 6) over the {@code tx} and {@code rx} halves; {@link
 * org.sctpj.stack.assoc.InboundPacket}, a framed incoming packet; {@link
 * org.sctpj.stack.assoc.AssociationHost}, what an association needs from its endpoint.
 *
 * <p>The procedures live in packages named after them: {@code handshake} (setup, INIT collisions,
 * restart), {@code teardown} (SHUTDOWN and ABORT), {@code pathmgmt} (heartbeats, path confirmation,
 * failover, primary). Internal to the stack: sans-IO, times are passed in.
 */
package org.sctpj.stack.assoc;
