package org.sctpj.stack.tx;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.sctpj.stack.SctpOptions;
import org.sctpj.stack.cc.Rfc9260CongestionController;
import org.sctpj.stack.path.Path;
import org.sctpj.stack.wire.ChecksumPolicy;
import org.sctpj.stack.wire.SctpPacket;
import org.sctpj.stack.wire.chunk.Chunk;
import org.sctpj.stack.wire.chunk.DataChunk;

/** A DataSender on one IPv4 path of MTU 1500 (1452 bytes of user data per packet), for tests. */
final class SenderFixture {
    static final long MS = 1_000_000L;
    static final int TSN0 = 0xFFFFFFFE; // wraps after two chunks
    static final int FULL = 1452;

    final SctpOptions o;
    final Path p;
    final List<Path> paths;
    final Rfc9260CongestionController cc = new Rfc9260CongestionController();
    final DataSender tx;
    final PacketBuilder pb = new PacketBuilder(9000);

    SenderFixture(SctpOptions o, long peerRwnd) {
        this.o = o;
        try {
            p = new Path(0, InetAddress.getByAddress(new byte[] {10, 0, 0, 1}), 1500, o);
        } catch (UnknownHostException e) {
            throw new AssertionError(e);
        }
        paths = List.of(p);
        cc.init(p, peerRwnd);
        tx = new DataSender(o, TSN0, 16, peerRwnd, cc);
    }

    static SctpOptions options(boolean noDelay) {
        return SctpOptions.WAN.toBuilder()
                .noDelay(noDelay)
                .rtoInitial(Duration.ofMillis(100))
                .rtoMin(Duration.ofMillis(10))
                .rtoMax(Duration.ofMillis(1000))
                .delayedAckTime(Duration.ofMillis(5))
                .maxBurst(100)
                .build();
    }

    static SenderFixture noDelay() {
        return new SenderFixture(options(true), 1 << 20);
    }

    void send(int sid, int size) {
        send(sid, size, false, false);
    }

    void send(int sid, int size, boolean unordered, boolean immediate) {
        byte[] b = new byte[size];
        for (int i = 0; i < size; i++) {
            b[i] = (byte) (i * 31 + sid);
        }
        if (tx.send(sid, 42, unordered, immediate, ByteBuffer.wrap(b)) != DataSender.SendStatus.ACCEPTED) {
            throw new AssertionError("send blocked");
        }
    }

    /** Fills one packet on the path; empty list if nothing went. */
    List<DataChunk> packet(long now) {
        List<DataChunk> out = new ArrayList<>();
        for (Chunk c : chunks(now)) {
            out.add((DataChunk) c);
        }
        return out;
    }

    /** Fills one packet on the path and decodes it (DATA or I-DATA chunks); empty if nothing went. */
    List<Chunk> chunks(long now) {
        pb.reset(1, 2, 3, p.maxPacketBytes());
        tx.fill(pb, p, paths, now);
        if (pb.isEmpty()) {
            return List.of();
        }
        byte[] bytes = pb.finish();
        return SctpPacket.decode(ByteBuffer.wrap(bytes), ChecksumPolicy.VERIFY)
                .value()
                .chunks();
    }

    /** Fills packets until nothing more goes; returns all chunks in order. */
    List<DataChunk> drain(long now) {
        List<DataChunk> all = new ArrayList<>();
        for (List<DataChunk> c; !(c = packet(now)).isEmpty(); ) {
            all.addAll(c);
        }
        return all;
    }

    /** Counts packets filled until nothing more goes. */
    int packets(long now) {
        int n = 0;
        while (!packet(now).isEmpty()) {
            n++;
        }
        return n;
    }

    AckResult sack(int cum, long rwnd, long now, int... gaps) {
        int[] s = new int[gaps.length / 2];
        int[] e = new int[gaps.length / 2];
        for (int i = 0; i < s.length; i++) {
            s[i] = gaps[2 * i];
            e[i] = gaps[2 * i + 1];
        }
        return tx.onSack(cum, rwnd, s, e, s.length, 0, paths, now);
    }

    static int tsn(int i) {
        return TSN0 + i;
    }
}
