package org.sctpj.api.socket;

import com.sun.nio.sctp.Association;
import com.sun.nio.sctp.SendFailedNotification;
import java.net.SocketAddress;
import java.nio.ByteBuffer;

/**
 * A message accepted by a send will not be delivered (RFC 6458 section 6.1.11,
 * SCTP_SEND_FAILED_EVENT), as the JDK's {@link SendFailedNotification}: the association ended
 * first, or its time to live ({@link SctpjMessageInfo#timeToLive(long)}, PR-SCTP) ran out and it
 * was abandoned ({@link #abandoned()}). The message is handed back in {@link #buffer()} (read-only,
 * position 0); {@link #errorCode()} is 1 if some of it was sent ({@code SCTP_DATA_SENT}), else 0.
 * Handed to the notification handler on the thread that called {@code receive}.
 */
public final class SctpjSendFailedNotification extends SendFailedNotification {

    private final Association association;
    private final SocketAddress address;
    private final ByteBuffer buffer;
    private final int errorCode;
    private final int streamNumber;
    private final boolean abandoned;

    SctpjSendFailedNotification(
            Association association,
            SocketAddress address,
            ByteBuffer buffer,
            int errorCode,
            int streamNumber,
            boolean abandoned) {
        this.association = association;
        this.address = address;
        this.buffer = buffer;
        this.errorCode = errorCode;
        this.streamNumber = streamNumber;
        this.abandoned = abandoned;
    }

    @Override
    public Association association() {
        return association;
    }

    @Override
    public SocketAddress address() {
        return address;
    }

    @Override
    public ByteBuffer buffer() {
        return buffer;
    }

    @Override
    public int errorCode() {
        return errorCode;
    }

    @Override
    public int streamNumber() {
        return streamNumber;
    }

    /**
     * True when the message's partial reliability policy gave it up (PR-SCTP, RFC 3758), false
     * when the association ended first (sctpj; not in the JDK API).
     */
    public boolean abandoned() {
        return abandoned;
    }

    @Override
    public String toString() {
        return "SendFailedNotification[" + association + ", stream " + streamNumber + ", " + buffer.remaining()
                + " bytes, errorCode " + errorCode + (abandoned ? ", abandoned" : "") + "]";
    }
}
