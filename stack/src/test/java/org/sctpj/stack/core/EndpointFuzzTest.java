package org.sctpj.stack.core;

import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.sctpj.stack.SctpOptions;
import org.sctpj.stack.wire.Bytes;
import org.sctpj.stack.wire.Crc32c;
import org.sctpj.stack.wire.SctpPacket;
import org.sctpj.stack.wire.cause.ProtocolViolationCause;
import org.sctpj.stack.wire.chunk.AbortChunk;
import org.sctpj.stack.wire.chunk.Chunk;
import org.sctpj.stack.wire.chunk.CookieAckChunk;
import org.sctpj.stack.wire.chunk.DataChunk;
import org.sctpj.stack.wire.chunk.ErrorChunk;
import org.sctpj.stack.wire.chunk.GapAckBlock;
import org.sctpj.stack.wire.chunk.HeartbeatAckChunk;
import org.sctpj.stack.wire.chunk.HeartbeatChunk;
import org.sctpj.stack.wire.chunk.InitChunk;
import org.sctpj.stack.wire.chunk.SackChunk;
import org.sctpj.stack.wire.chunk.ShutdownAckChunk;
import org.sctpj.stack.wire.chunk.ShutdownChunk;
import org.sctpj.stack.wire.chunk.ShutdownCompleteChunk;
import org.sctpj.stack.wire.chunk.UnknownChunk;
import org.sctpj.stack.wire.param.HeartbeatInfoParameter;

/**
 * Hostile input to a live endpoint: 100,000 mutated packets with correct checksums and (mostly)
 * the right Verification Tag, so they reach the association's state machine in every state. Nothing
 * may throw out of the core, and the association's memory stays bounded.
 */
class EndpointFuzzTest {

    static final int ITERATIONS = Integer.getInteger("sctpj.fuzz.core.iterations", 100_000);

    @Test
    void mutatedPacketsNeverThrowOutOfTheCore() {
        assertTimeoutPreemptively(Duration.ofMinutes(3), () -> {
            long seed = Long.getLong("sctpj.fuzz.seed", 20261122L);
            SplittableRandom r = new SplittableRandom(seed);
            ProtocolErrorsTest.Established e = null;
            long established = 0;
            for (int i = 0; i < ITERATIONS; i++) {
                if (e == null || e.p.ep.associations().isEmpty() || r.nextInt(2000) == 0) {
                    e = new ProtocolErrorsTest.Established();
                    established++;
                }
                byte[] pkt = mutate(template(e, r), r);
                try {
                    e.p.deliverRaw(pkt);
                    e.p.sent();
                    if (r.nextInt(50) == 0) {
                        e.p.advance(r.nextLong(5_000_000_000L));
                        e.p.sent();
                    }
                    if (r.nextInt(20) == 0 && !e.p.ep.associations().isEmpty()) {
                        try {
                            e.p.ep.send(e.id, org.sctpj.stack.SendInfo.of(r.nextInt(4), 0),
                                    ByteBuffer.wrap(new byte[1 + r.nextInt(3000)]), e.p.now);
                        } catch (IllegalStateException expected) {
                            // shutting down or closed by the fuzzed input: API misuse, reported as such
                        }
                    }
                } catch (Throwable t) {
                    fail("input " + i + " (seed " + seed + ") threw " + t + "\n" + HexFormat.of().formatHex(pkt), t);
                }
                e.p.events.clear();
            }
            System.out.printf("%d mutated packets into live associations (%d associations set up): nothing thrown%n",
                    ITERATIONS, established);
            assertTrue(established > 0);
        });
    }

    static byte[] template(ProtocolErrorsTest.Established e, SplittableRandom r) {
        int tsn = ProtocolErrorsTest.PEER_TSN + r.nextInt(-5, 200);
        Chunk c = switch (r.nextInt(14)) {
            case 0, 1, 2 -> new DataChunk(r.nextBoolean(), r.nextBoolean(), r.nextBoolean(), r.nextBoolean(), tsn,
                    r.nextInt(12), r.nextInt(5), r.nextInt(), Bytes.of(new byte[1 + r.nextInt(1500)]));
            case 3 -> new SackChunk(r.nextInt(), r.nextInt(), List.of(new GapAckBlock(1, 1 + r.nextInt(5))),
                    List.of(r.nextInt()));
            case 4 -> new HeartbeatChunk(List.of(new HeartbeatInfoParameter(Bytes.of(new byte[r.nextInt(40)]))));
            case 5 -> new HeartbeatAckChunk(List.of(new HeartbeatInfoParameter(Bytes.of(new byte[r.nextInt(40)]))));
            case 6 -> new ShutdownChunk(tsn);
            case 7 -> new ShutdownAckChunk();
            case 8 -> new ShutdownCompleteChunk(r.nextBoolean());
            case 9 -> new ErrorChunk(List.of(ProtocolViolationCause.of("x")));
            case 10 -> new AbortChunk(r.nextBoolean(), List.of());
            case 11 -> new InitChunk(r.nextInt(), r.nextInt(), 1 + r.nextInt(20), 1 + r.nextInt(20), r.nextInt(), List.of());
            case 12 -> new CookieAckChunk();
            default -> new UnknownChunk(r.nextInt(256), r.nextInt(256), Bytes.of(new byte[r.nextInt(20)]));
        };
        List<Chunk> chunks = new ArrayList<>(List.of(c));
        if (r.nextInt(3) == 0) {
            chunks.add(new DataChunk(false, false, true, true, tsn + 1, 0, 0, 0, Bytes.of(new byte[10])));
        }
        int vtag = r.nextInt(10) == 0 ? r.nextInt() : e.localTag;
        return new SctpPacket(Peer.REMOTE_PORT, Peer.LOCAL_PORT, vtag, chunks).toBytes();
    }

    static byte[] mutate(byte[] p, SplittableRandom r) {
        byte[] b = p.clone();
        int n = r.nextInt(4);
        for (int k = 0; k < n && b.length > 12; k++) {
            int at = 12 + r.nextInt(b.length - 12);
            switch (r.nextInt(4)) {
                case 0 -> b[at] ^= (byte) (1 << r.nextInt(8));
                case 1 -> b[at] = (byte) new int[] {0, 1, 3, 4, 0x7f, 0x80, 0xff}[r.nextInt(7)];
                case 2 -> {
                    if (at + 1 < b.length) {
                        b[at] = 0;
                        b[at + 1] = (byte) r.nextInt(256);
                    }
                }
                default -> b = java.util.Arrays.copyOf(b, Math.max(12, b.length - r.nextInt(8)));
            }
        }
        if (b.length >= 12) {
            Crc32c.fill(ByteBuffer.wrap(b), 0, b.length);
        }
        return b;
    }
}
