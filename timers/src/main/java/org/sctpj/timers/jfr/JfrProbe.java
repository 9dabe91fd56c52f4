package org.sctpj.timers.jfr;

import java.net.InetAddress;
import org.sctpj.stack.AssociationId;
import org.sctpj.stack.Probe;

/**
 * Turns what an endpoint reports ({@link Probe}) into JFR events, so that JDK Mission Control
 * shows the stack's association and path changes, retransmission timeouts and fast
 * retransmissions next to the JVM's own events, with no other tool. The stack thread installs it
 * on every endpoint it drives. When no recording asks for these events, {@link #enabled()} is
 * false and the endpoint compares nothing: the cost is a few field reads per endpoint call.
 *
 * <p>Start a recording with {@code java -XX:StartFlightRecording:filename=run.jfr ...} (or from
 * Mission Control); the events are in the category "sctpj". Runs on the stack thread.
 */
public final class JfrProbe implements Probe {

    /** The one instance (it keeps no state). */
    public static final JfrProbe INSTANCE = new JfrProbe();

    // Instances only asked isEnabled(), never committed: JFR answers it from the event type.
    private static final AssociationStateEvent STATE = new AssociationStateEvent();
    private static final PathStatusEvent PATH = new PathStatusEvent();
    private static final RetransmissionTimeoutEvent RTO = new RetransmissionTimeoutEvent();
    private static final FastRetransmitEvent FAST = new FastRetransmitEvent();

    private JfrProbe() {}

    @Override
    public boolean enabled() {
        return STATE.isEnabled() || PATH.isEnabled() || RTO.isEnabled() || FAST.isEnabled();
    }

    @Override
    public void associationState(AssociationId id, int localPort, String from, String to) {
        AssociationStateEvent e = new AssociationStateEvent();
        if (e.shouldCommit()) {
            e.association = id.value();
            e.localPort = localPort;
            e.from = from == null ? "" : from;
            e.to = to;
            e.commit();
        }
    }

    @Override
    public void pathStatus(AssociationId id, InetAddress peer, String from, String to) {
        PathStatusEvent e = new PathStatusEvent();
        if (e.shouldCommit()) {
            e.association = id.value();
            e.peer = peer.getHostAddress();
            e.from = from == null ? "" : from;
            e.to = to;
            e.commit();
        }
    }

    @Override
    public void retransmissionTimeout(AssociationId id, InetAddress peer, long count, long rtoNanos, long cwnd) {
        RetransmissionTimeoutEvent e = new RetransmissionTimeoutEvent();
        if (e.shouldCommit()) {
            e.association = id.value();
            e.peer = peer.getHostAddress();
            e.count = count;
            e.rto = rtoNanos;
            e.cwnd = cwnd;
            e.commit();
        }
    }

    @Override
    public void fastRetransmit(AssociationId id, long chunks) {
        FastRetransmitEvent e = new FastRetransmitEvent();
        if (e.shouldCommit()) {
            e.association = id.value();
            e.chunks = chunks;
            e.commit();
        }
    }
}
