package org.sctpj.api.socket;

import com.sun.nio.sctp.Association;
import com.sun.nio.sctp.MessageInfo;
import java.net.SocketAddress;
import org.sctpj.stack.wire.Wire;

/**
 * Ancillary data of one message, a {@link MessageInfo}: its association and address, stream,
 * payload protocol identifier, unordered flag and time to live, plus sctpj's SACK-IMMEDIATELY
 * flag. sctpj's channels return one from receive, and send takes any {@link MessageInfo}, the
 * JDK's own {@code MessageInfo.createOutgoing} included; create one with {@link #createOutgoing}
 * to use {@link #sackImmediately}. Mutable, not thread-safe; the setters return {@code this} for
 * chaining.
 */
public final class SctpjMessageInfo extends MessageInfo {

    private final SocketAddress address;
    private final Association association;
    private int bytes;
    private boolean complete = true;
    private boolean unordered;
    private int ppid;
    private int streamNumber;
    private long timeToLive;
    private boolean sackImmediately;

    private SctpjMessageInfo(Association association, SocketAddress address, int streamNumber) {
        this.association = association;
        this.address = address;
        streamNumber(streamNumber);
    }

    static SctpjMessageInfo incoming(
            Association association, SocketAddress from, int stream, int ppid, boolean unordered, int bytes) {
        SctpjMessageInfo m = new SctpjMessageInfo(association, from, stream);
        m.ppid = ppid;
        m.unordered = unordered;
        m.bytes = bytes;
        return m;
    }

    static SctpjMessageInfo endOfStream(Association association, SocketAddress from) {
        SctpjMessageInfo m = new SctpjMessageInfo(association, from, 0);
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
    public static SctpjMessageInfo createOutgoing(SocketAddress address, int streamNumber) {
        return new SctpjMessageInfo(null, address, streamNumber);
    }

    /**
     * Ancillary data to send a message on {@code streamNumber} of {@code association} (one-to-many
     * channels); {@code address}, if not {@code null}, is the peer address to prefer (ignored by
     * sctpj, which sends on the primary path).
     */
    public static SctpjMessageInfo createOutgoing(Association association, SocketAddress address, int streamNumber) {
        return new SctpjMessageInfo(association, address, streamNumber);
    }

    /** The peer address: where a received message came from (the primary path), or where to send. */
    @Override
    public SocketAddress address() {
        return address;
    }

    /** The association, or {@code null} for an outgoing message that names only an address. */
    @Override
    public Association association() {
        return association;
    }

    /**
     * For a received message: the bytes read into the buffer, or -1 when a one-to-one channel's
     * association has ended and no more messages will come (end of stream). 0 for outgoing ones.
     */
    @Override
    public int bytes() {
        return bytes;
    }

    /**
     * Whether this is the whole message (or its last part): false when the receive buffer was too
     * small, or the stack delivered the message in parts (partial delivery), and the rest comes
     * with a later receive (see {@link SctpjChannel#receive}).
     */
    @Override
    public boolean isComplete() {
        return complete;
    }

    /** Marks the message complete; sctpj sends only complete messages (false is refused by send). */
    @Override
    public SctpjMessageInfo complete(boolean complete) {
        this.complete = complete;
        return this;
    }

    /** Whether the message is (to be) delivered unordered. */
    @Override
    public boolean isUnordered() {
        return unordered;
    }

    /** Delivers the message without regard to the stream's order (the U bit). */
    @Override
    public SctpjMessageInfo unordered(boolean unordered) {
        this.unordered = unordered;
        return this;
    }

    /** The payload protocol identifier. */
    @Override
    public int payloadProtocolID() {
        return ppid;
    }

    /** Sets the payload protocol identifier (opaque to SCTP). */
    @Override
    public SctpjMessageInfo payloadProtocolID(int ppid) {
        this.ppid = ppid;
        return this;
    }

    /** The stream number. */
    @Override
    public int streamNumber() {
        return streamNumber;
    }

    /**
     * Sets the stream number.
     *
     * @throws IllegalArgumentException outside 0..65535
     */
    @Override
    public SctpjMessageInfo streamNumber(int streamNumber) {
        Wire.checkU16("streamNumber", streamNumber);
        this.streamNumber = streamNumber;
        return this;
    }

    /** The time to live in milliseconds; 0 means reliable (see {@link #timeToLive(long)}). */
    @Override
    public long timeToLive() {
        return timeToLive;
    }

    /**
     * Sets the time to live in milliseconds (RFC 6458 {@code sinfo_timetolive}, the "timed
     * reliability" of PR-SCTP, RFC 3758 section 4.1): a message not delivered within that time
     * after the send is abandoned and handed back as a {@link SctpjSendFailedNotification} with its
     * data. Before any of it is sent it never goes on the wire; once sent, it is abandoned only on
     * an association that negotiated PR-SCTP (both sides offer {@code Extension.PR_SCTP}),
     * otherwise it stays reliable. 0 (the default) sends reliably.
     *
     * @throws IllegalArgumentException for a negative value or one above 2^32-1
     */
    @Override
    public SctpjMessageInfo timeToLive(long millis) {
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
    public SctpjMessageInfo sackImmediately(boolean on) {
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
