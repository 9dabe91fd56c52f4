package org.sctpj.sim;

import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Predicate;
import org.sctpj.sim.monitor.ConformanceMonitor;
import org.sctpj.stack.AssociationId;
import org.sctpj.stack.Endpoint;
import org.sctpj.stack.EventHandler;
import org.sctpj.stack.SctpEvent;
import org.sctpj.stack.Transmit;

/**
 * Adapts an sctpj {@link Endpoint} to the simulator: the reference driver of the core's calling
 * contract on a virtual clock. Events are drained after every call into the endpoint (or, with
 * {@link #useEventHandler()}, handed out by the endpoint itself at the end of each call) and given
 * to the listener (which may call back into the endpoint, e.g. to send more) and kept in {@link
 * #events()} for assertions.
 */
public final class EndpointNode implements SimNode {
    private Endpoint endpoint;
    private final List<SctpEvent> events = new ArrayList<>();
    private Consumer<SctpEvent> listener = e -> {};
    private Predicate<ByteBuffer> dropInbound = b -> false;
    private long droppedInbound;
    private boolean lastInputDropped;
    private boolean keepEvents = true;
    private long lastNow;
    private boolean bufferTransmit = Boolean.getBoolean("sctpj.sim.bufferTransmit");
    private final ByteBuffer txBuffer = ByteBuffer.allocateDirect(65535);
    private final ByteBuffer rx = ByteBuffer.allocateDirect(65536);
    private EventHandler handler;

    /** Wraps {@code endpoint}. */
    public EndpointNode(Endpoint endpoint) {
        this.endpoint = endpoint;
    }

    /** The endpoint. */
    public Endpoint endpoint() {
        return endpoint;
    }

    /** Sets the listener that sees each event as it is drained (on the simulator's thread). */
    public EndpointNode onEvent(Consumer<SctpEvent> l) {
        this.listener = l;
        return this;
    }

    /**
     * Drops inbound packets the predicate accepts before the endpoint sees them (for tests that
     * lose one chosen packet, e.g. the first COOKIE ECHO). The predicate sees a read-only view.
     */
    public EndpointNode dropInbound(Predicate<ByteBuffer> filter) {
        this.dropInbound = filter;
        return this;
    }

    /** Packets dropped by the {@link #dropInbound} filter. */
    public long droppedInbound() {
        return droppedInbound;
    }

    /** Replaces the endpoint, as when the host restarts and loses all association state. */
    public void replaceEndpoint(Endpoint fresh) {
        this.endpoint = fresh;
        if (handler != null) {
            fresh.setEventHandler(handler);
        }
    }

    /**
     * Receives through an {@link EventHandler} on the endpoint (events, and messages seen in
     * place, copied here into {@link SctpEvent.MessageReceived} events for the listener), handed
     * out by the endpoint at the end of each call, instead of polled events, so tests exercise
     * that route too. Kept across {@link #replaceEndpoint}.
     */
    public EndpointNode useEventHandler() {
        handler = new EventHandler() {
            @Override
            public void onEvent(SctpEvent e) {
                seen(e);
            }

            @Override
            public void onMessage(AssociationId assoc, int stream, int ppid, boolean unordered, ByteBuffer data) {
                byte[] copy = new byte[data.remaining()];
                data.duplicate().get(copy);
                seen(new SctpEvent.MessageReceived(assoc, stream, ppid, unordered, copy));
            }
        };
        endpoint.setEventHandler(handler);
        return this;
    }

    private void seen(SctpEvent e) {
        if (keepEvents) {
            events.add(e);
        }
        listener.accept(e);
    }

    /**
     * Takes packets through the endpoint's allocation-free {@code pollTransmit(ByteBuffer, long)}
     * into one reused direct buffer (as the stack thread does) instead of {@code Transmit} objects.
     * Also on for every node with {@code -Dsctpj.sim.bufferTransmit=true}.
     */
    public EndpointNode useBufferTransmit() {
        bufferTransmit = true;
        return this;
    }

    /** Whether events are also kept in {@link #events()} (on by default; off for long runs). */
    public EndpointNode keepEvents(boolean keep) {
        this.keepEvents = keep;
        return this;
    }

    /** The events seen so far, in order. */
    public List<SctpEvent> events() {
        return events;
    }

    /** The last time the simulator gave this node. */
    public long now() {
        return lastNow;
    }

    @Override
    public void handleInput(ByteBuffer packet, InetAddress from, InetAddress to, long nowNanos) {
        handleInput(packet, from, to, 0, nowNanos);
    }

    @Override
    public void handleInput(ByteBuffer packet, InetAddress from, InetAddress to, int ecn, long nowNanos) {
        lastNow = nowNanos;
        lastInputDropped = dropInbound.test(packet.asReadOnlyBuffer());
        if (lastInputDropped) {
            droppedInbound++;
            return;
        }
        // Like a lower layer, hand the packet over in one receive buffer reused for every packet:
        // the endpoint must not keep references into it past the call.
        rx.clear();
        rx.put(packet.duplicate());
        rx.flip();
        endpoint.handleInput(rx, from, to, ecn, nowNanos);
        // Scribble over what was read so a kept reference would show as corrupted data.
        for (int i = 0; i < rx.limit(); i++) {
            rx.put(i, (byte) 0x5a);
        }
        drainEvents();
    }

    @Override
    public void handleTimeout(long nowNanos) {
        lastNow = nowNanos;
        endpoint.handleTimeout(nowNanos);
        drainEvents();
    }

    @Override
    public long nextTimeout() {
        return endpoint.nextTimeout();
    }

    @Override
    public Outgoing pollTransmit(long nowNanos) {
        lastNow = nowNanos;
        drainEvents();
        if (bufferTransmit) {
            txBuffer.clear();
            InetAddress dest = endpoint.pollTransmit(txBuffer, nowNanos);
            drainEvents();
            if (dest == null) {
                return null;
            }
            ByteBuffer copy = ByteBuffer.allocate(txBuffer.remaining());
            copy.put(txBuffer).flip();
            return new Outgoing(
                    copy, endpoint.transmitSource(), dest, endpoint.transmitEcn(), endpoint.transmitFragmentable());
        }
        Transmit t = endpoint.pollTransmit(nowNanos).orElse(null);
        drainEvents();
        return t == null
                ? null
                : new Outgoing(ByteBuffer.wrap(t.packet()), t.source(), t.destination(), t.ecn(), t.fragmentable());
    }

    @Override
    public boolean lastInputDropped() {
        return lastInputDropped;
    }

    @Override
    public String lastTransmitState() {
        return endpoint.transmitState().orElse(ConformanceMonitor.NO_ASSOCIATION);
    }

    @Override
    public List<InetAddress> lastTransmitUserPeers() {
        return endpoint.transmitUserPeers();
    }

    /** Hands every pending event to the listener. */
    public void drainEvents() {
        SctpEvent e;
        while ((e = endpoint.pollEvent().orElse(null)) != null) {
            seen(e);
        }
    }
}
