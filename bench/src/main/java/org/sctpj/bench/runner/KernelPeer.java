package org.sctpj.bench.runner;

import java.io.EOFException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.Locale;

/**
 * The kernel contenders, in Java with blocking NIO channels so that they pay the same runtime costs
 * as sctpj (JIT, buffers, system calls through the JDK): TCP over loopback ({@code tcp-sink},
 * {@code tcp-bulk}: one {@code write} per message, Nagle on as for the SCTP bulk runs; {@code
 * tcp-echo}, {@code tcp-ping}: TCP_NODELAY), and a UDP packet blaster, the ceiling of any
 * UDP-encapsulated stack ({@code udp-sink}, {@code udp-blast}, {@code udp-echo}, {@code udp-ping}).
 *
 * <p>The blaster sends, for messages of {@code size} bytes, datagrams of the size of a full SCTP
 * packet carrying such messages with a 1500-byte MTU (12-byte common header plus as many 16-byte
 * DATA chunk headers and padded messages as fit in 1472 bytes; for messages over 1444 bytes,
 * 1472-byte datagrams, which is how fragments travel), and counts at the receiver the user bytes
 * those packets would carry. No congestion control: what the kernel drops is not counted.
 */
final class KernelPeer {
    static final InetAddress LOCAL = InetAddress.getLoopbackAddress();
    static final int UDP_PAYLOAD = 1472;

    private KernelPeer() {}

    /** Datagram bytes of a full SCTP packet of messages of {@code size} bytes. */
    static int datagramBytes(int size) {
        if (size > UDP_PAYLOAD - 12 - 16) {
            return UDP_PAYLOAD;
        }
        int per = 16 + ((size + 3) & ~3);
        int k = (UDP_PAYLOAD - 12) / per;
        return 12 + k * per;
    }

    /** User bytes such a datagram carries. */
    static int userBytes(int size) {
        if (size > UDP_PAYLOAD - 12 - 16) {
            return UDP_PAYLOAD - 12 - 16;
        }
        int per = 16 + ((size + 3) & ~3);
        return (UDP_PAYLOAD - 12) / per * size;
    }

    static int run(String mode, Args a) throws Exception {
        return switch (mode) {
            case "tcp-sink" -> tcpSink(a);
            case "tcp-bulk" -> tcpBulk(a);
            case "tcp-echo" -> tcpEcho(a);
            case "tcp-ping" -> tcpPing(a);
            case "udp-sink" -> udpSink(a, false);
            case "udp-blast" -> udpBlast(a, false);
            case "udp-acked-sink" -> udpSink(a, true);
            case "udp-acked-blast" -> udpBlast(a, true);
            case "udp-echo" -> udpEcho(a);
            case "udp-ping" -> udpPing(a);
            default -> throw new IllegalArgumentException("unknown mode " + mode);
        };
    }

    private static void ready(int port) {
        System.out.println("PEER-READY port=" + port);
        System.out.flush();
    }

    private static void result(String rest) {
        System.out.println("PEER-RESULT status=ok " + rest);
        System.out.flush();
    }

    // ------------------------------------------------------------------ TCP

    private static int tcpSink(Args a) throws Exception {
        RateMeter m = new RateMeter(a.dbl("warmup", 0.5));
        try (ServerSocketChannel ss = ServerSocketChannel.open()) {
            ss.bind(new InetSocketAddress(LOCAL, 0));
            ready(((InetSocketAddress) ss.getLocalAddress()).getPort());
            try (SocketChannel c = ss.accept()) {
                ByteBuffer b = ByteBuffer.allocateDirect(256 << 10);
                int n;
                while ((n = c.read(b)) >= 0) {
                    m.add(n);
                    b.clear();
                }
            }
        }
        result(m.result());
        return 0;
    }

    private static int tcpBulk(Args a) throws Exception {
        int size = a.integer("size", 1000);
        long duration = (long) (a.dbl("duration", 2) * 1e9);
        ByteBuffer msg = ByteBuffer.allocateDirect(size);
        long sent = 0;
        long t0 = System.nanoTime();
        try (SocketChannel c = SocketChannel.open(new InetSocketAddress(LOCAL, a.integer("port", 0)))) {
            long stop = System.nanoTime() + duration;
            while (System.nanoTime() < stop) {
                msg.clear();
                while (msg.hasRemaining()) {
                    c.write(msg);
                }
                sent++;
            }
        }
        double s = (System.nanoTime() - t0) / 1e9;
        result(String.format(Locale.ROOT, "tx_msgs=%d tx_mb_per_s=%.3f", sent, sent * size / s / 1e6));
        return 0;
    }

    private static void readFully(SocketChannel c, ByteBuffer b) throws Exception {
        while (b.hasRemaining()) {
            if (c.read(b) < 0) {
                throw new EOFException();
            }
        }
    }

    private static int tcpEcho(Args a) throws Exception {
        int size = a.integer("size", 30);
        long echoed = 0;
        try (ServerSocketChannel ss = ServerSocketChannel.open()) {
            ss.bind(new InetSocketAddress(LOCAL, 0));
            ready(((InetSocketAddress) ss.getLocalAddress()).getPort());
            try (SocketChannel c = ss.accept()) {
                c.setOption(StandardSocketOptions.TCP_NODELAY, true);
                ByteBuffer b = ByteBuffer.allocateDirect(size);
                while (true) {
                    b.clear();
                    try {
                        readFully(c, b);
                    } catch (EOFException e) {
                        break;
                    }
                    b.flip();
                    while (b.hasRemaining()) {
                        c.write(b);
                    }
                    echoed++;
                }
            }
        }
        result("echoed=" + echoed);
        return 0;
    }

    private static int tcpPing(Args a) throws Exception {
        int size = a.integer("size", 30);
        Warmup warm = Warmup.of(a);
        int messages = a.integer("messages", 5000);
        Rtt rtt = new Rtt(messages);
        try (SocketChannel c = SocketChannel.open(new InetSocketAddress(LOCAL, a.integer("port", 0)))) {
            c.setOption(StandardSocketOptions.TCP_NODELAY, true);
            ByteBuffer b = ByteBuffer.allocateDirect(size);
            while (rtt.count() < messages) {
                b.clear();
                long t = System.nanoTime();
                while (b.hasRemaining()) {
                    c.write(b);
                }
                b.clear();
                readFully(c, b);
                long t1 = System.nanoTime();
                if (warm.counts(t1)) {
                    rtt.add(t1 - t);
                }
            }
        }
        result(rtt.result());
        return 0;
    }

    // ------------------------------------------------------------------ UDP

    private static DatagramChannel udp() throws Exception {
        DatagramChannel d = DatagramChannel.open();
        d.setOption(StandardSocketOptions.SO_RCVBUF, 4 << 20);
        d.setOption(StandardSocketOptions.SO_SNDBUF, 4 << 20);
        d.bind(new InetSocketAddress(LOCAL, 0));
        return d;
    }

    /** Bytes of the acknowledgement datagram: an SCTP common header and a SACK chunk without gaps. */
    static final int ACK_BYTES = 12 + 16;

    /**
     * Counts the datagrams of {@link #udpBlast} as the user bytes they stand for. With {@code
     * acked} ({@code udp-acked-sink}) it also sends one {@value #ACK_BYTES}-byte datagram back to
     * the sender for every second datagram (one {@code send} each): the system calls a receiver
     * makes when it SACKs every second packet (RFC 9260 section 6.2).
     */
    private static int udpSink(Args a, boolean acked) throws Exception {
        int size = a.integer("size", 1000);
        int user = userBytes(size);
        RateMeter m = new RateMeter(a.dbl("warmup", 0.5));
        long datagrams = 0;
        try (DatagramChannel d = udp()) {
            ready(((InetSocketAddress) d.getLocalAddress()).getPort());
            ByteBuffer b = ByteBuffer.allocateDirect(65536);
            ByteBuffer ack = ByteBuffer.allocateDirect(ACK_BYTES);
            while (true) {
                b.clear();
                java.net.SocketAddress from = d.receive(b);
                if (b.position() == 1) {
                    break; // the end marker
                }
                datagrams++;
                m.add(user);
                if (acked && (datagrams & 1) == 0) {
                    ack.clear();
                    ack.putLong(12, datagrams);
                    d.send(ack, from);
                }
            }
        }
        result("datagrams=" + datagrams + " datagram_bytes=" + datagramBytes(size) + " " + m.result());
        return 0;
    }

    /**
     * Sends datagrams the size of a full SCTP packet of {@code size}-byte messages, one {@code
     * write} each, for the duration. With {@code acked} ({@code udp-acked-blast}, non-blocking) it
     * also reads one acknowledgement (one {@code read}, which may find none) after every second
     * datagram: with the acked sink, the system calls of a sender and a receiver that exchange a
     * SACK for every second packet, and nothing else (no congestion control, no window).
     */
    private static int udpBlast(Args a, boolean acked) throws Exception {
        int size = a.integer("size", 1000);
        long duration = (long) (a.dbl("duration", 2) * 1e9);
        ByteBuffer pkt = ByteBuffer.allocateDirect(datagramBytes(size));
        ByteBuffer ack = ByteBuffer.allocateDirect(ACK_BYTES);
        long sent = 0;
        long acks = 0;
        CpuMeter cpu = new CpuMeter();
        int user = userBytes(size);
        try (DatagramChannel d = udp()) {
            d.connect(new InetSocketAddress(LOCAL, a.integer("port", 0)));
            d.configureBlocking(!acked);
            long start = System.nanoTime();
            long stop = start + duration;
            long measureAt = start + Math.min((long) (a.dbl("warmup", 1.5) * 1e9), duration / 2);
            long now;
            while ((now = System.nanoTime()) < stop) {
                if (now >= measureAt && !cpu.started()) {
                    cpu.start(sent * user); // the user bytes the datagrams stand for, as the sink counts
                }
                pkt.clear();
                if (d.write(pkt) > 0) {
                    sent++;
                    if (acked && (sent & 1) == 0) {
                        ack.clear();
                        if (d.read(ack) > 0) {
                            acks++;
                        }
                    }
                }
            }
            cpu.stop(sent * user);
            d.configureBlocking(true);
            Thread.sleep(50);
            for (int i = 0; i < 20; i++) {
                try {
                    d.write(ByteBuffer.allocate(1)); // end markers, until the sink has gone
                } catch (java.io.IOException gone) {
                    break;
                }
                Thread.sleep(5);
            }
        }
        result("datagrams_sent=" + sent + (acked ? " acks_read=" + acks : "") + cpu.result());
        return 0;
    }

    private static int udpEcho(Args a) throws Exception {
        long echoed = 0;
        try (DatagramChannel d = udp()) {
            ready(((InetSocketAddress) d.getLocalAddress()).getPort());
            ByteBuffer b = ByteBuffer.allocateDirect(65536);
            while (true) {
                b.clear();
                InetSocketAddress from = (InetSocketAddress) d.receive(b);
                if (b.position() == 1) {
                    break;
                }
                b.flip();
                d.send(b, from);
                echoed++;
            }
        }
        result("echoed=" + echoed);
        return 0;
    }

    private static int udpPing(Args a) throws Exception {
        int size = a.integer("size", 30);
        Warmup warm = Warmup.of(a);
        int messages = a.integer("messages", 5000);
        Rtt rtt = new Rtt(messages);
        try (DatagramChannel d = udp()) {
            d.connect(new InetSocketAddress(LOCAL, a.integer("port", 0)));
            ByteBuffer b = ByteBuffer.allocateDirect(size);
            ByteBuffer r = ByteBuffer.allocateDirect(65536);
            while (rtt.count() < messages) {
                b.clear();
                long t = System.nanoTime();
                d.write(b);
                r.clear();
                d.read(r);
                long t1 = System.nanoTime();
                if (warm.counts(t1)) {
                    rtt.add(t1 - t);
                }
            }
            try {
                d.write(ByteBuffer.allocate(1)); // end marker
            } catch (java.io.IOException gone) {
                // the echo server has gone already
            }
        }
        result(rtt.result());
        return 0;
    }
}
