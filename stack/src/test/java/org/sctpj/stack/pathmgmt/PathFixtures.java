package org.sctpj.stack.pathmgmt;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.net.InetAddress;
import java.util.ArrayList;
import java.util.List;
import org.sctpj.stack.SctpOptions;
import org.sctpj.stack.assoc.AssocFixture;
import org.sctpj.stack.path.PathStatus;
import org.sctpj.stack.wire.chunk.Chunk;
import org.sctpj.stack.wire.chunk.HeartbeatAckChunk;
import org.sctpj.stack.wire.chunk.HeartbeatChunk;

/** Two-path associations for the path management tests: PEER (primary) and PEER2. */
final class PathFixtures {
    private PathFixtures() {}

    /** The HEARTBEATs among {@code out} sent to {@code to}. */
    static List<HeartbeatChunk> heartbeatsTo(List<AssocFixture.Out> out, InetAddress to) {
        List<HeartbeatChunk> hbs = new ArrayList<>();
        for (AssocFixture.Out o : out) {
            for (Chunk c : o.chunks()) {
                if (c instanceof HeartbeatChunk hb && o.destination().equals(to)) {
                    hbs.add(hb);
                }
            }
        }
        return hbs;
    }

    /** Answers {@code hb} from {@code from} as the peer would. */
    static void answer(AssocFixture f, InetAddress from, HeartbeatChunk hb) {
        f.deliverFrom(from, f.tcb().localTag, new HeartbeatAckChunk(hb.parameters()));
    }

    /** ESTABLISHED with PEER and PEER2, both confirmed (PEER2's probe answered). */
    static AssocFixture twoConfirmedPaths(SctpOptions o) {
        AssocFixture f = AssocFixture.established(o, AssocFixture.PEER2);
        f.advance(0); // the unconfirmed address is probed at once (RFC 9260 section 5.4)
        List<HeartbeatChunk> hbs = heartbeatsTo(f.sent(), AssocFixture.PEER2);
        assertEquals(1, hbs.size());
        answer(f, AssocFixture.PEER2, hbs.get(0));
        assertEquals(PathStatus.ACTIVE, f.tcb().paths.get(1).status());
        f.events.clear();
        return f;
    }
}
