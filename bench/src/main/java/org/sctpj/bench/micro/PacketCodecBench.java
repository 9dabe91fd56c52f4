package org.sctpj.bench.micro;

import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;
import org.sctpj.stack.assoc.InboundPacket;
import org.sctpj.stack.tx.PacketBuilder;
import org.sctpj.stack.wire.ChecksumPolicy;
import org.sctpj.stack.wire.Crc32c;
import org.sctpj.stack.wire.Parsed;
import org.sctpj.stack.wire.SctpPacket;
import org.sctpj.stack.wire.chunk.DataChunk;
import org.sctpj.stack.wire.chunk.DataChunkView;

/**
 * Decode (with the CRC32c check) and encode of a full DATA packet: 1472 bytes of SCTP packet, what
 * fits a 1500-byte MTU under IPv4 and the 8-byte UDP encapsulation header. {@code layout} "1x1444"
 * is one DATA chunk of 1444 bytes of user data; "12x100" is twelve bundled 100-byte messages.
 *
 * <p>{@code decodeViews} is what the core does for every received packet before the association
 * sees it (checksum, framing, a checked view per DATA chunk, no copy); {@code decodeRecords} is the
 * value-type decoder used by tools and tests; {@code encode} is the send path ({@link PacketBuilder}
 * as the data sender uses it, checksum and the final copy included).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class PacketCodecBench {

    /** Chunks per packet x user data bytes per chunk. */
    @Param({"1x1444", "12x100"})
    public String layout;

    private int chunks;
    private int chunkBytes;
    private byte[] payload;
    private ByteBuffer packet;
    private final InboundPacket inbound = new InboundPacket();
    private final PacketBuilder builder = new PacketBuilder(1472);
    private final InetAddress local = InetAddress.getLoopbackAddress();
    private int tsn = 1000;

    /** Builds the packet once. */
    @Setup
    public void setup() {
        String[] p = layout.split("x");
        chunks = Integer.parseInt(p[0]);
        chunkBytes = Integer.parseInt(p[1]);
        payload = new byte[chunkBytes];
        for (int i = 0; i < payload.length; i++) {
            payload[i] = (byte) (i * 31);
        }
        builder.reset(5000, 5001, 0x12345678, 1472);
        for (int i = 0; i < chunks; i++) {
            if (!builder.tryAddData(DataChunk.FLAG_B | DataChunk.FLAG_E, 1000 + i, 0, i, 51, payload, 0, chunkBytes)) {
                throw new IllegalStateException("layout " + layout + " does not fit 1472 bytes");
            }
        }
        packet = ByteBuffer.wrap(builder.finish());
    }

    /** Checksum, framing and a checked view of each DATA chunk, as on the core's receive path. */
    @Benchmark
    public int decodeViews() {
        ByteBuffer b = packet;
        if (!Crc32c.verify(b, 0, b.remaining())) {
            throw new IllegalStateException("bad checksum");
        }
        Parsed<InboundPacket> f = inbound.frame(b, local, local);
        if (!f.isOk()) {
            throw new IllegalStateException(f.toString());
        }
        InboundPacket pkt = f.value();
        int sum = 0;
        for (int i = 0; i < pkt.chunkCount(); i++) {
            Parsed<DataChunkView> d = DataChunkView.check(pkt.buffer(), pkt.offset(i), pkt.length(i));
            DataChunkView v = d.value();
            sum += v.tsn() + v.userDataLength();
        }
        return sum;
    }

    /** The CRC32c of the whole packet alone (java.util.zip.CRC32C). */
    @Benchmark
    public int crc32cOnly() {
        return Crc32c.compute(packet, 0, packet.remaining());
    }

    /** Checksum and full decode into records ({@link SctpPacket#decode}). */
    @Benchmark
    public void decodeRecords(Blackhole bh) {
        bh.consume(SctpPacket.decode(packet, ChecksumPolicy.VERIFY));
    }

    /** Header, DATA chunks, CRC32c and the copy of the finished packet, as the sender builds it. */
    @Benchmark
    public byte[] encode() {
        PacketBuilder pb = builder;
        pb.reset(5000, 5001, 0x12345678, 1472);
        int t = tsn;
        for (int i = 0; i < chunks; i++) {
            pb.tryAddData(DataChunk.FLAG_B | DataChunk.FLAG_E, t++, 0, i, 51, payload, 0, chunkBytes);
        }
        tsn = t;
        return pb.finish();
    }
}
