package org.sctpj.stack.teardown;

import java.util.List;
import org.sctpj.stack.SctpEvent;
import org.sctpj.stack.SctpEvent.AssociationChangeType;
import org.sctpj.stack.assoc.Association.State;
import org.sctpj.stack.assoc.InboundPacket;
import org.sctpj.stack.assoc.Tcb;
import org.sctpj.stack.assoc.TimerKind;
import org.sctpj.stack.path.Path;
import org.sctpj.stack.wire.Bytes;
import org.sctpj.stack.wire.Parsed;
import org.sctpj.stack.wire.cause.ErrorCause;
import org.sctpj.stack.wire.cause.UserInitiatedAbortCause;
import org.sctpj.stack.wire.chunk.AbortChunk;
import org.sctpj.stack.wire.chunk.Chunk;
import org.sctpj.stack.wire.chunk.Chunks;

/**
 * Abort (RFC 9260 section 9.1) and the end of an association: the user's ABORT (with a
 * User-Initiated Abort cause), an ABORT the peer sends (its causes reported), an ABORT this side
 * sends for a protocol violation, and {@link #close}, the single way to CLOSED every procedure
 * takes: completed messages delivered, messages in parts and unsent ones reported, timers stopped,
 * the ASSOCIATION_CHANGE event given and the host told.
 */
public final class Abort {

    private final Tcb t;

    /** The abort of the association {@code t} describes. */
    public Abort(Tcb t) {
        this.t = t;
    }

    /** The user's ABORT: ABORT with a User-Initiated Abort cause carrying {@code reason}. */
    public void abort(Bytes reason, long now) {
        if (t.state == State.CLOSED) {
            return;
        }
        if (t.state != State.COOKIE_WAIT) {
            t.queue(AbortChunk.of(false, new UserInitiatedAbortCause(reason)), t.primaryAddress(), t.peerTag);
        }
        close(
                t.settingUp() ? AssociationChangeType.CANT_START : AssociationChangeType.COMMUNICATION_LOST,
                List.of(),
                "aborted by the local user",
                now);
    }

    /** ABORT received (the Verification Tag already checked, section 8.5.1 B). */
    public void onAbort(InboundPacket pkt, int i, long now) {
        Parsed<? extends Chunk> p = Chunks.decode(pkt.buffer(), pkt.offset(i), pkt.length(i));
        List<ErrorCause> causes = p.isOk() && p.value() instanceof AbortChunk a ? a.causes() : List.of();
        aborted((pkt.flags(i) & 1) != 0, causes, "ABORT", now);
    }

    /**
     * An ABORT ({@code what}), or what RFC 9260 appendix C handles as one (an ICMP Protocol
     * Unreachable, an ABORT with the T bit), ends the association, its {@code causes} reported.
     */
    public void aborted(boolean tBit, List<ErrorCause> causes, String what, long now) {
        if (t.state == State.SHUTDOWN_ACK_SENT && tBit) {
            // RFC 9260 section 9.2: in SHUTDOWN-ACK-SENT every DATA chunk has been acknowledged both
            // ways (the peer sent SHUTDOWN with nothing outstanding; we sent SHUTDOWN ACK with
            // nothing outstanding). An ABORT with the T bit says the peer has no association left
            // (section 8.4): it closed after a SHUTDOWN COMPLETE that was lost, and answered one of
            // our packets still in flight as out of the blue. The shutdown is complete, nothing was
            // lost: report it so, not as COMMUNICATION_LOST.
            close(
                    AssociationChangeType.SHUTDOWN_COMPLETE,
                    causes,
                    "shutdown complete (the peer had closed: " + what + " with the T bit in SHUTDOWN-ACK-SENT)",
                    now);
            return;
        }
        close(
                t.settingUp() ? AssociationChangeType.CANT_START : AssociationChangeType.COMMUNICATION_LOST,
                causes,
                what + " received",
                now);
    }

    /** Ends the association for a protocol violation: ABORT with {@code cause} to the primary. */
    public void protocolAbort(ErrorCause cause, String why, long now) {
        t.queue(AbortChunk.of(false, cause), t.primaryAddress(), t.peerTag);
        close(AssociationChangeType.COMMUNICATION_LOST, List.of(), why, now);
    }

    /**
     * Enters CLOSED (once): messages completed are delivered, messages in parts and unsent ones
     * reported, stream reconfiguration requests still unanswered failed, every timer but the queue of final chunks stopped, the ASSOCIATION_CHANGE event of
     * {@code type} given and the host told.
     */
    public void close(AssociationChangeType type, List<ErrorCause> causes, String reason, long now) {
        if (t.state == State.CLOSED) {
            return;
        }
        if (t.rx != null) {
            t.data.deliverMessages();
            t.data.reportPartialDeliveriesAborted();
        }
        t.data.reportUnsent();
        t.reconfig.onClose();
        t.asconf.onClose();
        t.state = State.CLOSED;
        t.connect.stopT1();
        t.timers.stop(TimerKind.T2_SHUTDOWN);
        t.timers.stop(TimerKind.T5_SHUTDOWN_GUARD);
        for (Path p : t.paths) {
            p.stopT3();
        }
        t.host.emit(new SctpEvent.AssociationChange(t.id, type, t.outboundStreams, t.inboundStreams, causes, reason));
        t.host.closed(t.association);
    }
}
