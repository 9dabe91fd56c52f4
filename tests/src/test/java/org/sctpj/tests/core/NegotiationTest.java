package org.sctpj.tests.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.sctpj.sim.EndpointNode;
import org.sctpj.stack.AssociationId;
import org.sctpj.stack.Extension;
import org.sctpj.stack.SctpEvent;
import org.sctpj.stack.SctpOptions;
import org.sctpj.stack.wire.SctpPacket;
import org.sctpj.stack.wire.chunk.Chunk;
import org.sctpj.stack.wire.chunk.InitAckChunk;
import org.sctpj.stack.wire.chunk.InitChunk;
import org.sctpj.stack.wire.param.AdaptationLayerIndicationParameter;
import org.sctpj.stack.wire.param.ForwardTsnSupportedParameter;
import org.sctpj.stack.wire.param.Parameter;
import org.sctpj.stack.wire.param.SupportedExtensionsParameter;

/**
 * Extension negotiation (RFC 5061 section 4.2.7, RFC 3758 section 3.1, RFC 8260 section 2.1, RFC
 * 6525 section 3.1) and the Adaptation Layer Indication (RFC 5061 section 4.2.6): an extension is
 * used only when both sides announced it, in both roles and through an INIT collision.
 */
class NegotiationTest {

    static final SctpOptions BASE =
            SctpOptions.LAN.toBuilder().extensions(Set.of()).build();

    /** Records the parameters of every INIT and INIT ACK a node receives. */
    static List<List<Parameter>> watchInits(EndpointNode n) {
        List<List<Parameter>> seen = new ArrayList<>();
        n.dropInbound(b -> {
            var p = SctpPacket.decode(b.duplicate(), org.sctpj.stack.wire.ChecksumPolicy.IGNORE);
            if (p.isOk()) {
                for (Chunk c : p.value().chunks()) {
                    if (c instanceof InitChunk i) {
                        seen.add(i.parameters());
                    } else if (c instanceof InitAckChunk a) {
                        seen.add(a.parameters());
                    }
                }
            }
            return false;
        });
        return seen;
    }

    static Set<Extension> extensionsOf(EndpointNode n, AssociationId id) {
        return n.endpoint().info(id).orElseThrow().extensions();
    }

    static List<Long> adaptations(EndpointNode n) {
        List<Long> out = new ArrayList<>();
        for (SctpEvent e : n.events()) {
            if (e instanceof SctpEvent.AdaptationIndication ai) {
                out.add(ai.indication());
            }
        }
        return out;
    }

    @Test
    void onlyWhatBothAnnounceIsUsedInBothRoles() {
        SctpOptions client = BASE.toBuilder()
                .enable(Extension.PR_SCTP)
                .enable(Extension.I_DATA)
                .enable(Extension.RECONFIG)
                .build();
        SctpOptions server = BASE.toBuilder()
                .enable(Extension.PR_SCTP)
                .enable(Extension.RECONFIG)
                .adaptationIndication(0xDEADBEEFL)
                .build();
        CorePair p = new CorePair(3, 1, client, server, l -> l.delay(Duration.ofMillis(5)));
        List<List<Parameter>> atServer = watchInits(p.z);
        List<List<Parameter>> atClient = watchInits(p.a);
        p.connectAt(0);
        p.sim.run(1_000_000_000L);
        AssociationId a = CorePair.upId(p.a);
        AssociationId z = CorePair.upId(p.z);
        assertEquals(EnumSet.of(Extension.PR_SCTP, Extension.RECONFIG), extensionsOf(p.a, a));
        assertEquals(EnumSet.of(Extension.PR_SCTP, Extension.RECONFIG), extensionsOf(p.z, z));

        // The INIT announces I-DATA (and I-FORWARD-TSN, since PR-SCTP is offered too) and
        // Forward-TSN-Supported; the INIT ACK what the server offers, with its adaptation code.
        List<Parameter> init = atServer.get(0);
        assertEquals(
                List.of(0xC0, 0x40, 0x82, 0xC2),
                init.stream()
                        .filter(x -> x instanceof SupportedExtensionsParameter)
                        .map(x -> ((SupportedExtensionsParameter) x).chunkTypes())
                        .findFirst()
                        .orElseThrow());
        assertTrue(init.stream().anyMatch(x -> x instanceof ForwardTsnSupportedParameter));
        assertFalse(init.stream().anyMatch(x -> x instanceof AdaptationLayerIndicationParameter));
        List<Parameter> initAck = atClient.get(0);
        assertTrue(initAck.stream()
                .anyMatch(x -> x instanceof SupportedExtensionsParameter se
                        && se.chunkTypes().equals(List.of(0xC0, 0x82))));
        assertTrue(initAck.stream().anyMatch(x -> x instanceof AdaptationLayerIndicationParameter));

        // The client hears the server's adaptation code right after COMMUNICATION_UP; the server
        // hears none, as the client sent none.
        assertEquals(List.of(0xDEADBEEFL), adaptations(p.a));
        assertEquals(List.of(), adaptations(p.z));
        List<SctpEvent> ev = p.a.events();
        int up = -1;
        for (int i = 0; i < ev.size(); i++) {
            if (ev.get(i) instanceof SctpEvent.AssociationChange) {
                up = i;
                break;
            }
        }
        assertTrue(ev.get(up + 1) instanceof SctpEvent.AdaptationIndication, ev.toString());
        assertEquals(0xDEADBEEFL, p.a.endpoint().info(a).orElseThrow().peerAdaptation());
        assertEquals(-1, p.z.endpoint().info(z).orElseThrow().peerAdaptation());
    }

    @Test
    void nothingOfferedMeansNoExtensionParameters() {
        SctpOptions server = BASE.toBuilder().enable(Extension.PR_SCTP).build();
        CorePair p = new CorePair(4, 1, BASE, server, l -> l.delay(Duration.ofMillis(5)));
        List<List<Parameter>> atServer = watchInits(p.z);
        p.connectAt(0);
        p.sim.run(1_000_000_000L);
        assertTrue(atServer.get(0).stream()
                .noneMatch(
                        x -> x instanceof SupportedExtensionsParameter || x instanceof ForwardTsnSupportedParameter));
        assertEquals(Set.of(), extensionsOf(p.a, CorePair.upId(p.a)));
        assertEquals(Set.of(), extensionsOf(p.z, CorePair.upId(p.z)));
    }

    @Test
    void anInitCollisionNegotiatesToo() {
        SctpOptions both = BASE.toBuilder()
                .enable(Extension.PR_SCTP)
                .enable(Extension.I_DATA)
                .adaptationIndication(7)
                .build();
        CorePair p = new CorePair(11, 1, both, both, l -> l.delay(Duration.ofMillis(20)));
        p.a.endpoint().listen(true);
        p.sim.at(0, () -> p.a.endpoint().connect(p.addrsZ, CorePair.PORT_Z, 0));
        p.sim.at(0, () -> p.z.endpoint().connect(p.addrsA, CorePair.PORT_A, 0));
        p.sim.run(5_000_000_000L);
        assertEquals(EnumSet.of(Extension.PR_SCTP, Extension.I_DATA), extensionsOf(p.a, CorePair.upId(p.a)));
        assertEquals(EnumSet.of(Extension.PR_SCTP, Extension.I_DATA), extensionsOf(p.z, CorePair.upId(p.z)));
        assertEquals(List.of(7L), adaptations(p.a));
        assertEquals(List.of(7L), adaptations(p.z));
    }

    @Test
    void badOptionsAreRefusedWithAReason() {
        var e = org.junit.jupiter.api.Assertions.assertThrows(
                IllegalArgumentException.class,
                () -> BASE.toBuilder().adaptationIndication(1L << 32).build());
        assertTrue(e.getMessage().contains("0..4294967295"), e.getMessage());
    }
}
