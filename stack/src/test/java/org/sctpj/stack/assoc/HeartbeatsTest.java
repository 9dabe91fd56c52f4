package org.sctpj.stack.assoc;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.net.InetAddress;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The heartbeat deadlines one path reports to the association's timer (RFC 9260 section 8.3). */
class HeartbeatsTest {

    /**
     * A restart (RFC 9260 section 5.2.4.1) reschedules every confirmed path's next HEARTBEAT, also
     * on a path whose last one is still unanswered. No HEARTBEAT goes out while one is
     * outstanding, so that due time must not be reported: it would be due at once and stay due,
     * unserved, until the outstanding one timed out (AssociationFuzzTest found a driver looping on
     * it).
     */
    @Test
    void aDueTimeBeforeTheOutstandingHeartbeatsTimeoutIsNoDeadline() throws Exception {
        Heartbeats h = new Heartbeats();
        h.ensure(1, 0);
        h.send(0, InetAddress.getByAddress(new byte[] {(byte) 192, 0, 2, 2}), 476, 100, new SplittableRandom(1));
        h.schedule(0, 555);
        assertEquals(576, h.next(), "the outstanding heartbeat's timeout, not the due time behind it");
        h.expire(0);
        assertEquals(555, h.next(), "once the heartbeat is given up, the due time counts again");
    }
}
