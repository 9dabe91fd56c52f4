package org.sctpj.tests.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.sctpj.stack.Extension;
import org.sctpj.stack.SctpEvent;
import org.sctpj.stack.SctpOptions;
import org.sctpj.stack.SendInfo;
import org.sctpj.stack.SendStatus;
import org.sctpj.stack.StreamSchedulerKind;

/**
 * What interleaving buys (RFC 8260 section 1.1), measured on the simulator: A sends a 1 MiB message
 * on stream 0 and, at the same instant just after it, a 100-byte message on stream 1; the streams
 * take turns in round robin. With DATA the small message's fragments cannot be sent before the
 * large message's last fragment (RFC 9260 section 6.9: a message's fragments take consecutive
 * TSNs), so it waits for the whole megabyte; with I-DATA it goes out between two fragments of the
 * large one and arrives long before the large one completes.
 *
 * <p>Link profile: one path, 10 Mbit/s each way, 20 ms one-way delay, no loss, 1500-byte MTU;
 * both endpoints {@link SctpOptions#DEFAULTS} (the RFC 9260 values) with an 8 MiB send and
 * receive buffer. Times are simulated (virtual clock), so the figures are exact and repeatable;
 * the test prints them and asserts only the qualitative fact.
 */
class IDataInterleavingTest {

    static final int LARGE = 1 << 20;
    static final int SMALL = 100;

    /** Virtual times of one run, in nanoseconds after the two sends. */
    record Delays(long small, long large) {
        @Override
        public String toString() {
            return String.format("small message %.1f ms, large message complete %.1f ms", small / 1e6, large / 1e6);
        }
    }

    static Delays run(boolean iData) {
        SctpOptions.Builder b = SctpOptions.DEFAULTS.toBuilder()
                .sendBufferBytes(8 << 20)
                .receiveBufferBytes(8 << 20)
                .maxMessageSize(2 << 20)
                .streamScheduler(StreamSchedulerKind.ROUND_ROBIN);
        SctpOptions o = (iData ? b.enable(Extension.I_DATA) : b.disable(Extension.I_DATA)).build();
        CorePair p =
                new CorePair(1, 1, o, o, l -> l.delay(Duration.ofMillis(20)).bandwidth(10_000_000L));
        long[] sentAt = {-1};
        long[] smallAt = {-1};
        long[] largeAt = {-1};
        byte[] large = new byte[LARGE];
        Arrays.fill(large, (byte) 7);
        p.a.onEvent(e -> {
            if (e instanceof SctpEvent.AssociationChange c
                    && c.type() == SctpEvent.AssociationChangeType.COMMUNICATION_UP) {
                sentAt[0] = p.a.now();
                SendStatus s0 = p.a.endpoint()
                        .send(c.association(), new SendInfo(0, 1, false, false), ByteBuffer.wrap(large), p.a.now());
                SendStatus s1 = p.a.endpoint()
                        .send(
                                c.association(),
                                new SendInfo(1, 2, false, false),
                                ByteBuffer.wrap(new byte[SMALL]),
                                p.a.now());
                assertEquals(SendStatus.ACCEPTED, s0);
                assertEquals(SendStatus.ACCEPTED, s1);
            }
        });
        p.z.onEvent(e -> {
            if (e instanceof SctpEvent.MessageReceived m) {
                if (m.streamId() == 1 && m.data().length == SMALL) {
                    smallAt[0] = p.z.now();
                } else if (m.streamId() == 0 && m.data().length == LARGE) {
                    largeAt[0] = p.z.now();
                }
            } else if (e instanceof SctpEvent.MessagePart part && part.streamId() == 0 && part.last()) {
                largeAt[0] = p.z.now();
            }
        });
        p.connectAt(0);
        assertTrue(p.sim.runUntil(() -> smallAt[0] >= 0 && largeAt[0] >= 0, 60_000_000_000L), "both arrived");
        assertEquals(
                iData,
                p.a.endpoint()
                        .info(CorePair.upId(p.a))
                        .orElseThrow()
                        .extensions()
                        .contains(Extension.I_DATA));
        return new Delays(smallAt[0] - sentAt[0], largeAt[0] - sentAt[0]);
    }

    @Test
    void withIDataTheSmallMessageArrivesBeforeTheLargeOneCompletes() {
        Delays data = run(false);
        Delays idata = run(true);
        System.out.println("interleaving, 1 MiB on stream 0 then 100 B on stream 1, 10 Mbit/s, 20 ms one way:");
        System.out.println("  DATA:   " + data);
        System.out.println("  I-DATA: " + idata);
        assertTrue(data.small() >= data.large(), "with DATA the small message waits for the large one: " + data);
        assertTrue(
                idata.small() < idata.large(),
                "with I-DATA the small message arrives before the large one completes: " + idata);
    }
}
