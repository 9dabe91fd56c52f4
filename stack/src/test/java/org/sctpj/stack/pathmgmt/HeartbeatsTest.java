package org.sctpj.stack.pathmgmt;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.net.InetAddress;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.sctpj.stack.assoc.TimerKind;
import org.sctpj.stack.assoc.TimerTable;

/** The heartbeat deadline one path keeps in the association's timer table (RFC 9260 section 8.3). */
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
        TimerTable t = new TimerTable();
        t.usePaths(1);
        TimerTable.Owner all = new TimerTable.Owner() {
            @Override
            public boolean counts(TimerKind kind) {
                return true;
            }

            @Override
            public void expired(TimerKind kind, int path, long now) {}
        };
        Heartbeats h = new Heartbeats(t);
        h.ensure(1, 0);
        h.send(0, InetAddress.getByAddress(new byte[] {(byte) 192, 0, 2, 2}), 476, 100, new SplittableRandom(1));
        h.schedule(0, 555);
        assertEquals(576, t.nextTimeout(all), "the outstanding heartbeat's timeout, not the due time behind it");
        h.expire(0);
        assertEquals(TimerTable.NONE, t.nextTimeout(all), "once given up, nothing is due until the next is scheduled");
        h.schedule(0, 600);
        assertEquals(600, t.nextTimeout(all));
    }
}
