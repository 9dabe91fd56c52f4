package org.sctpj.tests.interop;

import java.net.InetAddress;
import java.time.Duration;
import java.util.List;

/**
 * What a case asks a {@link Peer} to do: one program run, as an echo server or as a verifying
 * client. Every peer implementation (usrsctp, the Linux kernel in a VM) maps these
 * fields onto its own program.
 *
 * <p>The client sends {@code messages} messages of {@code size} bytes, message {@code i} on stream
 * {@code i % streams} with PPID {@code ppidBase + i}, and checks every echo: size, stream, PPID, U
 * flag, bytes and (ordered) per-stream order. Payload byte {@code j} of message {@code i} is the
 * index in big-endian order in bytes 0..3 and {@code (i + j) & 0xff} after them; messages shorter
 * than 4 bytes are {@code (i + j) & 0xff} throughout (the index travels in the PPID).
 *
 * @param role server (echoes every message on its stream with its PPID and U flag) or client
 * @param localAddresses addresses to bind (several: multihomed, the first is announced first)
 * @param port local SCTP port (clients: fixed too, so that a restarted client is the same peer)
 * @param udpPort local UDP encapsulation port; 0 for raw IP
 * @param peerAddresses clients: where to connect (the first is the primary path)
 * @param peerPort clients: our SCTP port
 * @param remoteUdpPort clients over UDP: our encapsulation port
 * @param streams outbound streams and maximum inbound streams offered (SCTP_INITMSG)
 * @param messages clients: messages to send; servers: end the association after this many (0:
 *     wait for the client to end it)
 * @param size message size in bytes
 * @param unordered send with the U bit
 * @param ppidBase PPID of message 0
 * @param end how the side that ends the association ends it
 * @param heartbeatMillis heartbeat interval; -1 keeps the peer's default
 * @param rtoMinMillis RTO.Min, 0 keeps the default (likewise the next two)
 * @param rtoMaxMillis RTO.Max
 * @param rtoInitialMillis RTO.Initial
 * @param pathMaxRetrans Path.Max.Retrans, 0 keeps the default
 * @param bufferBytes send and receive buffer size, 0 keeps the default
 * @param timeout hard limit of the program's run
 * @param pauseAt clients: after this many messages and their echoes, pause (see {@link
 *     Peer.PeerRun#awaitPaused}) until resumed; 0 never pauses
 * @param extensions what the peer does with PR-SCTP, I-DATA and RE-CONFIG ({@link
 *     PeerExtensions#NONE}: nothing beyond its defaults)
 * @param features what the peer does with AUTH and ECN (issue 13; {@link PeerFeatures#NONE}: its
 *     defaults)
 * @param endWait clients ending {@link End#BY_OTHER_SIDE}: how long, after their own work is done
 *     (every echo in), they wait for the other side to end the association before they report an
 *     error ({@link #DEFAULT_END_WAIT} unless a case knows it needs longer)
 */
public record PeerJob(
        Role role,
        List<InetAddress> localAddresses,
        int port,
        int udpPort,
        List<InetAddress> peerAddresses,
        int peerPort,
        int remoteUdpPort,
        int streams,
        int messages,
        int size,
        boolean unordered,
        int ppidBase,
        End end,
        int heartbeatMillis,
        int rtoMinMillis,
        int rtoMaxMillis,
        int rtoInitialMillis,
        int pathMaxRetrans,
        int bufferBytes,
        Duration timeout,
        int pauseAt,
        PeerExtensions extensions,
        PeerFeatures features,
        Duration endWait) {

    /** Server or client. */
    public enum Role {
        /** Listens and echoes. */
        ECHO_SERVER,
        /** Connects, sends, verifies echoes. */
        CLIENT
    }

    /**
     * The usual {@link #endWait}: the other side ends the association once it has checked what it
     * checks after the last echo, well within this.
     */
    public static final Duration DEFAULT_END_WAIT = Duration.ofSeconds(10);

    /** How the association ends. */
    public enum End {
        /** Graceful shutdown (SHUTDOWN). */
        SHUTDOWN,
        /** ABORT. */
        ABORT,
        /** Clients: do not end it; wait (bounded) for the other side to end it. */
        BY_OTHER_SIDE
    }

    /** Copies the lists. */
    public PeerJob {
        localAddresses = List.copyOf(localAddresses);
        peerAddresses = List.copyOf(peerAddresses);
    }

    /** A server job with defaults (16 streams, shutdown by the client, 60 s). */
    public static PeerJob server(List<InetAddress> local, int port, int udpPort) {
        return new PeerJob(
                Role.ECHO_SERVER,
                local,
                port,
                udpPort,
                List.of(),
                0,
                0,
                16,
                0,
                100,
                false,
                0,
                End.SHUTDOWN,
                -1,
                0,
                0,
                0,
                0,
                0,
                Duration.ofSeconds(60),
                0,
                PeerExtensions.NONE,
                PeerFeatures.NONE,
                DEFAULT_END_WAIT);
    }

    /** A client job with defaults (16 streams, no message, ends with SHUTDOWN, 60 s). */
    public static PeerJob client(
            List<InetAddress> local, int port, int udpPort, List<InetAddress> peers, int peerPort, int remoteUdp) {
        return new PeerJob(
                Role.CLIENT,
                local,
                port,
                udpPort,
                peers,
                peerPort,
                remoteUdp,
                16,
                0,
                100,
                false,
                0,
                End.SHUTDOWN,
                -1,
                0,
                0,
                0,
                0,
                0,
                Duration.ofSeconds(60),
                0,
                PeerExtensions.NONE,
                PeerFeatures.NONE,
                DEFAULT_END_WAIT);
    }

    /** With {@code n} streams offered. */
    public PeerJob withStreams(int n) {
        return new PeerJob(
                role,
                localAddresses,
                port,
                udpPort,
                peerAddresses,
                peerPort,
                remoteUdpPort,
                n,
                messages,
                size,
                unordered,
                ppidBase,
                end,
                heartbeatMillis,
                rtoMinMillis,
                rtoMaxMillis,
                rtoInitialMillis,
                pathMaxRetrans,
                bufferBytes,
                timeout,
                pauseAt,
                extensions,
                features,
                endWait);
    }

    /** With {@code n} messages of {@code bytes} bytes, PPIDs from {@code ppid}, U bit as given. */
    public PeerJob withMessages(int n, int bytes, int ppid, boolean u) {
        return new PeerJob(
                role,
                localAddresses,
                port,
                udpPort,
                peerAddresses,
                peerPort,
                remoteUdpPort,
                streams,
                n,
                bytes,
                u,
                ppid,
                end,
                heartbeatMillis,
                rtoMinMillis,
                rtoMaxMillis,
                rtoInitialMillis,
                pathMaxRetrans,
                bufferBytes,
                timeout,
                pauseAt,
                extensions,
                features,
                endWait);
    }

    /** Ending as given. */
    public PeerJob withEnd(End e) {
        return new PeerJob(
                role,
                localAddresses,
                port,
                udpPort,
                peerAddresses,
                peerPort,
                remoteUdpPort,
                streams,
                messages,
                size,
                unordered,
                ppidBase,
                e,
                heartbeatMillis,
                rtoMinMillis,
                rtoMaxMillis,
                rtoInitialMillis,
                pathMaxRetrans,
                bufferBytes,
                timeout,
                pauseAt,
                extensions,
                features,
                endWait);
    }

    /** With a heartbeat interval and RTO bounds (ms) and Path.Max.Retrans (0: default). */
    public PeerJob withTimers(int hbMillis, int rtoMin, int rtoMax, int rtoInitial, int pmr) {
        return new PeerJob(
                role,
                localAddresses,
                port,
                udpPort,
                peerAddresses,
                peerPort,
                remoteUdpPort,
                streams,
                messages,
                size,
                unordered,
                ppidBase,
                end,
                hbMillis,
                rtoMin,
                rtoMax,
                rtoInitial,
                pmr,
                bufferBytes,
                timeout,
                pauseAt,
                extensions,
                features,
                endWait);
    }

    /** Pausing after {@code k} messages (clients). */
    public PeerJob withPauseAt(int k) {
        return new PeerJob(
                role,
                localAddresses,
                port,
                udpPort,
                peerAddresses,
                peerPort,
                remoteUdpPort,
                streams,
                messages,
                size,
                unordered,
                ppidBase,
                end,
                heartbeatMillis,
                rtoMinMillis,
                rtoMaxMillis,
                rtoInitialMillis,
                pathMaxRetrans,
                bufferBytes,
                timeout,
                k,
                extensions,
                features,
                endWait);
    }

    /** With {@code e} asked of the peer's extensions. */
    public PeerJob withExtensions(PeerExtensions e) {
        return new PeerJob(
                role,
                localAddresses,
                port,
                udpPort,
                peerAddresses,
                peerPort,
                remoteUdpPort,
                streams,
                messages,
                size,
                unordered,
                ppidBase,
                end,
                heartbeatMillis,
                rtoMinMillis,
                rtoMaxMillis,
                rtoInitialMillis,
                pathMaxRetrans,
                bufferBytes,
                timeout,
                pauseAt,
                e,
                features,
                endWait);
    }

    /** With send and receive buffers of {@code bytes}. */
    public PeerJob withBuffers(int bytes) {
        return new PeerJob(
                role,
                localAddresses,
                port,
                udpPort,
                peerAddresses,
                peerPort,
                remoteUdpPort,
                streams,
                messages,
                size,
                unordered,
                ppidBase,
                end,
                heartbeatMillis,
                rtoMinMillis,
                rtoMaxMillis,
                rtoInitialMillis,
                pathMaxRetrans,
                bytes,
                timeout,
                pauseAt,
                extensions,
                features,
                endWait);
    }

    /** With {@code f} (AUTH, ECN: issue 13). */
    public PeerJob withFeatures(PeerFeatures f) {
        return new PeerJob(
                role,
                localAddresses,
                port,
                udpPort,
                peerAddresses,
                peerPort,
                remoteUdpPort,
                streams,
                messages,
                size,
                unordered,
                ppidBase,
                end,
                heartbeatMillis,
                rtoMinMillis,
                rtoMaxMillis,
                rtoInitialMillis,
                pathMaxRetrans,
                bufferBytes,
                timeout,
                pauseAt,
                extensions,
                f,
                endWait);
    }

    /** Waiting up to {@code d} for the other side to end the association ({@link End#BY_OTHER_SIDE}). */
    public PeerJob withEndWait(Duration d) {
        return new PeerJob(
                role,
                localAddresses,
                port,
                udpPort,
                peerAddresses,
                peerPort,
                remoteUdpPort,
                streams,
                messages,
                size,
                unordered,
                ppidBase,
                end,
                heartbeatMillis,
                rtoMinMillis,
                rtoMaxMillis,
                rtoInitialMillis,
                pathMaxRetrans,
                bufferBytes,
                timeout,
                pauseAt,
                extensions,
                features,
                d);
    }
}
