package org.sctpj.api.socket;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.nio.sctp.Notification;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.sctpj.stack.AssociationId;

/**
 * The channels' receive queue without a network: a thread that plays the stack thread (it ends
 * its turns and idles when the test says) writes, application threads read. The stress tests
 * hang, and fail on their time limit, if a wake-up is lost; every byte and the order are checked.
 */
@Timeout(120)
class InboxTest {

    /** The stack thread's deferred tasks, run when the test ends a turn or idles. */
    static final class FakeTurns implements Inbox.Turns {
        final List<Runnable> turnEnd = new ArrayList<>();
        final List<Runnable> idle = new ArrayList<>();

        @Override
        public void atTurnEnd(Runnable task) {
            turnEnd.add(task);
        }

        @Override
        public void whenIdle(Runnable task) {
            idle.add(task);
        }

        void endTurn() {
            List<Runnable> l = new ArrayList<>(turnEnd);
            turnEnd.clear();
            l.forEach(Runnable::run);
        }

        void idle() {
            endTurn();
            List<Runnable> l = new ArrayList<>(idle);
            idle.clear();
            l.forEach(Runnable::run);
        }
    }

    static Inbox inbox() {
        return new Inbox(EnumSet.allOf(SctpjSocketOptions.Event.class));
    }

    static AssocState assoc(int id) {
        AssocState a = new AssocState(null, new AssociationId(id), 5000, null);
        a.view = new SctpjAssociation(null, a.id, 10, 10);
        return a;
    }

    /** Message {@code seq}: its size and its bytes follow from the number. */
    static int size(int seq) {
        int r = (seq * 7919) % 997;
        return seq % 211 == 0 ? Inbox.MAX_INLINE + 1 + r : seq % 17 == 0 ? 3000 + 10 * r : 1 + r;
    }

    static ByteBuffer message(int seq) {
        byte[] b = new byte[size(seq)];
        for (int i = 0; i < b.length; i++) {
            b[i] = (byte) (seq * 31 + i);
        }
        return ByteBuffer.wrap(b);
    }

    /**
     * The writer: {@code count} messages in turns of 1 to 40, ending each turn and idling after
     * some (sometimes pausing first, so that the reader goes to sleep); every other message of
     * an even turn is handed over as an array of its own (as parts of a message are).
     */
    static void write(Inbox in, AssocState a, int count, long seed) throws InterruptedException {
        FakeTurns t = new FakeTurns();
        SplittableRandom r = new SplittableRandom(seed);
        int seq = 0;
        for (int turn = 0; seq < count; turn++) {
            int n = 1 + r.nextInt(40);
            for (int i = 0; i < n && seq < count; i++, seq++) {
                ByteBuffer m = message(seq);
                if (turn % 2 == 0 && i % 2 == 1) {
                    in.add(t, a, 1, seq, false, m.array(), m.remaining(), true, 64 * 1024);
                } else {
                    in.add(t, a, 1, seq, false, m, 64 * 1024);
                }
            }
            t.endTurn();
            int what = r.nextInt(10);
            if (what < 3) {
                t.idle();
            } else if (what == 3) {
                Thread.sleep(0, 200_000);
                t.idle();
            }
        }
        t.idle();
    }

    /** Reads {@code count} messages into buffers of random sizes (so in parts), checking each. */
    static CompletableFuture<Integer> reader(Inbox in, int count, long seed) {
        return CompletableFuture.supplyAsync(() -> {
            SplittableRandom r = new SplittableRandom(seed);
            try {
                for (int seq = 0; seq < count; seq++) {
                    ByteBuffer whole = ByteBuffer.allocate(size(seq));
                    while (true) {
                        ByteBuffer dst = ByteBuffer.allocate(1 + r.nextInt(Math.max(1, size(seq))));
                        Object o = in.take(dst, -1, null);
                        SctpjMessageInfo mi = assertInstanceOf(SctpjMessageInfo.class, o, "message " + seq);
                        assertEquals(seq, mi.payloadProtocolID(), "order");
                        whole.put(dst.flip());
                        if (mi.isComplete()) {
                            break;
                        }
                    }
                    assertEquals(message(seq), whole.flip(), "message " + seq);
                }
                return count;
            } catch (InterruptedException e) {
                throw new RuntimeException(e);
            }
        });
    }

    /**
     * A reader that sleeps whenever it has caught up is woken for every batch: 20,000 messages of
     * 1 B to 73 KiB, across chunks of every size, arrive whole and in order. A lost wake-up leaves
     * the reader asleep with messages queued, and the test fails on its time limit.
     */
    @Test
    void aSleepingReaderIsWokenForEveryBatchAndGetsEveryByteInOrder() throws Exception {
        for (long seed = 1; seed <= 3; seed++) {
            Inbox in = inbox();
            AssocState a = assoc(1);
            CompletableFuture<Integer> read = reader(in, 20_000, seed);
            write(in, a, 20_000, seed);
            assertEquals(20_000, read.get(30, TimeUnit.SECONDS), "seed " + seed);
            assertTrue(in.isEmpty());
            long bytes = 0;
            for (int s = 0; s < 20_000; s++) {
                bytes += size(s);
            }
            assertEquals(bytes, a.read.get(), "bytes reported read");
        }
    }

    /**
     * Message by message, as in a round trip: the writer queues one message, ends its turn and
     * idles, then waits until the reader has it before it writes the next. Every wake-up is
     * needed here: one lost leaves the reader asleep for ever, and the writer fails.
     */
    @Test
    void noWakeUpIsLostWhenTheReaderGoesToSleepAsAMessageArrives() throws Exception {
        Inbox in = inbox();
        AssocState a = assoc(1);
        int rounds = 100_000;
        CompletableFuture<Integer> read = CompletableFuture.supplyAsync(() -> {
            ByteBuffer dst = ByteBuffer.allocate(16);
            try {
                for (int i = 0; i < rounds; i++) {
                    SctpjMessageInfo mi = (SctpjMessageInfo) in.take(dst.clear(), -1, null);
                    assertEquals(i, mi.payloadProtocolID());
                }
            } catch (InterruptedException e) {
                throw new RuntimeException(e);
            }
            return rounds;
        });
        FakeTurns t = new FakeTurns();
        ByteBuffer m = ByteBuffer.allocate(8);
        for (int i = 0; i < rounds; i++) {
            in.add(t, a, 0, i, false, m.duplicate(), 64 * 1024);
            t.idle();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (a.read.get() < 8L * (i + 1)) {
                assertTrue(System.nanoTime() < deadline, "the reader was not woken for message " + i);
                Thread.onSpinWait();
            }
        }
        assertEquals(rounds, read.get(10, TimeUnit.SECONDS));
    }

    /** The same with a reader that spins before it sleeps. */
    @Test
    void aSpinningReaderGetsEveryByteInOrder() throws Exception {
        Inbox in = inbox();
        in.spinNanos = 20_000;
        AssocState a = assoc(1);
        CompletableFuture<Integer> read = reader(in, 20_000, 7);
        write(in, a, 20_000, 7);
        assertEquals(20_000, read.get(30, TimeUnit.SECONDS));
    }

    /**
     * The chain grows while a reader lags (to the largest chunk), and a flow that the reader keeps
     * up with reuses the chunks it finished: 5,000 more messages make no new chunk.
     */
    @Test
    void chunksGrowForALaggingReaderAndAreReusedOnceItKeepsUp() throws Exception {
        Inbox in = inbox();
        AssocState a = assoc(1);
        FakeTurns t = new FakeTurns();
        ByteBuffer m = ByteBuffer.allocate(1000);
        for (int i = 0; i < 2000; i++) {
            in.add(t, a, 0, i, false, m.duplicate(), 64 * 1024);
        }
        assertEquals(Inbox.MAX_CHUNK, in.tailChunkBytes(), "2 MB unread");
        ByteBuffer dst = ByteBuffer.allocate(2000);
        for (int i = 0; i < 2000; i++) {
            SctpjMessageInfo mi = (SctpjMessageInfo) in.take(dst.clear(), 0, null);
            assertEquals(i, mi.payloadProtocolID());
        }
        assertSame(Inbox.NOTHING, in.take(dst.clear(), 0, null));
        int made = in.chunksMade();
        for (int i = 0; i < 5000; i++) {
            in.add(t, a, 0, i, false, m.duplicate(), 64 * 1024);
            if (i % 3 == 2) {
                for (int j = i - 2; j <= i; j++) {
                    assertEquals(j, ((SctpjMessageInfo) in.take(dst.clear(), 0, null)).payloadProtocolID());
                }
            }
        }
        assertEquals(made, in.chunksMade(), "chunks made while the reader kept up");
        assertEquals(6998 * 1000L, a.read.get(), "2,000 and 4,998 messages read");
    }

    /**
     * Notifications keep their place among messages; a peel-off moves one association's messages
     * and notifications, in order, and leaves the others', in order, including a message read in
     * part (its rest moves).
     */
    @Test
    void notificationsKeepTheirPlaceAndAPeelOffMovesOneAssociationInOrder() throws Exception {
        Inbox in = inbox();
        AssocState a = assoc(1);
        AssocState b = assoc(2);
        FakeTurns t = new FakeTurns();
        ByteBuffer m = ByteBuffer.wrap(new byte[] {1, 2, 3, 4, 5, 6, 7, 8});
        in.add(t, a, 0, 100, false, m.duplicate(), 1 << 16);
        in.add(t, b, 0, 200, false, m.duplicate(), 1 << 16);
        in.note(SctpjSocketOptions.Event.SHUTDOWN, new SctpjShutdownNotification(a.view));
        in.add(t, a, 0, 101, false, m.duplicate(), 1 << 16);
        in.note(SctpjSocketOptions.Event.SHUTDOWN, new SctpjShutdownNotification(b.view));
        in.add(t, b, 0, 201, false, m.duplicate(), 1 << 16);
        ByteBuffer three = ByteBuffer.allocate(3);
        SctpjMessageInfo part = (SctpjMessageInfo) in.take(three, 0, null);
        assertEquals(100, part.payloadProtocolID());
        assertEquals(false, part.isComplete());

        Inbox to = inbox();
        in.moveTo(a, to);

        ByteBuffer dst = ByteBuffer.allocate(100);
        SctpjMessageInfo rest = (SctpjMessageInfo) to.take(dst, 0, null);
        assertEquals(100, rest.payloadProtocolID());
        assertEquals(5, rest.bytes(), "the rest of the message read in part");
        assertTrue(rest.isComplete());
        assertEquals(ByteBuffer.wrap(new byte[] {4, 5, 6, 7, 8}), dst.flip());
        assertEquals(a.view, ((Notification) to.take(dst.clear(), 0, null)).association());
        assertEquals(101, ((SctpjMessageInfo) to.take(dst.clear(), 0, null)).payloadProtocolID());
        assertSame(Inbox.NOTHING, to.take(dst.clear(), 0, null));

        assertEquals(200, ((SctpjMessageInfo) in.take(dst.clear(), 0, null)).payloadProtocolID());
        assertEquals(b.view, ((Notification) in.take(dst.clear(), 0, null)).association());
        assertEquals(201, ((SctpjMessageInfo) in.take(dst.clear(), 0, null)).payloadProtocolID());
        assertSame(Inbox.NOTHING, in.take(dst.clear(), 0, null));
        assertEquals(16, a.read.get(), "a's two messages, each counted once");
    }
}
