package org.sctpj.stack.tx;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.sctpj.stack.IDataFragmentNumbering;
import org.sctpj.stack.wire.chunk.Chunk;
import org.sctpj.stack.wire.chunk.IDataChunk;

/**
 * The I-DATA send side (RFC 8260 section 2.1): MID per stream from one counter for ordered and one
 * for unordered messages, FSN 0 on the first fragment (which carries the PPID) then 1, 2, ...,
 * fragments of different streams interleaved, the 20-byte header counted when filling a packet,
 * and a retransmission that repeats MID and FSN.
 */
class IDataSenderTest {

    private static SenderFixture fixture() {
        SenderFixture f = SenderFixture.noDelay();
        f.tx.useIData();
        return f;
    }

    private static List<IDataChunk> drain(SenderFixture f, long now) {
        List<IDataChunk> out = new ArrayList<>();
        for (List<Chunk> c; !(c = f.chunks(now)).isEmpty(); ) {
            for (Chunk k : c) {
                out.add(assertInstanceOf(IDataChunk.class, k, "only I-DATA once I-DATA is in use"));
            }
        }
        return out;
    }

    @Test
    void midsCountPerStreamOrderedAndUnorderedApart() {
        SenderFixture f = fixture();
        f.send(0, 10);
        f.send(0, 10, true, false);
        f.send(1, 10);
        f.send(0, 10);
        f.send(0, 10, true, false);
        List<IDataChunk> c = drain(f, 0);
        assertEquals(5, c.size());
        StringBuilder seen = new StringBuilder();
        for (IDataChunk k : c) {
            assertTrue(k.beginning() && k.ending());
            assertEquals(42, k.ppid());
            seen.append(k.streamId())
                    .append(k.unordered() ? "u" : "o")
                    .append(k.mid())
                    .append(' ');
        }
        assertEquals("0o0 1o0 0u0 0o1 0u1 ", seen.toString(), "stream, ordered or unordered, MID");
    }

    @Test
    void fragmentsAreNumberedFromZeroAndOnlyTheFirstCarriesThePpid() {
        SenderFixture f = fixture();
        f.send(2, 4000);
        List<IDataChunk> c = drain(f, 0);
        assertEquals(3, c.size());
        ByteArrayOutputStream all = new ByteArrayOutputStream();
        for (int i = 0; i < c.size(); i++) {
            IDataChunk k = c.get(i);
            assertEquals(i, k.fsn(), "RFC 8260 section 2.1: FSN 0, 1, 2");
            assertEquals(i == 0, k.beginning());
            assertEquals(i == 2, k.ending());
            assertEquals(0, k.mid());
            assertEquals(SenderFixture.tsn(i), k.tsn());
            all.writeBytes(k.userData().toArray());
        }
        assertEquals(42, c.get(0).ppid());
        byte[] want = new byte[4000];
        for (int i = 0; i < want.length; i++) {
            want[i] = (byte) (i * 31 + 2);
        }
        assertArrayEquals(want, all.toByteArray());
    }

    @Test
    void theLinuxNumberingCountsFromZeroAfterTheFirstFragment() {
        SenderFixture f = SenderFixture.noDelay();
        f.tx.useIData(IDataFragmentNumbering.LINUX_6_1);
        f.send(0, 4000);
        List<IDataChunk> c = drain(f, 0);
        assertEquals(List.of(0, 0, 1), c.stream().map(IDataChunk::fsn).toList(), "B, then FSN 0, 1 as Linux 6.1");
        assertEquals(IDataFragmentNumbering.LINUX_6_1, f.tx.fragmentNumbering());
    }

    @Test
    void autoSwitchesToTheLinuxNumberingForMessagesBegunAfterThePeerShowedIt() {
        SenderFixture f = SenderFixture.noDelay();
        f.tx.useIData(IDataFragmentNumbering.AUTO);
        f.send(0, 4000);
        f.send(1, 4000);
        List<IDataChunk> before = new ArrayList<>();
        for (Chunk k : f.chunks(0)) {
            before.add((IDataChunk) k); // stream 0's first fragment only
        }
        assertEquals(IDataFragmentNumbering.RFC8260, f.tx.fragmentNumbering());
        f.tx.peerNumbersFragmentsLikeLinux();
        assertEquals(IDataFragmentNumbering.LINUX_6_1, f.tx.fragmentNumbering());
        List<IDataChunk> rest = drain(f, 0);
        StringBuilder s0 = new StringBuilder();
        StringBuilder s1 = new StringBuilder();
        for (IDataChunk k : rest) {
            (k.streamId() == 0 ? s0 : s1).append(k.fsn()).append(' ');
        }
        assertEquals(1, before.size());
        assertTrue(
                s0.toString().startsWith("1 "), "the message begun before the switch keeps the RFC numbering: " + s0);
        assertTrue(s1.toString().startsWith("0 0 "), "the one begun after it takes the peer's: " + s1);
    }

    @Test
    void rfcNumberingNeverSwitches() {
        SenderFixture f = SenderFixture.noDelay();
        f.tx.useIData(IDataFragmentNumbering.RFC8260);
        f.tx.peerNumbersFragmentsLikeLinux();
        f.send(0, 4000);
        assertEquals(List.of(0, 1, 2), drain(f, 0).stream().map(IDataChunk::fsn).toList());
    }

    @Test
    void aFullPacketCountsTheTwentyByteHeader() {
        SenderFixture f = fixture();
        f.send(0, 10_000);
        List<Chunk> first = f.chunks(0);
        assertEquals(1, first.size());
        IDataChunk k = (IDataChunk) first.get(0);
        assertEquals(SenderFixture.FULL - 4, k.userData().length(), "4 bytes less than a DATA chunk's");
    }

    @Test
    void fragmentsOfTwoStreamsInterleave() {
        SenderFixture f = fixture();
        f.send(0, 4000); // three fragments, within the initial cwnd
        f.send(1, 100);
        List<IDataChunk> c = drain(f, 0);
        assertEquals(0, c.get(0).streamId());
        assertEquals(1, c.get(1).streamId(), "the small message goes right after the first fragment");
        assertTrue(c.get(1).beginning() && c.get(1).ending());
        for (int i = 2; i < c.size(); i++) {
            assertEquals(0, c.get(i).streamId());
            assertEquals(i - 1, c.get(i).fsn());
        }
        assertTrue(c.get(c.size() - 1).ending());
    }

    @Test
    void aRetransmissionRepeatsMidAndFsn() {
        SenderFixture f = fixture();
        f.send(0, 10);
        f.send(3, 3000);
        List<IDataChunk> sent = drain(f, 0);
        f.tx.onT3Expired(f.p, f.paths, f.p.t3Deadline());
        List<IDataChunk> again = drain(f, f.p.t3Deadline());
        assertFalse(again.isEmpty());
        for (IDataChunk r : again) {
            IDataChunk o =
                    sent.stream().filter(s -> s.tsn() == r.tsn()).findFirst().orElseThrow();
            assertEquals(o, r, "the same chunk, byte for byte");
        }
    }
}
