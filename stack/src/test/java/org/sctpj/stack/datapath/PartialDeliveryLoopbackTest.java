package org.sctpj.stack.datapath;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.sctpj.stack.SctpOptions;
import org.sctpj.stack.rx.DataReceiver;
import org.sctpj.stack.rx.ReceivedMessage;
import org.sctpj.stack.tx.DataSender;

/**
 * Partial delivery (RFC 9260 section 6.9, RFC 6458 section 8.1.21) between a DataSender and a
 * DataReceiver over a seeded lossy link in virtual time ({@link LossyLoopback}): messages from 1 byte to 5,000,000 bytes,
 * ordered and unordered on several streams at once, pass through a 256 KiB receive buffer. Every
 * message arrives exactly once (whole, or in parts that together are exactly it), in order per
 * stream for ordered ones; no other message of a stream comes between the parts of one; the
 * receiver never holds more than twice its buffer; nothing stalls. Before partial delivery, the
 * first message larger than the buffer stopped the transfer for good (the window stayed closed).
 */
class PartialDeliveryLoopbackTest {

    private static final int STREAMS = 4;
    private static final int RECEIVE_BUFFER = 256 << 10;

    @ParameterizedTest
    @CsvSource({"1, 0.0", "2, 0.02", "3, 0.05", "4, 0.10"})
    void messagesUpToTwentyTimesTheBufferArriveOnceInOrder(long seed, double loss) {
        SctpOptions o = SctpOptions.WAN.toBuilder()
                .rtoInitial(Duration.ofMillis(100))
                .rtoMin(Duration.ofMillis(30))
                .delayedAckTime(Duration.ofMillis(15))
                .rtoMax(Duration.ofMillis(400))
                .noDelay(true)
                .sendBufferBytes(16 << 20)
                .maxMessageSize(5_000_000)
                .receiveBufferBytes(RECEIVE_BUFFER)
                .build();
        assertEquals(RECEIVE_BUFFER / 2, o.partialDeliveryPoint(), "the point follows a smaller buffer down");
        SplittableRandom rnd = new SplittableRandom(seed);

        // Sizes from 1 B to 5,000,000 B, several larger than the buffer, interleaved over streams.
        int[] sizes = {
            1,
            5_000_000,
            4,
            300_000,
            1,
            1_000_000,
            700,
            5_000_000,
            70_000,
            RECEIVE_BUFFER,
            RECEIVE_BUFFER + 1,
            2,
            600_000,
            3_000,
            1_500_000,
            9
        };
        List<byte[]> sent = new ArrayList<>();
        int n = sizes.length + 40;
        int[] streamOf = new int[n];
        boolean[] unorderedOf = new boolean[n];
        List<List<Integer>> orderedPerStream = new ArrayList<>();
        for (int s = 0; s < STREAMS; s++) {
            orderedPerStream.add(new ArrayList<>());
        }
        for (int i = 0; i < n; i++) {
            int size = i < sizes.length ? sizes[i] : 1 + rnd.nextInt(rnd.nextBoolean() ? 100 : 20_000);
            byte[] m = new byte[size];
            rnd.nextBytes(m);
            sent.add(m); // its PPID, 7 + i, tells which message it is
            streamOf[i] = rnd.nextInt(STREAMS);
            unorderedOf[i] = rnd.nextInt(3) == 0;
            if (!unorderedOf[i]) {
                orderedPerStream.get(streamOf[i]).add(i);
            }
        }
        int initialTsn = 0xFFFFF000; // wraps during the run
        LossyLoopback link = new LossyLoopback(o, initialTsn, STREAMS, rnd, loss, 5 * LossyLoopback.MS);
        DataSender tx = link.tx;
        DataReceiver rx = link.rx;
        Receiver app = new Receiver(sent, streamOf, unorderedOf, orderedPerStream);
        int[] nextToSend = {0};
        link.run(
                () -> {
                    while (nextToSend[0] < n) {
                        int i = nextToSend[0];
                        var st = tx.send(streamOf[i], 7 + i, unorderedOf[i], false, ByteBuffer.wrap(sent.get(i)));
                        if (st == DataSender.SendStatus.WOULD_BLOCK) {
                            break;
                        }
                        nextToSend[0]++;
                    }
                },
                r -> {
                    for (ReceivedMessage m; (m = r.pollMessage()) != null; ) {
                        app.take(m);
                    }
                },
                () -> app.delivered == n,
                5_000_000);
        assertEquals(0, link.cannotTake, "the receiver never gave up");
        assertEquals(n, app.delivered, "every message delivered");
        for (int s = 0; s < STREAMS; s++) {
            assertEquals(orderedPerStream.get(s).size(), app.nextOrdered[s], "ordered messages of stream " + s);
            assertNull(app.open[s], "no message left half delivered on stream " + s);
        }
        assertTrue(app.partedMessages >= 4, "the large messages came in parts: " + app.partedMessages);
        assertTrue(link.mostBuffered <= 2L * RECEIVE_BUFFER, "held at most twice the buffer: " + link.mostBuffered);
        assertTrue(tx.isEmpty());
        assertEquals(0, rx.bufferedBytes());
        assertEquals(0, rx.protocolViolations());
        assertEquals(List.of(), rx.partialDeliveries());
        assertEquals(tx.cumulativeAckTsn(), rx.cumulativeTsn());
        if (loss > 0) {
            assertTrue(link.path.chunksRetransmitted() > 0, "losses were repaired by retransmission");
        }
    }

    /** The application: puts parts together per stream and checks each message once, in order. */
    private static final class Receiver {
        final List<byte[]> sent;
        final int[] streamOf;
        final boolean[] unorderedOf;
        final List<List<Integer>> orderedPerStream;
        final boolean[] seen;
        final int[] nextOrdered = new int[STREAMS];
        final ByteArrayOutputStream[] open = new ByteArrayOutputStream[STREAMS];
        final int[] openPpid = new int[STREAMS];
        final boolean[] openUnordered = new boolean[STREAMS];
        int delivered;
        int partedMessages;

        Receiver(List<byte[]> sent, int[] streamOf, boolean[] unorderedOf, List<List<Integer>> orderedPerStream) {
            this.sent = sent;
            this.streamOf = streamOf;
            this.unorderedOf = unorderedOf;
            this.orderedPerStream = orderedPerStream;
            this.seen = new boolean[sent.size()];
        }

        void take(ReceivedMessage m) {
            int s = m.streamId();
            if (!m.part()) {
                assertNull(open[s], "a whole message came between the parts of another on stream " + s);
                check(s, m.ppid(), m.unordered(), m.data());
                return;
            }
            assertTrue(m.data().length > 0, "a part carries bytes");
            if (open[s] == null) {
                open[s] = new ByteArrayOutputStream();
                openPpid[s] = m.ppid();
                openUnordered[s] = m.unordered();
            } else {
                assertEquals(openPpid[s], m.ppid(), "parts of one message share its PPID");
                assertEquals(openUnordered[s], m.unordered());
            }
            open[s].writeBytes(m.data());
            if (m.last()) {
                byte[] whole = open[s].toByteArray();
                open[s] = null;
                partedMessages++;
                check(s, m.ppid(), m.unordered(), whole);
            }
        }

        private void check(int s, int ppid, boolean unordered, byte[] data) {
            int index = ppid - 7;
            assertTrue(index >= 0 && index < sent.size(), "ppid " + ppid);
            assertFalse(seen[index], "message " + index + " delivered twice");
            seen[index] = true;
            assertEquals(streamOf[index], s, "stream of message " + index);
            assertEquals(unorderedOf[index], unordered);
            assertArrayEquals(sent.get(index), data, "bytes of message " + index);
            if (!unordered) {
                List<Integer> order = orderedPerStream.get(s);
                assertEquals(order.get(nextOrdered[s]), index, "order on stream " + s);
                nextOrdered[s]++;
            }
            delivered++;
        }
    }
}
