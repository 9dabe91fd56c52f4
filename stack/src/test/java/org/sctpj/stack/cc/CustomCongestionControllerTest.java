package org.sctpj.stack.cc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.sctpj.stack.AssociationId;
import org.sctpj.stack.Endpoint;
import org.sctpj.stack.SctpOptions;
import org.sctpj.stack.SctpOptions.CongestionControl;
import org.sctpj.stack.SendInfo;
import org.sctpj.stack.SendStatus;
import org.sctpj.stack.Transmit;

/**
 * A congestion controller supplied by the application through {@link
 * SctpOptions.Builder#congestionController}: one endpoint with two associations, one using a
 * fixed-window controller of the test's and one the default, each gets its own; and the options
 * keep the enum shorthand and the factory consistent.
 */
class CustomCongestionControllerTest {
    private static final long FIXED_CWND = 2000;

    /** A controller that holds every path's cwnd at {@link #FIXED_CWND} and counts its calls. */
    static final class FixedWindow implements CongestionController {
        final List<PathCongestionState> initialised = new ArrayList<>();
        int acks;

        @Override
        public void init(PathCongestionState p, long peerRwnd) {
            initialised.add(p);
            p.setCwnd(FIXED_CWND);
            p.setSsthresh(FIXED_CWND);
            p.setPartialBytesAcked(0);
        }

        @Override
        public void onAck(
                PathCongestionState p,
                long bytesNewlyAcked,
                boolean cumAckAdvanced,
                boolean cwndFullyUsed,
                boolean inFastRecovery) {
            acks++;
        }

        @Override
        public void onFastRetransmit(PathCongestionState p) {}

        @Override
        public void onT3Timeout(PathCongestionState p) {}

        @Override
        public void onIdle(PathCongestionState p) {}
    }

    /** Endpoint A (port 5000) and two listeners, Z1 (5001) and Z2 (5002), on one address. */
    private final InetAddress addr = InetAddress.getLoopbackAddress();

    private long now = 1_000_000_000L;

    private void exchange(Map<Integer, Endpoint> byPort) {
        for (int round = 0; round < 50; round++) {
            boolean any = false;
            for (Endpoint e : byPort.values()) {
                Optional<Transmit> t;
                while ((t = e.pollTransmit(now)).isPresent()) {
                    byte[] b = t.get().packet();
                    int dstPort = ((b[2] & 0xff) << 8) | (b[3] & 0xff);
                    byPort.get(dstPort).handleInput(ByteBuffer.wrap(b), addr, addr, now);
                    any = true;
                }
                while (e.pollEvent().isPresent()) {
                    // events are not the point here
                }
            }
            if (!any) {
                now += 1_000_000L;
                for (Endpoint e : byPort.values()) {
                    if (e.nextTimeout() <= now) {
                        e.handleTimeout(now);
                    }
                }
            }
        }
    }

    @Test
    void eachAssociationUsesTheControllerOfItsOwnOptions() {
        List<FixedWindow> made = new ArrayList<>();
        CongestionControllerFactory fixed = paths -> {
            FixedWindow w = new FixedWindow();
            made.add(w);
            return w;
        };
        SctpOptions defaults = SctpOptions.DEFAULTS;
        SctpOptions custom = defaults.toBuilder().congestionController(fixed).build();
        assertEquals(CongestionControl.CUSTOM, custom.congestionControl());

        Endpoint a = new Endpoint(5000, List.of(addr), defaults, new SplittableRandom(1), now);
        Endpoint z1 = new Endpoint(5001, List.of(addr), defaults, new SplittableRandom(2), now);
        Endpoint z2 = new Endpoint(5002, List.of(addr), defaults, new SplittableRandom(3), now);
        z1.listen(true);
        z2.listen(true);
        Map<Integer, Endpoint> byPort = Map.of(5000, a, 5001, z1, 5002, z2);
        AssociationId withFixed = a.connect(List.of(addr), 5001, custom, now);
        AssociationId withDefault = a.connect(List.of(addr), 5002, now);
        exchange(byPort);
        assertEquals(1, made.size(), "one controller, for the one association whose options name it");
        FixedWindow w = made.get(0);
        assertEquals(1, w.initialised.size(), "initialised for the association's one path");

        for (AssociationId id : List.of(withFixed, withDefault)) {
            for (int i = 0; i < 20; i++) {
                assertEquals(SendStatus.ACCEPTED, a.send(id, SendInfo.DEFAULT, ByteBuffer.wrap(new byte[1000]), now));
            }
        }
        exchange(byPort);
        assertTrue(w.acks > 0, "the fixed controller saw the SACKs of its association");
        assertEquals(FIXED_CWND, cwnd(a, withFixed), "the fixed window held");
        long rfc = cwnd(a, withDefault);
        assertTrue(rfc >= 4380, "the other association has RFC 9260's window, at least the initial 4380: " + rfc);
        assertEquals(1, made.size());
    }

    private static long cwnd(Endpoint e, AssociationId id) {
        return e.info(id).orElseThrow().paths().get(0).cwnd();
    }

    @Test
    void theShorthandAndTheFactoryStayConsistent() {
        SctpOptions d = SctpOptions.DEFAULTS;
        assertSame(CongestionControllerFactory.RFC9260, d.congestionController());
        SctpOptions lia = d.toBuilder()
                .congestionControl(CongestionControl.LINKED_INCREASES)
                .build();
        assertSame(CongestionControllerFactory.LINKED_INCREASES, lia.congestionController());
        SctpOptions back = lia.toBuilder()
                .congestionController(CongestionControllerFactory.RFC9260)
                .build();
        assertEquals(CongestionControl.RFC9260, back.congestionControl());
        assertTrue(d.congestionController().create(List.of()) instanceof Rfc9260CongestionController);
        assertTrue(lia.congestionController().create(List.of()) instanceof LinkedIncreasesCongestionController);
    }

    @Test
    void misuseIsRejectedWithWhatToDo() {
        SctpOptions.Builder b = SctpOptions.DEFAULTS.toBuilder();
        IllegalArgumentException nul = assertThrows(IllegalArgumentException.class, () -> b.congestionController(null)
                .build());
        assertTrue(nul.getMessage().contains("pass a CongestionControllerFactory"), nul.getMessage());
        IllegalArgumentException custom =
                assertThrows(IllegalArgumentException.class, () -> SctpOptions.DEFAULTS.toBuilder()
                        .congestionControl(CongestionControl.CUSTOM)
                        .build());
        assertTrue(custom.getMessage().contains("congestionController(factory)"), custom.getMessage());
    }
}
