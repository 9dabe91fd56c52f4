package org.sctpj.tests.interop;

import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;
import org.sctpj.llp.raw.NetworkNamespace;
import org.sctpj.llp.raw.RawIpLowerLayer;
import org.sctpj.llp.udp.NativeIo;
import org.sctpj.llp.udp.UdpConfig;
import org.sctpj.llp.udp.UdpEncapsulation;
import org.sctpj.stack.AssociationId;
import org.sctpj.stack.AssociationInfo;
import org.sctpj.stack.EndpointStats;
import org.sctpj.stack.SctpEvent;
import org.sctpj.stack.SctpEvent.AssociationChange;
import org.sctpj.stack.SctpEvent.AssociationChangeType;
import org.sctpj.stack.SctpEvent.MessageReceived;
import org.sctpj.stack.SctpOptions;
import org.sctpj.stack.SendInfo;
import org.sctpj.tests.Requirements;
import org.sctpj.trace.PcapLowerLayer;
import org.sctpj.trace.PcapWriter;
import org.sctpj.trace.TsharkJudge;
import org.sctpj.trace.Verdict;

/**
 * Runs one cell of the interop matrix: a fresh {@link Topology}, our stack ({@link OurStack}) and
 * one or two peer runs, the case's checks on both sides, then tshark over the case's capture
 * ({@code target/interop-pcaps/<peer>-<llp>-<direction>-<case>.pcap}): 0 malformed, 0 bad
 * checksums, or the case fails. Every wait is bounded; the topology and processes are always
 * removed.
 */
public final class CaseRunner {

    /** Where the captures go (relative to the tests module, Surefire's working directory). */
    public static final Path PCAP_DIR = Path.of("target", "interop-pcaps");

    private static final Duration STEP = Duration.ofSeconds(15);
    private static final Duration LONG = Duration.ofSeconds(60);
    private static final int PPID = 7000;
    private static final int STREAMS = 16;
    private static final int PEER_FEW_STREAMS = 4;
    private static final int SCTP_RAW_TSHARK_PORT = 9899;
    /** The message of {@link InteropCase#BIG_MESSAGE}: 5,000,000 bytes, as the kernel sent it in issue 10. */
    static final int BIG_MESSAGE_BYTES = 5_000_000;
    /** Our receive buffer in {@link InteropCase#BIG_MESSAGE}: 1 MiB, a fifth of the message. */
    static final int BIG_MESSAGE_RECEIVE_BUFFER = 1 << 20;

    private final Peer peer;

    /** A runner against {@code peer}. */
    public CaseRunner(Peer peer) {
        this.peer = peer;
    }

    /** Runs the cell and says how it went; never throws. */
    public Outcome run(Llp llp, Direction dir, InteropCase c) {
        long t0 = System.nanoTime();
        try {
            Optional<String> na = c.extension()
                    ? ExtensionCell.notApplicable(llp)
                    : c.feature() != null ? FeatureCell.notApplicable(peer, llp, c) : Optional.empty();
            if (na.isEmpty()) {
                na = peer.notApplicable(llp, dir, c);
            }
            if (na.isPresent()) {
                return new Outcome(Outcome.Status.NOT_APPLICABLE, na.get(), 0);
            }
            Optional<String> defect = KnownDefects.of(new InteropMatrix.Cell(peer, llp, dir, c).name());
            if (defect.isPresent()) {
                return new Outcome(Outcome.Status.KNOWN_DEFECT, defect.get(), 0);
            }
            Optional<String> missing = missing(llp, c);
            if (missing.isPresent()) {
                String m = missing.get();
                boolean skip = llp.raw() && Machine.rawUnavailable().isPresent()
                        || Machine.isPrivilege(m) && !Requirements.strict();
                return new Outcome(skip ? Outcome.Status.SKIPPED : Outcome.Status.FAIL, m, 0);
            }
            runChecked(llp, dir, c);
            return new Outcome(Outcome.Status.PASS, "", (System.nanoTime() - t0) / 1_000_000);
        } catch (EvidencedFailure e) {
            if (e.getCause() instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
            return new Outcome(Outcome.Status.FAIL, e.getMessage(), (System.nanoTime() - t0) / 1_000_000);
        } catch (AssertionError | Exception e) {
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
            return new Outcome(Outcome.Status.FAIL, describe(e), (System.nanoTime() - t0) / 1_000_000);
        }
    }

    private static String describe(Throwable e) {
        String m = e.getMessage() == null ? e.toString() : e.getMessage();
        return e.getClass().getSimpleName() + ": " + m;
    }

    /**
     * A failed case with its {@link FailureEvidence}: the message is the failure's (class and
     * message) followed by the evidence.
     */
    static final class EvidencedFailure extends AssertionError {
        private static final long serialVersionUID = 1L;

        EvidencedFailure(Throwable failure, String evidence) {
            super(describe(failure) + "\n" + evidence, failure);
        }
    }

    private Optional<String> missing(Llp llp, InteropCase c) {
        if (llp.raw() && Machine.rawUnavailable().isPresent()) {
            return Machine.rawUnavailable();
        }
        Optional<String> p = peer.unavailable();
        if (p.isPresent()) {
            return p;
        }
        if (c == InteropCase.BULK_LOSS
                || c == InteropCase.MULTIHOME
                || ExtensionCell.lossPercent(c) > 0
                || FeatureCell.needsNft(c)) {
            return Machine.nftUnavailable();
        }
        return Optional.empty();
    }

    private void runChecked(Llp llp, Direction dir, InteropCase c) throws Exception {
        String name = peer.name() + "-" + llp.label() + "-" + dir.label() + "-" + c.label();
        Files.createDirectories(PCAP_DIR);
        Path pcap = PCAP_DIR.resolve(name + ".pcap");
        int udpPort = 0;
        Snapshot snap = new Snapshot();
        try {
            try (Topology topo = peer.topology(llp, c == InteropCase.MULTIHOME || FeatureCell.multihomed(c));
                    PcapWriter writer = PcapWriter.open(pcap)) {
                udpPort = topo.ourUdpPort();
                PcapLowerLayer.Framing framing = llp == Llp.UDP
                        ? PcapLowerLayer.Framing.udp(topo.ourUdpPort(), topo.peerUdpPort())
                        : PcapLowerLayer.Framing.raw();
                try (OurStack us = OurStack.start(name, writer, framing)) {
                    Cell cell = new Cell(llp, c, topo, us, snap);
                    try {
                        if (c.extension()) {
                            new ExtensionCell(peer, llp, c, topo, us, snap, cell.opener()).run(dir);
                        } else if (c.feature() != null) {
                            new FeatureCell(peer, llp, c, topo, us, snap, cell.opener()).run(dir);
                        } else if (dir == Direction.WE_CLIENT) {
                            cell.weClient();
                        } else {
                            cell.weServer();
                        }
                        EndpointStats s = us.stats();
                        check(s.badChecksum() == 0, "packets from the peer with a bad CRC32c: " + s);
                        check(s.malformed() == 0, "malformed packets from the peer: " + s);
                    } catch (AssertionError | Exception e) {
                        snap.take(us); // unless the cell took it already, before stopping the peer
                        throw e;
                    }
                }
            }
            Verdict v = new TsharkJudge("tshark", llp == Llp.UDP ? udpPort : SCTP_RAW_TSHARK_PORT).judge(pcap);
            check(v.packets() > 0, "tshark decoded no SCTP packet in " + pcap + ": " + v.report());
            check(v.malformed() == 0 && v.badChecksums() == 0, "tshark on " + pcap + ": " + v.report());
        } catch (AssertionError | Exception e) {
            java.time.Instant at = snap.at != null ? snap.at : java.time.Instant.now();
            String state = snap.state != null ? snap.state : "our stack had ended before the failure was seen\n";
            throw new EvidencedFailure(e, FailureEvidence.report(name, state, pcap, llp == Llp.UDP ? udpPort : 0, at));
        }
    }

    /** Our core's state when a case failed, taken once, before the peer's program is stopped. */
    static final class Snapshot {
        String state;
        java.time.Instant at;

        void take(OurStack us) {
            if (state == null) {
                at = java.time.Instant.now();
                state = us.coreState();
            }
        }
    }

    /** Fails with {@code what} unless {@code ok}. */
    static void check(boolean ok, String what) {
        if (!ok) {
            throw new AssertionError(what);
        }
    }

    /**
     * An SCTP port from IANA's dynamic range (49152-65535), where no protocol is registered: a
     * random port on a registered one (it happened with 36422, X2AP) makes tshark dissect our test
     * payloads as that protocol and count them malformed, failing a case that is fine.
     */
    private static int randomPort() {
        return ThreadLocalRandom.current().nextInt(49152, 65536);
    }

    /**
     * Waits for our association change {@code type} ({@code id} null: of any association); the
     * failure carries the end of the peer's output.
     */
    static AssociationChange awaitChange(
            OurStack us, Peer.PeerRun p, AssociationId id, AssociationChangeType type, Duration timeout)
            throws InterruptedException {
        try {
            return (AssociationChange) us.awaitEvent(
                    e -> e instanceof AssociationChange a
                            && a.type() == type
                            && (id == null || a.association().equals(id)),
                    timeout,
                    type.toString());
        } catch (AssertionError e) {
            throw new AssertionError(e.getMessage() + "\npeer output:\n" + tail(p.output()));
        }
    }

    /** Payload of message {@code i} (see {@link PeerJob}). */
    static byte[] payload(int i, int size) {
        byte[] b = new byte[size];
        int start = 0;
        if (size >= 4) {
            b[0] = (byte) (i >>> 24);
            b[1] = (byte) (i >>> 16);
            b[2] = (byte) (i >>> 8);
            b[3] = (byte) i;
            start = 4;
        }
        for (int j = start; j < size; j++) {
            b[j] = (byte) (i + j);
        }
        return b;
    }

    /** One case in one topology. */
    private final class Cell {
        final Llp llp;
        final InteropCase c;
        final Topology topo;
        final OurStack us;
        final int ourPort = randomPort();
        final int peerPort = randomPort();
        final List<InetAddress> ours;
        final List<InetAddress> theirs;
        final Snapshot snap;

        Cell(Llp llp, InteropCase c, Topology topo, OurStack us, Snapshot snap) {
            this.snap = snap;
            this.llp = llp;
            this.c = c;
            this.topo = topo;
            this.us = us;
            this.ours = c == InteropCase.MULTIHOME
                    ? topo.ourAddresses()
                    : topo.ourAddresses().subList(0, 1);
            this.theirs = c == InteropCase.MULTIHOME
                    ? topo.peerAddresses()
                    : topo.peerAddresses().subList(0, 1);
        }

        // ------------------------------------------------------------ per-case parameters

        int count() {
            return switch (c) {
                case HANDSHAKE, HEARTBEAT_IDLE -> 0;
                case ECHO_ORDERED, ECHO_UNORDERED -> 1000;
                case SIZE_1B -> 100;
                case SIZE_1452B -> 200;
                case SIZE_64KIB -> 40;
                case SIZE_1MIB -> 4;
                case BIG_MESSAGE -> 1;
                case SHUTDOWN_OURS, SHUTDOWN_PEER, ABORT_OURS, ABORT_PEER, RESTART -> 20;
                case STREAMS_FEWER -> 40;
                case BULK_LOSS -> 300;
                case MULTIHOME -> 100;
                default -> throw new IllegalStateException(c + " runs in ExtensionCell");
            };
        }

        int size() {
            return switch (c) {
                case SIZE_1B -> 1;
                case SIZE_1452B -> 1452;
                case SIZE_64KIB -> 64 * 1024;
                case SIZE_1MIB -> 1024 * 1024;
                case BIG_MESSAGE -> BIG_MESSAGE_BYTES;
                case BULK_LOSS -> 4000;
                case MULTIHOME -> 2000;
                default -> 200;
            };
        }

        boolean unordered() {
            return c == InteropCase.ECHO_UNORDERED;
        }

        int streams() {
            return c == InteropCase.STREAMS_FEWER ? PEER_FEW_STREAMS : STREAMS;
        }

        boolean fastTimers() {
            return c == InteropCase.HEARTBEAT_IDLE || c == InteropCase.BULK_LOSS || c == InteropCase.MULTIHOME;
        }

        SctpOptions options() {
            SctpOptions.Builder b =
                    SctpOptions.DEFAULTS.toBuilder().outboundStreams(STREAMS).noDelay(true);
            if (fastTimers()) {
                b.rtoInitial(Duration.ofMillis(300))
                        .rtoMin(Duration.ofMillis(100))
                        .rtoMax(Duration.ofMillis(1000))
                        .delayedAckTime(Duration.ofMillis(50));
            }
            if (c == InteropCase.HEARTBEAT_IDLE) {
                b.heartbeatInterval(Duration.ofMillis(200));
            }
            if (c == InteropCase.MULTIHOME) {
                b.heartbeatInterval(Duration.ofMillis(200)).pathMaxRetrans(2).rtoMax(Duration.ofMillis(500));
            }
            if (c == InteropCase.BULK_LOSS) {
                b.shutdownGuardFactor(20);
            }
            if (c == InteropCase.BIG_MESSAGE) {
                // A receive buffer smaller than the message; room to send (echo) it back.
                b.receiveBufferBytes(BIG_MESSAGE_RECEIVE_BUFFER)
                        .sendBufferBytes(8 << 20)
                        .maxMessageSize(BIG_MESSAGE_BYTES);
            }
            return b.build();
        }

        PeerJob tune(PeerJob j) {
            PeerJob r = j.withStreams(streams());
            if (fastTimers()) {
                r = r.withTimers(
                        c == InteropCase.BULK_LOSS ? -1 : 200,
                        100,
                        c == InteropCase.MULTIHOME ? 500 : 1000,
                        300,
                        c == InteropCase.MULTIHOME ? 2 : 0);
            }
            if (c == InteropCase.SIZE_64KIB || c == InteropCase.SIZE_1MIB || c == InteropCase.BIG_MESSAGE) {
                r = r.withBuffers(8 << 20);
            }
            return r;
        }

        OurStack.LayerOpener opener() {
            if (llp == Llp.UDP) {
                UdpConfig.Builder ub = UdpConfig.builder()
                        .bindAddresses(ours)
                        .localPort(topo.ourUdpPort())
                        .defaultRemotePort(topo.peerUdpPort());
                if (c == InteropCase.BULK_LOSS || ExtensionCell.lossPercent(c) > 0 || FeatureCell.lossPercent(c) > 0) {
                    // One UDP GSO send is one packet to nftables on loopback and on the VM's taps
                    // (both pass it unsegmented): the random loss would drop or spare a whole burst
                    // of datagrams at once, and a run of 300 could see no loss at all (seen with
                    // idata-iforward-rtx-loss). One datagram per send makes the loss per packet.
                    ub.nativeIo(NativeIo.OFF);
                }
                if (c == InteropCase.PMTU_DROP || c == InteropCase.PMTU_RAISE) {
                    // Likewise for the MTU limit (nftables "meta length"): a GSO send is one long
                    // packet there. The portable path sets no DF; the limit is a drop, not the
                    // link's MTU, so nothing is fragmented on the way.
                    ub.nativeIo(NativeIo.OFF);
                }
                UdpConfig config = ub.build();
                Optional<java.nio.file.Path> ns = topo.ourNamespace();
                if (ns.isPresent()) {
                    // the socket stays in the namespace it was created in (the kernel VM's)
                    return () -> NetworkNamespace.call(ns.get(), () -> UdpEncapsulation.open(config));
                }
                return () -> UdpEncapsulation.open(config);
            }
            return () -> RawIpLowerLayer.builder()
                    .ipv4(llp == Llp.RAW4)
                    .ipv6(llp == Llp.RAW6)
                    .requireIpv6(llp == Llp.RAW6)
                    // DF for path MTU discovery (RFC 8899 section 3): else a probe larger than the
                    // link is fragmented and taken as passing
                    .pathMtuProbing(c == InteropCase.PMTU_DROP || c == InteropCase.PMTU_RAISE)
                    .localAddresses(ours)
                    .networkNamespace(topo.ourNamespace().orElseThrow())
                    .open();
        }

        // ------------------------------------------------------------ our stack as client

        void weClient() throws Exception {
            PeerJob job = tune(PeerJob.server(theirs, peerPort, topo.peerUdpPort()));
            int n = count();
            if (c == InteropCase.SHUTDOWN_PEER || c == InteropCase.ABORT_PEER) {
                job = job.withMessages(n, size(), PPID, false)
                        .withEnd(c == InteropCase.ABORT_PEER ? PeerJob.End.ABORT : PeerJob.End.SHUTDOWN);
            }
            if (c == InteropCase.BULK_LOSS) {
                topo.dropRandomly(5);
            }
            try (Peer.PeerRun p = peer.start(job, topo)) {
                try {
                    p.awaitReady(STEP);
                    us.bind(ourPort, ours, options(), opener());
                    AssociationId id = us.connect(theirs, peerPort);
                    AssociationChange up = awaitUp(p, id);
                    int expectStreams = streams();
                    check(
                            up.outboundStreams() == expectStreams && up.inboundStreams() == expectStreams,
                            "streams out/in " + up.outboundStreams() + "/" + up.inboundStreams() + ", expected "
                                    + expectStreams + " each");
                    int total = n;
                    switch (c) {
                        case HEARTBEAT_IDLE -> idleForHeartbeats();
                        case RESTART -> {
                            exchange(id, n, 0, p);
                            us.vanish();
                            us.bind(ourPort, ours, options(), opener());
                            id = us.connect(theirs, peerPort);
                            awaitUp(p, id);
                            exchange(id, n, n, p);
                            total = 2 * n;
                        }
                        case MULTIHOME -> {
                            awaitPathsActive(id);
                            exchange(id, n / 2, 0, p);
                            InetAddress second = theirs.get(1);
                            long before = us.traffic().dataSentTo(second);
                            topo.cutPath(0);
                            exchange(id, n - n / 2, n / 2, p);
                            check(
                                    us.traffic().dataSentTo(second) > before,
                                    "no DATA went to the peer's second address " + second + " after the cut");
                            check(
                                    us.traffic().dataArrivedOn(ours.get(1)) > 0,
                                    "no DATA arrived on our second address after the cut");
                        }
                        case STREAMS_FEWER -> {
                            exchange(id, n, 0, p);
                            AssociationId fid = id;
                            try {
                                us.sendNow(fid, new SendInfo(PEER_FEW_STREAMS, PPID, false, false), new byte[10]);
                                throw new AssertionError("a send on stream " + PEER_FEW_STREAMS + " of "
                                        + PEER_FEW_STREAMS + " was accepted");
                            } catch (IllegalArgumentException expected) {
                                // the peer granted 4 streams: stream 4 does not exist
                            }
                        }
                        default -> exchange(id, n, 0, p);
                    }
                    AssociationId fid = id;
                    switch (c) {
                        case SHUTDOWN_PEER -> {
                            us.awaitEvent(e -> e instanceof SctpEvent.ShutdownReceived, STEP, "SHUTDOWN from the peer");
                            awaitChange(p, fid, AssociationChangeType.SHUTDOWN_COMPLETE);
                        }
                        case ABORT_PEER -> awaitChange(p, fid, AssociationChangeType.COMMUNICATION_LOST);
                        case ABORT_OURS -> {
                            us.abort(id);
                            awaitChange(p, fid, AssociationChangeType.COMMUNICATION_LOST);
                        }
                        default -> {
                            us.shutdown(id);
                            awaitChange(p, fid, AssociationChangeType.SHUTDOWN_COMPLETE);
                        }
                    }
                    PeerResult r = p.awaitResult(STEP);
                    checkPeer(r, p, total);
                    check(r.getLong("echoed") == total, "the peer echoed " + r.getLong("echoed") + " of " + total);
                    check(
                            r.getLong("istreams") == streams() && r.getLong("ostreams") == streams(),
                            "the peer's streams in/out " + r.getLong("istreams") + "/" + r.getLong("ostreams"));
                    boolean weShutDown = c != InteropCase.SHUTDOWN_PEER
                            && c != InteropCase.ABORT_PEER
                            && c != InteropCase.ABORT_OURS;
                    if (weShutDown) {
                        check(r.getLong("peer_shutdown") == 1, "the peer did not see our SHUTDOWN: " + r);
                    }
                    switch (c) {
                        case ABORT_OURS -> check(r.getLong("comm_lost") == 1, "the peer did not see our ABORT: " + r);
                        case RESTART -> check(r.getLong("restarts") == 1, "the peer saw no restart: " + r);
                        default -> {}
                    }
                } catch (AssertionError | Exception e) {
                    snap.take(us); // before the peer's program is stopped (it may send an ABORT)
                    throw e;
                }
            }
        }

        /** Sends {@code n} messages (indexes from {@code first}) and checks their echoes. */
        void exchange(AssociationId id, int n, int first, Peer.PeerRun p) throws InterruptedException {
            int mark = us.messageCount();
            for (int i = first; i < first + n; i++) {
                us.send(id, new SendInfo(i % streams(), PPID + i, unordered(), false), payload(i, size()));
            }
            Duration limit = c == InteropCase.BULK_LOSS || c == InteropCase.MULTIHOME || c == InteropCase.BIG_MESSAGE
                    ? LONG
                    : Duration.ofSeconds(30);
            if (!us.await(() -> us.messageCount() >= mark + n, limit)) {
                throw new AssertionError((us.messageCount() - mark) + " echoes of " + n + " within "
                        + limit.toSeconds() + " s; " + us.partial() + "; send errors " + us.sendErrors() + "; "
                        + us.summary() + "\npeer output:\n" + tail(p.output()));
            }
            verify(us.messages(mark, mark + n), first, n);
            check(us.sendErrors().isEmpty(), "send errors: " + us.sendErrors());
        }

        /** Checks messages indexed {@code first..first+n-1}: each once, stream, PPID, U, bytes, order. */
        void verify(List<MessageReceived> got, int first, int n) {
            check(got.size() == n, got.size() + " messages, expected " + n);
            boolean[] seen = new boolean[n];
            int[] last = new int[STREAMS];
            Arrays.fill(last, -1);
            for (MessageReceived m : got) {
                int i = m.ppid() - PPID;
                check(i >= first && i < first + n && !seen[i - first], "message with PPID " + m.ppid());
                seen[i - first] = true;
                check(m.streamId() == i % streams(), "message " + i + " on stream " + m.streamId());
                check(m.unordered() == unordered(), "message " + i + " with U=" + m.unordered());
                check(
                        Arrays.equals(m.data(), payload(i, size())),
                        "bytes of message " + i + " (" + m.data().length + " bytes)");
                if (!unordered()) {
                    check(last[m.streamId()] < i, "message " + i + " out of order on stream " + m.streamId());
                    last[m.streamId()] = i;
                }
            }
        }

        /** Idle until each side sent two HEARTBEATs and got them answered (at most 5 s). */
        void idleForHeartbeats() throws InterruptedException {
            Tap.Traffic t = us.traffic();
            long end = System.nanoTime() + Duration.ofSeconds(5).toNanos();
            while (System.nanoTime() < end
                    && !(t.sent(4) >= 2 && t.received(5) >= 2 && t.received(4) >= 2 && t.sent(5) >= 2)) {
                Thread.sleep(50);
            }
            check(
                    t.sent(4) >= 2 && t.received(5) >= 2,
                    "we sent " + t.sent(4) + " HEARTBEATs and got " + t.received(5) + " HEARTBEAT ACKs in 5 s idle");
            check(
                    t.received(4) >= 2 && t.sent(5) >= 2,
                    "the peer sent " + t.received(4) + " HEARTBEATs and we answered " + t.sent(5) + " in 5 s idle");
        }

        void awaitPathsActive(AssociationId id) throws InterruptedException {
            boolean ok = false;
            long end = System.nanoTime() + Duration.ofSeconds(10).toNanos();
            while (System.nanoTime() < end) {
                Optional<AssociationInfo> i = us.info(id);
                if (i.isPresent()
                        && i.get().paths().stream().allMatch(x -> x.status().equals("ACTIVE"))) {
                    ok = true;
                    break;
                }
                Thread.sleep(50);
            }
            check(ok, "not every path confirmed within 10 s: " + us.info(id));
        }

        AssociationChange awaitUp(Peer.PeerRun p, AssociationId id) throws InterruptedException {
            return awaitChange(p, id, AssociationChangeType.COMMUNICATION_UP);
        }

        AssociationChange awaitChange(Peer.PeerRun p, AssociationId id, AssociationChangeType type)
                throws InterruptedException {
            return CaseRunner.awaitChange(
                    us,
                    p,
                    id,
                    type,
                    c == InteropCase.BULK_LOSS || c == InteropCase.MULTIHOME || c == InteropCase.BIG_MESSAGE
                            ? LONG
                            : STEP);
        }

        void checkPeer(PeerResult r, Peer.PeerRun p, int expectedRx) {
            check(r.ok() && r.getLong("errors") == 0, "the peer reports " + r + "\npeer output:\n" + tail(p.output()));
            check(
                    r.getLong("rx_msgs") == expectedRx,
                    "the peer received " + r.getLong("rx_msgs") + " of " + expectedRx);
        }

        // ------------------------------------------------------------ our stack as server

        void weServer() throws Exception {
            us.echo(true);
            us.bind(ourPort, ours, options(), opener());
            us.listen();
            int n = count();
            int clientPort = randomPort();
            PeerJob job = tune(PeerJob.client(theirs, clientPort, topo.peerUdpPort(), ours, ourPort, topo.ourUdpPort())
                    .withMessages(n, size(), PPID, unordered()));
            switch (c) {
                case SHUTDOWN_OURS, ABORT_OURS, HEARTBEAT_IDLE, RESTART -> job = job.withEnd(PeerJob.End.BY_OTHER_SIDE);
                case MULTIHOME -> job = job.withPauseAt(n / 2);
                case ABORT_PEER -> job = job.withEnd(PeerJob.End.ABORT);
                default -> {}
            }
            if (c == InteropCase.BULK_LOSS) {
                topo.dropRandomly(5);
            }
            int total = n;
            try (Peer.PeerRun p = peer.start(job, topo)) {
                try {
                    p.awaitReady(STEP);
                    AssociationChange up = awaitChange(p, null, AssociationChangeType.COMMUNICATION_UP);
                    AssociationId id = up.association();
                    check(
                            up.outboundStreams() == streams() && up.inboundStreams() == streams(),
                            "streams out/in " + up.outboundStreams() + "/" + up.inboundStreams() + ", expected "
                                    + streams() + " each");
                    PeerResult r;
                    Peer.PeerRun last = p;
                    switch (c) {
                        case HEARTBEAT_IDLE -> {
                            idleForHeartbeats();
                            us.shutdown(id);
                            awaitChange(p, id, AssociationChangeType.SHUTDOWN_COMPLETE);
                        }
                        case SHUTDOWN_OURS, ABORT_OURS -> {
                            awaitEchoed(id, n, p);
                            if (c == InteropCase.SHUTDOWN_OURS) {
                                us.shutdown(id);
                                awaitChange(p, id, AssociationChangeType.SHUTDOWN_COMPLETE);
                            } else {
                                us.abort(id);
                                awaitChange(p, id, AssociationChangeType.COMMUNICATION_LOST);
                            }
                        }
                        case ABORT_PEER -> awaitChange(p, id, AssociationChangeType.COMMUNICATION_LOST);
                        case MULTIHOME -> {
                            // Half the messages over the primary, then the cut, then the rest.
                            InetAddress second = theirs.get(1);
                            p.awaitPaused(LONG);
                            long before = us.traffic().dataSentTo(second);
                            topo.cutPath(0);
                            p.resume();
                            awaitChange(p, id, AssociationChangeType.SHUTDOWN_COMPLETE);
                            check(
                                    us.traffic().dataArrivedOn(ours.get(1)) > 0,
                                    "no DATA arrived on our second address " + ours.get(1) + " after the cut");
                            check(
                                    us.traffic().dataSentTo(second) > before,
                                    "no DATA went to the peer's second address " + second + " after the cut");
                        }
                        case RESTART -> {
                            awaitEchoed(id, n, p);
                            p.kill();
                            Peer.PeerRun p2 = peer.start(job.withEnd(PeerJob.End.SHUTDOWN), topo);
                            last = p2;
                            try (p2) {
                                p2.awaitReady(STEP);
                                awaitChange(p2, id, AssociationChangeType.RESTART);
                                awaitChange(p2, id, AssociationChangeType.SHUTDOWN_COMPLETE);
                                r = p2.awaitResult(STEP);
                                checkPeer(r, p2, n);
                            }
                            total = 2 * n;
                        }
                        default -> {
                            if (c == InteropCase.BIG_MESSAGE && !us.await(() -> us.messageCount() >= n, LONG)) {
                                throw new AssertionError(us.messageCount() + " messages of " + n + " within "
                                        + LONG.toSeconds() + " s; " + us.partial() + "; " + us.summary()
                                        + "\npeer output:\n" + tail(p.output()));
                            }
                            if (c == InteropCase.SHUTDOWN_PEER) {
                                us.awaitEvent(
                                        e -> e instanceof SctpEvent.ShutdownReceived, LONG, "SHUTDOWN from the peer");
                            }
                            awaitChange(p, id, AssociationChangeType.SHUTDOWN_COMPLETE);
                        }
                    }
                    if (c != InteropCase.RESTART) {
                        r = p.awaitResult(STEP);
                        checkPeer(r, p, n);
                        switch (c) {
                            case SHUTDOWN_OURS, HEARTBEAT_IDLE -> check(
                                    r.getLong("peer_shutdown") == 1, "the peer did not see our SHUTDOWN: " + r);
                            case ABORT_OURS -> check(
                                    r.getLong("comm_lost") == 1, "the peer did not see our ABORT: " + r);
                            default -> {}
                        }
                        check(
                                r.getLong("istreams") == streams() && r.getLong("ostreams") == streams(),
                                "the peer's streams in/out " + r.getLong("istreams") + "/" + r.getLong("ostreams"));
                    }
                    check(
                            us.messageCount() == total,
                            "we received " + us.messageCount() + " of " + total + "\npeer output:\n"
                                    + tail(last.output()));
                    if (c == InteropCase.RESTART) {
                        verify(us.messages(0, n), 0, n);
                        verify(us.messages(n, 2 * n), 0, n);
                    } else {
                        verify(us.messages(0, total), 0, total);
                    }
                } catch (AssertionError | Exception e) {
                    snap.take(us); // before the peer's program is stopped (it may send an ABORT)
                    throw e;
                }
            }
        }

        /** Waits until {@code n} messages arrived and every echo was acknowledged. */
        void awaitEchoed(AssociationId id, int n, Peer.PeerRun p) throws InterruptedException {
            if (!us.await(() -> us.messageCount() >= n, Duration.ofSeconds(30))) {
                throw new AssertionError(us.messageCount() + " messages of " + n + "; " + us.summary()
                        + "\npeer output:\n" + tail(p.output()));
            }
            long end = System.nanoTime() + STEP.toNanos();
            long full = options().sendBufferBytes();
            while (System.nanoTime() < end) {
                Optional<AssociationInfo> i = us.info(id);
                if (us.outboxEmpty() && i.isPresent() && i.get().sendBufferFree() >= full) {
                    return;
                }
                Thread.sleep(10);
            }
            throw new AssertionError("our echoes were not all acknowledged within 15 s: " + us.info(id));
        }
    }

    /** The last 40 lines of {@code s}. */
    static String tail(String s) {
        List<String> l = s.lines().toList();
        return String.join("\n", l.subList(Math.max(0, l.size() - 40), l.size()));
    }
}
