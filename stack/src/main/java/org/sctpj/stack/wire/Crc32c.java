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

    private static final ByteBuffer ZERO4 = ByteBuffer.allocate(4).asReadOnlyBuffer();

    private Crc32c() {}

    /**
     * The checksum field value for {@code length} bytes of packet at absolute index {@code offset}
     * of {@code packet}, as it appears on the wire read big-endian.
     */
    public static int compute(ByteBuffer packet, int offset, int length) {
        CRC32C crc = new CRC32C();
        crc.update(packet.duplicate().limit(offset + CHECKSUM_OFFSET).position(offset));
        crc.update(ZERO4.duplicate());
        crc.update(packet.duplicate().limit(offset + length).position(offset + CHECKSUM_OFFSET + 4));
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
