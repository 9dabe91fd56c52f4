package org.sctpj.api.socket;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.nio.sctp.Association;
import com.sun.nio.sctp.MessageInfo;
import com.sun.nio.sctp.SctpChannel;
import com.sun.nio.sctp.SctpMultiChannel;
import com.sun.nio.sctp.SctpServerChannel;
import com.sun.nio.sctp.SctpStandardSocketOptions;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.sctpj.api.callback.CallbackRuntime;
import org.sctpj.stack.SctpOptions;
import org.sctpj.timers.StackConfig;
import org.sctpj.timers.StackRuntime;

/**
 * One selector thread serves 1,000 one-to-one channels (accepted from one server channel) and a
 * one-to-many channel with 1,000 associations, echoing every message; the selector thread's CPU
 * time over an idle second between two bursts shows that an idle selector does not poll.
 *
 * <p>The peers are 2,000 one-to-one channels, 1,000 connected to each server, each on its own stack
 * thread so that every stack thread sleeps in its socket's selector when idle (a stack thread
 * with several endpoints polls them).
 */
@Timeout(300)
class SelectorScaleTest {

    static final int PEERS = Integer.getInteger("sctpj.test.peers", 1000);
    /**
     * RFC 9260's timers (not the LAN profile: with 2,000 associations on two busy cores, its 50 ms
     * heartbeats and 20-100 ms RTOs would count a late answer as a lost path), small buffers.
     */
    static final SctpOptions OPTS = SctpOptions.DEFAULTS.toBuilder()
            .sendBufferBytes(64 << 10)
            .receiveBufferBytes(64 << 10)
            .build();

    /** What the selector thread saw: messages by channel or association, and its turns. */
    static final class Served {
        final ConcurrentHashMap<String, Integer> byPeer = new ConcurrentHashMap<>();
        final AtomicLong messages = new AtomicLong();
        final AtomicLong wakeups = new AtomicLong();
        /** Echoes that waited for OP_WRITE. */
        final AtomicLong writeWaits = new AtomicLong();

        volatile Thread thread;
        volatile boolean stop;
    }

    @Test
    void oneSelectorThreadServesTwoThousandAssociationsAndSleepsWhenIdle() throws Exception {
        InetAddress lo = InetAddress.getByName("127.0.0.1");
        List<AutoCloseable> toClose = new ArrayList<>();
        // The native UDP path reserves megabytes of direct memory per socket: too much for 2,000.
        String nativeIo = System.setProperty("sctpj.udp.nativeIo", "off");
        try (StackRuntime serverRt = StackRuntime.start(1, StackConfig.DEFAULT.withName("srv"));
                StackRuntime peerRt1 = StackRuntime.start(PEERS, StackConfig.DEFAULT.withName("peer1"));
                StackRuntime peerRt2 = StackRuntime.start(PEERS, StackConfig.DEFAULT.withName("peer2"))) {
            SctpProvider sp =
                    SctpProvider.of(CallbackRuntime.of(serverRt), OPTS).withUdpPorts(0, 9899);
            SctpServerChannel server = sp.openServerChannel();
            toClose.add(server);
            server.setOption(
                    SctpStandardSocketOptions.SCTP_INIT_MAXSTREAMS,
                    SctpStandardSocketOptions.InitMaxStreams.create(8, 8));
            server.bind(new InetSocketAddress(lo, 0), PEERS + 10);
            SctpMultiChannel multi = sp.openMultiChannel();
            toClose.add(multi);
            multi.bind(new InetSocketAddress(lo, 0));
            InetSocketAddress serverAddr =
                    (InetSocketAddress) server.getAllLocalAddresses().iterator().next();
            InetSocketAddress multiAddr =
                    (InetSocketAddress) multi.getAllLocalAddresses().iterator().next();
            int serverUdp = ((SctpjServerChannel) server).udpPort();
            int multiUdp = ((SctpjMultiChannel) multi).udpPort();

            Selector sel = sp.openSelector();
            toClose.add(sel);
            server.configureBlocking(false);
            server.register(sel, SelectionKey.OP_ACCEPT);
            multi.configureBlocking(false);
            multi.register(sel, SelectionKey.OP_READ, new ArrayDeque<Object[]>());
            Served served = new Served();
            Thread loop = new Thread(() -> serve(sel, served), "selector");
            served.thread = loop;
            loop.start();

            List<SctpjChannel> peers = new ArrayList<>();
            for (int i = 0; i < 2 * PEERS; i++) {
                boolean toMulti = i >= PEERS;
                SctpjChannel p = SctpProvider.of(CallbackRuntime.of(toMulti ? peerRt2 : peerRt1), OPTS)
                        .withUdpPorts(0, toMulti ? multiUdp : serverUdp)
                        .openSctpChannel();
                toClose.add(p);
                assertTrue(p.connect(toMulti ? multiAddr : serverAddr, Duration.ofSeconds(20)));
                peers.add(p);
            }

            burst(peers, 0);
            awaitCount(served, 2L * PEERS);
            readEchoes(peers, 0);
            assertEquals(2 * PEERS, served.byPeer.size());

            // Idle: no message, no readiness change. The selector thread must sleep.
            Thread.sleep(300);
            ThreadMXBean mx = ManagementFactory.getThreadMXBean();
            long cpu0 = mx.getThreadCpuTime(loop.getId());
            long turns0 = served.wakeups.get();
            Thread.sleep(1000);
            long idleCpuNanos = mx.getThreadCpuTime(loop.getId()) - cpu0;
            // parked without a time limit (a timed poll would show TIMED_WAITING)
            assertEquals(Thread.State.WAITING, loop.getState());
            long idleTurns = served.wakeups.get() - turns0;
            System.out.printf(
                    "selector thread over an idle second: %.3f ms CPU, %d select returns%n",
                    idleCpuNanos / 1e6, idleTurns);
            assertTrue(idleCpuNanos < TimeUnit.MILLISECONDS.toNanos(20), "idle CPU " + idleCpuNanos + " ns");
            assertTrue(idleTurns <= 2, "select returned " + idleTurns + " times while idle");

            burst(peers, 1);
            awaitCount(served, 4L * PEERS);
            readEchoes(peers, 1);
            for (var e : served.byPeer.entrySet()) {
                assertEquals(2, e.getValue(), "messages of peer " + e.getKey());
            }
            System.out.println("echoes that waited for OP_WRITE: " + served.writeWaits.get());
            served.stop = true;
            sel.wakeup();
            loop.join(5000);
        } finally {
            if (nativeIo == null) {
                System.clearProperty("sctpj.udp.nativeIo");
            } else {
                System.setProperty("sctpj.udp.nativeIo", nativeIo);
            }
            for (AutoCloseable c : toClose) {
                try {
                    c.close();
                } catch (Exception e) {
                    // closing anyway
                }
            }
        }
    }

    static String text(int peer, int burst) {
        return peer + "/" + burst;
    }

    /** Each peer sends one message, on stream {@code i % 8} with PPID {@code i}. */
    static void burst(List<SctpjChannel> peers, int burst) throws IOException {
        for (int i = 0; i < peers.size(); i++) {
            String text = text(i, burst);
            assertEquals(
                    text.length(),
                    peers.get(i)
                            .send(
                                    ByteBuffer.wrap(text.getBytes(StandardCharsets.US_ASCII)),
                                    MessageInfo.createOutgoing(null, i % 8).payloadProtocolID(i)));
        }
    }

    /** Every peer gets both echoes back, on the stream and with the PPID it sent. */
    static void readEchoes(List<SctpjChannel> peers, int burst) throws IOException {
        ByteBuffer buf = ByteBuffer.allocate(256);
        for (int i = 0; i < peers.size(); i++) {
            MessageInfo mi;
            List<Object> notes = new ArrayList<>();
            do {
                mi = peers.get(i)
                        .receive(
                                buf.clear(),
                                notes,
                                (n, l) -> {
                                    l.add(n);
                                    return com.sun.nio.sctp.HandlerResult.CONTINUE;
                                },
                                Duration.ofSeconds(20));
                assertNotNull(mi, "peer " + i + " waits for its echo");
            } while (mi.bytes() == 0);
            assertTrue(mi.bytes() > 0, "peer " + i + ": end of stream after " + notes);
            assertEquals(i % 8, mi.streamNumber());
            assertEquals(i, mi.payloadProtocolID());
            assertEquals(text(i, burst), new String(buf.array(), 0, buf.position(), StandardCharsets.US_ASCII));
        }
    }

    static void awaitCount(Served s, long n) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        while (s.messages.get() < n) {
            assertTrue(System.nanoTime() < deadline, "messages served: " + s.messages.get() + " of " + n);
            Thread.sleep(20);
        }
        assertEquals(n, s.messages.get());
    }

    /** The selector thread: accepts, reads and echoes; never blocks but in select. */
    static void serve(Selector sel, Served s) {
        ByteBuffer buf = ByteBuffer.allocate(256);
        try {
            while (!s.stop) {
                sel.select();
                s.wakeups.incrementAndGet();
                for (var it = sel.selectedKeys().iterator(); it.hasNext(); ) {
                    SelectionKey k = it.next();
                    it.remove();
                    if (!k.isValid()) {
                        continue;
                    }
                    if (k.isWritable()) {
                        flush(k, s);
                    }
                    if (k.isAcceptable()) {
                        SctpChannel ch;
                        while ((ch = ((SctpServerChannel) k.channel()).accept()) != null) {
                            ch.configureBlocking(false);
                            ch.register(sel, SelectionKey.OP_READ, new ArrayDeque<Object[]>());
                        }
                    } else if (k.isReadable() && k.channel() instanceof SctpChannel ch) {
                        MessageInfo mi;
                        while ((mi = ch.receive(buf.clear(), null, null)) != null) {
                            if (mi.bytes() < 0) {
                                k.cancel();
                                break;
                            }
                            String t = new String(buf.array(), 0, buf.position(), StandardCharsets.US_ASCII);
                            s.byPeer.merge(t.substring(0, t.indexOf('/')), 1, Integer::sum);
                            s.messages.incrementAndGet();
                            echo(
                                    k,
                                    buf.flip(),
                                    MessageInfo.createOutgoing(null, mi.streamNumber())
                                            .payloadProtocolID(mi.payloadProtocolID()),
                                    s);
                        }
                    } else if (k.isReadable() && k.channel() instanceof SctpMultiChannel m) {
                        MessageInfo mi;
                        while ((mi = m.receive(buf.clear(), null, null)) != null) {
                            String t = new String(buf.array(), 0, buf.position(), StandardCharsets.US_ASCII);
                            Association a = mi.association();
                            s.byPeer.merge(t.substring(0, t.indexOf('/')), 1, Integer::sum);
                            s.messages.incrementAndGet();
                            echo(
                                    k,
                                    buf.flip(),
                                    MessageInfo.createOutgoing(a, null, mi.streamNumber())
                                            .payloadProtocolID(mi.payloadProtocolID()),
                                    s);
                        }
                    }
                }
            }
        } catch (IOException e) {
            throw new RuntimeException(e);
        }
    }

    /**
     * Sends an echo, or keeps it for OP_WRITE when the channel has no room now (a non-blocking
     * send returns 0, e.g. before the stack published the new association's send space).
     */
    static void echo(SelectionKey k, ByteBuffer data, MessageInfo out, Served s) throws IOException {
        ByteBuffer copy = ByteBuffer.allocate(data.remaining()).put(data).flip();
        pending(k).add(new Object[] {copy, out});
        flush(k, s);
    }

    @SuppressWarnings("unchecked")
    static ArrayDeque<Object[]> pending(SelectionKey k) {
        return (ArrayDeque<Object[]>) k.attachment();
    }

    /** Sends the kept echoes in order; waits for OP_WRITE if one does not fit. */
    static void flush(SelectionKey k, Served s) throws IOException {
        ArrayDeque<Object[]> q = pending(k);
        while (!q.isEmpty()) {
            ByteBuffer b = (ByteBuffer) q.peek()[0];
            MessageInfo mi = (MessageInfo) q.peek()[1];
            int n = k.channel() instanceof SctpChannel c ? c.send(b, mi) : ((SctpMultiChannel) k.channel()).send(b, mi);
            if (n == 0) {
                s.writeWaits.incrementAndGet();
                k.interestOps(SelectionKey.OP_READ | SelectionKey.OP_WRITE);
                return;
            }
            q.poll();
        }
        k.interestOps(SelectionKey.OP_READ);
    }
}
