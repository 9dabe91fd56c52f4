package org.sctpj.journal;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import org.sctpj.stack.wire.chunk.ChunkType;

/**
 * Counters of a journal, read from its entries alone (no replay, so a journal recorded with
 * headers only works too): packets and bytes each way, chunks by type each way, DATA sent again
 * (a TSN not above the highest sent so far: a retransmission, RFC 9260 section 6.3.3), DATA
 * received not above the highest received (duplicates or reordering), SACK gap blocks and
 * duplicate reports received, timer runs, user sends, messages and events handed out. One set for
 * the whole endpoint: the journal's packets are not labelled by association.
 */
public final class JournalStats {

    long entries;
    long packetsIn;
    long packetsOut;
    long bytesIn;
    long bytesOut;
    long dataOut;
    long dataRetransmitted;
    long dataIn;
    long dataInNotAbove;
    long gapBlocksIn;
    long dupReportsIn;
    long timeouts;
    long sends;
    long sendBytes;
    long messages;
    long messageBytes;
    long events;
    long first = Long.MIN_VALUE;
    long last;
    final Map<String, long[]> chunks = new TreeMap<>();
    private long highestOut = -1;
    private long highestIn = -1;

    private JournalStats() {}

    /** Reads the journal in {@code dir} and counts. */
    public static JournalStats of(Path dir) throws IOException {
        JournalStats s = new JournalStats();
        try (JournalReader in = JournalReader.open(dir)) {
            while (in.hasNext()) {
                s.add(in.next());
            }
        }
        return s;
    }

    private void add(JournalEntry e) {
        entries++;
        if (first == Long.MIN_VALUE) {
            first = e.now();
        }
        last = e.now();
        Codec.In b = e.body();
        switch (e.kind()) {
            case PACKET_IN -> {
                b.address();
                b.address();
                b.i32();
                packet(b, true);
            }
            case TRANSMIT -> {
                b.i32();
                b.address();
                b.address();
                packet(b, false);
            }
            case TIMEOUT -> timeouts++;
            case SEND -> {
                sends++;
                b.u8();
                b.i32();
                Codec.describe(b);
                sendBytes += b.i32();
            }
            case MESSAGE -> {
                messages++;
                b.i32();
                b.i32();
                b.i32();
                b.u8();
                messageBytes += b.i32();
            }
            case EVENT -> events++;
            default -> {}
        }
    }

    private void packet(Codec.In b, boolean in) {
        int original = b.i32();
        int n = b.i32();
        ByteBuffer p = ByteBuffer.wrap(b.buf, b.pos, n).slice();
        if (in) {
            packetsIn++;
            bytesIn += original;
        } else {
            packetsOut++;
            bytesOut += original;
        }
        int o = 12;
        while (o + 4 <= n) {
            int type = p.get(o) & 0xff;
            int len = p.getShort(o + 2) & 0xffff;
            if (len < 4) {
                break;
            }
            chunks.computeIfAbsent(ChunkType.name(type), k -> new long[2])[in ? 0 : 1]++;
            if (type == ChunkType.DATA && o + 8 <= n) {
                long tsn = p.getInt(o + 4) & 0xffffffffL;
                if (in) {
                    dataIn++;
                    if (highestIn >= 0 && !after(tsn, highestIn)) {
                        dataInNotAbove++;
                    } else {
                        highestIn = tsn;
                    }
                } else {
                    dataOut++;
                    if (highestOut >= 0 && !after(tsn, highestOut)) {
                        dataRetransmitted++;
                    } else {
                        highestOut = tsn;
                    }
                }
            } else if (type == ChunkType.SACK && in && o + 16 <= n) {
                gapBlocksIn += p.getShort(o + 12) & 0xffff;
                dupReportsIn += p.getShort(o + 14) & 0xffff;
            }
            // a cut DATA chunk (headers only) is 16 bytes long in the journal
            int stored = type == ChunkType.DATA && original > n ? 16 : (len + 3) & ~3;
            o += stored;
        }
    }

    /** Serial number arithmetic on 32 bits (RFC 1982): a after b. */
    private static boolean after(long a, long b) {
        return a != b && ((a - b) & 0xffffffffL) < 0x80000000L;
    }

    /** Prints the counters, one per line (bytes are SCTP packet bytes; MB = 10^6 bytes). */
    public void print(PrintStream out) {
        double span = first == Long.MIN_VALUE ? 0 : (last - first) / 1e9;
        out.printf("entries                 %d over %.3f s%n", entries, span);
        out.printf("packets in / out        %d / %d%n", packetsIn, packetsOut);
        out.printf(
                "bytes in / out          %d / %d (%.3f / %.3f MB)%n", bytesIn, bytesOut, bytesIn / 1e6, bytesOut / 1e6);
        out.printf("DATA out, retransmitted %d, %d%n", dataOut, dataRetransmitted);
        out.printf("DATA in, not above the highest TSN (dups or reordered) %d, %d%n", dataIn, dataInNotAbove);
        out.printf("SACK gap blocks / dup TSNs received %d / %d%n", gapBlocksIn, dupReportsIn);
        out.printf("timer runs              %d%n", timeouts);
        out.printf("user sends              %d (%d bytes)%n", sends, sendBytes);
        out.printf("messages handed out     %d (%d bytes)%n", messages, messageBytes);
        out.printf("events handed out       %d%n", events);
        out.println("chunks by type          in / out");
        for (Map.Entry<String, long[]> c : chunks.entrySet()) {
            out.printf("  %-21s %d / %d%n", c.getKey(), c.getValue()[0], c.getValue()[1]);
        }
    }

    /** Packets the endpoint sent. */
    public long packetsOut() {
        return packetsOut;
    }

    /** DATA chunks the endpoint sent again (retransmissions). */
    public long dataRetransmitted() {
        return dataRetransmitted;
    }

    /** Messages the endpoint handed out in place. */
    public long messages() {
        return messages;
    }
}
