package org.sctpj.stack.path;

import java.net.Inet6Address;
import java.net.InetAddress;
import java.util.Objects;
import org.sctpj.stack.SctpOptions;
import org.sctpj.stack.cc.CongestionController;
import org.sctpj.stack.cc.PathCongestionState;

/**
 * The state kept for one destination transport address of an association (RFC 9260 sections 6.3,
 * 7.2 and 8.2): status, error counter, RTO estimator, congestion window, slow-start threshold,
 * partial bytes acknowledged, flight size, the T3-rtx deadline and traffic counters.
 *
 * <p>The congestion variables are changed by a {@link CongestionController} only, which sees the
 * path through the {@link PathCongestionState} view; the flight size by the data sender. All times are {@code long} nanoseconds supplied by the caller; {@link Long#MAX_VALUE}
 * means "not running".
 */
public final class Path implements PathCongestionState {

    private final int index;
    private final InetAddress address;
    private final RtoEstimator rto;
    private final int ipHeaderBytes;
    private final int encapsulationOverhead;
    private PathStatus status = PathStatus.UNCONFIRMED;
    private int mtu;
    private long cwnd;
    private long ssthresh;
    private long partialBytesAcked;
    private long flightSize;
    private int errorCount;
    private long lastSendNanos = Long.MIN_VALUE;
    /** Where the T3-rtx deadline lives: a slot of the association's timer table once bound. */
    private long[] t3Slots = {Long.MAX_VALUE};

    private int t3Slot;
    private long bytesSent;
    private long packetsSent;
    private long chunksRetransmitted;
    private long bytesRetransmitted;
    private long packetsRetransmitted;
    /** Observability counters (plain fields, counted on the data path without allocation). */
    private long chunksReceived;

    private long bytesReceived;
    private long t3Expirations;
    /** What the endpoint's probe last heard of this path (see {@code Endpoint.setProbe}). */
    private PathStatus reportedStatus;

    private long reportedT3Expirations;
    private long lastAckNanos = Long.MIN_VALUE;
    private boolean inCmtSet = true;
    private boolean removed;

    /**
     * A path to {@code address}, numbered {@code index} within its association (0..63).
     *
     * @param mtu the path MTU in bytes of IP packet; see {@link #mtu()}
     * @param o supplies RTO.Initial/Min/Max and the encapsulation overhead
     * @throws IllegalArgumentException for an index outside 0..63 or an MTU below 576 bytes
     */
    public Path(int index, InetAddress address, int mtu, SctpOptions o) {
        if (index < 0 || index > 63) {
            throw new IllegalArgumentException(
                    "path index must be 0..63 (an association has at most 64 paths), was " + index);
        }
        this.index = index;
        this.address = Objects.requireNonNull(address, "address");
        this.ipHeaderBytes = address instanceof Inet6Address ? 40 : 20;
        this.encapsulationOverhead = o.encapsulationOverhead();
        setMtu(mtu);
        this.rto = new RtoEstimator(
                o.rtoInitial().toNanos(), o.rtoMin().toNanos(), o.rtoMax().toNanos());
    }

    /** The position of this path in the association's path list (0..63). */
    @Override
    public int index() {
        return index;
    }

    /** The destination address. */
    public InetAddress address() {
        return address;
    }

    /** Reachability status. */
    public PathStatus status() {
        return status;
    }

    /**
     * Whether the peer deleted this address from the association (RFC 5061 section 5.2, Delete IP
     * Address): the path keeps its index but is {@link PathStatus#INACTIVE} for good, carries
     * nothing and is probed no more; a later Add IP Address of the same address brings a fresh
     * path at the same index.
     */
    public boolean removed() {
        return removed;
    }

    /** Marks the path deleted by the peer (see {@link #removed()}) and inactive. */
    public void markRemoved() {
        removed = true;
        status = PathStatus.INACTIVE;
    }

    /** Whether the status is {@link PathStatus#ACTIVE}. */
    @Override
    public boolean isActive() {
        return status == PathStatus.ACTIVE;
    }

    /** Sets the reachability status. */
    public void setStatus(PathStatus s) {
        status = Objects.requireNonNull(s, "status");
    }

    /**
     * Whether CMT may stripe new data onto this path (true by default): an address policy leaves
     * out the paths that are not in its matching, which then only carry heartbeats, and data when
     * no path of the set is active (see {@code tx.CmtScheduler}).
     */
    public boolean inCmtSet() {
        return inCmtSet;
    }

    /** Puts the path in or out of the CMT path set (see {@link #inCmtSet()}). */
    public void setInCmtSet(boolean on) {
        inCmtSet = on;
    }

    /**
     * The path MTU in bytes of IP packet, the "MTU" of the congestion control arithmetic of RFC 9260
     * section 7.2.
     */
    @Override
    public int mtu() {
        return mtu;
    }

    /**
     * Sets the path MTU (after PMTU discovery).
     *
     * @throws IllegalArgumentException if below 576 or above 65535
     */
    public void setMtu(int mtu) {
        if (mtu < 576 || mtu > 65535) {
            throw new IllegalArgumentException("path MTU must be 576..65535, was " + mtu);
        }
        this.mtu = mtu;
    }

    /**
     * The largest SCTP packet for this path: MTU minus the IP header (20 bytes for IPv4, 40 for
     * IPv6) minus the lower layer's encapsulation overhead.
     */
    public int maxPacketBytes() {
        return mtu - ipHeaderBytes - encapsulationOverhead;
    }

    /** The RTO estimator of this path. */
    public RtoEstimator rto() {
        return rto;
    }

    @Override
    public boolean hasRttSample() {
        return rto.hasSample();
    }

    @Override
    public long srttNanos() {
        return rto.srtt();
    }

    @Override
    public long rtoNanos() {
        return rto.rto();
    }

    /** Congestion window, in bytes. */
    @Override
    public long cwnd() {
        return cwnd;
    }

    /** Sets the congestion window; for {@link CongestionController} implementations. */
    @Override
    public void setCwnd(long v) {
        cwnd = v;
    }

    /** Slow-start threshold, in bytes. */
    @Override
    public long ssthresh() {
        return ssthresh;
    }

    /** Sets the slow-start threshold; for {@link CongestionController} implementations. */
    @Override
    public void setSsthresh(long v) {
        ssthresh = v;
    }

    /** partial_bytes_acked of congestion avoidance (RFC 9260 section 7.2.2). */
    @Override
    public long partialBytesAcked() {
        return partialBytesAcked;
    }

    /** Sets partial_bytes_acked; for {@link CongestionController} implementations. */
    @Override
    public void setPartialBytesAcked(long v) {
        partialBytesAcked = v;
    }

    /** Bytes of user data sent to this path and neither acknowledged nor marked for retransmission. */
    @Override
    public long flightSize() {
        return flightSize;
    }

    /** Adds (or with a negative value removes) bytes in flight; for the data sender. */
    public void addFlight(long delta) {
        flightSize = Math.max(0, flightSize + delta);
    }

    /** Consecutive errors (timeouts, unanswered heartbeats) counted against this path. */
    public int errorCount() {
        return errorCount;
    }

    /** Counts one more error. */
    public void incrementErrorCount() {
        errorCount++;
    }

    /** Clears the error counter (data or heartbeat acknowledged). */
    public void resetErrorCount() {
        errorCount = 0;
    }

    /** When a packet with DATA was last sent here; {@link Long#MIN_VALUE} if never. */
    public long lastSendNanos() {
        return lastSendNanos;
    }

    /**
     * Keeps the T3-rtx deadline in {@code slots[slot]} from now on (the association's timer table,
     * which then sees it without asking), carrying over the current deadline. A path not bound keeps
     * it to itself, as in tests of the data sender alone.
     */
    public void bindT3(long[] slots, int slot) {
        slots[slot] = t3Slots[t3Slot];
        t3Slots = slots;
        t3Slot = slot;
    }

    /** The T3-rtx expiry time, {@link Long#MAX_VALUE} when the timer is stopped. */
    public long t3Deadline() {
        return t3Slots[t3Slot];
    }

    /** Whether T3-rtx is running. */
    public boolean t3Running() {
        return t3Slots[t3Slot] != Long.MAX_VALUE;
    }

    /** Starts T3-rtx with the current RTO if it is not running (RFC 9260 section 6.3.2 R1). */
    public void startT3(long now) {
        if (t3Slots[t3Slot] == Long.MAX_VALUE) {
            t3Slots[t3Slot] = now + rto.rto();
        }
    }

    /** Stops T3-rtx (R2). */
    public void stopT3() {
        t3Slots[t3Slot] = Long.MAX_VALUE;
    }

    /** Restarts T3-rtx with the current RTO, running or not (R3). */
    public void restartT3(long now) {
        t3Slots[t3Slot] = now + rto.rto();
    }

    /**
     * Records a packet carrying DATA sent here: counters and {@link #lastSendNanos()}; for the
     * data sender.
     *
     * @param userBytes user data bytes in the packet
     * @param retransmittedChunks how many of its chunks were retransmissions
     * @param retransmittedBytes their user data bytes
     */
    public void recordSent(long now, long userBytes, int retransmittedChunks, long retransmittedBytes) {
        lastSendNanos = now;
        packetsSent++;
        bytesSent += userBytes;
        chunksRetransmitted += retransmittedChunks;
        bytesRetransmitted += retransmittedBytes;
        if (retransmittedChunks > 0) {
            packetsRetransmitted++;
        }
    }

    /** Packets with DATA sent here that carried at least one retransmitted chunk. */
    public long packetsRetransmitted() {
        return packetsRetransmitted;
    }

    /**
     * When data sent here or a heartbeat to here was last acknowledged ({@link Long#MIN_VALUE} if
     * never): "most recently active" of RFC 7829 section 5.1.
     */
    public long lastAckNanos() {
        return lastAckNanos;
    }

    /** Records an acknowledgement of data or of a heartbeat sent here. */
    public void recordAck(long now) {
        lastAckNanos = now;
    }

    /** A DATA or I-DATA chunk of {@code bytes} user bytes, new to the receiver, arrived from this address. */
    public void countReceived(int bytes) {
        chunksReceived++;
        bytesReceived += bytes;
    }

    /** New DATA and I-DATA chunks that arrived from this address. */
    public long chunksReceived() {
        return chunksReceived;
    }

    /** Their user bytes. */
    public long bytesReceived() {
        return bytesReceived;
    }

    /** T3-rtx of this path expired (RFC 9260 section 6.3.3). */
    public void countT3Expiration() {
        t3Expirations++;
    }

    /** How many times T3-rtx of this path expired. */
    public long t3Expirations() {
        return t3Expirations;
    }

    /**
     * For the endpoint's probe: the status it last reported (null before any), replaced by the
     * current one.
     */
    public PathStatus swapReportedStatus() {
        PathStatus was = reportedStatus;
        reportedStatus = status;
        return was;
    }

    /** For the endpoint's probe: T3 expirations not yet reported, now reported. */
    public long takeUnreportedT3Expirations() {
        long n = t3Expirations - reportedT3Expirations;
        reportedT3Expirations = t3Expirations;
        return n;
    }

    /** User data bytes sent here, retransmissions included. */
    public long bytesSent() {
        return bytesSent;
    }

    /** Packets with DATA sent here. */
    public long packetsSent() {
        return packetsSent;
    }

    /** DATA chunks retransmitted here. */
    public long chunksRetransmitted() {
        return chunksRetransmitted;
    }

    /** User data bytes retransmitted here. */
    public long bytesRetransmitted() {
        return bytesRetransmitted;
    }

    @Override
    public String toString() {
        return "Path[" + index + " " + address.getHostAddress() + " " + status + " cwnd=" + cwnd + " ssthresh="
                + ssthresh + " flight=" + flightSize + " err=" + errorCount + "]";
    }
}
