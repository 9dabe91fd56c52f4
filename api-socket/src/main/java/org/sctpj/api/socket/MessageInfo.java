package org.sctpj.api.socket;

import java.net.SocketAddress;
import org.sctpj.stack.wire.Wire;

/**
 * Ancillary data of one message (as {@code com.sun.nio.sctp.MessageInfo}): its association and
 * address, stream, payload protocol identifier and unordered flag. Received messages get one from
 * receive; create one with {@link #createOutgoing} to send. Mutable, not thread-safe; the setters
 * return {@code this} for chaining.
 */
public final class MessageInfo {

    private final SocketAddress address;
    private final Association association;
    private int bytes;
    private boolean complete = true;
    private boolean unordered;
    private int ppid;
    private int streamNumber;
    private long timeToLive;
    private boolean sackImmediately;

    private MessageInfo(Association association, SocketAddress address, int streamNumber) {
        this.association = association;
        this.address = address;
        streamNumber(streamNumber);
    }

    static MessageInfo incoming(
            Association association, SocketAddress from, int stream, int ppid, boolean unordered, int bytes) {
        MessageInfo m = new MessageInfo(association, from, stream);
        m.ppid = ppid;
        m.unordered = unordered;
        m.bytes = bytes;
        return m;
    }

    static MessageInfo endOfStream(Association association, SocketAddress from) {
        MessageInfo m = new MessageInfo(association, from, 0);
        m.bytes = -1;
        return m;
    }

    /**
     * Ancillary data to send a message on {@code streamNumber} to {@code address}: for a one-to-one
     * channel the address may be {@code null} (the connected peer); for a one-to-many channel it
     * names the peer, and an association to it is set up if none exists.
     *
     * @throws IllegalArgumentException if the stream number is outside 0..65535
     */
    public static MessageInfo createOutgoing(SocketAddress address, int streamNumber) {
        return new MessageInfo(null, address, streamNumber);
    }

    /**
     * Ancillary data to send a message on {@code streamNumber} of {@code association} (one-to-many
     * channels); {@code address}, if not {@code null}, is the peer address to prefer (ignored by
     * sctpj, which sends on the primary path).
     */
    public static MessageInfo createOutgoing(Association association, SocketAddress address, int streamNumber) {
        return new MessageInfo(association, address, streamNumber);
    }

    /** The peer address: where a received message came from (the primary path), or where to send. */
    public SocketAddress address() {
        return address;
    }

    /** The association, or {@code null} for an outgoing message that names only an address. */
    public Association association() {
        return association;
    }

    /**
     * For a received message: the bytes read into the buffer, or -1 when a one-to-one channel's
     * association has ended and no more messages will come (end of stream). 0 for outgoing ones.
     */
    public int bytes() {
        return bytes;
    }

    /**
     * Whether this is the whole message (or its last part): false when the receive buffer was too
     * small, or the stack delivered the message in parts (partial delivery), and the rest comes
     * with a later receive (see {@link SctpChannel#receive}).
     */
    public boolean isComplete() {
        return complete;
    }

    /** Marks the message complete; sctpj sends only complete messages (false is refused by send). */
    public MessageInfo complete(boolean complete) {
        this.complete = complete;
        return this;
    }

    /** Whether the message is (to be) delivered unordered. */
    public boolean isUnordered() {
        return unordered;
    }

    /** Delivers the message without regard to the stream's order (the U bit). */
    public MessageInfo unordered(boolean unordered) {
        this.unordered = unordered;
        return this;
    }

    /** The payload protocol identifier. */
    public int payloadProtocolID() {
        return ppid;
    }

    /** Sets the payload protocol identifier (opaque to SCTP). */
    public MessageInfo payloadProtocolID(int ppid) {
        this.ppid = ppid;
        return this;
    }

    /** The stream number. */
    public int streamNumber() {
        return streamNumber;
    }

    /**
     * Sets the stream number.
     *
     * @throws IllegalArgumentException outside 0..65535
     */
    public MessageInfo streamNumber(int streamNumber) {
        Wire.checkU16("streamNumber", streamNumber);
        this.streamNumber = streamNumber;
        return this;
    }

    /** The time to live in milliseconds; 0 means reliable (see {@link #timeToLive(long)}). */
    public long timeToLive() {
        return timeToLive;
    }

    /**
     * Sets the time to live in milliseconds (RFC 6458 {@code sinfo_timetolive}, the "timed
     * reliability" of PR-SCTP, RFC 3758 section 4.1): a message not delivered within that time
     * after the send is abandoned and handed back as a {@link SendFailedNotification} with its
     * data. Before any of it is sent it never goes on the wire; once sent, it is abandoned only on
     * an association that negotiated PR-SCTP (both sides offer {@code Extension.PR_SCTP}),
     * otherwise it stays reliable. 0 (the default) sends reliably.
     *
     * @throws IllegalArgumentException for a negative value or one above 2^32-1
     */
    public MessageInfo timeToLive(long millis) {
        if (millis < 0 || millis > 0xffff_ffffL) {
            throw new IllegalArgumentException("timeToLive is 0 (reliable) to 4294967295 milliseconds, was " + millis);
        }
        this.timeToLive = millis;
        return this;
    }

    /** Whether the peer is asked to acknowledge at once (the I bit; sctpj, not in the JDK API). */
    public boolean isSackImmediately() {
        return sackImmediately;
    }

    /**
     * Asks the peer to SACK this message at once instead of delaying it (the SACK-IMMEDIATELY bit,
     * RFC 9260 section 3.3.1): useful for the last message of a request (sctpj).
     */
    public MessageInfo sackImmediately(boolean on) {
        this.sackImmediately = on;
        return this;
    }

    void bytes(int n) {
        this.bytes = n;
    }

    @Override
    public String toString() {
        return "MessageInfo[association=" + association + ", address=" + address + ", bytes=" + bytes + ", stream="
                + streamNumber + ", ppid=" + ppid + ", unordered=" + unordered + ", complete=" + complete + "]";
    }
}
