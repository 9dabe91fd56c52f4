/**
 * The sending half of an association's data transfer (RFC 9260 sections 6.1 to 6.4 and 7), one
 * class per procedure behind the {@link org.sctpj.stack.tx.DataSender} facade the association
 * calls:
 *
 * <ul>
 *   <li>{@code SendQueue}: messages accepted and not yet sent, per stream, streams in the turn
 *       order of a stream scheduler of RFC 8260 section 3 (package {@code tx.sched}; round robin by
 *       default); the send-buffer accounting (6.1);
 *   <li>{@code PacketFiller}: filling a packet with DATA within the path MTU, cwnd, the peer's
 *       rwnd and zero window probe, Max.Burst and Nagle (6.1), fragmentation and TSN/SSN
 *       assignment (6.5, 6.9);
 *   <li>{@code RetransmissionQueue}: chunks outstanding, the acknowledgement passes of a SACK
 *       (cumulative ack, gap blocks, reneging, 6.2.1), marking for retransmission, resending;
 *   <li>{@code LossDetector}: miss indications, fast retransmit and Fast Recovery (7.2.4), as
 *       {@code Rfc9260LossDetector} or, with CMT, {@code CmtLossDetector} (split fast retransmit,
 *       pseudo-cumulative ack, Fast Recovery per destination);
 *   <li>{@code T3Rtx}: the retransmission timer, rules R1 to R3 (6.3.2) and its expiry (6.3.3);
 *   <li>{@link org.sctpj.stack.tx.PathScheduling}: which destinations take data, chosen once per
 *       association: {@code SinglePathScheduling} or, with CMT, {@link
 *       org.sctpj.stack.tx.CmtScheduler} (round robin over active destinations, retransmission
 *       policy, buffer splitting);
 *   <li>{@link org.sctpj.stack.tx.PacketBuilder}: the packet being built, control chunks and DATA.
 * </ul>
 *
 * <p>Congestion control itself is in the exported {@code org.sctpj.stack.cc}. Internal to the
 * stack; sans-IO, times are passed in.
 */
package org.sctpj.stack.tx;
