package org.sctpj.api.socket;

import java.net.SocketAddress;
import java.nio.ByteBuffer;

/**
 * A message accepted by a send will not be delivered (RFC 6458 section 6.1.11,
 * SCTP_SEND_FAILED_EVENT): the association ended first, or its time to live ({@link
 * MessageInfo#timeToLive(long)}, PR-SCTP) ran out and it was abandoned. The message is handed
 * back.
 *
 * @param association the association
 * @param address the primary peer address it was meant for
 * @param buffer the message (a read-only buffer, position 0)
 * @param errorCode 1 if some of it was sent ({@code SCTP_DATA_SENT}), else 0 ({@code
 *     SCTP_DATA_UNSENT})
 * @param streamNumber the stream it was sent on
 * @param abandoned true when its partial reliability policy gave it up (rather than the
 *     association ending)
 */
public record SendFailedNotification(
        Association association,
        SocketAddress address,
        ByteBuffer buffer,
        int errorCode,
        int streamNumber,
        boolean abandoned)
        implements Notification {

    /** A message the association's end took back. */
    public SendFailedNotification(
            Association association, SocketAddress address, ByteBuffer buffer, int errorCode, int streamNumber) {
        this(association, address, buffer, errorCode, streamNumber, false);
    }
}
