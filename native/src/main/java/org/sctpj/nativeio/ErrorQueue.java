package org.sctpj.nativeio;

import static org.sctpj.nativeio.Layout.*;
import static org.sctpj.nativeio.Linux.*;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import jnr.ffi.Pointer;

/**
 * Reads a socket's error queue ({@code recvmsg(MSG_ERRQUEUE)}, Linux ip(7) {@code IP_RECVERR} and
 * ipv6(7) {@code IPV6_RECVERR}): the ICMP and ICMPv6 errors the kernel matched to packets the
 * socket sent. One entry per {@link #read}: its {@code sock_extended_err} (origin, ICMP type and
 * code, the MTU of a Packet Too Big in {@code ee_info}), the address the offending packet was sent
 * to (with its port for UDP) and the bytes the ICMP quoted of it, starting at the socket's payload
 * (for UDP the datagram's payload, for a raw socket without IP_HDRINCL the transport header).
 *
 * <p>Everything is allocated once; {@link #read} allocates only when the target address differs
 * from the last one. Not thread-safe: one thread (the stack thread) reads.
 */
public final class ErrorQueue {

    private static final int CONTROL_SPACE = 256;

    private final LibC libc;
    private final ByteBuffer header = Native.allocate(MSGHDR_SIZE);
    private final ByteBuffer iov = Native.allocate(IOVEC_SIZE);
    private final ByteBuffer name = Native.allocate(SOCKADDR_IN6_SIZE);
    private final ByteBuffer control = Native.allocate(CONTROL_SPACE);
    private final ByteBuffer data;
    private final Pointer headerPtr;
    private final byte[] raw = new byte[SOCKADDR_IN6_SIZE];
    private final byte[] lastRaw = new byte[SOCKADDR_IN6_SIZE];
    private InetSocketAddress lastTarget;

    /** sock_extended_err.ee_errno of the entry read last. */
    public int errno;
    /** sock_extended_err.ee_origin: {@link Linux#SO_EE_ORIGIN_ICMP}, {@link Linux#SO_EE_ORIGIN_ICMP6} or another. */
    public int origin;
    /** The ICMP type (ee_type). */
    public int type;
    /** The ICMP code (ee_code). */
    public int code;
    /** ee_info: the next-hop MTU of a Packet Too Big / Fragmentation Needed, else 0. */
    public int info;
    /** Where the offending packet was sent to (port 0 for a raw socket); null when unknown. */
    public InetSocketAddress target;

    /** A reader whose quoted bytes are kept up to {@code maxQuoted} bytes ({@link Native#libc()} first). */
    public ErrorQueue(int maxQuoted) throws IOException {
        this.libc = Native.libc();
        this.data = Native.allocate(Math.max(64, maxQuoted));
        this.headerPtr = Native.pointer(header);
        header.putLong(MSG_NAME, Native.address(name));
        header.putLong(MSG_IOV, Native.address(iov));
        header.putLong(MSG_IOVLEN, 1);
        iov.putLong(IOV_BASE, Native.address(data));
    }

    /**
     * Reads one entry of {@code fd}'s error queue without blocking.
     *
     * @return true when an entry was read (its fields set, {@link #quoted()} its bytes); false when
     *     the queue is empty or the entry carried no extended error (then the fields are stale)
     */
    public boolean read(int fd) {
        header.putInt(MSG_NAMELEN, SOCKADDR_IN6_SIZE);
        header.putLong(MSG_CONTROL, Native.address(control));
        header.putLong(MSG_CONTROLLEN, CONTROL_SPACE);
        header.putInt(MSG_FLAGS, 0);
        iov.putLong(IOV_LEN, data.capacity());
        long n = libc.recvmsg(fd, headerPtr, MSG_ERRQUEUE | MSG_DONTWAIT);
        if (n < 0) {
            return false;
        }
        data.clear().limit((int) Math.min(n, data.capacity()));
        int controlLength = (int) Math.min(header.getLong(MSG_CONTROLLEN), CONTROL_SPACE);
        int at = findControl(control, 0, controlLength, IPPROTO_IP, IP_RECVERR, EXTENDED_ERR_SIZE);
        if (at < 0) {
            at = findControl(control, 0, controlLength, IPPROTO_IPV6, IPV6_RECVERR, EXTENDED_ERR_SIZE);
        }
        target = decodeTarget();
        if (at < 0) {
            return false;
        }
        errno = control.getInt(at + EE_ERRNO);
        origin = control.get(at + EE_ORIGIN) & 0xff;
        type = control.get(at + EE_TYPE) & 0xff;
        code = control.get(at + EE_CODE) & 0xff;
        info = control.getInt(at + EE_INFO);
        return true;
    }

    /** The bytes the ICMP quoted of the offending packet's payload (valid until the next read). */
    public ByteBuffer quoted() {
        return data.duplicate().order(ByteOrder.BIG_ENDIAN);
    }

    /** Whether the entry is an ICMP or ICMPv6 error (not a local error such as EMSGSIZE). */
    public boolean isIcmp() {
        return origin == SO_EE_ORIGIN_ICMP || origin == SO_EE_ORIGIN_ICMP6;
    }

    private InetSocketAddress decodeTarget() {
        int length = header.getInt(MSG_NAMELEN);
        if (length <= 0) {
            return null;
        }
        Arrays.fill(raw, (byte) 0);
        name.get(0, raw, 0, Math.min(length, SOCKADDR_IN6_SIZE));
        if (lastTarget != null && Arrays.equals(raw, lastRaw)) {
            return lastTarget;
        }
        try {
            InetSocketAddress a = SockAddr.decode(raw, false);
            System.arraycopy(raw, 0, lastRaw, 0, raw.length);
            lastTarget = a;
            return a;
        } catch (java.net.UnknownHostException e) {
            return null;
        }
    }
}
