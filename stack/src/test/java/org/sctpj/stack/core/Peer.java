package org.sctpj.stack.core;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.sctpj.stack.Endpoint;
import org.sctpj.stack.SctpEvent;
import org.sctpj.stack.SctpOptions;
import org.sctpj.stack.Transmit;
import org.sctpj.stack.wire.ChecksumPolicy;
import org.sctpj.stack.wire.SctpPacket;
import org.sctpj.stack.wire.chunk.Chunk;

/**
 * A hand-driven peer for exact tests of one {@link Endpoint}: the test writes packets as the
 * remote side and reads every packet and event the endpoint produces.
 */
final class Peer {
    static final InetAddress LOCAL = ip(192, 0, 2, 1);
    static final InetAddress REMOTE = ip(192, 0, 2, 2);
    static final int LOCAL_PORT = 5000;
    static final int REMOTE_PORT = 6000;

    final Endpoint ep;
    final List<SctpEvent> events = new ArrayList<>();
    long now;

    Peer(SctpOptions o, long seed) {
        ep = new Endpoint(LOCAL_PORT, List.of(LOCAL), o, new SplittableRandom(seed), 0);
    }

    static InetAddress ip(int a, int b, int c, int d) {
        try {
            return InetAddress.getByAddress(new byte[] {(byte) a, (byte) b, (byte) c, (byte) d});
        } catch (UnknownHostException e) {
            throw new AssertionError(e);
        }
    }

    /** Delivers a packet from the remote side with the given tag and chunks. */
    void deliver(int vtag, Chunk... chunks) {
        deliverRaw(SctpPacket.of(REMOTE_PORT, LOCAL_PORT, vtag, chunks).toBytes());
    }

    void deliverRaw(byte[] packet) {
        deliverRawFrom(REMOTE, packet);
    }

    /** Delivers a packet from the remote side's address {@code from}. */
    void deliverFrom(InetAddress from, int vtag, Chunk... chunks) {
        deliverRawFrom(
                from, SctpPacket.of(REMOTE_PORT, LOCAL_PORT, vtag, chunks).toBytes());
    }

    void deliverRawFrom(InetAddress from, byte[] packet) {
        ep.handleInput(ByteBuffer.wrap(packet), from, LOCAL, now);
        drainEvents();
    }

    /** A packet the endpoint sent, decoded, with its destination. */
    record Out(SctpPacket packet, InetAddress destination) {}

    /** As {@link #sent()}, with each packet's destination. */
    List<Out> sentWithDestinations() {
        List<Out> out = new ArrayList<>();
        Transmit t;
        while ((t = ep.pollTransmit(now).orElse(null)) != null) {
            out.add(new Out(
                    SctpPacket.decode(ByteBuffer.wrap(t.packet()), ChecksumPolicy.VERIFY)
                            .value(),
                    t.destination()));
        }
        drainEvents();
        return out;
    }

    void drainEvents() {
        SctpEvent e;
        while ((e = ep.pollEvent().orElse(null)) != null) {
            events.add(e);
        }
    }

    /** Every packet the endpoint wants to send now, decoded. */
    List<SctpPacket> sent() {
        List<SctpPacket> out = new ArrayList<>();
        Transmit t;
        while ((t = ep.pollTransmit(now).orElse(null)) != null) {
            out.add(SctpPacket.decode(ByteBuffer.wrap(t.packet()), ChecksumPolicy.VERIFY)
                    .value());
        }
        drainEvents();
        return out;
    }

    /** Advances time, running due timers. */
    void advance(long nanos) {
        long target = now + nanos;
        while (ep.nextTimeout() <= target) {
            now = Math.max(now, ep.nextTimeout());
            ep.handleTimeout(now);
        }
        now = target;
        drainEvents();
    }
}
