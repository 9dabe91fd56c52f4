package org.sctpj.journal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sctpj.stack.AssociationId;
import org.sctpj.stack.PrPolicy;
import org.sctpj.stack.SctpEvent;
import org.sctpj.stack.SctpOptions;
import org.sctpj.stack.SendInfo;

/**
 * The compact encoding of format 3 ({@link Compact}) decodes to exactly what format 2 stores: values
 * of every tag, packets of every shape (malformed ones included) in sequences that exercise the
 * differences to the previous packet, and the size it saves on a recorded run.
 */
@org.junit.jupiter.api.Timeout(120)
class CompactFormatTest {

    @TempDir
    Path tmp;

    static byte[] canonical(Object v) {
        Codec.Out o = new Codec.Out(64);
        Codec.write(o, v);
        return o.toArray();
    }

    @Test
    void everyValueTranscodesToItsFormat2Bytes() throws Exception {
        AssociationId id = new AssociationId(7);
        InetAddress a = InetAddress.getByName("10.0.0.1");
        InetAddress b = InetAddress.getByName("2001:db8::1");
        List<Object> values = List.of(
                SctpOptions.DEFAULTS,
                SctpOptions.LAN,
                SendInfo.of(3, -5),
                new SendInfo(1, 51, true, true, Optional.of(PrPolicy.timeToLive(250))),
                new SctpEvent.SendSpaceAvailable(id, 1L << 40),
                new SctpEvent.PeerAddressChange(id, b, SctpEvent.PeerAddressState.UNREACHABLE),
                new SctpEvent.MessageReceived(id, 2, 99, false, new byte[] {1, 2, 3}),
                new SctpEvent.StreamReset(id, true, SctpEvent.ReconfigOutcome.PERFORMED, List.of(1, 2, 65535)),
                new SctpEvent.AssociationChange(
                        id, SctpEvent.AssociationChangeType.COMMUNICATION_UP, 16, 16, List.of(), "up"),
                Set.of(3, 1, 2),
                List.of(a, b),
                Optional.empty(),
                OptionalLong.of(-3),
                Duration.ofMillis(-1500),
                new int[] {Integer.MIN_VALUE, -1, 0, 1, Integer.MAX_VALUE},
                Long.MIN_VALUE,
                "é and ü",
                true,
                2.5);
        // one stream of all of them twice over, with one table of names, as a batch has it: the
        // second time, the names go by number
        Codec.Out stream = new Codec.Out(64);
        Codec.Names w = new Codec.Names();
        for (int round = 0; round < 2; round++) {
            for (Object v : values) {
                Codec.writeCompact(stream, v, w);
            }
        }
        Codec.In in = new Codec.In(stream.buf, 0, stream.pos);
        Codec.Names r = new Codec.Names();
        for (int round = 0; round < 2; round++) {
            for (Object v : values) {
                Codec.Out o = new Codec.Out(64);
                Codec.transcode(in, o, r);
                assertArrayEquals(canonical(v), o.toArray(), "value " + v + " round " + round);
            }
        }
        assertEquals(stream.pos, in.position(), "every byte read");
    }

    /** A packet of random chunks, sometimes malformed. */
    static byte[] packet(SplittableRandom rnd, int tsn) {
        Codec.Out o = new Codec.Out(256);
        o.be32(0x13881389);
        o.be32(0x5a5a1234);
        o.be32(rnd.nextInt());
        int shape = rnd.nextInt(10);
        if (shape == 0) { // shorter than a common header
            return Arrays.copyOf(o.toArray(), rnd.nextInt(12));
        }
        int chunks = 1 + rnd.nextInt(4);
        for (int c = 0; c < chunks; c++) {
            int kind = rnd.nextInt(4);
            int type = kind == 0 ? 0 : kind == 1 ? 64 : kind == 2 ? 3 : 4;
            int body = kind <= 1 ? (kind == 0 ? 12 : 16) + rnd.nextInt(60) : 12 + 4 * rnd.nextInt(3);
            o.u8(type);
            o.u8(rnd.nextInt(8));
            o.u8((4 + body) >>> 8);
            o.u8(4 + body);
            if (kind <= 1) {
                o.be32(tsn + c);
                for (int i = 4; i < body; i++) {
                    o.u8(rnd.nextInt(256));
                }
            } else {
                for (int i = 0; i < body; i++) {
                    o.u8(rnd.nextInt(256));
                }
            }
            boolean last = c == chunks - 1;
            if (!last || rnd.nextBoolean()) { // the last chunk's padding may be left out
                while ((o.pos & 3) != 0) {
                    o.u8(rnd.nextInt(3) == 0 ? 1 : 0);
                }
            }
        }
        byte[] p = o.toArray();
        if (shape == 1) { // a chunk length below 4
            p[14] = 0;
            p[15] = 2;
        } else if (shape == 2) { // trailing bytes after the chunks
            p = Arrays.copyOf(p, p.length + 1 + rnd.nextInt(3));
        } else if (shape == 3 && p.length > 20) { // cut inside a chunk
            p = Arrays.copyOf(p, p.length - 1 - rnd.nextInt(5));
        }
        return p;
    }

    @Test
    void everyPacketDecodesToItsFormat2Bytes() {
        SplittableRandom rnd = new SplittableRandom(3);
        for (int mode = 0; mode < 3; mode++) { // whole, cut, cut with the checksum 0
            boolean whole = mode == 0;
            boolean zero = mode == 2;
            Compact.Reference wr = new Compact.Reference();
            Compact.Reference rr = new Compact.Reference();
            Codec.Out scratch = new Codec.Out(64);
            Codec.Out stored = new Codec.Out(64);
            List<byte[]> expected = new ArrayList<>();
            for (int i = 0; i < 3000; i++) {
                byte[] p = packet(rnd, 1000 + 3 * i);
                ByteBuffer b = ByteBuffer.allocate(p.length + 9).position(5);
                b.put(p).flip().position(5);
                Compact.writePacket(stored, b, whole, zero, wr, scratch);
                assertEquals(5, b.position(), "the packet's buffer is not moved");
                Codec.Out e = new Codec.Out(64);
                e.i32(p.length);
                if (whole) {
                    e.bytes(p, 0, p.length);
                } else {
                    int at = e.pos + 4;
                    Headers.cutInto(ByteBuffer.wrap(p), e);
                    if (zero && e.pos - at >= 12) {
                        Arrays.fill(e.buf, at + 8, at + 12, (byte) 0);
                    }
                }
                expected.add(e.toArray());
            }
            Codec.In in = new Codec.In(stored.buf, 0, stored.pos);
            for (int i = 0; i < expected.size(); i++) {
                Codec.Out got = new Codec.Out(64);
                Compact.readPacket(in, got, rr, new Codec.Out(64));
                assertArrayEquals(expected.get(i), got.toArray(), "mode " + mode + ", packet " + i);
            }
            assertEquals(stored.pos, in.position());
        }
    }

    @Test
    void theRecorderMovesNoBufferItIsGiven() throws IOException {
        // CoreJournal: the endpoint hands over its own buffers, not copies
        for (int mode = 0; mode < 3; mode++) {
            boolean headers = mode == 1;
            boolean digests = mode != 2;
            try (JournalRecorder rec = JournalRecorder.builder(tmp.resolve("m" + mode))
                    .headersOnly(headers)
                    .digestOutputs(digests)
                    .open()) {
                InetAddress a = InetAddress.getByName("10.0.0.1");
                rec.created(1, List.of(a), SctpOptions.DEFAULTS, 0);
                SplittableRandom rnd = new SplittableRandom(mode);
                for (int i = 0; i < 200; i++) {
                    byte[] p = packet(rnd, i);
                    ByteBuffer b = ByteBuffer.allocateDirect(p.length + 8).position(3);
                    b.put(p).limit(3 + p.length).position(3);
                    rec.packetIn(b, a, a, 0, i);
                    rec.transmit(b, a, a, 1500, i);
                    rec.send(new AssociationId(1), SendInfo.DEFAULT, b, i, false);
                    rec.message(new AssociationId(1), 0, 0, false, b);
                    assertEquals(3, b.position(), "position, mode " + mode);
                    assertEquals(3 + p.length, b.limit(), "limit, mode " + mode);
                }
            }
        }
    }

    @Test
    void aRecordedRunTakesFewerBytesThanInFormat2() throws IOException {
        for (boolean headers : new boolean[] {false, true}) {
            SimulatedRun r = new SimulatedRun(tmp.resolve("a" + headers), tmp.resolve("z" + headers));
            r.settings = b -> b.headersOnly(headers);
            r.run(9, 0.01, 400);
            long stored = 0;
            long format2 = 0;
            try (JournalReader in = JournalReader.open(r.dirA)) {
                while (in.hasNext()) {
                    JournalEntry e = in.next();
                    stored += in.storedBytes();
                    format2 += 13 + e.bodyEnd() - e.bodyOffset();
                }
            }
            double perMessage = stored / 400.0;
            System.out.printf(
                    java.util.Locale.ROOT,
                    "%s: %.1f bytes per message stored, %.1f in format 2%n",
                    headers ? "headers only" : "outputs by digest",
                    perMessage,
                    format2 / 400.0);
            // the sender's journal: the message bytes (1000) only when not headers only, a few
            // dozen bytes of headers and framing per message besides
            assertTrue(perMessage < (headers ? 80 : 1080), perMessage + " bytes per message");
            assertTrue(stored < format2 * (headers ? 0.5 : 0.97), stored + " of " + format2);
        }
    }
}
