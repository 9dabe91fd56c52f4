package org.sctpj.stack.wire.cause;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.sctpj.stack.wire.cause.CauseTesting.assertEncodes;
import static org.sctpj.stack.wire.cause.CauseTesting.assertRoundTrip;
import static org.sctpj.stack.wire.cause.CauseTesting.decodeOk;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;
import org.sctpj.stack.wire.Bytes;

/**
 * The causes with free-form information: User-Initiated Abort, Protocol Violation (RFC 9260) and
 * Association Aborted Due to Illegal ASCONF-ACK (RFC 5061). Every length from 4 up is valid for
 * them, so they have no malformed form beyond the TLV framing that {@link ErrorCauses#decodeList}
 * checks.
 */
class OpaqueCausesTest {

    @Property(tries = 200)
    void userInitiatedAbortRoundTrips(@ForAll @Size(max = 300) byte[] reason) {
        assertRoundTrip(new UserInitiatedAbortCause(Bytes.of(reason)));
    }

    @Test
    void userInitiatedAbortEncodes() {
        assertEncodes(new UserInitiatedAbortCause(Bytes.EMPTY), "000c 0004");
        UserInitiatedAbortCause c = UserInitiatedAbortCause.of("bye");
        assertEncodes(c, "000c 0007 627965");
        assertEquals("bye", c.text());
        assertEquals(c, decodeOk("000c 0007 627965 00"));
    }

    @Test
    void userInitiatedAbortWithEmptyReasonDecodes() {
        assertEquals(new UserInitiatedAbortCause(Bytes.EMPTY), decodeOk("000c 0004"));
    }

    @Property(tries = 200)
    void protocolViolationRoundTrips(@ForAll @Size(max = 300) byte[] info) {
        assertRoundTrip(new ProtocolViolationCause(Bytes.of(info)));
    }

    @Test
    void protocolViolationEncodes() {
        assertEncodes(new ProtocolViolationCause(Bytes.EMPTY), "000d 0004");
        ProtocolViolationCause c = ProtocolViolationCause.of("TSN: ");
        assertEncodes(c, "000d 0009 54534e3a20");
        assertEquals(new ProtocolViolationCause(Bytes.fromHex("54534e3a20")), decodeOk("000d 0009 54534e3a20 000000"));
    }

    @Test
    void protocolViolationTextToleratesBinary() {
        assertEquals("A\uFFFD", new ProtocolViolationCause(Bytes.fromHex("41ff")).text());
    }

    @Property(tries = 200)
    void illegalAsconfAckRoundTrips(@ForAll @Size(max = 40) byte[] info) {
        assertRoundTrip(new IllegalAsconfAckCause(Bytes.of(info)));
    }

    @Test
    void illegalAsconfAckEncodesAsHeaderOnly() {
        assertEncodes(IllegalAsconfAckCause.EMPTY, "00a3 0004");
        assertEquals(IllegalAsconfAckCause.EMPTY, decodeOk("00a3 0004"));
    }

    @Test
    void illegalAsconfAckKeepsExtraBytes() {
        IllegalAsconfAckCause c = (IllegalAsconfAckCause) decodeOk("00a3 0008 00000007");
        assertEquals(Bytes.fromHex("00000007"), c.information());
        assertEncodes(c, "00a3 0008 00000007");
    }

    @Test
    void tooLongInformationIsRejected() {
        Bytes over = Bytes.of(new byte[0xffff - 3]);
        assertThrows(IllegalArgumentException.class, () -> new UserInitiatedAbortCause(over));
        assertThrows(IllegalArgumentException.class, () -> new ProtocolViolationCause(over));
        assertThrows(IllegalArgumentException.class, () -> new IllegalAsconfAckCause(over));
        assertSame(Bytes.EMPTY, IllegalAsconfAckCause.EMPTY.information());
    }
}
