package org.sctpj.stack.pathmgmt;

import java.util.List;
import org.sctpj.stack.SctpEvent;
import org.sctpj.stack.SctpEvent.PeerAddressState;
import org.sctpj.stack.assoc.Association;
import org.sctpj.stack.assoc.InboundPacket;
import org.sctpj.stack.assoc.Tcb;
import org.sctpj.stack.path.Path;
import org.sctpj.stack.path.PathStatus;
import org.sctpj.stack.wire.Bytes;
import org.sctpj.stack.wire.Parsed;
import org.sctpj.stack.wire.chunk.Chunk;
import org.sctpj.stack.wire.chunk.Chunks;
import org.sctpj.stack.wire.chunk.HeartbeatAckChunk;
import org.sctpj.stack.wire.chunk.HeartbeatChunk;
import org.sctpj.stack.wire.param.HeartbeatInfoParameter;
import org.sctpj.stack.wire.param.Parameter;

/**
 * Path heartbeat (RFC 9260 section 8.3) and path confirmation (section 5.4): HEARTBEATs to idle
 * and to unconfirmed destinations, the answer to the peer's HEARTBEATs, the matching of HEARTBEAT
 * ACKs (which confirm an address, bring a path back and time it), and the heartbeat timer of each
 * path: an unanswered HEARTBEAT is an error against its path (and, for a confirmed one, against the
 * association); a Potentially Failed path is probed once per RTO (RFC 7829 section 5.1).
 */
public final class HeartbeatHandler {

    private final Tcb t;
    private final Heartbeats heartbeats;
    private final long[] rttOut = new long[1];

    /** The heartbeats of the association {@code t} describes, their deadlines in its timer table. */
    public HeartbeatHandler(Tcb t) {
        this.t = t;
        this.heartbeats = new Heartbeats(t.timers);
    }

    /** A new path: probed at once when unconfirmed (RFC 9260 section 5.4), else after HB.interval. */
    void pathAdded(Path p, long now) {
        long at = p.status() == PathStatus.UNCONFIRMED ? now : now + heartbeatDelay(p);
        heartbeats.ensure(t.paths.size(), at);
        heartbeats.expire(p.index()); // a path revived at its old index (RFC 5061) starts afresh
        heartbeats.schedule(p.index(), at);
    }

    /** A path the peer deleted (RFC 5061 section 5.2): no HEARTBEAT goes there any more. */
    void pathRemoved(Path p) {
        heartbeats.expire(p.index());
    }

    /** Once up (or restarted), every confirmed path's next HEARTBEAT is due after HB.interval. */
    public void scheduleConfirmed(long now) {
        for (Path p : t.paths) {
            if (p.status() != PathStatus.UNCONFIRMED) {
                heartbeats.schedule(p.index(), now + heartbeatDelay(p));
            }
        }
    }

    /** A Potentially Failed path is probed at once, unless a HEARTBEAT is already out (RFC 7829 5.1). */
    void probeNow(Path p, long now) {
        if (!heartbeats.outstanding(p.index())) {
            heartbeats.schedule(p.index(), now);
        }
    }

    /** Queues a HEARTBEAT to {@code p} now, tagged with the peer's tag. */
    public void send(Path p, long now) {
        Bytes info = heartbeats.send(p.index(), p.address(), now, p.rto().rto(), t.host.random());
        t.queue(new HeartbeatChunk(List.of(new HeartbeatInfoParameter(info))), p.address(), t.peerTag);
    }

    /** HEARTBEAT: echo its information to the source address (RFC 9260 section 8.3). */
    public void onHeartbeat(InboundPacket pkt, int i) {
        if (t.settingUp()) {
            // RFC 9260 section 5.1: until the COOKIE ACK arrives, nothing but the COOKIE ECHO goes
            // to the peer. A peer that is already up (our COOKIE ACK is late or lost) probes again.
            return;
        }
        Parsed<? extends Chunk> p = Chunks.decode(pkt.buffer(), pkt.offset(i), pkt.length(i));
        if (p.isOk() && p.value() instanceof HeartbeatChunk hb) {
            // RFC 9260 section 8.3: echo the Heartbeat Information to the source address.
            t.queue(new HeartbeatAckChunk(hb.parameters()), pkt.from(), t.peerTag);
        }
    }

    /**
     * HEARTBEAT ACK: when it answers our outstanding HEARTBEAT, an RTT sample, the path's and the
     * association's error counters cleared, the path confirmed (section 5.4) or active again.
     */
    public void onHeartbeatAck(InboundPacket pkt, int i, long now) {
        Parsed<? extends Chunk> p = Chunks.decode(pkt.buffer(), pkt.offset(i), pkt.length(i));
        if (!p.isOk() || !(p.value() instanceof HeartbeatAckChunk ack)) {
            return;
        }
        for (Parameter param : ack.parameters()) {
            if (param instanceof HeartbeatInfoParameter info) {
                if (t.pmtu.onHeartbeatAck(info.info(), now)) {
                    return; // it answered a path MTU probe (RFC 8899 section 6.2.1.1)
                }
                int idx = heartbeats.match(info.info(), now, rttOut);
                if (idx < 0) {
                    return;
                }
                Path path = t.paths.get(idx);
                path.rto().sample(rttOut[0]);
                path.resetErrorCount();
                path.recordAck(now);
                t.associationErrors = 0;
                if (path.status() == PathStatus.UNCONFIRMED) {
                    // CONFIRMED first: becoming active may make it the primary (MADE_PRIMARY)
                    t.host.emit(new SctpEvent.PeerAddressChange(t.id, path.address(), PeerAddressState.CONFIRMED));
                    t.failover.setPathStatus(path, PathStatus.ACTIVE);
                } else if (path.status() == PathStatus.INACTIVE || path.status() == PathStatus.POTENTIALLY_FAILED) {
                    t.failover.setPathStatus(path, PathStatus.ACTIVE);
                }
                heartbeats.schedule(idx, now + heartbeatDelay(path));
                return;
            }
        }
    }

    /**
     * The HEARTBEAT timer of path i (RFC 9260 section 8.3): the outstanding HEARTBEAT timed out,
     * or the next is due. The association runs it in ESTABLISHED only. Before it, RFC 9260 section
     * 5.1 allows nothing but the COOKIE ECHO until the COOKIE ACK: a peer that lost the COOKIE ECHO
     * has no association and answers a HEARTBEAT with an ABORT, ending the setup. In the shutdown
     * states the answer to a HEARTBEAT can arrive after this side closed, and draws an
     * out-of-the-blue ABORT (section 8.4 rule 8) that turns the peer's clean close into
     * COMMUNICATION_LOST; T3-rtx and T2-shutdown watch the paths there instead (sections 6.3.3 and
     * 9.2).
     */
    public void onTimer(int i, long now) {
        Path p = t.paths.get(i);
        if (p.removed()) {
            heartbeats.expire(i);
            return;
        }
        if (heartbeats.timeout(i) <= now) {
            heartbeats.expire(i);
            t.failover.pathError(p, now);
            if (t.state == Association.State.CLOSED) {
                return;
            }
            if (p.status() != PathStatus.UNCONFIRMED) {
                t.failover.countAssociationError(now);
            }
            if (t.state == Association.State.CLOSED) {
                return;
            }
            if (p.status() == PathStatus.POTENTIALLY_FAILED) {
                // RFC 7829 section 5.1: probe a PF destination once per RTO, without backoff.
                heartbeats.schedule(i, now);
            } else {
                p.rto().backoff();
                heartbeats.schedule(
                        i, now + (p.status() == PathStatus.UNCONFIRMED ? p.rto().rto() : heartbeatDelay(p)));
            }
        }
        if (t.state != Association.State.CLOSED && heartbeats.due(i) <= now && !heartbeats.outstanding(i)) {
            boolean idle = p.lastSendNanos() == Long.MIN_VALUE
                    || now - p.lastSendNanos() >= t.o.heartbeatInterval().toNanos();
            if (idle || p.status() != PathStatus.ACTIVE) {
                send(p, now);
            } else {
                heartbeats.schedule(i, p.lastSendNanos() + heartbeatDelay(p));
            }
        }
    }

    /** HB.interval + RTO, with a jitter of +/- 50% of the RTO (RFC 9260 section 8.3). */
    private long heartbeatDelay(Path p) {
        long rto = p.rto().rto();
        long jitter = rto <= 1 ? 0 : t.host.random().nextLong(rto) - rto / 2;
        return t.o.heartbeatInterval().toNanos() + rto + jitter;
    }
}
