package org.sctpj.stack.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.sctpj.stack.testutil.Corpus;
import org.sctpj.stack.testutil.PcapReader.SctpFrame;
import org.sctpj.stack.wire.cause.ProtocolViolationCause;
import org.sctpj.stack.wire.chunk.AbortChunk;
import org.sctpj.stack.wire.chunk.Chunk;
import org.sctpj.stack.wire.chunk.GapAckBlock;
import org.sctpj.stack.wire.chunk.IDataChunk;
import org.sctpj.stack.wire.chunk.IForwardTsnChunk;
import org.sctpj.stack.wire.chunk.SackChunk;

/**
 * What the corpus shows Linux 6.1 and usrsctp 0.9.5.0 doing wrong with I-DATA (RFC 8260), decoded
 * with our codec from the two captures (tests/README.md, "I-DATA between usrsctp and Linux", says
 * what our stack must do about it). These pin the facts the interop cases are built on: if a
 * capture or our decoding changed, the write-up would be wrong and this fails.
 */
class CorpusIdataQuirksTest {

    private static List<Chunk> chunks(SctpFrame f) {
        return SctpPacket.decode(ByteBuffer.wrap(f.sctp()), ChecksumPolicy.VERIFY)
                .value()
                .chunks();
    }

    /**
     * RFC 8260 section 2.1: the first fragment carries the PPID (FSN 0 implied), the next ones FSN
     * 1, 2, ... Linux 6.1 numbers the fragments after the first from 0: a 4,000-byte message goes
     * out as B (PPID), FSN 0, FSN 1 where the RFC says B, FSN 1, FSN 2. usrsctp takes a fragment
     * without the B bit and FSN 0 for a protocol violation and ABORTs.
     */
    @Test
    void linuxNumbersFragmentsAfterTheFirstFromZero() {
        List<IDataChunk> idata = new ArrayList<>();
        List<AbortChunk> aborts = new ArrayList<>();
        for (SctpFrame f : Corpus.packets("kernel-to-usrsctp_raw_idata-fragmented-fsn-abort.pcap")) {
            for (Chunk c : chunks(f)) {
                if (c instanceof IDataChunk d) {
                    idata.add(d);
                } else if (c instanceof AbortChunk a) {
                    aborts.add(a);
                }
            }
        }
        assertEquals(3, idata.size(), "fragments of the one message");
        IDataChunk first = idata.get(0);
        IDataChunk middle = idata.get(1);
        IDataChunk last = idata.get(2);
        assertTrue(first.beginning() && !first.ending(), "first fragment: B");
        assertEquals(1000, first.ppidOrFsn(), "the first fragment carries the PPID");
        assertTrue(!middle.beginning() && !middle.ending() && !last.beginning() && last.ending(), "middle, then E");
        assertEquals(first.mid(), middle.mid());
        assertEquals(first.mid(), last.mid());
        assertEquals(first.tsn() + 1, middle.tsn());
        assertEquals(first.tsn() + 2, last.tsn());
        // Linux: 0 and 1; RFC 8260: 1 and 2.
        assertEquals(0, middle.ppidOrFsn(), "FSN of the second fragment");
        assertEquals(1, last.ppidOrFsn(), "FSN of the third fragment");

        assertEquals(1, aborts.size(), "usrsctp's ABORT");
        assertTrue(aborts.get(0).causes().get(0) instanceof ProtocolViolationCause);
        ProtocolViolationCause pv =
                (ProtocolViolationCause) aborts.get(0).causes().get(0);
        String why = new String(pv.additionalInformation().toArray(), StandardCharsets.US_ASCII);
        assertEquals("FSN zero for MID=00000000, but flags=00", why);
    }

    /**
     * RFC 8260 section 2.3.1: an I-FORWARD-TSN entry names, per stream and U bit, the largest MID
     * that was skipped. Linux 6.1 names the MID of the last message at or below the new cumulative
     * TSN on that stream, whether it was abandoned or not: in the first I-FORWARD-TSN the
     * abandoned TSNs (never acknowledged by usrsctp) carry ordered MIDs 3 and 4 on stream 0 and
     * unordered MIDs 2 and 3 on stream 1, but the entries say 7 and 6, the MIDs of TSNs usrsctp had
     * acknowledged in a gap block (messages it holds, ordered 5 to 7 waiting behind the skipped
     * ones). A receiver must treat the entry as "deliver what it holds up to this MID", not as "drop
     * up to this MID"; the capture does not show whether usrsctp delivered them.
     */
    @Test
    void linuxIForwardTsnNamesDeliveredMessages() {
        Map<Integer, IDataChunk> byTsn = new TreeMap<>();
        SackChunk lastSack = null;
        IForwardTsnChunk firstFwd = null;
        SackChunk sackBeforeFwd = null;
        for (SctpFrame f : Corpus.packets("kernel-to-usrsctp_raw_idata-i-forward-tsn.pcap")) {
            for (Chunk c : chunks(f)) {
                if (c instanceof IDataChunk d) {
                    byTsn.putIfAbsent(d.tsn(), d);
                } else if (c instanceof SackChunk s) {
                    lastSack = s;
                } else if (c instanceof IForwardTsnChunk fwd && firstFwd == null) {
                    firstFwd = fwd;
                    sackBeforeFwd = lastSack;
                }
            }
        }
        assertTrue(firstFwd != null && sackBeforeFwd != null, "an I-FORWARD-TSN after a SACK");
        int cum = sackBeforeFwd.cumTsnAck();
        // TSNs usrsctp reported as received (cumulative ack and gap blocks, offsets from cum)
        java.util.Set<Integer> acked = new java.util.HashSet<>();
        for (GapAckBlock g : sackBeforeFwd.gapAckBlocks()) {
            for (int o = g.start(); o <= g.end(); o++) {
                acked.add(cum + o);
            }
        }
        // per (stream, U): the largest MID abandoned, and the MID of the last TSN <= new cum TSN
        Map<String, Integer> maxAbandoned = new HashMap<>();
        Map<String, Integer> lastCovered = new HashMap<>();
        Map<String, Boolean> lastCoveredAcked = new HashMap<>();
        for (IDataChunk d : byTsn.values()) {
            if (Serial.gt(d.tsn(), firstFwd.newCumulativeTsn())) {
                continue;
            }
            String key = d.streamId() + (d.unordered() ? "U" : "");
            lastCovered.merge(key, d.mid(), Math::max);
            if (lastCovered.get(key) == d.mid()) {
                lastCoveredAcked.put(key, acked.contains(d.tsn()) || !Serial.gt(d.tsn(), cum));
            }
            if (Serial.gt(d.tsn(), cum) && !acked.contains(d.tsn())) {
                maxAbandoned.merge(key, d.mid(), Math::max);
            }
        }
        assertEquals(Map.of("0", 4, "1U", 3), maxAbandoned, "largest abandoned MID per stream");
        Map<String, Integer> announced = new HashMap<>();
        for (IForwardTsnChunk.Entry e : firstFwd.entries()) {
            announced.put(e.streamId() + (e.unordered() ? "U" : ""), e.mid());
        }
        assertEquals(Map.of("0", 7, "1U", 6), announced, "the MIDs Linux announced");
        assertEquals(lastCovered, announced, "Linux announces the last MID under the new cumulative TSN");
        assertEquals(Map.of("0", true, "1U", true), lastCoveredAcked, "those messages had arrived");
    }
}
