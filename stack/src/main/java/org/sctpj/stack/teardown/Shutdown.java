package org.sctpj.stack.teardown;

import java.util.List;
import org.sctpj.stack.SctpEvent;
import org.sctpj.stack.SctpEvent.AssociationChangeType;
import org.sctpj.stack.assoc.Association.State;
import org.sctpj.stack.assoc.InboundPacket;
import org.sctpj.stack.assoc.Tcb;
import org.sctpj.stack.assoc.TimerKind;
import org.sctpj.stack.path.Path;
import org.sctpj.stack.tx.AckResult;
import org.sctpj.stack.wire.Bytes;
import org.sctpj.stack.wire.Parsed;
import org.sctpj.stack.wire.chunk.AbortChunk;
import org.sctpj.stack.wire.chunk.Chunk;
import org.sctpj.stack.wire.chunk.Chunks;
import org.sctpj.stack.wire.chunk.ShutdownAckChunk;
import org.sctpj.stack.wire.chunk.ShutdownChunk;
import org.sctpj.stack.wire.chunk.ShutdownCompleteChunk;

/**
 * Graceful shutdown (RFC 9260 section 9.2), both sides of it:
 *
 * <ul>
 *   <li>the user's SHUTDOWN: ESTABLISHED becomes SHUTDOWN-PENDING; once all our data is
 *       acknowledged, SHUTDOWN-SENT with a SHUTDOWN (T2-shutdown and T5-shutdown-guard start); each
 *       packet with DATA from the peer is answered with another SHUTDOWN;
 *   <li>the peer's SHUTDOWN: its Cumulative TSN Ack acknowledges our data, SHUTDOWN-RECEIVED (no
 *       more DATA taken); once our data is acknowledged, SHUTDOWN-ACK-SENT with a SHUTDOWN ACK
 *       (T2-shutdown starts); both at once (SHUTDOWN in SHUTDOWN-SENT) also lead there;
 *   <li>SHUTDOWN ACK answered with SHUTDOWN COMPLETE, and SHUTDOWN COMPLETE, end it (CLOSED,
 *       SHUTDOWN_COMPLETE event);
 *   <li>T2-shutdown resends the SHUTDOWN or SHUTDOWN ACK to the path data takes, counting an
 *       association error each time; T5-shutdown-guard gives up with an ABORT.
 * </ul>
 */
public final class Shutdown {

    private static final int[] NO_GAPS = new int[0];

    private final Tcb t;

    /** The shutdown of the association {@code t} describes. */
    public Shutdown(Tcb t) {
        this.t = t;
    }

    /**
     * The user's SHUTDOWN (RFC 9260 section 9.2): no more data is accepted; once all outstanding
     * data is acknowledged, SHUTDOWN is sent. Before establishment this is an abort.
     */
    public void shutdown(long now) {
        switch (t.state) {
            case ESTABLISHED -> {
                t.state = State.SHUTDOWN_PENDING;
                progressShutdown(now);
            }
            case COOKIE_WAIT, COOKIE_ECHOED -> t.abort.abort(Bytes.EMPTY, now);
            default -> {} // already shutting down or closed
        }
    }

    /**
     * Moves on once all our data is acknowledged: SHUTDOWN-PENDING sends SHUTDOWN (and starts the
     * guard timer), SHUTDOWN-RECEIVED sends SHUTDOWN ACK.
     */
    public void progressShutdown(long now) {
        if (t.tx == null || !t.tx.isEmpty()) {
            return;
        }
        if (t.state == State.SHUTDOWN_PENDING) {
            t.state = State.SHUTDOWN_SENT;
            queueShutdown(now);
            t.timers.start(
                    TimerKind.T5_SHUTDOWN_GUARD,
                    now + t.o.shutdownGuardFactor() * t.o.rtoMax().toNanos());
        } else if (t.state == State.SHUTDOWN_RECEIVED) {
            t.state = State.SHUTDOWN_ACK_SENT;
            queueShutdownAck(now);
        }
    }

    /** Queues a SHUTDOWN to the path data takes and (re)starts T2-shutdown. */
    public void queueShutdown(long now) {
        Path p = t.failover.dataPath();
        t.queue(new ShutdownChunk(t.rx.cumulativeTsn()), p.address(), t.peerTag);
        t.timers.start(TimerKind.T2_SHUTDOWN, now + p.rto().rto());
    }

    private void queueShutdownAck(long now) {
        Path p = t.failover.dataPath();
        t.queue(new ShutdownAckChunk(), p.address(), t.peerTag);
        t.timers.start(TimerKind.T2_SHUTDOWN, now + p.rto().rto());
    }

    /** SHUTDOWN received. */
    public void onShutdown(InboundPacket pkt, int i, long now) {
        Parsed<? extends Chunk> p = Chunks.decode(pkt.buffer(), pkt.offset(i), pkt.length(i));
        if (!p.isOk() || !(p.value() instanceof ShutdownChunk s) || t.tx == null) {
            return;
        }
        switch (t.state) {
            case ESTABLISHED, SHUTDOWN_PENDING, SHUTDOWN_RECEIVED -> {
                long freeBefore = t.tx.freeBytes();
                AckResult r = t.tx.onSack(
                        s.cumTsnAck(), t.tx.peerRwnd() + t.tx.outstandingBytes(), NO_GAPS, NO_GAPS, 0, 0, t.paths, now);
                if (t.state != State.SHUTDOWN_RECEIVED) {
                    t.state = State.SHUTDOWN_RECEIVED;
                    t.host.emit(new SctpEvent.ShutdownReceived(t.id));
                }
                t.data.afterAck(r, freeBefore, now);
            }
            case SHUTDOWN_ACK_SENT -> t.queue(
                    new ShutdownAckChunk(), t.pathSet.replyTo(pkt.from()), t.peerTag); // our SHUTDOWN ACK was lost
            case SHUTDOWN_SENT -> {
                // RFC 9260 section 9.2: both sides shut down at once.
                t.state = State.SHUTDOWN_ACK_SENT;
                queueShutdownAck(now);
            }
            default -> {}
        }
    }

    /** SHUTDOWN ACK received: SHUTDOWN COMPLETE goes back and the association is closed. */
    public void onShutdownAck(InboundPacket pkt, long now) {
        if (t.state == State.SHUTDOWN_SENT || t.state == State.SHUTDOWN_ACK_SENT) {
            t.queue(new ShutdownCompleteChunk(false), t.pathSet.replyTo(pkt.from()), t.peerTag);
            t.abort.close(AssociationChangeType.SHUTDOWN_COMPLETE, List.of(), "shutdown complete", now);
        }
        // In COOKIE-WAIT / COOKIE-ECHOED the endpoint treats it as out of the blue (8.5.1 E);
        // the tag check already dropped it unless it carried our tag.
    }

    /** SHUTDOWN COMPLETE received: in SHUTDOWN-ACK-SENT the association is closed. */
    public void onShutdownComplete(long now) {
        if (t.state == State.SHUTDOWN_ACK_SENT) {
            t.abort.close(AssociationChangeType.SHUTDOWN_COMPLETE, List.of(), "shutdown complete", now);
        }
    }

    /** T2-shutdown expired: resend, backing off, until Association.Max.Retrans (section 9.2). */
    public void onT2(long now) {
        if (++t.associationErrors > t.o.associationMaxRetrans()) {
            t.abort.close(AssociationChangeType.COMMUNICATION_LOST, List.of(), "no answer to SHUTDOWN", now);
            return;
        }
        Path p = t.failover.dataPath();
        p.rto().backoff();
        if (t.state == State.SHUTDOWN_SENT) {
            t.queue(new ShutdownChunk(t.rx.cumulativeTsn()), p.address(), t.peerTag);
        } else if (t.state == State.SHUTDOWN_ACK_SENT) {
            t.queue(new ShutdownAckChunk(), p.address(), t.peerTag);
        }
        t.timers.start(TimerKind.T2_SHUTDOWN, now + p.rto().rto());
    }

    /** T5-shutdown-guard expired (RFC 9260 section 9.2): give up and ABORT. */
    public void onT5(long now) {
        t.queue(AbortChunk.of(false), t.primaryAddress(), t.peerTag);
        t.abort.close(AssociationChangeType.COMMUNICATION_LOST, List.of(), "shutdown guard timer expired", now);
    }
}
