package org.sctpj.stack.wire.cause;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.sctpj.stack.wire.cause.CauseTesting.assertEncodes;
import static org.sctpj.stack.wire.cause.CauseTesting.assertFails;
import static org.sctpj.stack.wire.cause.CauseTesting.assertRoundTrip;
import static org.sctpj.stack.wire.cause.CauseTesting.decodeOk;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;
import org.sctpj.stack.wire.ParseErrorKind;

/** Missing Mandatory Parameter, RFC 9260 section 3.3.10.2. */
class MissingMandatoryParameterCauseTest {

    @Property(tries = 200)
    void roundTrips(@ForAll @Size(max = 40) List<@IntRange(max = 0xffff) Integer> types) {
        assertRoundTrip(new MissingMandatoryParameterCause(types));
    }

    @Test
    void encodesEvenCount() {
        assertEncodes(MissingMandatoryParameterCause.of(7, 12), "0002 000c 00000002 0007 000c");
    }

    @Test
    void encodesOddCountEndingMidWord() {
        MissingMandatoryParameterCause c = MissingMandatoryParameterCause.of(7);
        assertEncodes(c, "0002 000a 00000001 0007");
        assertEquals(12, c.encodedLength());
    }

    @Test
    void decodesTypesInOrder() {
        MissingMandatoryParameterCause c =
                (MissingMandatoryParameterCause) decodeOk("0002 000e 00000003 0005 0007 c000 0000");
        assertEquals(List.of(5, 7, 0xc000), c.missingTypes());
    }

    @Test
    void decodesEmptyList() {
        assertEquals(MissingMandatoryParameterCause.of(), decodeOk("0002 0008 00000000"));
    }

    @Test
    void shorterThanCountIsMalformed() {
        assertFails("0002 0006 0000", ParseErrorKind.BAD_PARAMETER_LENGTH);
    }

    @Test
    void headerOnlyIsMalformed() {
        assertFails("0002 0004", ParseErrorKind.BAD_PARAMETER_LENGTH);
    }

    @Test
    void countAboveTypesPresentIsMismatch() {
        assertFails("0002 000a 00000002 0007", ParseErrorKind.LIST_LENGTH_MISMATCH);
    }

    @Test
    void countBelowTypesPresentIsMismatch() {
        assertFails("0002 000c 00000001 0007 000c", ParseErrorKind.LIST_LENGTH_MISMATCH);
    }

    @Test
    void oddListBytesIsMismatch() {
        assertFails("0002 000b 00000001 0007 00", ParseErrorKind.LIST_LENGTH_MISMATCH);
    }

    @Test
    void hugeCountIsMismatchWithoutAllocating() {
        assertFails("0002 0008 ffffffff", ParseErrorKind.LIST_LENGTH_MISMATCH);
        assertFails("0002 000a 80000001 0007", ParseErrorKind.LIST_LENGTH_MISMATCH);
    }

    @Test
    void constructorCopiesAndValidates() {
        List<Integer> l = new ArrayList<>(List.of(1, 2));
        MissingMandatoryParameterCause c = new MissingMandatoryParameterCause(l);
        l.add(3);
        assertEquals(List.of(1, 2), c.missingTypes());
        assertThrows(UnsupportedOperationException.class, () -> c.missingTypes().add(4));
        assertThrows(IllegalArgumentException.class, () -> MissingMandatoryParameterCause.of(0x10000));
        assertThrows(
                IllegalArgumentException.class,
                () -> new MissingMandatoryParameterCause(
                        Collections.nCopies(MissingMandatoryParameterCause.MAX_TYPES + 1, 7)));
        assertEquals(
                0xffff - 1,
                new MissingMandatoryParameterCause(Collections.nCopies(MissingMandatoryParameterCause.MAX_TYPES, 7))
                        .length());
    }
}
