package org.sctpj.nativeio;

import static org.sctpj.nativeio.Layout.*;

import java.nio.ByteBuffer;
import jnr.ffi.Pointer;

/**
 * An array of {@code struct mmsghdr} for {@code sendmmsg}/{@code recvmmsg} (its first entry also
 * serves {@code sendmsg}/{@code recvmsg}), with what each entry points to, allocated once and
 * linked: entry {@code i} has one iovec ({@code msg_iovlen} 1), a name slot of {@link
 * Layout#SOCKADDR_IN6_SIZE} bytes (room for either family), a control slot of {@code controlSpace}
 * bytes and, when {@code slotSize > 0}, a data slot of {@code slotSize} bytes its iovec covers.
 *
 * <p>The buffers are public so that the lower layers read and write the entries directly in their
 * per-packet code (copy the references into fields of their own): this class adds no call per
 * packet. {@code msg_namelen}, {@code msg_controllen} and {@code msg_flags} are the caller's to set
 * before each call ({@link #prepareReceive} does it for a receive). Not thread-safe.
 */
public final class MmsgArray {
    /** Entries. */
    public final int count;
    /** Control bytes per entry. */
    public final int controlSpace;
    /** Data bytes per entry, 0 when the caller points the iovecs elsewhere. */
    public final int slotSize;
    /** The mmsghdr array, {@code count * MMSGHDR_SIZE} bytes, native order. */
    public final ByteBuffer headers;
    /** The iovecs, one per entry, native order. */
    public final ByteBuffer iovs;
    /** The name slots, {@link Layout#SOCKADDR_IN6_SIZE} bytes per entry, native order. */
    public final ByteBuffer names;
    /** The control slots, {@code controlSpace} bytes per entry, native order. */
    public final ByteBuffer controls;
    /**
     * The data slots, {@code slotSize} bytes per entry, big-endian (network order, as the codec
     * reads packets); null when {@code slotSize} is 0.
     */
    public final ByteBuffer data;

    private final long headerAddress;
    private final long controlAddress;
    private final long dataAddress;

    /**
     * Allocates and links the entries ({@link Native#libc()} first).
     *
     * @throws IllegalArgumentException if {@code count < 1} or a size is negative
     */
    public MmsgArray(int count, int controlSpace, int slotSize) {
        if (count < 1 || controlSpace < 0 || slotSize < 0) {
            throw new IllegalArgumentException(
                    "need at least one entry and no negative size: " + count + ", " + controlSpace + ", " + slotSize);
        }
        this.count = count;
        this.controlSpace = controlSpace;
        this.slotSize = slotSize;
        headers = Native.allocate(count * MMSGHDR_SIZE);
        iovs = Native.allocate(count * IOVEC_SIZE);
        names = Native.allocate(count * SOCKADDR_IN6_SIZE);
        controls = Native.allocate(Math.max(1, count * controlSpace));
        data = slotSize > 0 ? ByteBuffer.allocateDirect(count * slotSize) : null;
        headerAddress = Native.address(headers);
        long iovAddress = Native.address(iovs);
        long nameAddress = Native.address(names);
        controlAddress = Native.address(controls);
        dataAddress = data != null ? Native.address(data) : 0;
        for (int i = 0; i < count; i++) {
            int h = i * MMSGHDR_SIZE;
            headers.putLong(h + MSG_NAME, nameAddress + (long) i * SOCKADDR_IN6_SIZE);
            headers.putLong(h + MSG_IOV, iovAddress + (long) i * IOVEC_SIZE);
            headers.putLong(h + MSG_IOVLEN, 1);
            if (controlSpace > 0) {
                headers.putLong(h + MSG_CONTROL, controlAddress(i));
            }
            if (data != null) {
                iovs.putLong(i * IOVEC_SIZE + IOV_BASE, dataAddress(i));
                iovs.putLong(i * IOVEC_SIZE + IOV_LEN, slotSize);
            }
        }
    }

    /** The native address of entry {@code i}'s mmsghdr. */
    public long headerAddress(int i) {
        return headerAddress + (long) i * MMSGHDR_SIZE;
    }

    /** A pointer to entry {@code i}'s mmsghdr (a new object: take it once, at set-up). */
    public Pointer headerPointer(int i) {
        return Native.pointer(headerAddress(i));
    }

    /** The native address of entry {@code i}'s control slot. */
    public long controlAddress(int i) {
        return controlAddress + (long) i * controlSpace;
    }

    /** The native address of entry {@code i}'s data slot (0 without data slots). */
    public long dataAddress(int i) {
        return data == null ? 0 : dataAddress + (long) i * slotSize;
    }

    /**
     * Readies the first {@code n} entries for recvmmsg: the whole name and control slots offered,
     * flags cleared.
     */
    public void prepareReceive(int n) {
        for (int i = 0; i < n; i++) {
            int h = i * MMSGHDR_SIZE;
            headers.putInt(h + MSG_NAMELEN, SOCKADDR_IN6_SIZE);
            headers.putLong(h + MSG_CONTROLLEN, controlSpace);
            headers.putInt(h + MSG_FLAGS, 0);
        }
    }
}
