package org.sctpj.bench.runner;

import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.sctpj.api.callback.CallbackSocket;
import org.sctpj.api.callback.Callbacks;
import org.sctpj.api.callback.LowerLayerFactory;
import org.sctpj.llp.udp.UdpConfig;
import org.sctpj.llp.udp.UdpEncapsulation;
import org.sctpj.stack.AssociationId;
import org.sctpj.stack.SctpEvent;
import org.sctpj.stack.SctpOptions;
import org.sctpj.stack.SendInfo;
import org.sctpj.stack.SendStatus;
import org.sctpj.timers.StackConfig;
import org.sctpj.timers.StackRuntime;

/**
 * One sctpj benchmark process over UDP encapsulation on 127.0.0.1 (LAN profile, MTU 1500), with
 * either the callback API ({@code api=callback}) or the blocking adaptor ({@code api=socket},
 * {@link BlockingSocket}). Modes: {@code sink} and {@code bulk} (throughput), {@code echo} and
 * {@code ping} (30-byte round trips with the I bit and no Nagle delay). Servers bind UDP port 0
 * and print {@code PEER-READY udp=PORT}; every process ends with one {@code PEER-RESULT} line.
 */
final class SctpPeer {
    static final int SERVER_PORT = 5001;
    static final int CLIENT_PORT = 5002;
    static final InetAddress LOCAL = InetAddress.getLoopbackAddress();

    private final String mode;
    private final Args args;
    private final boolean socketApi;
    private final StackRuntime runtime = StackRuntime.start(1, StackConfig.DEFAULT.withName("bench"));
    private UdpEncapsulation udp;
    private final CountDownLatch up = new CountDownLatch(1);
    private final CountDownLatch ended = new CountDownLatch(1);
    private final CountDownLatch done = new CountDownLatch(1);
    private volatile AssociationId assoc;
    private BlockingSocket blocking;

    SctpPeer(String mode, Args args) {
        this.mode = mode;
        this.args = args;
        this.socketApi = args.str("api", "callback").equals("socket");
    }

    private SctpOptions options() {
        SctpOptions.Builder b = SctpOptions.LAN.toBuilder();
        if (mode.equals("echo") || mode.equals("ping")) {
            b.noDelay(true);
        }
        return b.build();
    }

    private LowerLayerFactory layers(int remoteUdp) {
        return (port, addresses) -> {
            UdpConfig.Builder c = UdpConfig.builder().localPort(0).bindAddresses(addresses);
            if (remoteUdp > 0) {
                c.defaultRemotePort(remoteUdp);
            }
            udp = UdpEncapsulation.open(c.build());
            return udp;
        };
    }

    int run() throws Exception {
        double timeout = args.dbl("timeout", 60);
        try {
            return switch (mode) {
                case "sink" -> sink(timeout);
                case "bulk" -> bulk(timeout);
                case "echo" -> echo(timeout);
                case "ping" -> ping(timeout);
                default -> throw new IllegalArgumentException("sctp modes: sink bulk echo ping, not " + mode);
            };
        } finally {
            runtime.close();
        }
    }

    /** Callbacks common to every mode: association state and the adaptor's hooks. */
    private abstract class Base implements Callbacks {
        @Override
        public void onMessage(CallbackSocket s, SctpEvent.MessageReceived m) {
            if (blocking != null) {
                blocking.delivered(m);
            }
        }

        @Override
        public void onSendSpace(CallbackSocket s, AssociationId id, long free) {
            if (blocking != null) {
                blocking.spaceFreed();
            }
        }

        @Override
        public void onAssociationChange(CallbackSocket s, SctpEvent.AssociationChange c) {
            switch (c.type()) {
                case COMMUNICATION_UP -> {
                    assoc = c.association();
                    up.countDown();
                }
                case SHUTDOWN_COMPLETE, COMMUNICATION_LOST, CANT_START -> {
                    up.countDown();
                    ended.countDown();
                }
                default -> {}
            }
        }
    }

    private CallbackSocket server(Callbacks cb) throws Exception {
        CallbackSocket s = CallbackSocket.open(runtime, options(), layers(0), cb);
        s.bind(SERVER_PORT, List.of(LOCAL));
        s.listen();
        if (socketApi) {
            blocking = new BlockingSocket(s);
        }
        System.out.println("PEER-READY udp=" + udp.localPort());
        System.out.flush();
        return s;
    }

    private CallbackSocket client(Callbacks cb) throws Exception {
        CallbackSocket s = CallbackSocket.open(runtime, options(), layers(args.integer("remote-udp", 9899)), cb);
        s.bind(CLIENT_PORT, List.of(LOCAL));
        if (socketApi) {
            blocking = new BlockingSocket(s);
        }
        s.connect(List.of(LOCAL), SERVER_PORT);
        if (!up.await(10, TimeUnit.SECONDS) || assoc == null) {
            throw new IllegalStateException("association did not come up");
        }
        return s;
    }

    private static void result(String status, String rest) {
        System.out.println("PEER-RESULT status=" + status + " " + rest);
        System.out.flush();
    }

    // ------------------------------------------------------------------ throughput

    private int sink(double timeout) throws Exception {
        RateMeter meter = new RateMeter(args.dbl("warmup", 0.5));
        CallbackSocket s = server(new Base() {
            @Override
            public void onMessage(CallbackSocket s, SctpEvent.MessageReceived m) {
                if (blocking != null) {
                    blocking.delivered(m);
                } else {
                    meter.add(m.data().length);
                }
            }
        });
        long deadline = System.nanoTime() + (long) (timeout * 1e9);
        if (blocking != null) {
            while (ended.getCount() > 0 && System.nanoTime() < deadline) {
                SctpEvent.MessageReceived m = blocking.receive(TimeUnit.MILLISECONDS.toNanos(50));
                if (m != null) {
                    meter.add(m.data().length);
                }
            }
            SctpEvent.MessageReceived m;
            while ((m = blocking.receive(0)) != null) {
                meter.add(m.data().length);
            }
        } else {
            ended.await((long) (timeout * 1e9), TimeUnit.NANOSECONDS);
        }
        s.close();
        result(ended.getCount() == 0 ? "ok" : "timeout", meter.result());
        return 0;
    }

    private int bulk(double timeout) throws Exception {
        int size = args.integer("size", 1000);
        long threshold = args.integer("threshold", 0);
        long durationNanos = (long) (args.dbl("duration", 2) * 1e9);
        AtomicLong sent = new AtomicLong();
        SendInfo info = SendInfo.of(0, 51);
        ByteBuffer message = ByteBuffer.allocate(size);
        long[] stopAt = {Long.MAX_VALUE};
        boolean[] finished = {false};
        AtomicLong callbacks = new AtomicLong();
        CallbackSocket s = client(new Base() {
            @Override
            public void onSendSpace(CallbackSocket s, AssociationId id, long free) {
                if (blocking != null) {
                    blocking.spaceFreed();
                    return;
                }
                callbacks.incrementAndGet();
                pump(s, id);
            }

            void pump(CallbackSocket s, AssociationId id) {
                if (finished[0]) {
                    return;
                }
                long n = 0;
                while (true) {
                    if ((n & 15) == 0 && System.nanoTime() >= stopAt[0]) {
                        finished[0] = true;
                        done.countDown();
                        break;
                    }
                    message.clear();
                    if (s.send(id, info, message) != SendStatus.ACCEPTED) {
                        break;
                    }
                    n++;
                }
                sent.addAndGet(n);
            }

            @Override
            public void onAssociationChange(CallbackSocket s, SctpEvent.AssociationChange c) {
                super.onAssociationChange(s, c);
                if (c.type() == SctpEvent.AssociationChangeType.COMMUNICATION_UP && blocking == null) {
                    s.setSendThreshold(threshold);
                    stopAt[0] = System.nanoTime() + durationNanos;
                    pump(s, c.association());
                }
            }
        });
        long t0 = System.nanoTime();
        if (blocking != null) {
            long stop = t0 + durationNanos;
            long n = 0;
            while (System.nanoTime() < stop) {
                message.clear();
                blocking.send(assoc, info, message);
                n++;
            }
            sent.set(n);
        } else {
            done.await((long) (timeout * 1e9), TimeUnit.NANOSECONDS);
        }
        long sendEnd = System.nanoTime();
        s.shutdown(assoc);
        boolean closed = ended.await((long) (timeout * 1e9), TimeUnit.NANOSECONDS);
        long t1 = System.nanoTime();
        s.close();
        result(
                closed ? "ok" : "timeout",
                String.format(
                        java.util.Locale.ROOT,
                        "tx_msgs=%d tx_bytes=%d send_s=%.3f acked_s=%.3f tx_mb_per_s=%.3f send_callbacks=%d",
                        sent.get(),
                        sent.get() * size,
                        (sendEnd - t0) / 1e9,
                        (t1 - t0) / 1e9,
                        sent.get() * size / ((t1 - t0) / 1e9) / 1e6,
                        callbacks.get()));
        return 0;
    }

    // ------------------------------------------------------------------ latency

    private int echo(double timeout) throws Exception {
        CallbackSocket s = server(new Base() {
            @Override
            public void onMessage(CallbackSocket s, SctpEvent.MessageReceived m) {
                if (blocking != null) {
                    blocking.delivered(m);
                    return;
                }
                s.send(m.association(), new SendInfo(m.streamId(), m.ppid(), false, true), ByteBuffer.wrap(m.data()));
            }
        });
        long deadline = System.nanoTime() + (long) (timeout * 1e9);
        long echoed = 0;
        if (blocking != null) {
            while (ended.getCount() > 0 && System.nanoTime() < deadline) {
                SctpEvent.MessageReceived m = blocking.receive(TimeUnit.MILLISECONDS.toNanos(50));
                if (m != null) {
                    blocking.send(
                            m.association(),
                            new SendInfo(m.streamId(), m.ppid(), false, true),
                            ByteBuffer.wrap(m.data()));
                    echoed++;
                }
            }
        } else {
            ended.await((long) (timeout * 1e9), TimeUnit.NANOSECONDS);
        }
        s.close();
        result(ended.getCount() == 0 ? "ok" : "timeout", "echoed=" + echoed);
        return 0;
    }

    private int ping(double timeout) throws Exception {
        int size = args.integer("size", 30);
        int warmup = args.integer("warmup", 2000);
        int messages = args.integer("messages", 5000);
        Rtt rtt = new Rtt(messages);
        SendInfo info = new SendInfo(0, 51, false, true);
        long[] t0 = {0};
        int[] count = {0};
        CallbackSocket s = client(new Base() {
            @Override
            public void onMessage(CallbackSocket s, SctpEvent.MessageReceived m) {
                if (blocking != null) {
                    blocking.delivered(m);
                    return;
                }
                long t = System.nanoTime();
                if (count[0]++ >= warmup) {
                    rtt.add(t - t0[0]);
                }
                if (count[0] >= warmup + messages) {
                    done.countDown();
                    return;
                }
                t0[0] = System.nanoTime();
                s.send(assoc, info, ByteBuffer.allocate(size));
            }
        });
        if (blocking != null) {
            ByteBuffer b = ByteBuffer.allocate(size);
            for (int i = 0; i < warmup + messages; i++) {
                b.clear();
                long t = System.nanoTime();
                blocking.send(assoc, info, b);
                if (blocking.receive(TimeUnit.SECONDS.toNanos(5)) == null) {
                    throw new IllegalStateException("no echo within 5 s");
                }
                if (i >= warmup) {
                    rtt.add(System.nanoTime() - t);
                }
            }
        } else {
            s.stackThread().execute(() -> {
                t0[0] = System.nanoTime();
                s.send(assoc, info, ByteBuffer.allocate(size));
            });
            done.await((long) (timeout * 1e9), TimeUnit.NANOSECONDS);
        }
        s.shutdown(assoc);
        ended.await(5, TimeUnit.SECONDS);
        s.close(false, Duration.ZERO);
        result(rtt.count() == messages ? "ok" : "timeout", rtt.result());
        return 0;
    }
}
