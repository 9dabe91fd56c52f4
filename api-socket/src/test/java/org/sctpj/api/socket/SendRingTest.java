package org.sctpj.api.socket;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.nio.sctp.MessageInfo;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The send ring between application threads and the stack thread (see {@link SendRing}) loses no
 * message and no drain: each test hangs (and fails on its time limit) or fails its count if a
 * drain that should have been scheduled is not, or a message is dropped or reordered.
 */
@Timeout(120)
class SendRingTest extends LoopbackStacksTest {

    /** A connected client (send buffer {@code sndbuf}) and the server's accepted channel. */
    SctpjChannel[] pair(int sndbuf, boolean noDelay) throws Exception {
        SctpjServerChannel s = stacks.later(serverP.openServerChannel());
        s.setOption(SctpjSocketOptions.SCTP_UDP_ENCAPS_PORT, 0);
        s.setOption(SctpjSocketOptions.SCTP_NODELAY, noDelay);
        s.bind(new InetSocketAddress(LO, 0));
        SctpjChannel c = stacks.later(clientP.openSctpChannel());
        c.setOption(SctpjSocketOptions.SCTP_REMOTE_UDP_ENCAPS_PORT, s.udpPort());
        c.setOption(SctpjSocketOptions.SO_SNDBUF, sndbuf);
        c.setOption(SctpjSocketOptions.SCTP_NODELAY, noDelay);
        c.connect(s.getAllLocalAddresses().iterator().next());
        return new SctpjChannel[] {c, stacks.later(s.accept())};
    }

    static int size(int sender, int seq) {
        return seq % 97 == 0 ? SendRing.MAX_INLINE + 1 + seq : 1 + (seq * 131 + sender * 17) % 3000;
    }

    static ByteBuffer message(int sender, int seq) {
        byte[] b = new byte[size(sender, seq)];
        for (int i = 0; i < b.length; i++) {
            b[i] = (byte) (i * 3 + seq * 7 + sender);
        }
        return ByteBuffer.wrap(b);
    }

    /**
     * Four threads send 1,500 messages each (1 B to 66 KiB; a 160 KiB send buffer, so they block
     * and are woken again and again) on one channel: every message arrives whole, and each
     * thread's in the order it sent them.
     */
    @Test
    void severalSendersLoseNothingAndKeepTheirOrder() throws Exception {
        SctpjChannel[] p = pair(160 << 10, false);
        int senders = 4;
        int each = 1500;
        List<CompletableFuture<Void>> sends = new ArrayList<>();
        for (int t = 0; t < senders; t++) {
            int sender = t;
            sends.add(CompletableFuture.runAsync(() -> {
                try {
                    for (int i = 0; i < each; i++) {
                        MessageInfo mi = MessageInfo.createOutgoing(null, 0).payloadProtocolID(sender);
                        assertEquals(size(sender, i), p[0].send(message(sender, i), mi, Duration.ofSeconds(30)));
                    }
                } catch (Exception e) {
                    throw new RuntimeException(e);
                }
            }));
        }
        int[] next = new int[senders];
        ByteBuffer dst = ByteBuffer.allocate(SendRing.MAX_INLINE + 1 + each);
        for (int n = 0; n < senders * each; n++) {
            MessageInfo mi = p[1].receive(dst.clear(), null, null, Duration.ofSeconds(30));
            assertNotNull(mi, "message " + n + " did not arrive");
            assertTrue(mi.isComplete());
            int sender = mi.payloadProtocolID();
            assertEquals(message(sender, next[sender]), dst.flip(), "sender " + sender + " message " + next[sender]);
            next[sender]++;
        }
        for (CompletableFuture<Void> f : sends) {
            f.get(10, TimeUnit.SECONDS);
        }
    }

    /**
     * Message by message, as a round trip: each message waits alone in the ring, so each one
     * needs its own drain; one not scheduled leaves the message in the ring and the echo never
     * comes.
     */
    @Test
    void aMessageSentAloneIsAlwaysDrained() throws Exception {
        SctpjChannel[] p = pair(1 << 20, true);
        CompletableFuture<Void> echo = CompletableFuture.runAsync(() -> {
            ByteBuffer b = ByteBuffer.allocate(64);
            try {
                MessageInfo mi;
                while ((mi = p[1].receive(b.clear(), null, null)) != null && mi.bytes() > 0) {
                    p[1].send(b.flip(), MessageInfo.createOutgoing(null, 0).payloadProtocolID(mi.payloadProtocolID()));
                }
            } catch (Exception e) {
                throw new RuntimeException(e);
            }
        });
        ByteBuffer b = ByteBuffer.allocate(64);
        for (int i = 0; i < 3000; i++) {
            p[0].send(
                    ByteBuffer.wrap(new byte[] {(byte) i}),
                    MessageInfo.createOutgoing(null, 0).payloadProtocolID(i));
            MessageInfo mi = p[0].receive(b.clear(), null, null, Duration.ofSeconds(10));
            assertNotNull(mi, "no echo of message " + i);
            assertEquals(i, mi.payloadProtocolID());
        }
        p[0].shutdown();
        echo.get(20, TimeUnit.SECONDS);
    }

    /** Messages still in the ring when shutdown() is called reach the peer before the end. */
    @Test
    void messagesSentBeforeShutdownArriveBeforeTheEnd() throws Exception {
        SctpjChannel[] p = pair(4 << 20, false);
        for (int i = 0; i < 2000; i++) {
            p[0].send(message(0, i), MessageInfo.createOutgoing(null, 0).payloadProtocolID(i));
        }
        p[0].shutdown();
        ByteBuffer dst = ByteBuffer.allocate(SendRing.MAX_INLINE + 3000);
        for (int i = 0; i < 2000; i++) {
            MessageInfo mi = p[1].receive(dst.clear(), null, null, Duration.ofSeconds(30));
            assertNotNull(mi);
            assertEquals(i, mi.payloadProtocolID(), "message " + i + " before the end of stream");
            assertEquals(message(0, i), dst.flip());
        }
        MessageInfo end = p[1].receive(dst.clear(), null, null, Duration.ofSeconds(30));
        assertNotNull(end);
        assertEquals(-1, end.bytes(), "end of stream after the last message");
    }
}
