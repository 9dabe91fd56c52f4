package org.sctpj.tests.interop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@link SendPump} against an endpoint whose handler runs inside {@code send}, as the real one's
 * does (a {@code SendSpaceAvailable} at the end of the send call, for room that abandoned PR-SCTP
 * messages freed): the pump called again from there must not send the message being sent a second
 * time, nor skip one. The interop case prsctp-ttl-loss saw that: one message went out twice, as
 * two messages with their own TSN and SSN, and the peer delivered and echoed it twice.
 */
class SendPumpTest {

    @Test
    void aPumpCalledFromInsideSendSendsEachMessageOnce() {
        SendPump<Integer> pump = new SendPump<>();
        for (int i = 0; i < 10; i++) {
            pump.add(i);
        }
        List<Integer> sent = new ArrayList<>();
        SendPump.Sender<Integer>[] sender = new SendPump.Sender[1];
        sender[0] = m -> {
            boolean first = !sent.contains(m);
            sent.add(m);
            if (first && m % 3 == 1) {
                pump.pump(sender[0]); // the handler's SendSpaceAvailable, before send returns
            }
            return true;
        };
        pump.pump(sender[0]);
        assertEquals(List.of(0, 1, 2, 3, 4, 5, 6, 7, 8, 9), sent, "each message once, in order");
        assertTrue(pump.isEmpty());
    }

    @Test
    void roomFreedInsideTheSendThatWouldBlockIsUsed() {
        SendPump<Integer> pump = new SendPump<>();
        for (int i = 0; i < 4; i++) {
            pump.add(i);
        }
        List<Integer> sent = new ArrayList<>();
        int[] calls = {0};
        SendPump.Sender<Integer>[] sender = new SendPump.Sender[1];
        sender[0] = m -> {
            if (m == 2 && calls[0]++ == 0) {
                pump.pump(sender[0]); // room freed during the send that answers WOULD_BLOCK
                return false;
            }
            sent.add(m);
            return true;
        };
        pump.pump(sender[0]);
        assertEquals(List.of(0, 1, 2, 3), sent, "the pump tried again after the nested call");
    }
}
