package org.sctpj.timers.jfr;

import java.net.InetAddress;
import jdk.jfr.FlightRecorder;
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

    /**
     * The event types, loaded on first use of this class, which happens only once JFR runs:
     * loading an event class makes the JDK instrument it and set up JFR's metadata, which cost
     * about 0.4 s of CPU per process (and, later, a long C2 compilation of the JDK's bytecode
     * library) on the project's machine, a waste in every process that never records.
     */
    private static final class Types {
        // Instances only asked isEnabled(), never committed: JFR answers it from the event type.
        static final AssociationStateEvent STATE = new AssociationStateEvent();
        static final PathStatusEvent PATH = new PathStatusEvent();
        static final RetransmissionTimeoutEvent RTO = new RetransmissionTimeoutEvent();
        static final FastRetransmitEvent FAST = new FastRetransmitEvent();
    }

    /** Whether {@link Types} was loaded (JFR was running at some point). */
    private static volatile boolean loaded;

    private JfrProbe() {}

    /**
     * Loads the event classes now if JFR runs (a recording started with the JVM, or from the
     * application or Mission Control), so that the endpoint's thread does not load them later;
     * else nothing: {@link #enabled()} loads them once JFR starts. The stack thread calls it when
     * it is created.
     */
    public static void prepare() {
        if (!loaded && FlightRecorder.isInitialized()) {
            loaded = Types.STATE != null;
        }
    }

    @Override
    public boolean enabled() {
        if (!loaded) {
            if (!FlightRecorder.isInitialized()) {
                return false; // no recording has run in this JVM: no event can be wanted
            }
            prepare();
        }
        return Types.STATE.isEnabled() || Types.PATH.isEnabled() || Types.RTO.isEnabled() || Types.FAST.isEnabled();
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
