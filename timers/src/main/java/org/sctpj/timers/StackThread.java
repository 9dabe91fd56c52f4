package org.sctpj.timers;

import java.io.IOException;
import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.locks.LockSupport;
import org.sctpj.stack.AssociationId;
import org.sctpj.stack.Endpoint;
import org.sctpj.stack.EventHandler;
import org.sctpj.stack.SctpEvent;
import org.sctpj.stack.icmp.IcmpReport;
import org.sctpj.stack.llp.LowerLayer;
import org.sctpj.timers.jfr.JfrProbe;

/**
 * The thread that owns and drives endpoints: the reference driver of the {@link Endpoint} calling
 * contract. Everything that touches an endpoint runs here: packets from its lower layer, its
 * timers, user commands, and the listener callbacks; so the core needs no lock.
 *
 * <h2>One turn of the loop</h2>
 *
 * <ol>
 *   <li>Run the commands other threads handed over ({@link #execute}, at most {@link
 *       StackConfig#commandBatch()}), in the order they were given.
 *   <li>For each endpoint, take at most {@link StackConfig#receiveBatch()} packets from its lower
 *       layer ({@link LowerLayer#receive}) into {@link Endpoint#handleInput}, and the ICMP errors
 *       it read on the way ({@link LowerLayer.PacketSink#icmp}) into {@link Endpoint#handleIcmp}.
 *   <li>Expire due timers through the {@link TimerWheel} (one timer per endpoint, at its {@link
 *       Endpoint#nextTimeout()}): {@link Endpoint#handleTimeout}.
 *   <li>For each endpoint touched above: send every {@link Endpoint#pollTransmit} packet through
 *       the lower layer, then {@link LowerLayer#flush} it; then re-read its next deadline into the
 *       wheel. What one inbound packet provokes is handed to the lower layer before the next is
 *       read; the layer is flushed once after each received batch.
 *   <li>If the turn did no work, call the {@link IdleStrategy} with the time until the next
 *       deadline (capped by {@link StackConfig#maxParkNanos()}).
 * </ol>
 *
 * <h2>Delivery</h2>
 *
 * The thread installs an {@link EventHandler} on each endpoint it owns that forwards to the
 * endpoint's {@link EndpointListener}: the endpoint hands out its events and messages (messages
 * in place, zero-copy) in order at the end of each of its calls (the packet processed, the timers
 * run, the command done), on this thread, before the call returns; so the listener never runs in
 * the middle of a packet, and what it makes the endpoint transmit is sent right after the call.
 * Nothing is polled afterwards: there is one route.
 *
 * <h2>Handing over commands</h2>
 *
 * Commands go through a {@link ConcurrentLinkedQueue}: lock-free (one CAS per offer), unbounded
 * (a user thread is never refused or blocked; the callback API bounds the bytes in flight by its
 * send-buffer reservation), FIFO per producer. After the offer, the producer wakes the thread
 * only if it is blocked: it calls {@link LowerLayer#wakeup()} on the layer the thread blocks in,
 * and {@link LockSupport#unpark}.
 *
 * <h2>Blocking</h2>
 *
 * With {@link IdleStrategy#park()}, a thread that owns one endpoint blocks in its lower layer's
 * {@link LowerLayer#await} until a packet, a command or the next deadline. A thread that owns
 * several endpoints cannot wait on all their layers at once (the {@code LowerLayer} interface has
 * no shared selector), so it parks at most {@value #MULTI_LAYER_PARK_NANOS} ns between polls.
 *
 * <h2>Memory</h2>
 *
 * The loop allocates nothing per packet: each packet is written by {@link
 * Endpoint#pollTransmit(ByteBuffer, long)} into one direct buffer owned by the thread and handed to
 * the lower layer as it is (a lower layer over a socket sends it without a copy), and messages
 * reach the listener in place ({@link EndpointListener#onMessage}).
 *
 * <h2>Errors</h2>
 *
 * A callback or command that throws, a lower layer that fails to send or receive, or a core bug
 * triggered by a packet is reported to {@link StackConfig#errors()} and counted ({@link
 * #errorCount()}); the thread goes on. A lower layer that reports itself closed is closed: its
 * endpoint's associations are aborted.
 */
public final class StackThread implements AutoCloseable {
    /** Whether the protocol trace ({@link PacketTrace}) is on for this turn. */
    private boolean trace;
    /** Turns what each endpoint reports into JFR events (nothing while no recording wants them). */
    private final JfrProbe probe;

    /** The longest park between polls when the thread owns more than one lower layer: 100 us. */
    public static final long MULTI_LAYER_PARK_NANOS = 100_000L;

    private static final int NEW = 0;
    private static final int RUNNING = 1;
    private static final int CLOSING = 2;
    private static final int CLOSED = 3;
    private static final int MAX_FLUSH_ROUNDS = 16;
    private static final byte[] CLOSE_REASON = "endpoint closed".getBytes(StandardCharsets.US_ASCII);

    private final StackConfig config;
    private final ConcurrentLinkedQueue<Runnable> commands = new ConcurrentLinkedQueue<>();
    private final List<EndpointHandle> handles = new ArrayList<>();
    private EndpointHandle[] slots = new EndpointHandle[4];
    private final TimerWheel.ExpiryHandler onTimer = this::onTimer;
    private final LowerLayer.PacketSink sink = new LowerLayer.PacketSink() {
        @Override
        public void packet(ByteBuffer packet, InetAddress from, InetAddress to) {
            onPacket(packet, from, to, 0);
        }

        @Override
        public void packet(ByteBuffer packet, InetAddress from, InetAddress to, int ecn) {
            onPacket(packet, from, to, ecn);
        }

        @Override
        public void icmp(IcmpReport report) {
            onIcmp(report);
        }

        @Override
        public void localAddressChanged(InetAddress address, boolean added) {
            onLocalAddress(address, added);
        }
    };
    private final IdleStrategy.Waiter waiter = this::await;
    private final Object lifecycle = new Object();
    /** Where every outgoing packet is built, then sent from (direct: no copy into the socket). */
    private final ByteBuffer transmitBuffer = ByteBuffer.allocateDirect(65535);

    private TimerWheel wheel;
    private final Tasks turnEnd = new Tasks("end-of-turn task");
    private final Tasks idleTasks = new Tasks("idle task");
    /** When the oldest pending idle task was given (this thread's clock). */
    private long idleTasksSince;
    /** The longest an idle task waits while the thread stays busy. */
    private static final long IDLE_TASK_MAX_WAIT_NANOS = 1_000_000;

    private EndpointHandle receiving;
    /**
     * Set while a received batch is handled when what its packets provoked was given to the lower
     * layer: the layer is flushed once after the batch, so a batching layer sends the SACKs and
     * DATA of several received packets in one system call (each packet's SACK is still made after
     * that packet, RFC 9260 section 6.2).
     */
    private boolean flushAfterReceive;

    private long pollNow;
    private long idleTurns;
    private int closingCount;
    private boolean closeRequested;
    private boolean closeGraceful;
    private long closeLinger;
    private volatile int state = NEW;
    private volatile Thread thread;
    private volatile boolean parked;
    private volatile LowerLayer blockingLayer;
    private volatile long errorCount;
    private volatile long turns;

    /** A stack thread with these settings; {@link #start()} starts it. */
    public StackThread(StackConfig config) {
        this.config = Objects.requireNonNull(config, "config");
        this.probe = JfrProbe.INSTANCE;
        JfrProbe.prepare(); // if JFR runs, loads its event classes here, not on the stack thread
    }

    /** A stack thread with {@link StackConfig#DEFAULT}. */
    public StackThread() {
        this(StackConfig.DEFAULT);
    }

    /** The thread's name. */
    public String name() {
        return config.name();
    }

    /** The settings. */
    public StackConfig config() {
        return config;
    }

    /** The current time on the thread's clock, in nanoseconds. */
    public long now() {
        return config.clock().getAsLong();
    }

    /** True when called on this stack thread (inside a callback or a command). */
    public boolean isStackThread() {
        return Thread.currentThread() == thread;
    }

    /** True between {@link #start()} and the end of {@link #close()}. */
    public boolean isRunning() {
        int s = state;
        return s == RUNNING || s == CLOSING;
    }

    /** Errors caught and reported so far. */
    public long errorCount() {
        return errorCount;
    }

    /** Turns of the loop run so far (for tests and monitoring). */
    public long turns() {
        return turns;
    }

    /**
     * Starts the thread. Commands and registrations given before are kept and run first.
     *
     * @throws IllegalStateException if started before or closed
     */
    public void start() {
        synchronized (lifecycle) {
            if (state != NEW) {
                throw new IllegalStateException(name() + " was started before: a stack thread starts once");
            }
            Thread t = new Thread(this::run, config.name());
            t.setDaemon(config.daemon());
            thread = t;
            state = RUNNING;
            t.start();
        }
    }

    /**
     * Hands an endpoint over to this thread. From now on only the stack thread may call {@code
     * endpoint} (through {@link EndpointHandle#endpoint()}); {@code layer} must not be used by the
     * caller either (it is closed with the handle).
     *
     * @throws IllegalStateException if the thread is closing or closed
     */
    public EndpointHandle register(Endpoint endpoint, LowerLayer layer, EndpointListener listener) {
        EndpointHandle h = new EndpointHandle(this, endpoint, layer, listener);
        execute(() -> {
            endpoint.setProbe(probe);
            attach(h);
        });
        return h;
    }

    /**
     * Runs {@code command} on the stack thread, in order with the other commands; never blocks
     * (lock-free). Called on the stack thread itself, the command runs on the next turn.
     *
     * @throws IllegalStateException if the thread is closing or closed
     */
    public void execute(Runnable command) {
        Objects.requireNonNull(command, "command");
        if (state >= CLOSING) {
            throw new IllegalStateException(name() + " is closed: open a new stack thread or runtime");
        }
        executeInternal(command);
    }

    /**
     * Runs {@code task} on this thread at the end of the current turn: after the turn's commands,
     * inbound packets, timers and callbacks, before the thread idles. For work that should happen
     * once per batch rather than once per event, such as waking an application thread that waits
     * for received messages (one wake-up for every message of a batch instead of one per message).
     * Tasks run in the order given; a task that throws is reported and the others still run.
     *
     * @throws IllegalStateException if not called on this stack thread (use {@link #execute} there)
     */
    public void atTurnEnd(Runnable task) {
        Objects.requireNonNull(task, "task");
        checkStackThread("atTurnEnd");
        turnEnd.add(task);
    }

    /**
     * Runs {@code task} on this thread when it next finds a turn without work, just before it
     * idles, or at the end of a turn once the oldest pending task has waited 1 ms (a thread that
     * stays busy, for example with another association's bulk transfer, still runs it soon): for
     * work that can wait until the thread has caught up with its input, such as waking an
     * application thread once for a whole burst of messages. Tasks run in the order given; a task
     * that throws is reported and the others still run.
     *
     * @throws IllegalStateException if not called on this stack thread (use {@link #execute} there)
     */
    public void whenIdle(Runnable task) {
        Objects.requireNonNull(task, "task");
        checkStackThread("whenIdle");
        if (idleTasks.isEmpty()) {
            idleTasksSince = now();
        }
        idleTasks.add(task);
    }

    private void checkStackThread(String method) {
        if (!isStackThread()) {
            throw new IllegalStateException(method
                    + " is for the stack thread (inside a callback or a command): use execute from "
                    + Thread.currentThread().getName());
        }
    }

    void executeInternal(Runnable command) {
        commands.offer(command);
        if (parked) {
            LowerLayer l = blockingLayer;
            if (l != null) {
                l.wakeup();
            }
            Thread t = thread;
            if (t != null) {
                LockSupport.unpark(t);
            }
        }
    }

    /** Closes abortively: {@code close(false, 0)}. */
    @Override
    public void close() {
        close(false, 0);
    }

    /**
     * Closes every endpoint (see {@link EndpointHandle#close}: shutdown with up to {@code
     * lingerNanos} of grace, or abort), closes their lower layers, and ends the thread. Waits for
     * the thread to end unless called on the stack thread itself. Idempotent.
     */
    public void close(boolean graceful, long lingerNanos) {
        synchronized (lifecycle) {
            if (state == NEW) {
                start();
            }
            if (state == RUNNING) {
                state = CLOSING;
                executeInternal(() -> {
                    closeRequested = true;
                    closeGraceful = graceful;
                    closeLinger = lingerNanos;
                    for (EndpointHandle h : new ArrayList<>(handles)) {
                        beginClose(h, graceful, lingerNanos);
                    }
                });
            }
        }
        Thread t = thread;
        if (t != null && t != Thread.currentThread()) {
            boolean interrupted = false;
            while (t.isAlive()) {
                try {
                    t.join();
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    // ------------------------------------------------------------------ the loop

    private void run() {
        wheel = new TimerWheel(now(), config.tickNanos(), config.ticksPerWheel());
        try {
            while (true) {
                int work = 0;
                try {
                    work = turn();
                } catch (Throwable t) { // a bug of ours: report and go on rather than die
                    report("stack thread loop", t);
                }
                turns++;
                if (state == CLOSING && handles.isEmpty() && commands.isEmpty()) {
                    idleTasks.runAll();
                    break;
                }
                if (work > 0) {
                    idleTurns = 0;
                    if (!idleTasks.isEmpty() && pollNow - idleTasksSince >= IDLE_TASK_MAX_WAIT_NANOS) {
                        idleTasks.runAll(); // a thread that stays busy must not hold them for ever
                    }
                } else if (!idleTasks.isEmpty()) {
                    idleTasks.runAll(); // then one more turn: a task may have handed work over
                } else {
                    idleTurns++;
                    try {
                        idle();
                    } catch (Throwable t) {
                        report("idle strategy", t);
                    }
                }
            }
        } finally {
            for (EndpointHandle h : new ArrayList<>(handles)) {
                finish(h);
            }
            state = CLOSED;
        }
    }

    private int turn() {
        trace = PacketTrace.enabled();
        int work = runCommands();
        work += receiveAll();
        pollNow = now();
        work += wheel.poll(pollNow, onTimer, config.maxExpiriesPerPoll());
        if (closingCount > 0) {
            progressClosing();
        }
        work += flush();
        turnEnd.runAll();
        return work;
    }

    /** Tasks for later on this thread, run in order; one that throws is reported, the rest run. */
    private final class Tasks {
        private final String label;
        private Runnable[] tasks = new Runnable[8];
        private int count;

        Tasks(String label) {
            this.label = label;
        }

        void add(Runnable task) {
            if (count == tasks.length) {
                tasks = Arrays.copyOf(tasks, count * 2);
            }
            tasks[count++] = task;
        }

        boolean isEmpty() {
            return count == 0;
        }

        /** Runs every task, those added meanwhile too, and empties the list. */
        void runAll() {
            for (int i = 0; i < count; i++) {
                Runnable t = tasks[i];
                tasks[i] = null;
                try {
                    t.run();
                } catch (Throwable x) {
                    report(label, x);
                }
            }
            count = 0;
        }
    }

    private int runCommands() {
        int n = 0;
        Runnable c;
        while (n < config.commandBatch() && (c = commands.poll()) != null) {
            n++;
            try {
                c.run();
            } catch (Throwable t) {
                report("command", t);
            }
        }
        return n;
    }

    private int receiveAll() {
        int n = 0;
        for (int i = 0; i < handles.size(); i++) {
            EndpointHandle h = handles.get(i);
            receiving = h;
            pollNow = now();
            try {
                int k = h.layer.receive(sink, config.receiveBatch());
                if (k > 0) {
                    h.dirty = true;
                    n += k;
                    h.endpoint.noteLowerLayerDropped(h.layer.receiveDropped());
                }
            } catch (ClosedChannelException e) {
                report("lower layer receive (closed: aborting the endpoint)", e);
                if (h.closing) {
                    abortAll(h);
                    h.lingerDeadline = pollNow;
                } else {
                    beginClose(h, false, 0);
                }
            } catch (IOException | RuntimeException e) {
                report("lower layer receive", e);
            } finally {
                if (flushAfterReceive) {
                    flushAfterReceive = false;
                    flushLayer(h);
                }
            }
        }
        receiving = null;
        return n;
    }

    private void onPacket(ByteBuffer packet, InetAddress from, InetAddress to, int ecn) {
        EndpointHandle h = receiving;
        if (trace) {
            PacketTrace.log(true, h.endpoint.localPort(), packet, from);
        }
        try {
            h.endpoint.handleInput(packet, from, to, ecn, pollNow);
            // Hand what this packet provoked to the lower layer before handling the next one: a
            // receiver that handled a whole batch first would answer it with one SACK instead of one
            // per second packet (RFC 9260 section 6.2), and the sender's Max.Burst would then starve
            // the transfer. A batching layer sends it all at the flush after the batch.
            transmitAll(h, pollNow);
        } catch (RuntimeException e) {
            report("endpoint input (a core bug: input must never throw)", e);
        }
    }

    /** An ICMP error the layer read (RFC 9260 appendix C): into the endpoint, as packets are. */
    private void onIcmp(IcmpReport report) {
        EndpointHandle h = receiving;
        try {
            h.endpoint.handleIcmp(report, pollNow);
            h.dirty = true;
            transmitAll(h, pollNow);
        } catch (RuntimeException e) {
            report("endpoint ICMP input (a core bug: input must never throw)", e);
        }
    }

    /**
     * An interface address the lower layer watches came or went (RFC 5061): the endpoint adds it
     * (each live ASCONF association asks its peer to add it) or removes it (each asks for its
     * deletion), unless it has it already, or does not, or it is its last.
     */
    private void onLocalAddress(InetAddress address, boolean added) {
        EndpointHandle h = receiving;
        try {
            List<InetAddress> mine = h.endpoint.localAddresses();
            if (added && !mine.contains(address)) {
                h.endpoint.addLocalAddress(address, pollNow);
            } else if (!added && mine.contains(address) && mine.size() > 1) {
                h.endpoint.removeLocalAddress(address, pollNow);
            } else {
                return;
            }
            h.dirty = true;
            transmitAll(h, pollNow);
        } catch (RuntimeException e) {
            report("following an interface address (" + address + (added ? " added" : " removed") + ")", e);
        }
    }

    private void onTimer(long timerId, long deadline, long payload) {
        int s = (int) payload;
        EndpointHandle h = s < slots.length ? slots[s] : null;
        if (h == null || h.timerId != timerId) {
            return;
        }
        h.timerId = TimerWheel.NULL_TIMER;
        h.deadline = Long.MAX_VALUE;
        h.dirty = true;
        try {
            h.endpoint.handleTimeout(pollNow);
        } catch (RuntimeException e) {
            report("endpoint timeout (a core bug)", e);
        }
    }

    private int flush() {
        int work = 0;
        for (int round = 0; round < MAX_FLUSH_ROUNDS; round++) {
            boolean any = false;
            for (int i = 0; i < handles.size(); i++) {
                EndpointHandle h = handles.get(i);
                if (h.dirty) {
                    h.dirty = false;
                    any = true;
                    work += drain(h);
                }
            }
            if (!any) {
                break;
            }
        }
        return work;
    }

    /** Sends what the endpoint has to send, then re-reads its deadline. */
    private int drain(EndpointHandle h) {
        int work = transmitAll(h, now());
        reschedule(h);
        return work;
    }

    /**
     * The endpoint's event handler: forwards what the endpoint hands out at the end of each call
     * (see {@link Endpoint}'s delivery contract) to the listener, on this thread, each callback
     * guarded so that one that throws is reported and the rest of the sequence still goes out.
     */
    private final class Delivery implements EventHandler {
        private final EndpointHandle h;

        Delivery(EndpointHandle h) {
            this.h = h;
        }

        @Override
        public void onEvent(SctpEvent e) {
            try {
                h.listener.onEvent(h, e);
            } catch (Throwable x) {
                report("callback for " + e.getClass().getSimpleName(), x);
            }
        }

        @Override
        public void onMessage(AssociationId association, int streamId, int ppid, boolean unordered, ByteBuffer data) {
            try {
                h.listener.onMessage(h, association, streamId, ppid, unordered, data);
            } catch (Throwable x) {
                report("callback for a message", x);
            }
        }

        @Override
        public void onSendBufferFreed(AssociationId association, long freeBytes) {
            try {
                h.listener.onSendBufferFreed(h, association, freeBytes);
            } catch (Throwable x) {
                report("callback for freed send space", x);
            }
        }
    }

    /**
     * Sends every packet the endpoint has now, then flushes the lower layer ({@link
     * LowerLayer#flush}) if anything was sent, so that a batching layer sends the burst before the
     * next inbound packet is read; returns how many.
     */
    private int transmitAll(EndpointHandle h, long now) {
        Endpoint ep = h.endpoint;
        ByteBuffer b = transmitBuffer;
        int n = 0;
        while (true) {
            b.clear();
            InetAddress dest = ep.pollTransmit(b, now);
            if (dest == null) {
                if (n > 0) {
                    if (receiving == h) {
                        flushAfterReceive = true; // one flush for the whole received batch
                    } else {
                        flushLayer(h);
                    }
                }
                return n;
            }
            n++;
            send(
                    h,
                    b,
                    ep.transmitSource(),
                    dest,
                    ep.transmitEcn() | (ep.transmitFragmentable() ? LowerLayer.FRAGMENTABLE : 0));
        }
    }

    private void send(EndpointHandle h, ByteBuffer packet, InetAddress source, InetAddress destination, int ecn) {
        if (h.closed) {
            return;
        }
        if (trace) {
            PacketTrace.log(false, h.endpoint.localPort(), packet, destination);
        }
        try {
            h.layer.send(packet, source, destination, ecn);
        } catch (IOException | RuntimeException e) {
            report("lower layer send to " + destination, e);
        }
    }

    /** Lets a batching lower layer send what {@link #transmitAll} gave it. */
    private void flushLayer(EndpointHandle h) {
        if (h.closed) {
            return;
        }
        try {
            h.layer.flush();
        } catch (IOException | RuntimeException e) {
            report("lower layer flush", e);
        }
    }

    private void reschedule(EndpointHandle h) {
        long d = h.endpoint.nextTimeout();
        if (d == h.deadline || h.closed) {
            return;
        }
        if (h.timerId != TimerWheel.NULL_TIMER) {
            wheel.cancel(h.timerId);
        }
        h.timerId = d == Long.MAX_VALUE ? TimerWheel.NULL_TIMER : wheel.schedule(d, h.slot);
        h.deadline = d;
    }

    private void idle() throws IOException {
        long now = now();
        long next = wheel.earliestDeadlineBound(64);
        long cap = config.maxParkNanos();
        if (closingCount > 0) {
            cap = Math.min(cap, 1_000_000L);
        }
        long wait = next == Long.MAX_VALUE ? cap : Math.min(Math.max(next - now, 0), cap);
        if (wait == 0) {
            return;
        }
        config.idle().idle(idleTurns, wait, waiter);
    }

    private void await(long nanos) throws IOException {
        LowerLayer l = handles.size() == 1 ? handles.get(0).layer : null;
        blockingLayer = l;
        parked = true;
        try {
            if (!commands.isEmpty()) {
                return;
            }
            if (l != null) {
                l.await(nanos);
            } else {
                LockSupport.parkNanos(this, Math.min(nanos, handles.isEmpty() ? nanos : MULTI_LAYER_PARK_NANOS));
            }
        } finally {
            parked = false;
        }
    }

    // ------------------------------------------------------------------ handles

    private void attach(EndpointHandle h) {
        h.endpoint.setEventHandler(new Delivery(h));
        handles.add(h);
        placeInSlot(h);
        h.registered = true;
        h.dirty = true;
        if (closeRequested) {
            // Registered in a race with close(): close it the same way.
            beginClose(h, closeGraceful, closeLinger);
        }
    }

    private void placeInSlot(EndpointHandle h) {
        for (int i = 0; i < slots.length; i++) {
            if (slots[i] == null) {
                slots[i] = h;
                h.slot = i;
                return;
            }
        }
        int i = slots.length;
        slots = Arrays.copyOf(slots, i * 2);
        slots[i] = h;
        h.slot = i;
    }

    void beginClose(EndpointHandle h, boolean graceful, long lingerNanos) {
        if (h.closed || h.closing || !h.registered) {
            return;
        }
        h.closing = true;
        h.closingGraceful = graceful;
        closingCount++;
        long now = now();
        h.lingerDeadline = now + Math.max(0, lingerNanos);
        if (graceful) {
            for (AssociationId id : h.endpoint.associations()) {
                try {
                    h.endpoint.shutdown(id, now);
                } catch (RuntimeException e) { // not established yet: nothing to shut down gracefully
                    abortOne(h, id, now);
                }
            }
        } else {
            abortAll(h);
        }
        h.dirty = true;
    }

    private void progressClosing() {
        long now = pollNow;
        for (EndpointHandle h : new ArrayList<>(handles)) {
            if (!h.closing) {
                continue;
            }
            if (h.endpoint.associations().isEmpty() || now - h.lingerDeadline >= 0) {
                abortAll(h);
                drain(h);
                finish(h);
            }
        }
    }

    private void abortAll(EndpointHandle h) {
        long now = now();
        for (AssociationId id : h.endpoint.associations()) {
            abortOne(h, id, now);
        }
    }

    private void abortOne(EndpointHandle h, AssociationId id, long now) {
        try {
            h.endpoint.abort(id, CLOSE_REASON, now);
        } catch (RuntimeException e) {
            report("abort of " + id, e);
        }
    }

    private void finish(EndpointHandle h) {
        if (h.closed) {
            return;
        }
        if (h.timerId != TimerWheel.NULL_TIMER && wheel != null) {
            wheel.cancel(h.timerId);
            h.timerId = TimerWheel.NULL_TIMER;
        }
        handles.remove(h);
        if (h.slot >= 0 && slots[h.slot] == h) {
            slots[h.slot] = null;
        }
        if (h.closing) {
            closingCount--;
        }
        h.closed = true;
        try {
            h.layer.close();
        } catch (IOException | RuntimeException e) {
            report("lower layer close", e);
        }
        try {
            h.listener.onClosed(h);
        } catch (Throwable t) {
            report("onClosed callback", t);
        }
    }

    private void report(String where, Throwable error) {
        errorCount++;
        try {
            config.errors().report(where, error);
        } catch (Throwable ignored) {
            // The reporter itself failed: nothing more we can do without stopping the thread.
        }
    }
}
