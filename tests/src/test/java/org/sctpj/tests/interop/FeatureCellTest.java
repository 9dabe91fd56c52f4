package org.sctpj.tests.interop;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** The pmtu cells' budget for the path MTU search, which sets how long the peer waits for our end. */
class FeatureCellTest {

    @Test
    void theSearchAfterABlackHoleTo1280TriesThreeSizesThatFail() {
        // As captured (usrsctp raw4 we-server): 1348 fails, 1272 passes, 1308 and 1288 fail, 1280 passes.
        assertEquals(3, FeatureCell.failingSizes(1200, 1500, 1280));
    }

    @Test
    void aPathThatPassesEverythingBelowTheFailedSizeFailsNone() {
        assertEquals(0, FeatureCell.failingSizes(1200, 1500, 1496));
    }

    @Test
    void aPathStuckAtTheBaseFailsEverySizeTried() {
        // 1348, 1272, 1236, 1216, 1208: the gap halves until it is below 8 bytes
        assertEquals(5, FeatureCell.failingSizes(1200, 1500, 1200));
    }
}
