package org.sctpj.api.socket;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.nio.sctp.MessageInfo;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The batched hand-offs between application threads and the stack thread lose no wake-up and no
 * byte: a sender blocked on a full send buffer is woken only once a batch of space is free (a
 * quarter of the buffer), yet always woken; read bytes go back to the receive window in batches,
 * yet all of them once the reader has caught up. Each test hangs (and times out) or fails its
 * count if a wake-up or a release is lost.
 */
@Timeout(60)
class BatchedWakeupTest extends LoopbackStacksTest {

    SctpjServerChannel server(int rcvbuf) throws Exception {
        SctpjServerChannel s = stacks.later(serverP.openServerChannel());
        s.setOption(SctpjSocketOptions.SCTP_UDP_ENCAPS_PORT, 0);
        s.setOption(SctpjSocketOptions.SO_RCVBUF, rcvbuf);
        s.bind(new InetSocketAddress(LO, 0));
        return s;
    }

    SctpjChannel client(SctpjServerChannel s, int sndbuf) throws Exception {
        SctpjChannel c = stacks.later(clientP.openSctpChannel());
        c.setOption(SctpjSocketOptions.SCTP_REMOTE_UDP_ENCAPS_PORT, s.udpPort());
        c.setOption(SctpjSocketOptions.SO_SNDBUF, sndbuf);
        c.connect(s.getAllLocalAddresses().iterator().next());
        return c;
    }

    static ByteBuffer message(int size, int seq) {
        byte[] b = new byte[size];
        for (int i = 0; i < size; i++) {
            b[i] = (byte) (i * 7 + seq);
        }
        return ByteBuffer.wrap(b);
    }

    /** Reads {@code count} messages of {@code size} and checks each one's bytes and order. */
    static CompletableFuture<Integer> reader(SctpjChannel a, int count, int size) {
        return CompletableFuture.supplyAsync(() -> {
            ByteBuffer dst = ByteBuffer.allocate(size);
            try {
                for (int i = 0; i < count; i++) {
                    MessageInfo mi = a.receive(dst.clear(), null, null, Duration.ofSeconds(20));
                    assertNotNull(mi, "message " + i + " did not arrive");
                    assertEquals(message(size, i), dst.flip(), "message " + i);
                }
                return count;
            } catch (Exception e) {
                throw new RuntimeException(e);
            }
        });
    }

    static final int COUNT = 600;
    static final int SIZE = 9000;

    /** A client with a 64 KiB send buffer, and a reader of {@link #COUNT} messages on the accepted side. */
    record Transfer(SctpjChannel client, CompletableFuture<Integer> read) {}

    Transfer transfer() throws Exception {
        SctpjServerChannel s = server(64 << 10);
        SctpjChannel c = client(s, 64 << 10);
        SctpjChannel a = stacks.later(s.accept());
        return new Transfer(c, reader(a, COUNT, SIZE));
    }

    /**
     * A blocking sender runs into a small send buffer again and again (64 KiB, messages of 9000
     * B, so it is woken only once 16 KiB are free): every message arrives, in order.
     */
    @Test
    void aBlockedSenderIsWokenForEveryBatchOfFreedSpace() throws Exception {
        Transfer t = transfer();
        SctpjChannel c = t.client();
        int count = COUNT;
        int size = SIZE;
        CompletableFuture<Integer> read = t.read();
        for (int i = 0; i < count; i++) {
            assertEquals(size, c.send(message(size, i), null, Duration.ofSeconds(20)), "send " + i + " timed out");
        }
        assertEquals(count, read.get(30, TimeUnit.SECONDS));
    }

    /** The same with a non-blocking sender on a selector: OP_WRITE comes back for every batch. */
    @Test
    void aNonBlockingSenderGetsOpWriteForEveryBatchOfFreedSpace() throws Exception {
        Transfer t = transfer();
        SctpjChannel c = t.client();
        int count = COUNT;
        int size = SIZE;
        CompletableFuture<Integer> read = t.read();
        c.configureBlocking(false);
        try (Selector sel = clientP.openSelector()) {
            c.register(sel, SelectionKey.OP_WRITE);
            int i = 0;
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (i < count) {
                if (c.send(message(size, i), null) > 0) {
                    i++;
                    continue;
                }
                assertTrue(System.nanoTime() < deadline, "stuck at message " + i);
                sel.select(1000);
                sel.selectedKeys().clear();
            }
        }
        assertEquals(count, read.get(30, TimeUnit.SECONDS));
    }

    /**
     * Read bytes go back to the receive window in batches (an eighth of it here), but all of them
     * once the reader has read everything queued: afterwards the receiver holds nothing, and the
     * whole window is offered again (3000 bytes read, far below one batch).
     */
    @Test
    void aReaderThatCaughtUpReleasesEveryByteItRead() throws Exception {
        SctpjServerChannel s = server(64 << 10);
        SctpjChannel c = client(s, 64 << 10);
        SctpjChannel a = stacks.later(s.accept());
        int count = 10;
        int size = 300;
        for (int i = 0; i < count; i++) {
            c.send(message(size, i), null);
        }
        assertEquals(count, reader(a, count, size).get(20, TimeUnit.SECONDS));
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        long held;
        while ((held = a.info().transfer().receiveBuffered()) != 0 && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        assertEquals(0, held, "bytes read but still counted against the receive window");
    }
}
