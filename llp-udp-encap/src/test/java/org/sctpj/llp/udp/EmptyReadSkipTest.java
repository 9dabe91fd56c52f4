package org.sctpj.llp.udp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The portable path ({@code DatagramChannel} on a selector) skips the read right after one that
 * found the socket empty, and loses nothing by it: a datagram that arrives meanwhile is read by
 * the call after the skipped one, or at once after {@link UdpEncapsulation#await}, which must wake
 * for it and not sleep out its timeout.
 */
@Timeout(30)
class EmptyReadSkipTest {

    static final InetAddress LO = InetAddress.getLoopbackAddress();

    static UdpEncapsulation open() throws IOException {
        return UdpEncapsulation.open(UdpConfig.builder()
                .localPort(0)
                .bind(LO)
                .receiveMode(ReceiveMode.SELECTOR)
                .nativeIo(NativeIo.OFF)
                .build());
    }

    static int receive(UdpEncapsulation u, int[] got) throws IOException {
        return u.receive((buf, from, to) -> got[0]++, 64);
    }

    @Test
    void aDatagramArrivingAfterAnEmptyReadIsReadAtTheLatestOneCallLater() throws Exception {
        try (UdpEncapsulation a = open();
                UdpEncapsulation b = open()) {
            a.setRemotePort(LO, b.localPort());
            int[] got = {0};
            for (int round = 0; round < 50; round++) {
                assertEquals(0, receive(b, got), "nothing sent yet");
                a.send(ByteBuffer.wrap(new byte[] {1, 2, 3, (byte) round}), LO, LO);
                a.flush();
                // A stack thread that never idles calls receive every turn: the datagram must come
                // within two calls once the kernel queued it (loopback delivery is synchronous).
                int n = receive(b, got) + receive(b, got);
                assertEquals(1, n, "round " + round + ": the datagram was not read within two calls");
            }
            assertEquals(50, got[0]);
        }
    }

    @Test
    void awaitAfterAnEmptyReadWakesForTheNextDatagramAndTheReadThatFollowsGetsIt() throws Exception {
        try (UdpEncapsulation a = open();
                UdpEncapsulation b = open()) {
            a.setRemotePort(LO, b.localPort());
            int[] got = {0};
            for (int round = 0; round < 20; round++) {
                assertEquals(0, receive(b, got) + receive(b, got), "nothing sent yet");
                if (!b.skipsNextRead()) {
                    assertEquals(0, receive(b, got), "nothing sent yet");
                }
                assertTrue(b.skipsNextRead(), "a read found the socket empty");
                Thread sender = new Thread(() -> {
                    try {
                        Thread.sleep(20);
                        a.send(ByteBuffer.wrap(new byte[] {9, (byte) 0}), LO, LO);
                        a.flush();
                    } catch (Exception e) {
                        throw new RuntimeException(e);
                    }
                });
                sender.start();
                long t0 = System.nanoTime();
                b.await(TimeUnit.SECONDS.toNanos(5));
                long waited = System.nanoTime() - t0;
                assertTrue(waited < TimeUnit.SECONDS.toNanos(4), "await slept out its timeout: " + waited + " ns");
                // The selector was asked: the very next call reads (no skip left over).
                assertEquals(1, receive(b, got), "round " + round + ": the read after await found nothing");
                sender.join();
            }
        }
    }
}
