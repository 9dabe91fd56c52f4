package org.sctpj.tests.interop.usrsctp;

import java.io.IOException;
import java.net.InetAddress;
import java.time.Duration;
import java.util.Optional;
import java.util.stream.Collectors;
import org.sctpj.tests.interop.Direction;
import org.sctpj.tests.interop.InteropCase;
import org.sctpj.tests.interop.Llp;
import org.sctpj.tests.interop.Peer;
import org.sctpj.tests.interop.PeerFeatures;
import org.sctpj.tests.interop.PeerJob;
import org.sctpj.tests.interop.PeerResult;
import org.sctpj.tests.interop.Topology;

/**
 * usrsctp 0.9.5.0 (Debian's libusrsctp) as a {@link Peer} of the interop matrix, through our
 * {@code upeer} program (interop/usrsctp/upeer.c): {@code --mode echo} for servers, {@code --mode
 * client} (which checks every echo) for clients; {@code --udp 0} (raw IP) inside the topology's
 * peer namespace, or UDP encapsulation on the topology's port.
 */
public final class UsrsctpInteropPeer implements Peer {

    @Override
    public String name() {
        return "usrsctp";
    }

    @Override
    public Optional<String> unavailable() {
        return UsrsctpPeer.locate().isPresent()
                ? Optional.empty()
                : Optional.of("usrsctp peer unavailable: " + UsrsctpPeer.unavailableReason());
    }

    @Override
    public Optional<String> notApplicable(Llp llp, Direction direction, InteropCase c) {
        if (c == InteropCase.MULTIHOME && llp == Llp.UDP) {
            // usrsctp itself could; our loopback topology has one address and no per-path cut.
            return Optional.of("multihoming runs over raw IP (two veth pairs); the UDP topology is one loopback path");
        }
        return Optional.empty();
    }

    @Override
    public PeerRun start(PeerJob job, Topology topology) throws IOException {
        UsrsctpPeer.Builder b = UsrsctpPeer.builder(
                        job.role() == PeerJob.Role.ECHO_SERVER ? UsrsctpPeer.Mode.ECHO : UsrsctpPeer.Mode.CLIENT)
                .udpPort(job.udpPort())
                .localAddress(list(job.localAddresses()))
                .port(job.port())
                .streams(job.streams())
                .size(job.size())
                .ppid(job.ppidBase())
                .timeout(job.timeout())
                .verbose()
                // Stays after its result so a retransmitted SHUTDOWN ACK (its SHUTDOWN COMPLETE lost,
                // as in the 5% loss case) still gets its out-of-the-blue answer; close() ends it.
                .option("linger", "60");
        topology.peerNamespace().ifPresent(b::namespace);
        if (job.messages() > 0) {
            b.messages(job.messages());
        }
        if (job.unordered()) {
            b.unordered();
        }
        switch (job.end()) {
            case SHUTDOWN -> b.option("end", "shutdown");
            case ABORT -> b.option("end", "abort");
            case BY_OTHER_SIDE -> b.option("end", "peer")
                    .option("end-wait", String.valueOf(job.endWait().toMillis() / 1000.0));
        }
        if (job.role() == PeerJob.Role.CLIENT) {
            b.peer(list(job.peerAddresses()), job.peerPort());
            if (job.udpPort() > 0) {
                b.remoteUdpPort(job.remoteUdpPort());
            }
        }
        if (job.heartbeatMillis() >= 0) {
            b.heartbeatInterval(Duration.ofMillis(job.heartbeatMillis()));
        }
        if (job.rtoMinMillis() > 0) {
            b.option("rto-min", String.valueOf(job.rtoMinMillis()));
        }
        if (job.rtoMaxMillis() > 0) {
            b.option("rto-max", String.valueOf(job.rtoMaxMillis()));
        }
        if (job.rtoInitialMillis() > 0) {
            b.option("rto-initial", String.valueOf(job.rtoInitialMillis()));
        }
        if (job.pathMaxRetrans() > 0) {
            b.option("path-max-retrans", String.valueOf(job.pathMaxRetrans()));
        }
        if (job.bufferBytes() > 0) {
            b.option("sndbuf", String.valueOf(job.bufferBytes()));
            b.option("rcvbuf", String.valueOf(job.bufferBytes()));
        }
        if (job.pauseAt() > 0) {
            b.option("pause-at", String.valueOf(job.pauseAt()));
        }
        java.util.List<String> ext = job.extensions().args();
        for (int i = 0; i < ext.size(); i++) {
            boolean valued = i + 1 < ext.size() && !ext.get(i + 1).startsWith("--");
            b.option(ext.get(i).substring(2), valued ? ext.get(++i) : null);
        }
        PeerFeatures f = job.features();
        if (!f.authChunks().isEmpty()) {
            b.option("auth-chunks", f.chunkList());
        }
        if (f.keyId() >= 0) {
            b.option("auth-key", f.keyArg());
        }
        if (f.switchAt() > 0) {
            b.option("auth-switch-at", String.valueOf(f.switchAt()));
        }
        if (f.nrsack()) {
            b.option("nrsack", null); // its sysctls nrsack_enable and cmt_on_off
        }
        // ASCONF (RFC 5061): usrsctp offers it by default (and lists ASCONF and ASCONF-ACK in its
        // AUTH chunks); the flags say what it does with its addresses
        java.util.List<String> asconf = f.asconf().args();
        for (int i = 0; i < asconf.size(); i++) {
            boolean valued = i + 1 < asconf.size() && !asconf.get(i + 1).startsWith("--");
            b.option(asconf.get(i).substring(2), valued ? asconf.get(++i) : null);
        }
        UsrsctpPeer p = b.start();
        return new Run(p);
    }

    private static String list(java.util.List<InetAddress> a) {
        return a.stream().map(InetAddress::getHostAddress).collect(Collectors.joining(","));
    }

    private record Run(UsrsctpPeer p) implements PeerRun {
        @Override
        public void awaitReady(Duration timeout) throws InterruptedException {
            p.awaitReady(timeout);
        }

        @Override
        public PeerResult awaitResult(Duration timeout) throws InterruptedException {
            return new PeerResult(p.awaitResult(timeout).values());
        }

        @Override
        public void awaitPaused(Duration timeout) throws InterruptedException {
            p.awaitLine("UPEER-PAUSED", timeout);
        }

        @Override
        public void resume() throws IOException {
            p.writeLine("go");
        }

        @Override
        public void kill() {
            p.kill();
        }

        @Override
        public String output() {
            return p.output();
        }

        @Override
        public void close() {
            p.close();
        }
    }
}
