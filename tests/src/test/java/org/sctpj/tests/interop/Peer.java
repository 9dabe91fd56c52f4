package org.sctpj.tests.interop;

import java.io.IOException;
import java.time.Duration;
import java.util.Optional;

/**
 * An independent SCTP implementation the matrix runs against: usrsctp ({@code
 * interop.usrsctp.UsrsctpInteropPeer}) and the Linux kernel in a small VM ({@code
 * interop.kernel.KernelInteropPeer}). Each says which cells it cannot do, starts one program run
 * for a {@link PeerJob} inside a {@link Topology} (its own, if it needs one), and reports the run's
 * result with the keys of {@link PeerResult}.
 */
public interface Peer {

    /** The name in the table's "peer" column. */
    String name();

    /** Why the peer cannot run at all on this machine (binary missing...), or empty. */
    Optional<String> unavailable();

    /** Why the peer cannot do this cell (reported as n/a), or empty when it can. */
    Optional<String> notApplicable(Llp llp, Direction direction, InteropCase c);

    /**
     * A fresh topology for one case: by default {@link Topology#create} (loopback for UDP, two new
     * namespaces for raw IP). A peer that lives elsewhere (the kernel in its VM, reachable only
     * from the VM's namespace) gives its own.
     */
    default Topology topology(Llp llp, boolean multihomed) throws IOException {
        return Topology.create(llp, multihomed);
    }

    /**
     * Starts one program run. For raw IP the program must run inside {@link
     * Topology#peerNamespace()}; over UDP it listens on {@link PeerJob#udpPort()}.
     */
    PeerRun start(PeerJob job, Topology topology) throws IOException;

    /** A running peer program. {@link #close()} always ends it. */
    interface PeerRun extends AutoCloseable {
        /** Waits until a server listens or a client is about to connect. */
        void awaitReady(Duration timeout) throws InterruptedException;

        /** Waits for the run's result (the program ends with it). */
        PeerResult awaitResult(Duration timeout) throws InterruptedException;

        /** Waits until a client with {@link PeerJob#pauseAt()} has paused. */
        void awaitPaused(Duration timeout) throws InterruptedException;

        /** Lets a paused client go on. */
        void resume() throws IOException;

        /** Ends the program at once, without a word on the wire (for restarts). */
        void kill();

        /** What the program printed, for failure messages. */
        String output();

        /** Ends the program if it still runs. */
        @Override
        void close();
    }
}
