package org.sctpj.sim.monitor;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.sctpj.sim.Network;
import org.sctpj.sim.Outgoing;
import org.sctpj.sim.SimNode;
import org.sctpj.sim.Simulator;

/** The simulator judges every packet by default, and runs without the monitor only when told why. */
class MonitorInSimulatorTest {

    /** Sends one packet at the start, reporting {@code state} for it (null: not an endpoint). */
    static final class OneShot implements SimNode {
        final ByteBuffer packet;
        final String state;
        boolean sent;

        OneShot(ByteBuffer packet, String state) {
            this.packet = packet;
            this.state = state;
        }

        @Override
        public void handleInput(ByteBuffer p, InetAddress from, InetAddress to, long nowNanos) {}

        @Override
        public void handleTimeout(long nowNanos) {}

        @Override
        public long nextTimeout() {
            return Long.MAX_VALUE;
        }

        @Override
        public Outgoing pollTransmit(long nowNanos) {
            if (packet == null || sent) {
                return null;
            }
            sent = true;
            return new Outgoing(packet.duplicate(), ConformanceMonitorTest.ADDR_A, ConformanceMonitorTest.ADDR_Z);
        }

        @Override
        public String lastTransmitState() {
            return state;
        }
    }

    /** A HEARTBEAT from COOKIE-WAIT, with a tag nobody announced. */
    static ByteBuffer bad() {
        return ConformanceMonitorTest.fromA(0x1234).heartbeat().bytes();
    }

    static Simulator sim(SimNode a) {
        Network net = new Network(1, a, new OneShot(null, null));
        net.addPath(ConformanceMonitorTest.ADDR_A, ConformanceMonitorTest.ADDR_Z)
                .both(l -> l.delay(Duration.ofMillis(1)));
        return new Simulator(net);
    }

    @Test
    void theMonitorIsOnByDefaultAndFailsTheRun() {
        Simulator s = sim(new OneShot(bad(), "COOKIE_WAIT"));
        assertNotNull(s.monitor());
        ProtocolViolation v = assertThrows(ProtocolViolation.class, () -> s.run(1_000_000_000L));
        assertTrue(v.getMessage().contains("COOKIE_WAIT") && v.getMessage().contains("HEARTBEAT"), v.getMessage());
    }

    @Test
    void aTestThatForgesPacketsTurnsItOffAndSaysWhy() {
        Simulator s = sim(new OneShot(bad(), "COOKIE_WAIT")).withoutMonitor("forges a HEARTBEAT on purpose");
        assertDoesNotThrow(() -> s.run(1_000_000_000L));
        assertTrue(s.monitorOffReason().contains("forges"));
        assertThrows(IllegalArgumentException.class, () -> sim(new OneShot(null, null))
                .withoutMonitor(" "));
    }

    @Test
    void packetsOfNodesThatAreNoEndpointAreNotJudged() {
        Simulator s = sim(new OneShot(bad(), null));
        assertDoesNotThrow(() -> s.run(1_000_000_000L));
        assertTrue(s.monitor().packetsSeen() == 2 && s.monitor().packetsChecked() == 0);
    }
}
