package org.sctpj.stack.wire.cause;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.sctpj.stack.wire.cause.CauseTesting.assertEncodes;
import static org.sctpj.stack.wire.cause.CauseTesting.assertFails;
import static org.sctpj.stack.wire.cause.CauseTesting.assertRoundTrip;
import static org.sctpj.stack.wire.cause.CauseTesting.decodeOk;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;
import org.sctpj.stack.wire.ParseErrorKind;

/**
 * The causes of fixed size: Stale Cookie, Out of Resource, Invalid Mandatory Parameter, No User
 * Data, Cookie Received While Shutting Down, Unsupported HMAC Identifier.
 */
class FixedLengthCausesTest {

    // ---- Stale Cookie (RFC 9260 section 3.3.10.3)

    @Property(tries = 200)
    void staleCookieRoundTrips(@ForAll int staleness) {
        assertRoundTrip(new StaleCookieCause(staleness));
    }

    @Test
    void staleCookieEncodes() {
        assertEncodes(new StaleCookieCause(0x000f6e79), "0003 0008 000f6e79");
        assertEncodes(new StaleCookieCause(0xfffffffe), "0003 0008 fffffffe");
        assertEquals(4294967294L, new StaleCookieCause(0xfffffffe).stalenessMicrosUnsigned());
    }

    @Test
    void staleCookieDecodesUnsignedStaleness() {
        StaleCookieCause c = (StaleCookieCause) decodeOk("0003 0008 80000001");
        assertEquals(0x80000001, c.stalenessMicros());
        assertEquals(2147483649L, c.stalenessMicrosUnsigned());
    }

    @Test
    void staleCookieWithoutStalenessIsMalformed() {
        assertFails("0003 0004", ParseErrorKind.BAD_PARAMETER_LENGTH);
    }

    @Test
    void staleCookieTooLongIsMalformed() {
        assertFails("0003 000c 00000001 00000000", ParseErrorKind.BAD_PARAMETER_LENGTH);
    }

    @Test
    void staleCookieTruncatedStalenessIsMalformed() {
        assertFails("0003 0006 0000", ParseErrorKind.BAD_PARAMETER_LENGTH);
    }

    // ---- Out of Resource (RFC 9260 section 3.3.10.4)

    @Test
    void outOfResourceRoundTripsAndEncodes() {
        assertRoundTrip(OutOfResourceCause.INSTANCE);
        assertEncodes(OutOfResourceCause.INSTANCE, "0004 0004");
        assertSame(OutOfResourceCause.INSTANCE, decodeOk("0004 0004"));
        assertEquals(OutOfResourceCause.INSTANCE, new OutOfResourceCause());
    }

    @Test
    void outOfResourceWithInformationIsMalformed() {
        assertFails("0004 0008 00000000", ParseErrorKind.BAD_PARAMETER_LENGTH);
    }

    // ---- Invalid Mandatory Parameter (RFC 9260 section 3.3.10.7)

    @Test
    void invalidMandatoryParameterRoundTripsAndEncodes() {
        assertRoundTrip(InvalidMandatoryParameterCause.INSTANCE);
        assertEncodes(InvalidMandatoryParameterCause.INSTANCE, "0007 0004");
        assertSame(InvalidMandatoryParameterCause.INSTANCE, decodeOk("0007 0004"));
    }

    @Test
    void invalidMandatoryParameterWithInformationIsMalformed() {
        assertFails("0007 0005 01", ParseErrorKind.BAD_PARAMETER_LENGTH);
    }

    // ---- No User Data (RFC 9260 section 3.3.10.9)

    @Property(tries = 200)
    void noUserDataRoundTrips(@ForAll int tsn) {
        assertRoundTrip(new NoUserDataCause(tsn));
    }

    @Test
    void noUserDataEncodes() {
        assertEncodes(new NoUserDataCause(0x333824ff), "0009 0008 333824ff");
        assertEquals(new NoUserDataCause(0xfedcba98), decodeOk("0009 0008 fedcba98"));
    }

    @Test
    void noUserDataWithoutTsnIsMalformed() {
        assertFails("0009 0004", ParseErrorKind.BAD_PARAMETER_LENGTH);
    }

    @Test
    void noUserDataTooLongIsMalformed() {
        assertFails("0009 0009 00000001 ff", ParseErrorKind.BAD_PARAMETER_LENGTH);
    }

    // ---- Cookie Received While Shutting Down (RFC 9260 section 3.3.10.10)

    @Test
    void cookieWhileShuttingDownRoundTripsAndEncodes() {
        assertRoundTrip(CookieReceivedWhileShuttingDownCause.INSTANCE);
        assertEncodes(CookieReceivedWhileShuttingDownCause.INSTANCE, "000a 0004");
        assertSame(CookieReceivedWhileShuttingDownCause.INSTANCE, decodeOk("000a 0004"));
    }

    @Test
    void cookieWhileShuttingDownWithInformationIsMalformed() {
        assertFails("000a 0008 00000000", ParseErrorKind.BAD_PARAMETER_LENGTH);
    }

    // ---- Unsupported HMAC Identifier (RFC 4895 section 4.1)

    @Property(tries = 200)
    void unsupportedHmacRoundTrips(@ForAll @IntRange(max = 0xffff) int hmacId) {
        assertRoundTrip(new UnsupportedHmacIdentifierCause(hmacId));
    }

    @Test
    void unsupportedHmacEncodesLengthSixPlusPadding() {
        UnsupportedHmacIdentifierCause c = new UnsupportedHmacIdentifierCause(2);
        assertEncodes(c, "0105 0006 0002");
        assertEquals(8, c.encodedLength());
        assertEquals(c, decodeOk("0105 0006 0002 0000"));
    }

    @Test
    void unsupportedHmacWithPaddingCountedInLengthIsMalformed() {
        assertFails("0105 0008 0002 0000", ParseErrorKind.BAD_PARAMETER_LENGTH);
    }

    @Test
    void unsupportedHmacWithoutIdentifierIsMalformed() {
        assertFails("0105 0004", ParseErrorKind.BAD_PARAMETER_LENGTH);
    }

    @Test
    void unsupportedHmacRejectsOutOfRangeIdentifier() {
        assertThrows(IllegalArgumentException.class, () -> new UnsupportedHmacIdentifierCause(0x10000));
        assertThrows(IllegalArgumentException.class, () -> new UnsupportedHmacIdentifierCause(-1));
    }
}
