package org.sctpj.sim.monitor;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.sctpj.sim.Side;

/**
 * Feeds a capture of two real SCTP endpoints (classic libpcap, Ethernet, IPv4, SCTP over raw IP or
 * UDP port 9899 as RFC 6951 encapsulation) through a {@link ConformanceMonitor}: each packet is
 * judged as its sender's emission, then delivered to the other side. The host side (10.99.0.1 and
 * 10.99.0.3) is {@link Side#A}, the other {@link Side#Z}. A capture does not say each sender's
 * association state, so it is inferred from the chunks each side sent and received (INIT:
 * COOKIE-WAIT, COOKIE ECHO: COOKIE-ECHOED, COOKIE ACK: ESTABLISHED, SHUTDOWN sent or received,
 * SHUTDOWN ACK, SHUTDOWN COMPLETE).
 */
final class PcapReplay {

    /** One SCTP packet of a capture: its frame number (from 1), time, sender, addresses and bytes. */
    record Frame(int number, long micros, Side from, InetAddress source, InetAddress destination, ByteBuffer sctp) {}

    private PcapReplay() {}

    /** The SCTP packets of a classic pcap file with Ethernet link type. */
    static List<Frame> read(InputStream in) throws IOException {
        ByteBuffer b = ByteBuffer.wrap(in.readAllBytes());
        int magic = b.order(ByteOrder.LITTLE_ENDIAN).getInt(0);
        if (magic != 0xa1b2c3d4 && magic != 0xa1b23c4d) {
            b.order(ByteOrder.BIG_ENDIAN);
            magic = b.getInt(0);
            if (magic != 0xa1b2c3d4 && magic != 0xa1b23c4d) {
                throw new IOException("not a classic pcap file");
            }
        }
        if (b.getInt(20) != 1) {
            throw new IOException("link type " + b.getInt(20) + ", not Ethernet");
        }
        List<Frame> out = new ArrayList<>();
        int n = 0;
        for (int off = 24; off + 16 <= b.limit(); ) {
            long micros = (b.getInt(off) & 0xffffffffL) * 1_000_000L + (b.getInt(off + 4) & 0xffffffffL);
            int caplen = b.getInt(off + 8);
            int pkt = off + 16;
            off = pkt + caplen;
            n++;
            if (off > b.limit()) {
                break;
            }
            ByteBuffer frame = b.duplicate().order(ByteOrder.BIG_ENDIAN);
            frame.position(pkt).limit(pkt + caplen);
            Frame f = sctpOf(n, micros, frame.slice());
            if (f != null) {
                out.add(f);
            }
        }
        return out;
    }

    private static Frame sctpOf(int number, long micros, ByteBuffer e) {
        if (e.limit() < 14 + 20 || (e.getShort(12) & 0xffff) != 0x0800) {
            return null;
        }
        int ip = 14;
        int ihl = (e.get(ip) & 0x0f) * 4;
        int total = e.getShort(ip + 2) & 0xffff;
        int proto = e.get(ip + 9) & 0xff;
        InetAddress src = address(e, ip + 12);
        InetAddress dst = address(e, ip + 16);
        int start = ip + ihl;
        int end = Math.min(e.limit(), ip + total);
        if (proto == 17) {
            if ((e.getShort(start) & 0xffff) != 9899 && (e.getShort(start + 2) & 0xffff) != 9899) {
                return null;
            }
            start += 8;
        } else if (proto != 132) {
            return null;
        }
        byte[] sctp = new byte[end - start];
        e.get(start, sctp);
        int last = src.getAddress()[3];
        Side from = last == 1 || last == 3 ? Side.A : Side.Z;
        return new Frame(number, micros, from, src, dst, ByteBuffer.wrap(sctp));
    }

    private static InetAddress address(ByteBuffer e, int at) {
        byte[] a = new byte[4];
        e.get(at, a);
        try {
            return InetAddress.getByAddress(a);
        } catch (UnknownHostException x) {
            throw new AssertionError("4 bytes are an address", x);
        }
    }

    /**
     * Judges every frame in order, each delivered to the other side at once (a capture does not say
     * when it arrived); returns the first violation (with its frame number in front of the message),
     * or null when the capture breaks no rule.
     */
    static String judge(List<Frame> frames, ConformanceMonitor m) {
        Map<Side, String> state = new EnumMap<>(Side.class);
        state.put(Side.A, ConformanceMonitor.NO_ASSOCIATION);
        state.put(Side.Z, ConformanceMonitor.NO_ASSOCIATION);
        for (Frame f : frames) {
            Side to = f.from() == Side.A ? Side.Z : Side.A;
            Set<Integer> types = chunkTypes(f.sctp());
            String s = sending(state.get(f.from()), types);
            state.put(f.from(), s);
            try {
                m.onSend(f.from(), f.micros() * 1000, f.sctp(), f.source(), f.destination(), s);
            } catch (ProtocolViolation v) {
                return "frame " + f.number() + ": " + v.getMessage();
            }
            m.onDeliver(to, f.sctp(), f.source(), f.destination());
            state.put(to, receiving(state.get(to), types));
        }
        return null;
    }

    private static Set<Integer> chunkTypes(ByteBuffer p) {
        Set<Integer> t = new java.util.HashSet<>();
        for (int off = 12; off + 4 <= p.limit(); ) {
            int clen = p.getShort(off + 2) & 0xffff;
            t.add(p.get(off) & 0xff);
            if (clen < 4) {
                break;
            }
            off += (clen + 3) & ~3;
        }
        return t;
    }

    /** The sender's state for a packet with these chunks, given its state before. */
    private static String sending(String st, Set<Integer> t) {
        if (t.contains(ConformanceMonitor.INIT)) {
            return "COOKIE_WAIT";
        }
        if (t.contains(ConformanceMonitor.COOKIE_ECHO)) {
            return "COOKIE_ECHOED";
        }
        if (t.contains(ConformanceMonitor.COOKIE_ACK)) {
            return "ESTABLISHED";
        }
        if (t.contains(ConformanceMonitor.SHUTDOWN)) {
            return "SHUTDOWN_SENT";
        }
        if (t.contains(ConformanceMonitor.SHUTDOWN_ACK)) {
            return "SHUTDOWN_ACK_SENT";
        }
        if (t.contains(ConformanceMonitor.SHUTDOWN_COMPLETE)) {
            return "CLOSED";
        }
        return st;
    }

    /** The receiver's state after a packet with these chunks reached it. */
    private static String receiving(String st, Set<Integer> t) {
        if (t.contains(ConformanceMonitor.COOKIE_ACK) && st.equals("COOKIE_ECHOED")) {
            return "ESTABLISHED";
        }
        if (t.contains(ConformanceMonitor.SHUTDOWN) && st.equals("ESTABLISHED")) {
            return "SHUTDOWN_RECEIVED";
        }
        if (t.contains(ConformanceMonitor.ABORT)
                || (t.contains(ConformanceMonitor.SHUTDOWN_COMPLETE) && st.equals("SHUTDOWN_ACK_SENT"))) {
            return ConformanceMonitor.NO_ASSOCIATION;
        }
        return st;
    }
}
