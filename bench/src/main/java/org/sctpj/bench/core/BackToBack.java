package org.sctpj.bench.core;

import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Optional;
import java.util.SplittableRandom;
import org.sctpj.stack.AssociationId;
import org.sctpj.stack.Endpoint;
import org.sctpj.stack.SctpEvent;
import org.sctpj.stack.SctpOptions;
import org.sctpj.stack.SendInfo;
import org.sctpj.stack.SendStatus;
import org.sctpj.stack.Transmit;

/**
 * Two protocol cores wired back to back in one thread, no sockets and a virtual clock: the sender
 * {@code a} (port 5000) with one association to the receiver {@code z} (port 5001, listening), both
 * on 127.0.0.1 with the UDP encapsulation overhead (8 bytes), MTU 1500. It follows {@link Endpoint}'s
 * calling contract: packets of one side go into the other, events are drained, due timers run.
 *
 * <p>{@link #allocationProbe} lets a caller count the bytes each side allocates: it is called
 * with {@code true} before work done for the sender, {@code false} before the receiver's.
 */
public final class BackToBack {

    /** Told which side the next piece of work belongs to (for per-side allocation counts). */
    public interface SideProbe {
        /** The work that follows is the sender's ({@code true}) or the receiver's. */
        void side(boolean sender);
    }

    /** The sending endpoint. */
    public final Endpoint a;
    /** The receiving endpoint. */
    public final Endpoint z;

    private final InetAddress addr = InetAddress.getLoopbackAddress();
    private final SideProbe allocationProbe;
    private AssociationId assoc;
    private long now = 1_000_000_000L;
    private long delivered;
    private long deliveredBytes;
    private long sendSpaceEvents;
    private boolean upSeen;

    /** A connected pair with {@code options} (the encapsulation overhead is set to 8). */
    public BackToBack(SctpOptions options, SideProbe probe) {
        SctpOptions o = options.toBuilder().encapsulationOverhead(8).build();
        this.allocationProbe = probe == null ? s -> {} : probe;
        a = new Endpoint(5000, List.of(addr), o, new SplittableRandom(1), now);
        z = new Endpoint(5001, List.of(addr), o, new SplittableRandom(2), now);
        z.listen(true);
        AssociationId id = a.connect(List.of(addr), 5001, now);
        for (int i = 0; i < 20 && assoc == null; i++) {
            round();
            if (a.sendBufferFree(id).isPresent() && a.info(id).isPresent() && upSeen) {
                assoc = id;
            }
        }
        if (assoc == null) {
            throw new IllegalStateException("the back-to-back association did not come up");
        }
    }

    /** The association from {@code a} to {@code z}. */
    public AssociationId association() {
        return assoc;
    }

    /** The virtual time, nanoseconds. */
    public long now() {
        return now;
    }

    /** Advances the virtual clock. */
    public void advance(long nanos) {
        now += nanos;
    }

    /** Messages delivered to {@code z} so far. */
    public long delivered() {
        return delivered;
    }

    /** User bytes delivered to {@code z} so far. */
    public long deliveredBytes() {
        return deliveredBytes;
    }

    /** Send callbacks' events ({@code SendSpaceAvailable}) seen at {@code a}. */
    public long sendSpaceEvents() {
        return sendSpaceEvents;
    }

    /**
     * Offers one message to {@code a}; while the send buffer refuses it, runs rounds (advancing
     * the clock by {@code stepNanos} each) until it is accepted.
     */
    public void send(SendInfo info, ByteBuffer message, long stepNanos) {
        for (int tries = 0; ; tries++) {
            allocationProbe.side(true);
            message.rewind();
            if (a.send(assoc, info, message, now) == SendStatus.ACCEPTED) {
                return;
            }
            if (tries > 100_000) {
                throw new IllegalStateException("the send buffer stays full: " + a.info(assoc));
            }
            now += stepNanos;
            round();
        }
    }

    /**
     * One round: {@code a}'s packets into {@code z}, {@code z}'s events drained, {@code z}'s
     * packets into {@code a}, {@code a}'s events drained, then due timers of both.
     *
     * @return the packets moved
     */
    public int round() {
        int moved = 0;
        allocationProbe.side(true);
        Optional<Transmit> t;
        while ((t = a.pollTransmit(now)).isPresent()) {
            Transmit p = t.get();
            allocationProbe.side(false);
            z.handleInput(ByteBuffer.wrap(p.packet()), addr, addr, now);
            allocationProbe.side(true);
            moved++;
        }
        allocationProbe.side(false);
        drain(z, false);
        while ((t = z.pollTransmit(now)).isPresent()) {
            Transmit p = t.get();
            allocationProbe.side(true);
            a.handleInput(ByteBuffer.wrap(p.packet()), addr, addr, now);
            allocationProbe.side(false);
            moved++;
        }
        allocationProbe.side(true);
        drain(a, true);
        if (a.nextTimeout() <= now) {
            a.handleTimeout(now);
        }
        allocationProbe.side(false);
        if (z.nextTimeout() <= now) {
            z.handleTimeout(now);
        }
        return moved;
    }

    private void drain(Endpoint e, boolean sender) {
        Optional<SctpEvent> ev;
        while ((ev = e.pollEvent()).isPresent()) {
            SctpEvent x = ev.get();
            if (x instanceof SctpEvent.MessageReceived m) {
                delivered++;
                deliveredBytes += m.data().length;
            } else if (x instanceof SctpEvent.SendSpaceAvailable) {
                sendSpaceEvents++;
            } else if (x instanceof SctpEvent.AssociationChange c
                    && c.type() == SctpEvent.AssociationChangeType.COMMUNICATION_UP
                    && sender) {
                upSeen = true;
            }
        }
    }

    /** Runs rounds, advancing the clock by {@code stepNanos}, until no packet moves (at most {@code max}). */
    public void settle(long stepNanos, int max) {
        for (int i = 0; i < max; i++) {
            now += stepNanos;
            if (round() == 0 && a.nextTimeout() > now + 10 * stepNanos) {
                return;
            }
        }
    }
}
