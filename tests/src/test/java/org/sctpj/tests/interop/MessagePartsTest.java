package org.sctpj.tests.interop;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.sctpj.stack.AssociationId;
import org.sctpj.stack.SctpEvent;

/**
 * {@link MessageParts}: parts of messages (as the core's partial delivery hands them over) become
 * whole messages again, per stream, whatever the interleaving; other events are not parts.
 */
class MessagePartsTest {

    private static final AssociationId A = new AssociationId(1);

    private static MessageParts.Part part(int stream, int ppid, String bytes, boolean last) {
        return MessageParts.Part.of(new SctpEvent.MessagePart(A, stream, ppid, false, bytes.getBytes(), last))
                .orElseThrow();
    }

    @Test
    void interleavedPartsOfTwoStreamsMakeTwoWholeMessages() {
        MessageParts mp = new MessageParts();
        assertNull(mp.add(part(1, 7, "abc", false)));
        assertNull(mp.add(part(2, 8, "xy", false)));
        assertNull(mp.add(part(1, 7, "def", false)));
        assertTrue(mp.describe().contains("stream 1: 2 parts, 6 bytes"), mp.describe());
        SctpEvent.MessageReceived two = mp.add(part(2, 8, "z", true));
        assertEquals(2, two.streamId());
        assertEquals(8, two.ppid());
        assertArrayEquals("xyz".getBytes(), two.data());
        SctpEvent.MessageReceived one = mp.add(part(1, 7, "g", true));
        assertArrayEquals("abcdefg".getBytes(), one.data());
        assertEquals(A, one.association());
        assertEquals("5 message parts received (10 bytes)", mp.describe());
        // the next message of stream 1 starts afresh
        assertArrayEquals("h".getBytes(), mp.add(part(1, 9, "h", true)).data());
    }

    @Test
    void onlyPartEventsAreParts() {
        assertTrue(MessageParts.Part.of(new SctpEvent.MessageReceived(A, 0, 0, false, new byte[1]))
                .isEmpty());
        assertTrue(MessageParts.Part.of("MessagePart").isEmpty());
    }

    @Test
    void aPartWithAnotherPpidThanItsMessageIsReported() {
        MessageParts mp = new MessageParts();
        mp.add(part(3, 7, "a", false));
        AssertionError e = assertThrows(AssertionError.class, () -> mp.add(part(3, 8, "b", true)));
        assertTrue(e.getMessage().contains("PPID 8"), e.getMessage());
    }
}
