package org.sctpj.stack.datapath;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.sctpj.stack.SctpOptions;
import org.sctpj.stack.path.Path;
import org.sctpj.stack.rx.DataReceiver;
import org.sctpj.stack.rx.ReceivedMessage;
import org.sctpj.stack.tx.DataSender;

/**
 * A DataSender wired to a DataReceiver over a lossy simulated link ({@link LossyLoopback}), driven
 * by virtual time only (no association): every message arrives once, in order per stream.
 */
class LoopbackTest {

    private static final long MS = 1_000_000L;
    private static final int MESSAGES = 1000;
    private static final int STREAMS = 16;

    @ParameterizedTest
    @CsvSource({"1, false, 0.10", "2, true, 0.10", "3, false, 0.0", "4, true, 0.25", "5, false, 0.10"})
    void thousandMessagesOverLossyLinkArriveOnceInOrder(long seed, boolean noDelay, double loss) throws Exception {
        SctpOptions o = SctpOptions.WAN.toBuilder()
                .rtoInitial(Duration.ofMillis(100))
                .rtoMin(Duration.ofMillis(30))
                .rtoMax(Duration.ofMillis(400))
                .delayedAckTime(Duration.ofMillis(15))
                .noDelay(noDelay)
                .sendBufferBytes(64 * 1024)
                .receiveBufferBytes(48 * 1024)
                .maxMessageSize(16 * 1024)
                .build();
        SplittableRandom rnd = new SplittableRandom(seed);
        int initialTsn = 0xFFFFFF00; // wraps during the run
        LossyLoopback link = new LossyLoopback(o, initialTsn, STREAMS, rnd, loss, 10 * MS);
        DataSender tx = link.tx;
        DataReceiver rx = link.rx;
        Path p = link.path;

        List<byte[]> sent = new ArrayList<>();
        int[] streamOf = new int[MESSAGES];
        int[] nextExpected = new int[STREAMS];
        int[] perStreamCount = new int[STREAMS];
        List<List<Integer>> streamMessages = new ArrayList<>();
        for (int s = 0; s < STREAMS; s++) {
            streamMessages.add(new ArrayList<>());
        }
        for (int i = 0; i < MESSAGES; i++) {
            int size = rnd.nextInt(8) == 0 ? 1500 + rnd.nextInt(6000) : 4 + rnd.nextInt(1200);
            byte[] m = new byte[size];
            rnd.nextBytes(m);
            ByteBuffer.wrap(m).putInt(i);
            int s = rnd.nextInt(STREAMS);
            sent.add(m);
            streamOf[i] = s;
            streamMessages.get(s).add(i);
            perStreamCount[s]++;
        }

        int[] nextToSend = {0};
        int[] deliveredBox = {0};
        link.run(
                () -> {
                    // The application writes while the buffer takes it.
                    while (nextToSend[0] < MESSAGES) {
                        int i = nextToSend[0];
                        var st = tx.send(streamOf[i], 7, false, false, ByteBuffer.wrap(sent.get(i)));
                        if (st == DataSender.SendStatus.WOULD_BLOCK) {
                            break;
                        }
                        nextToSend[0]++;
                    }
                },
                r -> {
                    for (ReceivedMessage m; (m = r.pollMessage()) != null; ) {
                        int index = ByteBuffer.wrap(m.data()).getInt();
                        int s = m.streamId();
                        assertEquals(streamOf[index], s);
                        assertEquals(7, m.ppid());
                        List<Integer> order = streamMessages.get(s);
                        assertEquals(order.get(nextExpected[s]), index, "order on stream " + s);
                        nextExpected[s]++;
                        assertArrayEquals(sent.get(index), m.data());
                        deliveredBox[0]++;
                    }
                },
                () -> deliveredBox[0] == MESSAGES,
                2_000_000);
        int delivered = deliveredBox[0];
        long now = link.now;
        assertTrue(link.largestPacket <= 1480, "packets fit the MTU: " + link.largestPacket);
        assertEquals(MESSAGES, delivered);
        for (int s = 0; s < STREAMS; s++) {
            assertEquals(perStreamCount[s], nextExpected[s]);
        }
        assertTrue(tx.isEmpty());
        assertEquals(0, rx.bufferedBytes());
        assertEquals(0, p.flightSize());
        assertEquals(initialTsn + tx.outstandingCount(), initialTsn);
        assertEquals(tx.cumulativeAckTsn(), rx.cumulativeTsn());
        assertEquals(0, rx.protocolViolations());
        if (loss > 0) {
            assertTrue(p.chunksRetransmitted() > 0, "losses were repaired by retransmission");
        }
        assertTrue(now < 600_000 * MS, "finished in virtual time " + now / MS + " ms");
    }
}
