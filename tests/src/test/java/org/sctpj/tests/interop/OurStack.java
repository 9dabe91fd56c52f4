package org.sctpj.tests.interop;

import java.io.IOException;
import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BooleanSupplier;
import java.util.function.Function;
import java.util.function.Predicate;
import org.sctpj.stack.AssociationId;
import org.sctpj.stack.AssociationInfo;
import org.sctpj.stack.Endpoint;
import org.sctpj.stack.EndpointStats;
import org.sctpj.stack.SctpEvent;
import org.sctpj.stack.SctpOptions;
import org.sctpj.stack.SendInfo;
import org.sctpj.stack.SendStatus;
import org.sctpj.stack.llp.LowerLayer;
import org.sctpj.timers.EndpointHandle;
import org.sctpj.timers.EndpointListener;
import org.sctpj.timers.StackConfig;
import org.sctpj.timers.StackThread;
import org.sctpj.trace.PcapLowerLayer;
import org.sctpj.trace.PcapWriter;

/**
 * Our side of an interop case, on the real runtime: a {@link StackThread} (module {@code timers})
 * driving one {@link Endpoint} over the case's lower layer, wrapped in {@link PcapLowerLayer} (every
 * packet into the case's capture) and a {@link Tap}. The test thread talks to it through commands
 * run on the stack thread; events are collected for the test thread to wait on.
 *
 * <p>Why not {@code CallbackSocket}: its {@code bind} checks the addresses against the JVM's own
 * interfaces, and over raw IP our addresses live in a network namespace the raw sockets entered,
 * not in the JVM's. The handle API underneath is the same runtime, with the same threading.
 *
 * <p>Receiving: a message delivered in parts (partial delivery, RFC 9260 section 6.9: the core's
 * {@code SctpEvent.MessagePart} events, the last one flagged) is concatenated per association and
 * stream until its last part and then counts as one message, as if delivered whole; {@link
 * #partial()} says how far such a message got.
 *
 * <p>Sending: messages queue here and a pump on the stack thread hands them to the endpoint in
 * order until it answers WOULD_BLOCK; a SendSpaceAvailable event runs the pump again. As an echo
 * server, each message received is queued back the same way, on its stream with its PPID and U
 * flag.
 */
final class OurStack implements AutoCloseable {

    /** Opens the inner lower layer (UDP or raw) each time our stack binds. */
    @FunctionalInterface
    interface LayerOpener {
        LowerLayer open() throws IOException;
    }

    private record Out(AssociationId association, SendInfo info, byte[] data) {}

    private final StackThread thread;
    private final PcapWriter pcap;
    private final PcapLowerLayer.Framing framing;
    private final Tap.Traffic traffic = new Tap.Traffic();
    private final SendPump<Out> outbox = new SendPump<>();
    private final List<SctpEvent> events = new ArrayList<>();
    private final List<SctpEvent.MessageReceived> messages = new ArrayList<>();
    private final List<String> sendErrors = new ArrayList<>();
    private final MessageParts parts = new MessageParts();
    /** Addresses {@link #removeAddress} took from the endpoint, still in the lower layer. */
    private final java.util.Set<InetAddress> removing = java.util.concurrent.ConcurrentHashMap.newKeySet();

    private volatile boolean echo;
    private volatile EndpointHandle handle;
    private volatile Tap tap;
    private volatile CountDownLatch closed;

    private OurStack(String name, PcapWriter pcap, PcapLowerLayer.Framing framing) {
        this.thread = new StackThread(StackConfig.DEFAULT.withName("interop-" + name));
        this.pcap = pcap;
        this.framing = framing;
        thread.start();
    }

    /** A started stack thread writing the case's traffic to {@code pcap} with {@code framing}. */
    static OurStack start(String name, PcapWriter pcap, PcapLowerLayer.Framing framing) {
        return new OurStack(name, pcap, framing);
    }

    /** Echo every message received from now on. */
    void echo(boolean on) {
        this.echo = on;
    }

    /** Opens a lower layer and an endpoint on {@code port} with {@code addresses} on the stack thread. */
    void bind(int port, List<InetAddress> addresses, SctpOptions options, LayerOpener opener) throws IOException {
        LowerLayer inner = opener.open();
        Tap t = new Tap(new PcapLowerLayer(inner, pcap, framing, OurStack::wallClock, false), traffic);
        SctpOptions o = options.toBuilder()
                .encapsulationOverhead(inner.encapsulationOverhead())
                .build();
        Endpoint ep = new Endpoint(port, addresses, o, new SecureRandom(), thread.now());
        closed = new CountDownLatch(1);
        tap = t;
        handle = thread.register(ep, t, new Listener());
    }

    private static long wallClock() {
        Instant i = Instant.now();
        return i.getEpochSecond() * 1_000_000_000L + i.getNano();
    }

    /** Accepts associations. */
    void listen() {
        call(ep -> {
            ep.listen(true);
            return null;
        });
    }

    /** Starts an association; the first peer address is the primary. */
    AssociationId connect(List<InetAddress> peers, int port) {
        return call(ep -> ep.connect(peers, port, thread.now()));
    }

    /** Queues a message for sending (in order with every other). */
    void send(AssociationId id, SendInfo info, byte[] data) {
        outbox.add(new Out(id, info, data));
        handle.execute(this::pump);
    }

    /** Sends one message at once on the stack thread and returns the endpoint's answer (or throws). */
    SendStatus sendNow(AssociationId id, SendInfo info, byte[] data) {
        return call(ep -> ep.send(id, info, ByteBuffer.wrap(data), thread.now()));
    }

    /** Resets our outgoing streams (all of them) through {@link ExtensionCalls}. */
    void resetOutgoing(AssociationId id) {
        call(ep -> {
            ExtensionCalls.resetOutgoing(ep, id, new int[0], thread.now());
            return null;
        });
    }

    /** Adds streams through {@link ExtensionCalls}. */
    void addStreams(AssociationId id, int outbound, int inbound) {
        call(ep -> {
            ExtensionCalls.addStreams(ep, id, outbound, inbound, thread.now());
            return null;
        });
    }

    /**
     * Adds our address {@code a} after bind (RFC 5061): the lower layer receives on it first
     * ({@link LowerLayer#addAddress}, in {@code namespace} when the layer lives in one), then the
     * endpoint asks each ASCONF association's peer to add it (LocalAddressChange ADDED when it did).
     */
    void addAddress(InetAddress a, java.util.Optional<java.nio.file.Path> namespace) throws IOException {
        if (namespace.isPresent()) {
            // a UDP socket binds in the namespace of the thread that opens it: the layer's own
            org.sctpj.llp.raw.NetworkNamespace.call(namespace.get(), () -> {
                tap.addAddress(a);
                return null;
            });
        } else {
            tap.addAddress(a);
        }
        call(ep -> {
            ep.addLocalAddress(a, thread.now());
            return null;
        });
    }

    /**
     * Removes our address {@code a} (RFC 5061): the endpoint stops sending from it at once and asks
     * each peer to delete it; with {@code fromLayer} the lower layer stops receiving on it once the
     * peer answered REMOVED (until then the peer may still send there: its data is not lost on the
     * way), as CallbackSocket does; without, the layer keeps it, so that anything still arriving
     * there is seen (and counted by the {@link Tap}).
     */
    void removeAddress(InetAddress a, boolean fromLayer) {
        if (fromLayer) {
            removing.add(a);
        }
        call(ep -> {
            ep.removeLocalAddress(a, thread.now());
            return null;
        });
    }

    /** Asks the peer of {@code id} to make our {@code a} its primary (RFC 5061 Set Primary Address). */
    void setPeerPrimary(AssociationId id, InetAddress a) {
        call(ep -> {
            ep.setPeerPrimary(id, a, thread.now());
            return null;
        });
    }

    /** Graceful shutdown. */
    void shutdown(AssociationId id) {
        call(ep -> {
            ep.shutdown(id, thread.now());
            return null;
        });
    }

    /** ABORT. */
    void abort(AssociationId id) {
        call(ep -> {
            ep.abort(id, "interop abort".getBytes(java.nio.charset.StandardCharsets.US_ASCII), thread.now());
            return null;
        });
    }

    /** A snapshot of the association (empty once it is gone). */
    java.util.Optional<AssociationInfo> info(AssociationId id) {
        return call(ep -> ep.info(id));
    }

    /**
     * Our core's state now, every live association (see {@link FailureEvidence#coreState}), for a
     * failure's evidence; never throws.
     */
    String coreState() {
        if (handle == null) {
            return "our endpoint was not bound yet\n";
        }
        try {
            return call(ep -> {
                List<AssociationInfo> infos = new ArrayList<>();
                for (AssociationId id : ep.associations()) {
                    ep.info(id).ifPresent(infos::add);
                }
                return FailureEvidence.coreState(infos, thread.now());
            });
        } catch (RuntimeException | AssertionError e) {
            return "the core's state could not be read: " + e + "\n";
        }
    }

    /** Runs {@code f} with our endpoint on the stack thread (the feature cells' calls and figures). */
    <T> T onEndpoint(Function<Endpoint, T> f) {
        return call(f);
    }

    /** The endpoint's counters (bad checksums, malformed packets...). */
    EndpointStats stats() {
        return call(Endpoint::stats);
    }

    /** The chunk and address counters of the case. */
    Tap.Traffic traffic() {
        return traffic;
    }

    /** True when no message waits in the outbox. */
    boolean outboxEmpty() {
        return outbox.isEmpty();
    }

    /**
     * Our host "crashes": the layer goes mute (nothing more leaves, nothing more arrives), the
     * endpoint is dropped with its associations (their ABORTs go nowhere), its layer closed.
     */
    void vanish() throws InterruptedException {
        tap.mute();
        outbox.clear();
        synchronized (this) {
            // The new incarnation numbers its associations from 1 again: forget the old events.
            events.clear();
        }
        handle.close(false, 0);
        if (!closed.await(10, TimeUnit.SECONDS)) {
            throw new AssertionError("our endpoint did not close within 10 s");
        }
    }

    private <T> T call(Function<Endpoint, T> f) {
        CompletableFuture<T> r = new CompletableFuture<>();
        EndpointHandle h = handle;
        h.execute(() -> {
            try {
                r.complete(f.apply(h.endpoint()));
                pump();
            } catch (Throwable t) {
                r.completeExceptionally(t);
            }
        });
        try {
            return r.get(10, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RuntimeException re) {
                throw re;
            }
            throw new AssertionError(e.getCause());
        } catch (TimeoutException e) {
            throw new AssertionError("the stack thread did not run a command within 10 s");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }

    /**
     * Stack thread: hands queued messages to the endpoint until it would block. The endpoint's
     * handler runs inside {@code send}, and its SendSpaceAvailable calls this again: {@link
     * SendPump} makes that nested call ask for another pass instead of sending the head message
     * a second time.
     */
    private void pump() {
        EndpointHandle h = handle;
        if (h == null || h.isClosed()) {
            return;
        }
        outbox.pump(o -> {
            SendStatus s;
            try {
                s = h.endpoint().send(o.association(), o.info(), ByteBuffer.wrap(o.data()), thread.now());
            } catch (RuntimeException e) {
                if (notOpenYet(h, o)) {
                    // An echo on a stream the peer added while our own outgoing streams are still
                    // being added (RFC 6525 section 5.2.6: its Add Incoming Streams request makes
                    // us ask for them): it waits, and the StreamChange event pumps again.
                    return false;
                }
                synchronized (this) {
                    sendErrors.add(e.toString());
                }
                return true; // given up: the next message goes on
            }
            return s != SendStatus.WOULD_BLOCK;
        });
    }

    /**
     * Whether {@code o} failed because its stream is beyond our outgoing streams while our request
     * to add streams is still out (the association is alive and has fewer streams).
     */
    private static boolean notOpenYet(EndpointHandle h, Out o) {
        return h.endpoint()
                .info(o.association())
                .map(i -> o.info().streamId() >= i.outboundStreams())
                .orElse(false);
    }

    /** How messages delivered in parts are doing (see {@link MessageParts#describe()}). */
    String partial() {
        return parts.describe();
    }

    private final class Listener implements EndpointListener {
        @Override
        public void onEvent(EndpointHandle h, SctpEvent e) {
            SctpEvent.MessageReceived whole = e instanceof SctpEvent.MessageReceived m ? m : null;
            Optional<MessageParts.Part> part = whole == null ? MessageParts.Part.of(e) : Optional.empty();
            if (part.isPresent()) {
                whole = parts.add(part.get());
            }
            if (whole != null && echo) {
                outbox.add(new Out(
                        whole.association(),
                        new SendInfo(whole.streamId(), whole.ppid(), whole.unordered(), false),
                        whole.data()));
            }
            synchronized (OurStack.this) {
                if (part.isEmpty()) {
                    events.add(e);
                }
                if (whole != null) {
                    messages.add(whole);
                }
                OurStack.this.notifyAll();
            }
            if (whole != null || e instanceof SctpEvent.SendSpaceAvailable || e instanceof SctpEvent.StreamChange) {
                pump();
            }
            if (e instanceof SctpEvent.LocalAddressChange c
                    && c.state() == SctpEvent.LocalAddressState.REMOVED
                    && removing.remove(c.address())) {
                try {
                    tap.removeAddress(c.address()); // the peer sends there no more
                } catch (IOException x) {
                    synchronized (OurStack.this) {
                        sendErrors.add("removing " + c.address() + " from the lower layer: " + x);
                    }
                }
            }
        }

        @Override
        public void onClosed(EndpointHandle h) {
            CountDownLatch c = closed;
            if (c != null) {
                c.countDown();
            }
        }
    }

    /** Waits until {@code condition} (checked under this object's lock) holds; false on timeout. */
    synchronized boolean await(BooleanSupplier condition, Duration timeout) throws InterruptedException {
        long end = System.nanoTime() + timeout.toNanos();
        while (!condition.getAsBoolean()) {
            long left = end - System.nanoTime();
            if (left <= 0) {
                return false;
            }
            wait(Math.max(1, Math.min(TimeUnit.NANOSECONDS.toMillis(left), 50)));
        }
        return true;
    }

    /** Waits for an event matching {@code p}; throws with the events seen when none comes in time. */
    SctpEvent awaitEvent(Predicate<SctpEvent> p, Duration timeout, String what) throws InterruptedException {
        if (!await(() -> events.stream().anyMatch(p), timeout)) {
            throw new AssertionError("no " + what + " within " + timeout.toSeconds() + " s; events: " + summary());
        }
        synchronized (this) {
            return events.stream().filter(p).findFirst().orElseThrow();
        }
    }

    /** The events matching {@code p} so far, in order. */
    synchronized List<SctpEvent> events(Predicate<SctpEvent> p) {
        return events.stream().filter(p).toList();
    }

    /** True if an event matching {@code p} was seen. */
    synchronized boolean seen(Predicate<SctpEvent> p) {
        return events.stream().anyMatch(p);
    }

    /** Messages received so far. */
    synchronized int messageCount() {
        return messages.size();
    }

    /** Messages {@code from} (inclusive) to {@code to} (exclusive), in arrival order. */
    synchronized List<SctpEvent.MessageReceived> messages(int from, int to) {
        return List.copyOf(messages.subList(from, to));
    }

    /** Send errors the pump met (e.g. a send after the association ended). */
    synchronized List<String> sendErrors() {
        return List.copyOf(sendErrors);
    }

    /** The events but messages, for failure messages. */
    synchronized String summary() {
        StringBuilder sb = new StringBuilder();
        int n = 0;
        for (SctpEvent e : events) {
            if (!(e instanceof SctpEvent.MessageReceived)
                    && !(e instanceof SctpEvent.SendSpaceAvailable)
                    && !(e instanceof SctpEvent.SenderDry)) {
                sb.append(e).append("; ");
                n++;
            }
        }
        return sb.append(messages.size())
                .append(" messages; ")
                .append(n)
                .append(" other events")
                .toString();
    }

    /** Closes the endpoint (aborting what is left) and the stack thread; the pcap stays open. */
    @Override
    public void close() {
        thread.close();
    }
}
