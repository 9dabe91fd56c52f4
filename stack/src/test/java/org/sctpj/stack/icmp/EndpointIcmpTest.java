package org.sctpj.stack.icmp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.sctpj.stack.AssociationId;
import org.sctpj.stack.Endpoint;
import org.sctpj.stack.SctpEvent;
import org.sctpj.stack.SctpEvent.AssociationChangeType;
import org.sctpj.stack.SctpOptions;
import org.sctpj.stack.Transmit;
import org.sctpj.stack.assoc.AssocFixture;

/**
 * {@link Endpoint#handleIcmp}: the association is found by the quoted peer address and ports
 * (RFC 9260 appendix C, ICMP5), a report built from the INIT the endpoint really sent ends the
 * setup at once, and forged or unmatched reports change nothing but the counters.
 */
class EndpointIcmpTest {
    static final InetAddress LOCAL = AssocFixture.LOCAL;
    static final InetAddress PEER = AssocFixture.PEER;
    static final int LOCAL_PORT = 5000;
    static final int PEER_PORT = 6000;

    final Endpoint ep = new Endpoint(LOCAL_PORT, List.of(LOCAL), SctpOptions.LAN, new SplittableRandom(3), 0);
    final List<SctpEvent> events = new ArrayList<>();

    EndpointIcmpTest() {
        ep.setEventHandler(new org.sctpj.stack.EventHandler() {
            @Override
            public void onEvent(SctpEvent e) {
                events.add(e);
            }
        });
    }

    /** The INIT the connect sent, as the bytes an ICMP would quote. */
    byte[] connectAndTakeInit() {
        ep.connect(List.of(PEER), PEER_PORT, 0);
        Transmit t = ep.pollTransmit(0).orElseThrow();
        assertTrue(ep.pollTransmit(0).isEmpty());
        return t.packet();
    }

    IcmpReport portUnreachable(byte[] quoted, InetAddress to) {
        return IcmpReport.fromQuoted(false, 3, 3, 0, true, LOCAL, to, ByteBuffer.wrap(quoted))
                .orElseThrow();
    }

    List<AssociationChangeType> changes() {
        return events.stream()
                .filter(e -> e instanceof SctpEvent.AssociationChange)
                .map(e -> ((SctpEvent.AssociationChange) e).type())
                .toList();
    }

    @Test
    void aPortUnreachableQuotingOurInitFailsTheConnectAtOnce() {
        byte[] init = connectAndTakeInit();
        long rtt = 300_000; // the ICMP comes back after one round trip
        ep.handleIcmp(portUnreachable(init, PEER), rtt);
        assertEquals(List.of(AssociationChangeType.CANT_START), changes());
        assertEquals(List.of(), ep.associations());
        assertEquals(1, ep.stats().icmpReceived());
        assertEquals(1, ep.stats().icmpActedOn());
        assertEquals(0, ep.stats().icmpNotVerified());
    }

    @Test
    void aReportWithAnotherInitiateTagOrAboutAnotherPeerChangesNothing() {
        byte[] init = connectAndTakeInit();
        AssociationId id = ep.associations().get(0);
        byte[] forged = init.clone();
        forged[16] ^= 0x01; // the Initiate Tag
        ep.handleIcmp(portUnreachable(forged, PEER), 1);
        ep.handleIcmp(portUnreachable(init, AssocFixture.STRANGER), 2); // no association there
        byte[] otherPort = init.clone();
        otherPort[3] ^= 0x01; // the quoted destination port
        ep.handleIcmp(portUnreachable(otherPort, PEER), 3);
        assertEquals(List.of(), changes());
        assertEquals(List.of(id), ep.associations());
        assertEquals(3, ep.stats().icmpNotVerified());
        assertEquals(0, ep.stats().icmpActedOn());
        // the INIT is still retransmitted on T1-init
        ep.handleTimeout(SctpOptions.LAN.rtoInitial().toNanos());
        assertTrue(ep.pollTransmit(SctpOptions.LAN.rtoInitial().toNanos()).isPresent());
    }

    @Test
    void randomReportsNeverThrowAndNeverEndTheSetup() {
        connectAndTakeInit();
        SplittableRandom r = new SplittableRandom(42);
        for (int i = 0; i < 20_000; i++) {
            byte[] q = new byte[r.nextInt(0, 40)];
            r.nextBytes(q);
            if (q.length >= 8) {
                q[4] = q[5] = q[6] = q[7] = 0; // tag 0: the hardest case, an INIT's
                if (q.length > 12) {
                    q[12] = 1;
                }
            }
            if (q.length >= 4) {
                q[0] = (byte) (LOCAL_PORT >> 8);
                q[1] = (byte) LOCAL_PORT;
                q[2] = (byte) (PEER_PORT >> 8);
                q[3] = (byte) PEER_PORT;
            }
            boolean v6 = r.nextBoolean();
            IcmpReport.fromQuoted(
                            v6,
                            r.nextInt(256),
                            r.nextInt(256),
                            r.nextInt(0, 9001),
                            r.nextBoolean(),
                            LOCAL,
                            PEER,
                            ByteBuffer.wrap(q))
                    .ifPresent(rep -> ep.handleIcmp(rep, 1));
        }
        assertEquals(List.of(), changes(), "a random 32-bit Initiate Tag never matched");
        assertEquals(1, ep.associations().size());
    }
}
