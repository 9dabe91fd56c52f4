package org.sctpj.stack.tx;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.sctpj.stack.SctpOptions;
import org.sctpj.stack.cc.Rfc9260CongestionController;
import org.sctpj.stack.path.Path;
import org.sctpj.stack.path.PathStatus;

/**
 * {@link PacketFiller} on one IPv4 path of MTU 1500 (1452 bytes of user data per packet), each
 * limit of RFC 9260 section 6.1 alone: the packet's room, cwnd (rule B), the peer's rwnd and the
 * zero window probe (rule A), Max.Burst, Nagle (rule C, and the I bit of RFC 7053), and a fast
 * retransmit that ignores cwnd (7.2.4).
 */
class PacketFillerTest {
    private static final int FULL = SenderFixture.FULL;

    private static final class Fx {
        final Path p;
        final List<Path> paths;
        final RetransmissionQueue q;
        final SendQueue queue;
        final PacketFiller filler;
        final PacketBuilder pb = new PacketBuilder(9000);

        Fx(SctpOptions o, long rwnd) throws Exception {
            p = new Path(0, InetAddress.getByAddress(new byte[] {10, 0, 0, 1}), 1500, o);
            p.setStatus(PathStatus.ACTIVE);
            paths = List.of(p);
            Rfc9260CongestionController cc = new Rfc9260CongestionController();
            cc.init(p, rwnd);
            SendPool pool = new SendPool(o.sendBufferBytes());
            q = new RetransmissionQueue(pool, 1, rwnd, new AckResult());
            queue = new SendQueue(o, pool, q, 4);
            T3Rtx t3 = new T3Rtx(q, new Rfc9260LossDetector(q, cc), cc);
            filler = new PacketFiller(o, queue, q, new SinglePathScheduling(), t3, pool);
        }

        void queue(int n, int size, boolean immediate) {
            for (int i = 0; i < n; i++) {
                queue.send(0, 0, false, immediate, ByteBuffer.wrap(new byte[size]));
            }
        }

        /** Fills one packet; the DATA chunks it took. */
        int packet() {
            pb.reset(1, 2, 3, p.maxPacketBytes());
            filler.fill(pb, p, paths, 0);
            return pb.dataChunkCount();
        }

        /** Fills packets until one stays empty; how many took DATA. */
        int packets() {
            int n = 0;
            while (packet() > 0) {
                n++;
            }
            return n;
        }
    }

    private static SctpOptions options(boolean noDelay, int maxBurst) {
        return SenderFixture.options(noDelay).toBuilder().maxBurst(maxBurst).build();
    }

    @Test
    void aPacketTakesNoMoreThanItsRoom() throws Exception {
        Fx f = new Fx(options(true, 100), 1 << 20);
        f.queue(1, 3 * FULL + 10, false);
        assertEquals(1, f.packet());
        assertEquals(FULL, f.pb.dataBytes(), "one full fragment per packet");
        assertEquals(3, f.packets(), "the rest: two full fragments and 10 bytes");
    }

    @Test
    void aPacketStartsOnlyWhileTheFlightIsBelowCwnd() throws Exception {
        Fx f = new Fx(options(true, 100), 1 << 20);
        f.p.setCwnd(3000);
        f.queue(5, 1000, false);
        assertEquals(3, f.packets(), "flight 0, 1000 and 2000 are below 3000; 3000 is not");
        assertEquals(3000, f.p.flightSize());
        f.p.setCwnd(3001);
        assertEquals(1, f.packets(), "cwnd is a byte limit on starting a packet, not on its content");
    }

    @Test
    void thePeersWindowStopsNewDataAndAClosedWindowIsProbedWithOneChunk() throws Exception {
        Fx f = new Fx(options(true, 100), 2500);
        f.queue(4, 1000, false);
        assertEquals(2, f.packets(), "1000 + 1000, then 500 left for a chunk of 1000");
        assertEquals(500, f.q.peerRwnd());

        Fx z = new Fx(options(true, 100), 0);
        z.queue(3, 1000, false);
        assertEquals(1, z.packets(), "nothing outstanding: one chunk probes the zero window");
        assertEquals(1, z.q.size());
    }

    @Test
    void maxBurstLimitsPacketsUntilANewBurstStarts() throws Exception {
        Fx f = new Fx(options(true, 2), 1 << 20);
        f.queue(5, 1000, false);
        assertEquals(2, f.packets());
        assertEquals(0, f.filler.packetsAllowed(f.p));
        f.filler.beginBurst(f.p);
        assertEquals(2, f.packets());
        f.filler.beginBursts(f.paths);
        assertEquals(1, f.packets());
    }

    @Test
    void nagleHoldsASmallMessageWhileDataIsOutstandingUnlessItHasTheIBit() throws Exception {
        Fx f = new Fx(options(false, 100), 1 << 20);
        f.queue(1, 100, false);
        assertEquals(1, f.packets(), "nothing outstanding: a small message goes at once");
        f.queue(1, 100, false);
        assertEquals(0, f.packets(), "data outstanding and less than a packet queued: Nagle holds");
        f.queue(1, 100, true);
        assertEquals(1, f.packets(), "the I bit releases what is queued");
        assertEquals(3, f.q.size());
        f.queue(15, 100, false);
        assertEquals(1, f.packets(), "a packet's worth queued goes despite Nagle");
    }

    @Test
    void aFastRetransmitGoesDespiteAFullCwndOtherMarkedChunksWait() throws Exception {
        Fx f = new Fx(options(true, 100), 1 << 20);
        f.queue(3, 1000, false);
        assertEquals(3, f.packets());
        f.p.setCwnd(1000);
        f.q.markFast(f.q.get(0));
        f.q.mark(f.q.get(1));
        assertEquals(1000, f.p.flightSize());
        assertEquals(1, f.packet(), "the fast retransmit, though the flight is at cwnd");
        assertEquals(0, f.q.fastPending());
        assertEquals(0, f.packet(), "the chunk marked by T3 waits for the window");
        assertEquals(1, f.q.markedCount());
    }

    @Test
    void onlyOnePacketOfFastRetransmitsIgnoresCwndTheRestWaitForTheWindow() throws Exception {
        Fx f = new Fx(options(true, 100), 1 << 20);
        f.queue(3, 1000, false);
        assertEquals(3, f.packets());
        f.p.setCwnd(1000);
        for (int i = 0; i < 3; i++) {
            f.q.markFast(f.q.get(i)); // three chunks of 1000 bytes: one per packet
        }
        assertEquals(0, f.p.flightSize());
        f.p.addFlight(1000); // something else holds the window
        assertEquals(1, f.packet(), "one packet's worth goes regardless of cwnd (7.2.4 step 3)");
        assertEquals(0, f.q.fastPending(), "the rest are no longer fast");
        assertEquals(2, f.q.markedCount());
        assertEquals(0, f.packet(), "they wait for the window (7.2.4 step 5)");
    }
}
