package org.sctpj.stack;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

/**
 * {@link SctpOptions.Builder#build()} refuses options that cannot work together, and says which
 * options and what to do; both named profiles pass their own checks.
 */
class SctpOptionsTest {

    static Duration ms(long v) {
        return Duration.ofMillis(v);
    }

    /** Builds from the defaults and returns the refusal's message, checking it names every option. */
    static String refused(UnaryOperator<SctpOptions.Builder> change, String... named) {
        IllegalArgumentException e =
                assertThrows(IllegalArgumentException.class, () -> change.apply(SctpOptions.DEFAULTS.toBuilder())
                        .build());
        for (String n : named) {
            assertTrue(e.getMessage().contains(n), "message names " + n + ": " + e.getMessage());
        }
        return e.getMessage();
    }

    @Test
    void bothProfilesAreValid() {
        assertDoesNotThrow(() -> SctpOptions.WAN.toBuilder().build());
        assertDoesNotThrow(() -> SctpOptions.LAN.toBuilder().build());
    }

    @Test
    void lanProfileDelaysItsSackForLessThanHalfOfItsSmallestRto() {
        SctpOptions lan = SctpOptions.LAN;
        assertTrue(
                lan.delayedAckTime().multipliedBy(2).compareTo(lan.rtoMin()) <= 0,
                "delayed SACK " + lan.delayedAckTime() + " against RTO.Min " + lan.rtoMin());
    }

    @Test
    void rtoMinAboveRtoMaxIsRefused() {
        String m = refused(b -> b.rtoMin(ms(2000)).rtoMax(ms(1500)).rtoInitial(ms(1500)), "rtoMin", "rtoMax");
        assertTrue(m.contains("lower rtoMin or raise rtoMax"), m);
    }

    @Test
    void rtoInitialOutsideTheRtoRangeIsRefused() {
        String below = refused(b -> b.rtoInitial(ms(500)), "rtoInitial", "rtoMin", "rtoMax");
        assertTrue(below.contains("set rtoInitial between rtoMin and rtoMax"), below);
        refused(b -> b.rtoInitial(Duration.ofSeconds(61)), "rtoInitial", "rtoMax");
        assertDoesNotThrow(() -> SctpOptions.DEFAULTS.toBuilder()
                .rtoInitial(Duration.ofSeconds(60))
                .build());
    }

    @Test
    void aSackDelayOfMoreThanHalfOfRtoMinIsRefused() {
        // The LAN profile's timers with the RFC's 200 ms delayed SACK: the LAN profile's old values.
        IllegalArgumentException e = assertThrows(
                IllegalArgumentException.class,
                () -> SctpOptions.LAN.toBuilder().delayedAckTime(ms(200)).build());
        assertTrue(e.getMessage().contains("delayedAckTime") && e.getMessage().contains("rtoMin"), e.getMessage());
        assertTrue(e.getMessage().contains("lower delayedAckTime"), e.getMessage());
        refused(b -> b.rtoMin(ms(300)).rtoInitial(ms(300)).delayedAckTime(ms(151)), "delayedAckTime", "rtoMin");
        assertDoesNotThrow(() -> SctpOptions.DEFAULTS.toBuilder()
                .rtoMin(ms(300))
                .rtoInitial(ms(300))
                .delayedAckTime(ms(150))
                .build());
        assertDoesNotThrow(
                () -> SctpOptions.LAN.toBuilder().delayedAckTime(ms(0)).build());
    }

    @Test
    void theSackDelayLimitOfRfc9260IsKept() {
        refused(b -> b.delayedAckTime(ms(501)), "delayedAckTime", "500 ms");
        refused(b -> b.delayedAckTime(ms(-1)), "delayedAckTime");
    }

    @Test
    void buffersBelowTheSmallestWindowAreRefused() {
        refused(b -> b.receiveBufferBytes(1499), "receiveBufferBytes");
        refused(b -> b.sendBufferBytes(1499), "sendBufferBytes");
    }

    @Test
    void aMessageLargerThanTheSendBufferIsRefused() {
        refused(b -> b.sendBufferBytes(64 * 1024).maxMessageSize(64 * 1024 + 1), "maxMessageSize", "sendBufferBytes");
    }

    @Test
    void aCookieSecretRotatingFasterThanACookieLivesIsRefused() {
        refused(
                b -> b.validCookieLife(Duration.ofMinutes(2)).cookieSecretRotation(Duration.ofMinutes(1)),
                "cookieSecretRotation",
                "validCookieLife");
    }
}
