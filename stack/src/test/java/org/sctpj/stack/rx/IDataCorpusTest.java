package org.sctpj.stack.rx;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.sctpj.stack.SctpOptions;
import org.sctpj.stack.testutil.PcapReader;
import org.sctpj.stack.wire.chunk.ChunkType;
import org.sctpj.stack.wire.chunk.IDataChunk;

/**
 * The I-DATA chunks of the corpus captures (Linux 6.1 and usrsctp 0.9.5, see the corpus README),
 * fed as they were sent into an I-DATA receiver: the Linux 6.1 fragmented message that made
 * usrsctp abort ("FSN zero for MID=00000000, but flags=00") is put together and delivered, and
 * usrsctp's and Linux's unfragmented messages on several streams, ordered and unordered, arrive.
 */
class IDataCorpusTest {

    /** The I-DATA chunks of a capture, in capture order, each as its own byte array. */
    static List<byte[]> iDataChunks(String file) throws IOException {
        List<byte[]> out = new ArrayList<>();
        try (InputStream in = IDataCorpusTest.class.getResourceAsStream("/corpus/" + file)) {
            for (PcapReader.SctpFrame f : PcapReader.sctpPackets(in)) {
                ByteBuffer b = ByteBuffer.wrap(f.sctp());
                for (int at = 12; at + 4 <= b.limit(); ) {
                    int len = b.getShort(at + 2) & 0xffff;
                    if ((b.get(at) & 0xff) == ChunkType.I_DATA) {
                        byte[] c = new byte[len];
                        b.get(at, c);
                        out.add(c);
                    }
                    at += Math.max(4, (len + 3) & ~3);
                }
            }
        }
        return out;
    }

    /** Feeds the chunks sent from the side whose first TSN is the first chunk's (one direction). */
    static List<ReceivedMessage> receive(List<byte[]> chunks, DataReceiver rx) {
        List<ReceivedMessage> got = new ArrayList<>();
        for (byte[] c : chunks) {
            ByteBuffer b = ByteBuffer.wrap(c);
            rx.onIData(
                    b.getInt(4),
                    b.getShort(8) & 0xffff,
                    b.getInt(12),
                    b.getInt(16),
                    b.get(1) & 0xff,
                    b,
                    IDataChunk.FIXED_LENGTH,
                    c.length - IDataChunk.FIXED_LENGTH,
                    0);
            rx.onPacketProcessed(true, false, 0);
            for (ReceivedMessage m; (m = rx.pollMessage()) != null; ) {
                got.add(m);
            }
        }
        return got;
    }

    static DataReceiver receiver(int firstTsn) {
        DataReceiver rx = new DataReceiver(SctpOptions.DEFAULTS, firstTsn, 10);
        rx.useIData();
        return rx;
    }

    @Test
    void linuxFragmentedMessageThatUsrsctpRejectedIsDelivered() throws IOException {
        List<byte[]> chunks = iDataChunks("kernel-to-usrsctp_raw_idata-fragmented-fsn-abort.pcap");
        assertEquals(3, chunks.size(), "B, then FSN 0, then FSN 1 with E");
        assertEquals(0, ByteBuffer.wrap(chunks.get(1)).getInt(16), "Linux 6.1 numbers the second fragment FSN 0");
        DataReceiver rx = receiver(ByteBuffer.wrap(chunks.get(0)).getInt(4));
        List<ReceivedMessage> got = receive(chunks, rx);
        assertEquals(1, got.size());
        assertEquals(4000, got.get(0).data().length);
        assertEquals(1000, got.get(0).ppid());
        assertTrue(new String(got.get(0).data(), 0, 7, StandardCharsets.US_ASCII).startsWith("kernel#"));
        assertEquals(0, rx.protocolViolations());
        assertEquals(0, rx.bufferedBytes());
    }

    @Test
    void unfragmentedMessagesOfBothImplementationsArrive() throws IOException {
        List<byte[]> all = iDataChunks("usrsctp-to-kernel_raw_idata-interleaving.pcap");
        int usrsctpTsn = ByteBuffer.wrap(all.get(0)).getInt(4);
        List<byte[]> fromUsrsctp = new ArrayList<>();
        List<byte[]> fromLinux = new ArrayList<>();
        for (byte[] c : all) {
            int d = ByteBuffer.wrap(c).getInt(4) - usrsctpTsn;
            (d >= 0 && d < 100 ? fromUsrsctp : fromLinux).add(c);
        }
        for (List<byte[]> side : List.of(fromUsrsctp, fromLinux)) {
            DataReceiver rx = receiver(ByteBuffer.wrap(side.get(0)).getInt(4));
            List<ReceivedMessage> got = receive(side, rx);
            assertEquals(6, got.size());
            for (int i = 0; i < 6; i++) {
                assertEquals(1000 + i, got.get(i).ppid());
                assertEquals(i % 3, got.get(i).streamId());
                assertEquals(i % 2 == 1, got.get(i).unordered());
            }
            assertEquals(0, rx.protocolViolations());
        }
    }
}
