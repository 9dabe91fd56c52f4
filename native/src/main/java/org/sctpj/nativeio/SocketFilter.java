package org.sctpj.nativeio;

import static org.sctpj.nativeio.Layout.*;
import static org.sctpj.nativeio.Linux.*;

import java.io.IOException;
import java.lang.ref.Reference;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * A socket filter (classic BPF, {@code SO_ATTACH_FILTER}, socket(7)) that lets a socket queue only
 * the packets sent to some addresses: the kernel runs it on each packet before queueing it, so the
 * other packets cost the socket's owner nothing (no wake-up, no copy, no system call). For raw IP
 * sockets, each of which receives every packet of its protocol that reaches the network namespace
 * (raw(7)): two stacks on one host then stop reading each other's traffic.
 *
 * <p>The program reads the destination address from the packet's IP header through the
 * network-header base ({@code SKF_NET_OFF}: IPv4 bytes 16-19, IPv6 bytes 24-39, RFC 791 and RFC
 * 8200 section 3), which works whether or not the socket's data starts at the IP header (IPv6 raw
 * sockets hand over the payload only). Per address it compares one word (IPv4) or four (IPv6) and
 * keeps the packet on the first full match; packets that match none are dropped. The filter looks
 * at address bytes only: an IPv6 scope id is not compared, so a caller that needs it still checks
 * each packet it reads. Not per packet: attaching builds a small program (three instructions per
 * IPv4 address, nine per IPv6 address).
 */
public final class SocketFilter {
    private SocketFilter() {}

    /** The most addresses one filter takes: BPF programs are at most 4096 instructions (BPF_MAXINSNS). */
    public static final int MAX_ADDRESSES = 256;

    /** Byte offset of the destination address in the IPv4 header (RFC 791). */
    private static final int IPV4_DESTINATION = 16;
    /** Byte offset of the destination address in the IPv6 header (RFC 8200 section 3). */
    private static final int IPV6_DESTINATION = 24;
    /** The return value that keeps the whole packet. */
    private static final int KEEP = 0xffff_ffff;

    /**
     * Attaches to socket {@code fd} a filter that keeps only the packets whose IP destination is one
     * of {@code addresses} of the socket's family ({@code ipv6}); addresses of the other family are
     * ignored, and with none of its family the socket keeps nothing. Replaces a filter attached
     * before, atomically.
     *
     * @throws IllegalArgumentException with more than {@value #MAX_ADDRESSES} addresses of the family
     * @throws IOException when the kernel refuses the filter (the message gives errno)
     */
    public static void acceptDestinations(int fd, boolean ipv6, Collection<InetAddress> addresses) throws IOException {
        List<byte[]> mine = new ArrayList<>();
        for (InetAddress a : addresses) {
            if ((a instanceof Inet4Address) != ipv6) {
                mine.add(a.getAddress());
            }
        }
        if (mine.size() > MAX_ADDRESSES) {
            throw new IllegalArgumentException("a socket filter takes at most " + MAX_ADDRESSES + " addresses, was "
                    + mine.size() + ": filter in user space instead");
        }
        attach(fd, program(ipv6, mine), "the destination filter");
    }

    /** Removes the socket's filter; false if it had none or the kernel refused (see {@link Native#errno()}). */
    public static boolean detach(int fd) throws IOException {
        ByteBuffer v = Native.allocate(4);
        int r = Native.libc().setsockopt(fd, SOL_SOCKET, SO_DETACH_FILTER, Native.pointer(v), 4);
        Reference.reachabilityFence(v);
        return r == 0;
    }

    /**
     * The instructions, each {@link Layout#SOCK_FILTER_SIZE} bytes in native order: per address, a
     * block that loads each word of the destination and jumps past the block on the first
     * mismatch, then keeps the packet; after the last block, drop.
     */
    static ByteBuffer program(boolean ipv6, List<byte[]> addresses) {
        int words = ipv6 ? 4 : 1;
        int block = 2 * words + 1;
        ByteBuffer p = Native.allocate((addresses.size() * block + 1) * SOCK_FILTER_SIZE);
        int at = 0;
        for (byte[] a : addresses) {
            for (int w = 0; w < words; w++) {
                int offset = (ipv6 ? IPV6_DESTINATION : IPV4_DESTINATION) + 4 * w;
                at = put(p, at, BPF_LD_W_ABS, 0, 0, SKF_NET_OFF + offset);
                int word = ((a[4 * w] & 0xff) << 24)
                        | ((a[4 * w + 1] & 0xff) << 16)
                        | ((a[4 * w + 2] & 0xff) << 8)
                        | (a[4 * w + 3] & 0xff);
                // on a mismatch skip the rest of this block: its other words and the KEEP
                int rest = 2 * (words - 1 - w) + 1;
                at = put(p, at, BPF_JEQ_K, 0, rest, word);
            }
            at = put(p, at, BPF_RET_K, 0, 0, KEEP);
        }
        put(p, at, BPF_RET_K, 0, 0, 0);
        return p;
    }

    private static int put(ByteBuffer p, int index, int code, int jt, int jf, int k) {
        int b = index * SOCK_FILTER_SIZE;
        p.putShort(b + FILTER_CODE, (short) code);
        p.put(b + FILTER_JT, (byte) jt);
        p.put(b + FILTER_JF, (byte) jf);
        p.putInt(b + FILTER_K, k);
        return index + 1;
    }

    private static void attach(int fd, ByteBuffer program, String what) throws IOException {
        LibC libc = Native.libc(); // binds first: the addresses below need the runtime
        ByteBuffer fprog = Native.allocate(SOCK_FPROG_SIZE);
        fprog.putShort(FPROG_LEN, (short) (program.capacity() / SOCK_FILTER_SIZE));
        fprog.putLong(FPROG_FILTER, Native.address(program));
        int r = libc.setsockopt(fd, SOL_SOCKET, SO_ATTACH_FILTER, Native.pointer(fprog), SOCK_FPROG_SIZE);
        Reference.reachabilityFence(program);
        Reference.reachabilityFence(fprog);
        if (r != 0) {
            throw new IOException(
                    "setsockopt(SO_ATTACH_FILTER) of " + what + " failed: " + Native.describe(Native.errno()));
        }
    }
}
