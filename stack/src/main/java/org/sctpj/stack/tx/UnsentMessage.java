package org.sctpj.stack.tx;

/**
 * A message that was not fully acknowledged when the association ended, returned by {@link
 * DataSender#drainUnsent()} so the user can be told (RFC 6458 SCTP_SEND_FAILED).
 *
 * @param streamId the stream it was sent on
 * @param ppid its Payload Protocol Identifier
 * @param unordered whether it was unordered
 * @param data the whole message
 * @param partiallySent whether some of it had been put on the wire
 */
public record UnsentMessage(int streamId, int ppid, boolean unordered, byte[] data, boolean partiallySent) {}
