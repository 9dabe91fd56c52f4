package org.sctpj.sim;

import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.PriorityQueue;
import java.util.function.BooleanSupplier;
import org.sctpj.sim.monitor.ConformanceMonitor;

/**
 * The discrete-event loop that drives a {@link Network} on a {@link VirtualClock}. It never waits:
 * each step jumps the clock straight to the earliest of the next packet arrival, the next scheduled
 * action and the two nodes' {@link SimNode#nextTimeout()}, so a simulated minute of a protocol with
 * timers runs in milliseconds.
 *
 * <p>A step does exactly one of these, in this order of precedence at equal times:
 *
 * <ol>
 *   <li>the earliest event (a packet arrival, delivered with {@link SimNode#handleInput}, or an
 *       action from {@link #at}); events due at the same instant run in the order they were
 *       scheduled;
 *   <li>A's timeout, if due ({@link SimNode#handleTimeout});
 *   <li>Z's timeout, if due.
 * </ol>
 *
 * After a node's input or timeout the simulator drains that node's {@link SimNode#pollTransmit};
 * after an action it drains both nodes (A first), since the action may have made either one send.
 * Both nodes are also drained when a run starts. Every packet sent enters its link at the current
 * virtual time. Ties are therefore broken by sequence, never by hash or wall clock: the same seed
 * gives the same run.
 *
 * <p>A deadline before the current time counts as due now. A node that keeps answering {@link
 * SimNode#handleTimeout} with a deadline at or before now, or a run that takes more than {@link
 * #maxStepsPerInstant} steps without time moving, stops the run with a {@link
 * SimulationStalledException}.
 *
 * <p>Every packet a node emits is judged by a {@link ConformanceMonitor} (installed by default; see
 * {@link #withoutMonitor}), which throws a {@link org.sctpj.sim.monitor.ProtocolViolation} out of
 * the run at the first packet that breaks a rule of RFC 9260.
 *
 * <p>Not thread-safe: use from one thread, and do not call {@code run} from inside a node or an
 * action.
 */
public final class Simulator {

    /** How many times in a row a node may leave its deadline at or before now after a timeout. */
    static final int STUCK_TIMEOUT_LIMIT = 1000;

    private static final class Event {
        final long time;
        final long seq;
        final Runnable action;
        final Link link;
        final long sentNanos;
        final byte[] bytes;
        final boolean corrupted;
        final InetAddress source;
        final InetAddress destination;
        int ecn;

        Event(long time, long seq, Runnable action) {
            this(time, seq, action, null, 0, null, false, null, null);
        }

        Event(
                long time,
                long seq,
                Runnable action,
                Link link,
                long sentNanos,
                byte[] bytes,
                boolean corrupted,
                InetAddress source,
                InetAddress destination) {
            this.time = time;
            this.seq = seq;
            this.action = action;
            this.link = link;
            this.sentNanos = sentNanos;
            this.bytes = bytes;
            this.corrupted = corrupted;
            this.source = source;
            this.destination = destination;
        }
    }

    private final Network network;
    private final VirtualClock clock = new VirtualClock();
    private final PriorityQueue<Event> events = new PriorityQueue<>((x, y) -> {
        int c = Long.compare(x.time, y.time);
        return c != 0 ? c : Long.compare(x.seq, y.seq);
    });
    private final List<PacketTap> taps = new ArrayList<>();
    private ConformanceMonitor monitor = new ConformanceMonitor();
    private String monitorOffReason;
    private long seq;
    private long steps;
    private long stepsAtInstant;
    private long maxStepsPerInstant = 1_000_000;
    private int stuckA;
    private int stuckZ;
    private boolean running;

    /** A simulator for {@code network}, its clock at 0. */
    public Simulator(Network network) {
        this.network = Objects.requireNonNull(network, "network: pass the Network to simulate");
    }

    /** The network being simulated. */
    public Network network() {
        return network;
    }

    /** The virtual clock. */
    public VirtualClock clock() {
        return clock;
    }

    /** The current virtual time in nanoseconds. */
    public long now() {
        return clock.nowNanos();
    }

    /** Steps taken so far (inputs, timeouts and actions). */
    public long steps() {
        return steps;
    }

    /** Events (packets in flight and actions) not yet run. */
    public int pendingEvents() {
        return events.size();
    }

    /**
     * The protocol conformance monitor that judges every packet the nodes emit (installed by
     * default), or null after {@link #withoutMonitor}.
     */
    public ConformanceMonitor monitor() {
        return monitor;
    }

    /**
     * Turns the conformance monitor off, for a test whose node deliberately emits packets that break
     * the protocol's rules. Say why: the reason is kept ({@link #monitorOffReason()}).
     *
     * @throws IllegalArgumentException if {@code reason} is blank
     */
    public Simulator withoutMonitor(String reason) {
        if (reason == null || reason.isBlank()) {
            throw new IllegalArgumentException("say why this simulation runs without the conformance monitor");
        }
        this.monitor = null;
        this.monitorOffReason = reason;
        return this;
    }

    /** Why the monitor is off, or null while it runs. */
    public String monitorOffReason() {
        return monitorOffReason;
    }

    /** Adds a tap that sees every packet a link delivers. */
    public Simulator addTap(PacketTap tap) {
        taps.add(Objects.requireNonNull(tap, "tap: pass a PacketTap"));
        return this;
    }

    /**
     * Sets how many steps may run at one virtual instant before the run is declared stalled (default
     * 1,000,000).
     */
    public Simulator maxStepsPerInstant(long limit) {
        if (limit < 1) {
            throw new IllegalArgumentException("max steps per instant must be >= 1, not " + limit);
        }
        this.maxStepsPerInstant = limit;
        return this;
    }

    /**
     * Runs {@code action} at virtual time {@code nanos}, for example to cut a path or to make a node
     * send; both nodes are drained afterwards.
     *
     * @throws IllegalArgumentException if {@code nanos} is in the past
     */
    public Simulator at(long nanos, Runnable action) {
        Objects.requireNonNull(action, "action: pass the Runnable to run");
        if (nanos < now()) {
            throw new IllegalArgumentException(
                    "cannot schedule an action in the past: now " + now() + " ns, asked for " + nanos + " ns");
        }
        events.add(new Event(nanos, seq++, action));
        return this;
    }

    /** Runs {@code action} {@code delayNanos} after the current virtual time. */
    public Simulator after(long delayNanos, Runnable action) {
        if (delayNanos < 0) {
            throw new IllegalArgumentException("delay must be >= 0 ns, not " + delayNanos);
        }
        return at(Math.addExact(now(), delayNanos), action);
    }

    /**
     * Runs every event and timeout due at or before {@code untilNanos}, then leaves the clock at
     * {@code untilNanos}.
     */
    public void run(long untilNanos) {
        begin(untilNanos);
        try {
            while (step(untilNanos)) {
                // each step did one thing
            }
            clock.advanceTo(untilNanos);
        } finally {
            running = false;
        }
    }

    /**
     * Runs until {@code done} holds (checked before the first step and after every step) or nothing
     * is left to do at or before {@code limitNanos}.
     *
     * @return true if {@code done} became true; false if the limit was reached first, the clock then
     *     at {@code limitNanos}
     */
    public boolean runUntil(BooleanSupplier done, long limitNanos) {
        Objects.requireNonNull(done, "done: pass the condition that ends the run");
        begin(limitNanos);
        try {
            while (!done.getAsBoolean()) {
                if (!step(limitNanos)) {
                    clock.advanceTo(limitNanos);
                    return done.getAsBoolean();
                }
            }
            return true;
        } finally {
            running = false;
        }
    }

    private void begin(long limit) {
        if (running) {
            throw new IllegalStateException("the simulator is already running: do not call run from a node or action,"
                    + " schedule an action with at() instead");
        }
        if (limit < now()) {
            throw new IllegalArgumentException(
                    "the run limit " + limit + " ns is before the current time " + now() + " ns");
        }
        running = true;
        drain(Side.A);
        drain(Side.Z);
    }

    /** Does the next thing due at or before {@code limit}; false if there is none. */
    private boolean step(long limit) {
        Event first = events.peek();
        long tEvent = first == null ? Long.MAX_VALUE : first.time;
        long tA = network.node(Side.A).nextTimeout();
        long tZ = network.node(Side.Z).nextTimeout();
        long next = Math.min(tEvent, Math.min(tA, tZ));
        if (next == Long.MAX_VALUE || next > limit) {
            return false;
        }
        long t = Math.max(next, now());
        if (t > now()) {
            clock.advanceTo(t);
            stepsAtInstant = 0;
            stuckA = 0;
            stuckZ = 0;
        }
        if (++stepsAtInstant > maxStepsPerInstant) {
            throw new SimulationStalledException(maxStepsPerInstant + " steps at virtual time " + t
                    + " ns without time moving (" + events.size() + " events pending): are the nodes answering each"
                    + " other over zero-delay links? Give the links a delay, or raise maxStepsPerInstant");
        }
        steps++;
        if (tEvent <= t) {
            runEvent(events.poll());
        } else if (tA <= t) {
            timeout(Side.A, t);
        } else {
            timeout(Side.Z, t);
        }
        return true;
    }

    private void runEvent(Event e) {
        if (e.action != null) {
            e.action.run();
            drain(Side.A);
            drain(Side.Z);
            return;
        }
        long now = now();
        if (!e.link.land(e.sentNanos, now, e.bytes.length, e.corrupted)) {
            return;
        }
        for (PacketTap tap : taps) {
            tap.onPacket(
                    now,
                    e.link.id(),
                    e.source,
                    e.destination,
                    ByteBuffer.wrap(e.bytes).asReadOnlyBuffer());
        }
        Side to = e.link.to();
        SimNode node = network.node(to);
        // The node may keep and change its buffer: the monitor learns from its own copy, and only
        // from packets the node took in (not those a test filter dropped before it saw them).
        byte[] seen = monitor != null ? e.bytes.clone() : null;
        node.handleInput(ByteBuffer.wrap(e.bytes), e.source, e.destination, e.ecn, now);
        if (monitor != null && !node.lastInputDropped()) {
            monitor.onDeliver(to, ByteBuffer.wrap(seen), e.source, e.destination);
        }
        drain(to);
    }

    private void timeout(Side side, long now) {
        SimNode node = network.node(side);
        node.handleTimeout(now);
        if (node.nextTimeout() > now) {
            setStuck(side, 0);
        } else {
            int stuck = (side == Side.A ? stuckA : stuckZ) + 1;
            setStuck(side, stuck);
            if (stuck >= STUCK_TIMEOUT_LIMIT) {
                throw new SimulationStalledException("node " + side + ": nextTimeout() is still " + node.nextTimeout()
                        + " ns, at or before now (" + now + " ns), after " + stuck + " calls of handleTimeout(" + now
                        + "); handleTimeout must run every due timer and move nextTimeout() past now (or to"
                        + " Long.MAX_VALUE)");
            }
        }
        drain(side);
    }

    private void setStuck(Side side, int value) {
        if (side == Side.A) {
            stuckA = value;
        } else {
            stuckZ = value;
        }
    }

    /** Sends everything {@code side} has to send now. */
    private void drain(Side side) {
        SimNode node = network.node(side);
        long now = now();
        Outgoing o;
        long polled = 0;
        while ((o = node.pollTransmit(now)) != null) {
            if (++polled > maxStepsPerInstant) {
                throw new SimulationStalledException("node " + side + " returned more than " + maxStepsPerInstant
                        + " packets from pollTransmit at virtual time " + now + " ns without end: it must return null"
                        + " once its queue is empty");
            }
            ByteBuffer b = o.packet().duplicate();
            byte[] bytes = new byte[b.remaining()];
            b.get(bytes);
            InetAddress src = o.source();
            InetAddress dst = o.destination();
            if (monitor != null) {
                monitor.onSend(
                        side,
                        now,
                        ByteBuffer.wrap(bytes),
                        src,
                        dst,
                        node.lastTransmitState(),
                        node.lastTransmitUserPeers());
            }
            network.send(side, now, bytes, src, dst, o.ecn(), o.fragmentable(), new Link.Arrivals() {
                @Override
                public void arrive(Link link, long sent, long arrival, byte[] copy, boolean corrupted) {
                    arrive(link, sent, arrival, copy, corrupted, 0);
                }

                @Override
                public void arrive(Link link, long sent, long arrival, byte[] copy, boolean corrupted, int ecn) {
                    Event e = new Event(arrival, seq++, null, link, sent, copy, corrupted, src, dst);
                    e.ecn = ecn;
                    events.add(e);
                }
            });
        }
    }
}
