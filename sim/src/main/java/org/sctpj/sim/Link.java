package org.sctpj.sim;

import java.math.BigInteger;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Map;
import java.util.TreeMap;
import java.util.random.RandomGenerator;

/**
 * One direction of a {@link Path}: a simulated link with its own impairments, schedule, counters
 * and random streams. Links are created by {@link Network#addPath}; configure them with the fluent
 * setters, at any time (a change applies to packets sent afterwards).
 *
 * <p>What happens to a packet of {@code n} bytes sent at time {@code t}, in this order:
 *
 * <ol>
 *   <li>If the link is down at {@code t} it is dropped ({@link LinkStats#droppedDown()}).
 *   <li><b>Bandwidth and queue</b> (when a bandwidth is set): the link serialises one packet at a
 *       time, taking {@code ceil(n * 8 / bandwidth)} seconds; packets wait in a FIFO behind the one
 *       being serialised. The queue limit bounds the bytes accepted but not yet fully serialised,
 *       the packet in service included; a packet that does not fit is tail-dropped ({@link
 *       LinkStats#droppedQueue()}). Without a bandwidth, serialisation takes no time and nothing
 *       queues. Tail drop happens before random loss, so a lost packet still used the bandwidth.
 *   <li><b>Random loss</b> by the {@link LossModel} ({@link LinkStats#droppedLoss()}).
 *   <li><b>Delay</b>: it arrives {@code delay} after its serialisation ends.
 *   <li><b>Reordering</b>: with the reorder probability it arrives {@code reorderExtraDelay} later
 *       still, behind packets sent after it.
 *   <li><b>Duplication</b>: with the duplication probability a second copy arrives just after it.
 *   <li><b>Corruption</b>: each copy, with the corruption probability, has one random bit flipped
 *       (in a copy of the bytes, never in the sender's buffer).
 *   <li>If the link is down at any moment from {@code t} to the arrival, the copy is dropped on
 *       arrival: a path cut takes with it what was queued or on the wire.
 * </ol>
 *
 * <p><b>CE marking</b> (an ECN-capable router, RFC 3168), off by default: a packet sent ECT(0) or
 * ECT(1) is marked Congestion Experienced instead of being delayed or dropped when, on its
 * arrival at the queue, the bytes queued are at least {@link #ceMarkAbove} (an AQM threshold below
 * the queue limit), or with probability {@link #ceMarkProbability}. Not-ECT packets pass unmarked.
 * The receiver is given the codepoint the packet arrives with ({@link SimNode#handleInput(
 * java.nio.ByteBuffer, java.net.InetAddress, java.net.InetAddress, int, long)}); marks are counted
 * ({@link #ceMarked()}).
 *
 * <p>Every impairment draws from its own seeded stream, derived from the network's master seed and
 * the link's position, so runs are reproducible and switching one impairment on does not change
 * the decisions of another. Packets equal in everything but timing therefore meet the same fate in
 * two runs with the same seed.
 */
public final class Link {

    private static final long NANOS_PER_SECOND = 1_000_000_000L;

    private final String id;
    private final Side from;
    private final RandomGenerator lossRandom;
    private final RandomGenerator reorderRandom;
    private final RandomGenerator duplicateRandom;
    private final RandomGenerator corruptRandom;
    private final RandomGenerator ceRandom;
    private long ceMarkAbove = Long.MAX_VALUE;
    private double ceMarkProbability;
    private long ceMarked;
    private int mtu;
    private long droppedTooBig;
    private long fragmented;

    private long delayNanos;
    private long bandwidth;
    private long queueLimit = Long.MAX_VALUE;
    private LossProcess loss = new LossProcess(LossModel.NONE);
    private double reorderProbability;
    private long reorderExtraNanos;
    private double duplicateProbability;
    private double corruptProbability;

    /** Up/down transitions: time to "up after this instant". */
    private final TreeMap<Long, Boolean> schedule = new TreeMap<>();

    /** Packets accepted and not yet fully serialised: {finish time, size} in FIFO order. */
    private final ArrayDeque<long[]> queue = new ArrayDeque<>();

    private long queuedBytes;
    private long busyUntil;

    private long sent;
    private long bytesSent;
    private long delivered;
    private long bytesDelivered;
    private long droppedLoss;
    private long droppedQueue;
    private long droppedDown;
    private long corruptedDelivered;
    private long duplicated;
    private long reordered;

    Link(String id, Side from, long seed) {
        this.id = id;
        this.from = from;
        this.lossRandom = Seeds.stream(seed, 1);
        this.reorderRandom = Seeds.stream(seed, 2);
        this.duplicateRandom = Seeds.stream(seed, 3);
        this.corruptRandom = Seeds.stream(seed, 4);
        this.ceRandom = Seeds.stream(seed, 5);
    }

    /** The link's name, {@code "p<path index>:A>Z"} or {@code "p<path index>:Z>A"}. */
    public String id() {
        return id;
    }

    /** The side that sends on this link. */
    public Side from() {
        return from;
    }

    /** The side that receives from this link. */
    public Side to() {
        return from.peer();
    }

    // ---- configuration -------------------------------------------------------------------------

    /** Sets the one-way propagation delay in nanoseconds (default 0). */
    public Link delayNanos(long nanos) {
        if (nanos < 0) {
            throw new IllegalArgumentException("delay must be >= 0 ns, not " + nanos);
        }
        this.delayNanos = nanos;
        return this;
    }

    /** Sets the one-way propagation delay (default 0). */
    public Link delay(Duration delay) {
        return delayNanos(delay.toNanos());
    }

    /** The one-way propagation delay in nanoseconds. */
    public long delayNanos() {
        return delayNanos;
    }

    /**
     * Sets the bandwidth in bits per second; 0 (the default) means unlimited: no serialisation time
     * and no queue.
     */
    public Link bandwidth(long bitsPerSecond) {
        if (bitsPerSecond < 0) {
            throw new IllegalArgumentException("bandwidth must be >= 0 bit/s (0 = unlimited), not " + bitsPerSecond);
        }
        this.bandwidth = bitsPerSecond;
        return this;
    }

    /** The bandwidth in bits per second, 0 for unlimited. */
    public long bandwidth() {
        return bandwidth;
    }

    /**
     * Sets the queue limit in bytes: the most bytes accepted and not yet fully serialised, the packet
     * being serialised included (default unlimited). It applies only when a bandwidth is set; give
     * at least the largest packet, or that packet can never pass.
     */
    public Link queueLimit(long bytes) {
        if (bytes < 0) {
            throw new IllegalArgumentException("queue limit must be >= 0 bytes, not " + bytes);
        }
        this.queueLimit = bytes;
        return this;
    }

    /** The queue limit in bytes ({@link Long#MAX_VALUE} when unlimited). */
    public long queueLimit() {
        return queueLimit;
    }

    /** Sets the random loss model (default {@link LossModel#none()}); its state starts afresh. */
    public Link loss(LossModel model) {
        if (model == null) {
            throw new IllegalArgumentException("loss model: pass LossModel.none() for no loss, not null");
        }
        this.loss = new LossProcess(model);
        return this;
    }

    /** The random loss model. */
    public LossModel loss() {
        return loss.model();
    }

    /**
     * Sets reordering: with {@code probability} a packet is held back by {@code extraDelayNanos} on
     * top of the delay, so packets sent after it can overtake it.
     */
    public Link reorder(double probability, long extraDelayNanos) {
        LossModel.checkProbability("reorder probability", probability);
        if (extraDelayNanos < 0) {
            throw new IllegalArgumentException("reorder extra delay must be >= 0 ns, not " + extraDelayNanos);
        }
        this.reorderProbability = probability;
        this.reorderExtraNanos = extraDelayNanos;
        return this;
    }

    /** The probability that a packet is held back. */
    public double reorderProbability() {
        return reorderProbability;
    }

    /** The extra delay of a held-back packet in nanoseconds. */
    public long reorderExtraDelayNanos() {
        return reorderExtraNanos;
    }

    /** Sets the probability that a delivered packet arrives twice. */
    public Link duplicate(double probability) {
        LossModel.checkProbability("duplicate probability", probability);
        this.duplicateProbability = probability;
        return this;
    }

    /** The probability that a delivered packet arrives twice. */
    public double duplicateProbability() {
        return duplicateProbability;
    }

    /** Sets the probability that a copy has one random bit flipped. */
    public Link corrupt(double probability) {
        LossModel.checkProbability("corrupt probability", probability);
        this.corruptProbability = probability;
        return this;
    }

    /** The probability that a copy has one random bit flipped. */
    public double corruptProbability() {
        return corruptProbability;
    }

    /**
     * Marks ECN-capable packets Congestion Experienced when, as they enter, at least {@code bytes}
     * are queued (needs a bandwidth; {@link Long#MAX_VALUE}, the default, never).
     */
    public Link ceMarkAbove(long bytes) {
        if (bytes < 0) {
            throw new IllegalArgumentException("CE marking threshold must be >= 0 bytes, not " + bytes);
        }
        this.ceMarkAbove = bytes;
        return this;
    }

    /** Marks each ECN-capable packet Congestion Experienced with {@code probability} (default 0). */
    public Link ceMarkProbability(double probability) {
        LossModel.checkProbability("CE marking probability", probability);
        this.ceMarkProbability = probability;
        return this;
    }

    /**
     * Sets the link's MTU in bytes of IP packet (the SCTP packet plus a 20-byte IPv4 or 40-byte
     * IPv6 header); 0, the default, is unlimited. A larger packet is dropped ({@link
     * #droppedTooBig()}, no ICMP is sent), unless it may be fragmented ({@link
     * Outgoing#fragmentable()}): then it passes as its fragments would ({@link #fragmented()}).
     * May change during a run, like every setting.
     */
    public Link mtu(int bytes) {
        if (bytes != 0 && bytes < 68) {
            throw new IllegalArgumentException("MTU must be 0 (unlimited) or at least 68 bytes, not " + bytes);
        }
        this.mtu = bytes;
        return this;
    }

    /** The link's MTU, 0 for unlimited. */
    public int mtu() {
        return mtu;
    }

    /** Packets dropped for being larger than the MTU without being fragmentable. */
    public long droppedTooBig() {
        return droppedTooBig;
    }

    /** Fragmentable packets larger than the MTU that passed as fragments. */
    public long fragmented() {
        return fragmented;
    }

    /**
     * Whether a packet of {@code ipBytes} is dropped for its size (counted as sent and dropped,
     * its bytes not counted);
     * a fragmentable one is counted and passes.
     */
    boolean tooBig(int ipBytes, boolean fragmentable) {
        if (mtu == 0 || ipBytes <= mtu) {
            return false;
        }
        if (fragmentable) {
            fragmented++;
            return false;
        }
        sent++;
        droppedTooBig++;
        return true;
    }

    /** Packets this link marked Congestion Experienced. */
    public long ceMarked() {
        return ceMarked;
    }

    /**
     * The link goes down at virtual time {@code nanos} (inclusive) and stays down until a later
     * {@link #upAt}. May be called before or during a run, also for a time already past.
     */
    public Link downAt(long nanos) {
        schedule.put(nanos, Boolean.FALSE);
        return this;
    }

    /** The link comes up again at virtual time {@code nanos} (inclusive). */
    public Link upAt(long nanos) {
        schedule.put(nanos, Boolean.TRUE);
        return this;
    }

    /** True if the link is up at virtual time {@code nanos} by its schedule (up when never set). */
    public boolean isUp(long nanos) {
        Map.Entry<Long, Boolean> e = schedule.floorEntry(nanos);
        return e == null || e.getValue();
    }

    /** True if the link is down at {@code start} or goes down in {@code (start, end]}. */
    boolean downDuring(long start, long end) {
        if (!isUp(start)) {
            return true;
        }
        for (Boolean up : schedule.subMap(start, false, end, true).values()) {
            if (!up) {
                return true;
            }
        }
        return false;
    }

    /** The link's counters at this moment. */
    public LinkStats stats() {
        return new LinkStats(
                sent,
                bytesSent,
                delivered,
                bytesDelivered,
                droppedLoss,
                droppedQueue,
                droppedDown,
                corruptedDelivered,
                duplicated,
                reordered);
    }

    @Override
    public String toString() {
        return "Link[" + id + " " + stats() + "]";
    }

    // ---- the packet's journey ------------------------------------------------------------------

    /** Where the link hands the copies it will deliver. */
    interface Arrivals {
        /** Schedules a copy to arrive at {@code arrivalNanos}; it was sent at {@code sentNanos}. */
        void arrive(Link link, long sentNanos, long arrivalNanos, byte[] bytes, boolean corrupted);

        /** As {@link #arrive(Link, long, long, byte[], boolean)}, arriving with ECN codepoint {@code ecn}. */
        default void arrive(Link link, long sentNanos, long arrivalNanos, byte[] bytes, boolean corrupted, int ecn) {
            arrive(link, sentNanos, arrivalNanos, bytes, corrupted);
        }
    }

    /** The time to put {@code bytes} bytes on the wire at the current bandwidth, rounded up. */
    long serialisationNanos(long bytes) {
        if (bandwidth == 0) {
            return 0;
        }
        long bits = bytes * 8;
        if (bits <= Long.MAX_VALUE / NANOS_PER_SECOND) {
            long num = bits * NANOS_PER_SECOND;
            return num / bandwidth + (num % bandwidth == 0 ? 0 : 1);
        }
        BigInteger[] qr = BigInteger.valueOf(bits)
                .multiply(BigInteger.valueOf(NANOS_PER_SECOND))
                .divideAndRemainder(BigInteger.valueOf(bandwidth));
        return qr[0].longValueExact() + (qr[1].signum() == 0 ? 0 : 1);
    }

    /** Bytes accepted and not fully serialised at {@code now}. */
    long queuedBytes(long now) {
        while (!queue.isEmpty() && queue.peekFirst()[0] <= now) {
            queuedBytes -= queue.pollFirst()[1];
        }
        return queuedBytes;
    }

    /**
     * Takes a packet sent at {@code now} and schedules what arrives of it. The array becomes the
     * link's: it may be corrupted in place and handed to the receiver.
     */
    void transmit(long now, byte[] packet, Arrivals out) {
        transmit(now, packet, 0, out);
    }

    /** As {@link #transmit(long, byte[], Arrivals)}, for a packet sent with ECN codepoint {@code ecn}. */
    void transmit(long now, byte[] packet, int ecn, Arrivals out) {
        sent++;
        bytesSent += packet.length;
        if (!isUp(now)) {
            droppedDown++;
            return;
        }
        long departure = now;
        boolean ect = ecn == 1 || ecn == 2;
        if (ect && ceMarkProbability > 0 && LossProcess.draw(ceRandom, ceMarkProbability)) {
            ecn = 3;
        }
        if (bandwidth > 0) {
            if (ect && queuedBytes(now) >= ceMarkAbove) {
                ecn = 3;
            }
            if (queuedBytes(now) + packet.length > queueLimit) {
                droppedQueue++;
                return;
            }
            long start = Math.max(now, busyUntil);
            departure = start + serialisationNanos(packet.length);
            busyUntil = departure;
            queue.addLast(new long[] {departure, packet.length});
            queuedBytes += packet.length;
        }
        if (loss.lose(lossRandom)) {
            droppedLoss++;
            return;
        }
        long arrival = departure + delayNanos;
        if (LossProcess.draw(reorderRandom, reorderProbability)) {
            reordered++;
            arrival += reorderExtraNanos;
        }
        if (ect && ecn == 3) {
            ceMarked++;
        }
        byte[] second = LossProcess.draw(duplicateRandom, duplicateProbability) ? packet.clone() : null;
        emit(now, arrival, packet, ecn, out);
        if (second != null) {
            duplicated++;
            emit(now, arrival, second, ecn, out);
        }
    }

    private void emit(long now, long arrival, byte[] copy, int ecn, Arrivals out) {
        boolean corrupted = copy.length > 0 && LossProcess.draw(corruptRandom, corruptProbability);
        if (corrupted) {
            long bit = corruptRandom.nextLong(copy.length * 8L);
            copy[(int) (bit >>> 3)] ^= (byte) (1 << (bit & 7));
        }
        out.arrive(this, now, arrival, copy, corrupted, ecn);
    }

    /**
     * A copy reaches the far end at {@code now}; true if it is delivered, false if the link went
     * down on its way.
     */
    boolean land(long sentNanos, long now, int length, boolean corrupted) {
        if (downDuring(sentNanos, now)) {
            droppedDown++;
            return false;
        }
        delivered++;
        bytesDelivered += length;
        if (corrupted) {
            corruptedDelivered++;
        }
        return true;
    }
}
