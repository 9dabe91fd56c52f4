package org.sctpj.tests.interop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The peers' extension flags and the matrix's group filter: no network, no peer. */
class PeerExtensionsTest {

    @Test
    void noExtensionNoFlag() {
        assertEquals(List.of(), PeerExtensions.NONE.args());
    }

    @Test
    void flagsAsBothPeersTakeThem() {
        PeerExtensions e = PeerExtensions.NONE
                .withPolicy(PeerExtensions.Policy.PRIO, 1)
                .withIdata(200_000)
                .withReset(PeerExtensions.Reset.BOTH, 200)
                .withAddStreams(4, 0);
        assertEquals(
                List.of(
                        "--pr",
                        "prio",
                        "--pr-value",
                        "1",
                        "--idata",
                        "--big",
                        "200000",
                        "--reconfig",
                        "--reset",
                        "both",
                        "--reset-at",
                        "200",
                        "--add-streams",
                        "4"),
                e.args());
        assertEquals(
                List.of("--reconfig", "--add-streams", "4", "--add-at", "200"),
                PeerExtensions.NONE.withAddStreams(4, 200).args());
    }

    @Test
    void bigMessagesOnStreamZeroOnly() {
        PeerExtensions e = PeerExtensions.NONE.withIdata(200_000);
        assertEquals(200_000, e.sizeOn(0, 300));
        assertEquals(300, e.sizeOn(1, 300));
        assertEquals(300, PeerExtensions.NONE.sizeOn(0, 300));
    }

    @Test
    void groupSelectsTheExtensionCasesOrTheOthers() {
        String old = System.getProperty("sctpj.interop.group");
        try {
            System.setProperty("sctpj.interop.group", "extensions");
            List<InteropMatrix.Cell> ext = InteropMatrix.cells();
            assertTrue(!ext.isEmpty() && ext.stream().allMatch(c -> c.c().extension()), "extensions only");
            System.setProperty("sctpj.interop.group", "core");
            List<InteropMatrix.Cell> core = InteropMatrix.cells();
            assertTrue(!core.isEmpty() && core.stream().noneMatch(c -> c.c().extension()), "core only");
            System.setProperty("sctpj.interop.group", "asconf,nrsack");
            List<InteropMatrix.Cell> issue13 = InteropMatrix.cells();
            assertTrue(
                    !issue13.isEmpty()
                            && issue13.stream()
                                    .allMatch(c -> List.of("asconf", "nrsack").contains(c.c().feature())),
                    "asconf and nrsack only");
            System.setProperty("sctpj.interop.group", "everything");
            assertThrows(IllegalArgumentException.class, InteropMatrix::cells);
        } finally {
            if (old == null) {
                System.clearProperty("sctpj.interop.group");
            } else {
                System.setProperty("sctpj.interop.group", old);
            }
        }
    }
}
