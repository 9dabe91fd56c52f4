package org.sctpj.api.socket;

import java.net.SocketAddress;
import java.nio.ByteBuffer;

/**
 * A message accepted by a send will not be delivered: the association ended first (RFC 6458
 * section 6.1.11, SCTP_SEND_FAILED_EVENT). The message is handed back.
 *
 * @param association the association
 * @param address the primary peer address it was meant for
 * @param buffer the message (a read-only buffer, position 0)
 * @param errorCode 1 if some of it was sent, else 0
 * @param streamNumber the stream it was sent on
 */
public record SendFailedNotification(
        Association association, SocketAddress address, ByteBuffer buffer, int errorCode, int streamNumber)
        implements Notification {}
