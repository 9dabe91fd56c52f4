/**
 * Partial reliability (PR-SCTP, RFC 3758, with the policies of RFC 7496): {@link
 * org.sctpj.stack.forwardtsn.ForwardTsn}, the procedure that sends the FORWARD TSN (and, with
 * I-DATA, the I-FORWARD-TSN of RFC 8260 section 2.3) when messages were abandoned, takes the
 * peer's, and hands abandoned messages back to the user. The abandonment itself (which message,
 * when, all its fragments together, the Advanced.Peer.Ack.Point) is done by the sender ({@code
 * tx}), the receiver's skip by {@link org.sctpj.stack.rx.DataReceiver#forwardTsn}. Negotiated
 * through {@link org.sctpj.stack.Extension#PR_SCTP}.
 */
package org.sctpj.stack.forwardtsn;
