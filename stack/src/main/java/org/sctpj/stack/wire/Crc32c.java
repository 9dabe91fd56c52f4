package org.sctpj.stack.wire;

import java.nio.ByteBuffer;
import java.util.zip.CRC32C;

/**
 * The SCTP checksum: CRC32c over the whole packet with the checksum field taken as zero (RFC 9260
 * section 6.8 and Appendix A). {@link CRC32C} is intrinsified by the JDK on CPUs with CRC32
 * instructions.
 *
 * <p>The value is stored so that the CRC's least significant byte comes first on the wire; read as
 * a big-endian field it equals {@code Integer.reverseBytes(crc)}.
 */
public final class Crc32c {

    /** Offset of the checksum field in the common header. */
    public static final int CHECKSUM_OFFSET = 8;

    private static final byte[] ZERO4 = new byte[4];

    private Crc32c() {}

    /**
     * The checksum field value for {@code length} bytes of packet at absolute index {@code
     * offset} of {@code packet}, as it appears on the wire read big-endian. {@code length} is at
     * least the 12 bytes of the common header. The buffer's position and limit are unchanged
     * afterwards (a direct buffer's are moved during the call).
     */
    public static int compute(ByteBuffer packet, int offset, int length) {
        // A fresh accumulator per call (16 bytes, usually scalar-replaced by the JIT): the core may
        // be called from several stack threads at once and keeps no thread-bound state.
        CRC32C crc = new CRC32C();
        int rest = offset + CHECKSUM_OFFSET + 4;
        if (packet.hasArray()) {
            byte[] a = packet.array();
            int base = packet.arrayOffset() + offset;
            crc.update(a, base, CHECKSUM_OFFSET);
            crc.update(ZERO4, 0, 4);
            crc.update(a, base + CHECKSUM_OFFSET + 4, length - CHECKSUM_OFFSET - 4);
        } else {
            int pos = packet.position();
            int lim = packet.limit();
            try {
                packet.limit(packet.capacity());
                packet.position(offset);
                packet.limit(offset + CHECKSUM_OFFSET);
                crc.update(packet);
                crc.update(ZERO4, 0, 4);
                packet.limit(offset + length);
                packet.position(rest);
                crc.update(packet);
            } finally {
                packet.limit(lim);
                packet.position(pos);
            }
        }
        return Integer.reverseBytes((int) crc.getValue());
    }

    /** Computes the checksum and writes it into the packet's checksum field. */
    public static void fill(ByteBuffer packet, int offset, int length) {
        packet.putInt(offset + CHECKSUM_OFFSET, compute(packet, offset, length));
    }

    /** True if the checksum field matches the packet. */
    public static boolean verify(ByteBuffer packet, int offset, int length) {
        return packet.getInt(offset + CHECKSUM_OFFSET) == compute(packet, offset, length);
    }
}
