package org.sctpj.tests.interop;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** The pmtu cells' budget for the path MTU search, which sets how long the peer waits for our end. */
class FeatureCellTest {

    @Test
    void theSearchAfterABlackHoleTo1280TriesTwoSizesThatFail() {
        // 1280 (a common MTU) passes, the next one, 1400, fails, and so does 1288 just above 1280
        assertEquals(2, FeatureCell.failingSizes(1200, 1500, 1280));
    }

    @Test
    void aLinkOfNoCommonMtuIsFoundByHalvingAboveTheLastCommonOne() {
        // 1280, 1400, 1420 pass; 1450 fails; 1428 passes (not 1420 exactly), then 1436 halfway
        assertEquals(1, FeatureCell.failingSizes(1200, 1500, 1436));
    }

    @Test
    void aPathThatPassesEverythingBelowTheFailedSizeFailsNone() {
        assertEquals(0, FeatureCell.failingSizes(1200, 1500, 1496));
    }

    @Test
    void aPathStuckAtTheBaseFailsEverySizeTried() {
        // 1280 fails, then the gap halves: 1240, 1220, 1208, below 16 bytes then
        assertEquals(4, FeatureCell.failingSizes(1200, 1500, 1200));
    }
}
