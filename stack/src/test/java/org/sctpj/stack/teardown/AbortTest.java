package org.sctpj.stack.teardown;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.sctpj.stack.assoc.AssocFixture.PEER_TAG;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.sctpj.stack.SctpEvent;
import org.sctpj.stack.SctpEvent.AssociationChangeType;
import org.sctpj.stack.SctpOptions;
import org.sctpj.stack.assoc.AssocFixture;
import org.sctpj.stack.assoc.Association.State;
import org.sctpj.stack.wire.Bytes;
import org.sctpj.stack.wire.cause.UserInitiatedAbortCause;
import org.sctpj.stack.wire.chunk.AbortChunk;

/** ABORT sent and received (RFC 9260 section 9.1), and what closing reports. */
class AbortTest {
    static final SctpOptions O = SctpOptions.WAN;

    static SctpEvent.AssociationChange change(AssocFixture f) {
        List<SctpEvent.AssociationChange> l = f.eventsOf(SctpEvent.AssociationChange.class);
        return l.get(l.size() - 1);
    }

    @Test
    void theUsersAbortInCookieWaitSendsNothingAndCannotStart() {
        AssocFixture f = AssocFixture.cookieWait(O);
        f.a.abort(Bytes.EMPTY, f.now);
        assertEquals(List.of(), f.sent());
        assertEquals(State.CLOSED, f.a.state());
        assertEquals(AssociationChangeType.CANT_START, change(f).type());
        assertTrue(f.closed);
    }

    @Test
    void theUsersAbortWhenUpSendsItsReasonAndReportsTheUnsentMessage() {
        AssocFixture f = AssocFixture.established(O);
        f.sendOne();
        f.a.abort(Bytes.fromHex("0102"), f.now);
        AssocFixture.Out out = f.one();
        assertEquals(PEER_TAG, out.vtag());
        AbortChunk a = assertInstanceOf(AbortChunk.class, out.chunks().get(0));
        assertEquals(
                new UserInitiatedAbortCause(Bytes.fromHex("0102")), a.causes().get(0));
        assertEquals(AssociationChangeType.COMMUNICATION_LOST, change(f).type());
        assertEquals(1, f.eventsOf(SctpEvent.SendFailed.class).size(), "the unacknowledged message");
        assertEquals(Long.MAX_VALUE, f.a.nextTimeout(), "every timer stopped");
    }

    @Test
    void anAbortReceivedEndsTheAssociationWithItsCauses() {
        AssocFixture f = AssocFixture.established(O);
        AbortChunk abort = AbortChunk.of(false, new UserInitiatedAbortCause(Bytes.fromHex("ff")));
        f.deliver(f.tcb().localTag, abort);
        assertEquals(State.CLOSED, f.a.state());
        assertEquals(AssociationChangeType.COMMUNICATION_LOST, change(f).type());
        assertEquals(abort.causes(), change(f).causes());
        assertEquals(List.of(), f.sent());
    }

    @Test
    void anAbortWithTheWrongTagIsIgnored() {
        AssocFixture f = AssocFixture.established(O);
        f.deliver(f.tcb().localTag + 1, AbortChunk.of(false));
        assertEquals(State.ESTABLISHED, f.a.state());
    }
}
