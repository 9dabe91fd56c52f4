package org.sctpj.tests.interop;

import static org.sctpj.tests.interop.CaseRunner.check;
import static org.sctpj.tests.interop.CaseRunner.payload;
import static org.sctpj.tests.interop.CaseRunner.tail;

import java.net.InetAddress;
import java.time.Duration;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import org.sctpj.stack.AssociationId;
import org.sctpj.stack.AssociationInfo;
import org.sctpj.stack.Extension;
import org.sctpj.stack.IDataFragmentNumbering;
import org.sctpj.stack.SctpEvent.AssociationChange;
import org.sctpj.stack.SctpEvent.AssociationChangeType;
import org.sctpj.stack.SctpEvent.MessageReceived;
import org.sctpj.stack.SctpOptions;
import org.sctpj.stack.SendInfo;

/**
 * One cell of the issue 12 cases ({@link InteropCase#extension()}): PR-SCTP policies under loss,
 * I-DATA with large and small messages, stream reset and stream addition while data flows, with
 * our stack as client (it sends, the peer echoes) or as server (the peer's client sends, we echo).
 * Every feature call of our stack goes through {@link ExtensionCalls}. {@link CaseRunner} gives
 * the topology, our stack and the capture, and judges the capture with tshark afterwards.
 *
 * <p>Message {@code i} carries PPID {@code 7000 + i} and the payload of {@link PeerJob}; it goes on
 * stream {@code i % streams} (after streams were added, {@code i % (streams + added)}); on stream 0
 * of the I-DATA case it is large. Checks on whatever receives the echoes: each message at most
 * once, on its stream, with its bytes, in order within its stream.
 */
final class ExtensionCell {
    private static final Duration STEP = Duration.ofSeconds(15);
    private static final Duration LONG = Duration.ofSeconds(60);
    /** How long no new echo must arrive before our client shuts down (see {@link #weClient}). */
    private static final Duration QUIET = Duration.ofMillis(500);

    private static final int PPID = 7000;
    /** The reset and the stream addition happen at this message. */
    private static final int MIDWAY = 200;

    private static final int ADDED = 4;
    /** The large messages of {@link InteropCase#IDATA_INTERLEAVE}: fragmented into ~140 I-DATA chunks. */
    static final int BIG = 200_000;

    private final Peer peer;
    private final InteropCase c;
    private final Topology topo;
    private final OurStack us;
    private final CaseRunner.Snapshot snap;
    private final OurStack.LayerOpener opener;
    private final List<InetAddress> ours;
    private final List<InetAddress> theirs;
    private final int ourPort = randomPort();
    private final int peerPort = randomPort();

    ExtensionCell(
            Peer peer,
            Llp llp,
            InteropCase c,
            Topology topo,
            OurStack us,
            CaseRunner.Snapshot snap,
            OurStack.LayerOpener opener) {
        this.peer = peer;
        this.c = c;
        this.topo = topo;
        this.us = us;
        this.snap = snap;
        this.opener = opener;
        this.ours = topo.ourAddresses().subList(0, 1);
        this.theirs = topo.peerAddresses().subList(0, 1);
    }

    /** The extension cases run over UDP and raw IPv4 only (VM time); raw IPv6 is n/a. */
    static Optional<String> notApplicable(Llp llp) {
        return llp == Llp.RAW6
                ? Optional.of("the extension cases (issue 12) run over UDP and raw IPv4")
                : Optional.empty();
    }

    /** The random loss (percent each way) of case {@code c}; 0 for none. */
    static int lossPercent(InteropCase c) {
        return switch (c) {
            case PR_TTL, PR_RTX, PR_PRIO, IDATA_PR_RTX -> 10;
            default -> 0;
        };
    }

    private static int randomPort() {
        return ThreadLocalRandom.current().nextInt(49152, 65536);
    }

    // ---------------------------------------------------------------- parameters

    private boolean pr() {
        return c == InteropCase.PR_TTL
                || c == InteropCase.PR_RTX
                || c == InteropCase.PR_PRIO
                || c == InteropCase.IDATA_PR_RTX;
    }

    private int streams() {
        return c == InteropCase.IDATA_INTERLEAVE ? 2 : 4;
    }

    private int count() {
        return switch (c) {
            case IDATA_INTERLEAVE -> 24;
            case RESET_BY_US, RESET_BY_PEER, ADD_STREAMS -> 2 * MIDWAY;
            default -> 300;
        };
    }

    private int smallSize() {
        return switch (c) {
            case IDATA_INTERLEAVE -> 300;
            case RESET_BY_US, RESET_BY_PEER, ADD_STREAMS -> 200;
            default -> 1000;
        };
    }

    private int sizeOn(int stream) {
        return c == InteropCase.IDATA_INTERLEAVE && stream == 0 ? BIG : smallSize();
    }

    /** The stream of message {@code i} (the client adds streams at {@link #MIDWAY} in ADD_STREAMS). */
    private int streamOf(int i) {
        return c == InteropCase.ADD_STREAMS && i >= MIDWAY ? i % (streams() + ADDED) : i % streams();
    }

    private Set<Extension> offered() {
        return switch (c) {
            case PR_TTL, PR_RTX, PR_PRIO -> EnumSet.of(Extension.PR_SCTP);
            case IDATA_INTERLEAVE -> EnumSet.of(Extension.I_DATA);
            case IDATA_PR_RTX -> EnumSet.of(Extension.I_DATA, Extension.PR_SCTP);
            default -> EnumSet.of(Extension.RECONFIG);
        };
    }

    private ExtensionCalls.Policy policy() {
        return switch (c) {
            case PR_TTL -> ExtensionCalls.Policy.TTL;
            case PR_PRIO -> ExtensionCalls.Policy.PRIO;
            default -> ExtensionCalls.Policy.RTX;
        };
    }

    /** The policy value: 5 ms, 0 retransmissions, or priority 1 for odd messages (0 for even ones). */
    private long policyValue(int i) {
        return switch (c) {
            case PR_TTL -> 5;
            case PR_PRIO -> i % 2 == 0 ? 0 : 1;
            default -> 0;
        };
    }

    private SctpOptions options() {
        SctpOptions.Builder b = ExtensionCalls.offer(
                SctpOptions.DEFAULTS.toBuilder().outboundStreams(streams()).noDelay(true), offered());
        if (lossPercent(c) > 0) {
            b.rtoInitial(Duration.ofMillis(300))
                    .rtoMin(Duration.ofMillis(100))
                    .rtoMax(Duration.ofMillis(1000))
                    .delayedAckTime(Duration.ofMillis(50))
                    .shutdownGuardFactor(20);
        }
        if (c == InteropCase.PR_PRIO) {
            b.sendBufferBytes(16 * 1024);
        }
        if (c == InteropCase.IDATA_INTERLEAVE) {
            b.sendBufferBytes(8 << 20).receiveBufferBytes(8 << 20);
        }
        if (offered().contains(Extension.I_DATA) && peer.name().equals("kernel")) {
            // Linux 6.1 delivers fragmented I-DATA only in its own numbering (second fragment FSN 0):
            // the option that says so, since nothing in the handshake tells it apart.
            b.iDataFragmentNumbering(IDataFragmentNumbering.LINUX_6_1);
        }
        if (c == InteropCase.ADD_STREAMS) {
            b.maxInboundStreams(streams() + ADDED);
        }
        if (c == InteropCase.RESET_BY_PEER || c == InteropCase.ADD_STREAMS) {
            b = ExtensionCalls.acceptAllReconfigRequests(b);
        }
        return b.build();
    }

    private PeerJob tune(PeerJob j, boolean client) {
        PeerJob r = j.withStreams(streams());
        if (lossPercent(c) > 0) {
            r = r.withTimers(-1, 100, 1000, 300, 0);
        }
        if (c == InteropCase.IDATA_INTERLEAVE) {
            r = r.withBuffers(8 << 20);
        }
        if (c == InteropCase.PR_PRIO && client) {
            r = r.withBuffers(16 * 1024);
        }
        PeerExtensions e = PeerExtensions.NONE;
        switch (c) {
            case PR_TTL -> e = e.withPolicy(PeerExtensions.Policy.TTL, 5);
            case PR_RTX -> e = e.withPolicy(PeerExtensions.Policy.RTX, 0);
            case PR_PRIO -> e = e.withPolicy(PeerExtensions.Policy.PRIO, 1);
            case IDATA_INTERLEAVE -> e = e.withIdata(BIG);
            case IDATA_PR_RTX -> e = e.withIdata(0).withPolicy(PeerExtensions.Policy.RTX, 0);
            case RESET_BY_US -> e = e.withReconfig();
            case RESET_BY_PEER -> e = e.withReset(PeerExtensions.Reset.BOTH, MIDWAY);
            case ADD_STREAMS -> e = e.withAddStreams(ADDED, client ? MIDWAY : 0);
            default -> throw new IllegalStateException(c + " is no extension case");
        }
        if (!client && e.policy() != PeerExtensions.Policy.NONE) {
            // a server echoes reliably; PR-SCTP stays offered (both peers' default)
            e = e.withPolicy(PeerExtensions.Policy.NONE, 0);
        }
        return r.withExtensions(e);
    }

    // ---------------------------------------------------------------- run

    void run(Direction dir) throws Exception {
        if (dir == Direction.WE_CLIENT) {
            weClient();
        } else {
            weServer();
        }
    }

    /** We send (with the policy, resetting or adding streams midway), the peer echoes. */
    private void weClient() throws Exception {
        PeerJob job = tune(PeerJob.server(theirs, peerPort, topo.peerUdpPort()), false);
        if (lossPercent(c) > 0) {
            topo.dropRandomly(lossPercent(c));
        }
        int n = count();
        try (Peer.PeerRun p = peer.start(job, topo)) {
            try {
                p.awaitReady(STEP);
                us.bind(ourPort, ours, options(), opener);
                AssociationId id = us.connect(theirs, peerPort);
                awaitChange(p, id, AssociationChangeType.COMMUNICATION_UP);
                checkNegotiated(id);
                for (int i = 0; i < n; i++) {
                    if (i == MIDWAY && c == InteropCase.RESET_BY_US) {
                        us.resetOutgoing(id); // while the first half may still be queued or in flight
                    }
                    if (i == MIDWAY && c == InteropCase.ADD_STREAMS) {
                        us.addStreams(id, ADDED, ADDED);
                        int want = streams() + ADDED;
                        check(
                                poll(
                                        () -> us.info(id)
                                                        .map(AssociationInfo::outboundStreams)
                                                        .orElse(0)
                                                >= want,
                                        STEP),
                                "our outbound streams did not grow to " + want + " within 15 s: " + us.info(id));
                    }
                    int sid = streamOf(i);
                    SendInfo si = new SendInfo(sid, PPID + i, false, false);
                    if (pr()) {
                        si = ExtensionCalls.withPolicy(si, policy(), policyValue(i));
                    }
                    us.send(id, si, payload(i, sizeOn(sid)));
                    if (c == InteropCase.PR_TTL) {
                        // Paced: queued all at once, all but the first window's worth would expire in
                        // our queue within the 5 ms, unsent, and a run could give the loss nothing
                        // sent to hit (then no FORWARD-TSN is due, RFC 3758 section 3.5 C1).
                        Thread.sleep(1);
                    }
                }
                Set<Integer> abandoned = new HashSet<>();
                boolean settled = us.await(
                        () -> {
                            abandoned.clear();
                            us.events(e -> ExtensionCalls.sendFailedPpid(e).isPresent())
                                    .forEach(e -> abandoned.add(
                                            ExtensionCalls.sendFailedPpid(e).orElseThrow() - PPID));
                            return echoedOrAbandoned(abandoned) >= n;
                        },
                        LONG);
                check(
                        settled,
                        echoedOrAbandoned(abandoned) + " of " + n + " messages echoed or abandoned within 60 s; "
                                + us.summary() + "\npeer output:\n" + tail(p.output()));
                List<MessageReceived> got = us.messages(0, us.messageCount());
                verify(got, n, pr());
                check(us.sendErrors().isEmpty(), "send errors: " + us.sendErrors());
                awaitAllAcked(id);
                Tap.Traffic t = us.traffic();
                if (pr()) {
                    check(!abandoned.isEmpty(), "no message was abandoned under " + lossPercent(c) + "% loss");
                    if (c == InteropCase.PR_PRIO) {
                        check(
                                abandoned.stream().allMatch(i -> i % 2 == 1),
                                "priority-0 messages abandoned: "
                                        + abandoned.stream()
                                                .filter(i -> i % 2 == 0)
                                                .toList());
                    }
                    int fwd = c == InteropCase.IDATA_PR_RTX ? 194 : 192;
                    long afterSending =
                            us.events(ExtensionCalls::sendFailedAfterSending).size();
                    check(
                            t.sent(fwd) > 0,
                            "we abandoned " + abandoned.size() + " messages (" + afterSending
                                    + " of them after sending) but sent no "
                                    + (fwd == 194 ? "I-FORWARD-TSN" : "FORWARD-TSN"));
                }
                checkChunks(t);
                if (c == InteropCase.RESET_BY_US) {
                    check(us.seen(ExtensionCalls::isStreamReset), "no StreamReset event: " + us.summary());
                }
                // A message abandoned after it arrived (its SACK lost, its lifetime over) counted as
                // settled above, yet the peer echoes it: let those echoes arrive before our SHUTDOWN,
                // which would make the peer's echo fail (RFC 9260 section 9.2: no new data after it).
                awaitNoNewMessage(QUIET);
                us.shutdown(id);
                awaitChange(p, id, AssociationChangeType.SHUTDOWN_COMPLETE);
                PeerResult r = p.awaitResult(STEP);
                checkPeer(r, p);
                // every echo the peer sent, including those that arrived after the count settled
                got = us.messages(0, us.messageCount());
                verify(got, n, pr());
                check(
                        r.getLong("echoed") == got.size(),
                        "the peer echoed " + r.getLong("echoed") + ", we got " + got.size());
                switch (c) {
                    case RESET_BY_US -> check(r.getLong("sr_in") >= 1, "the peer saw no incoming stream reset: " + r);
                    case RESET_BY_PEER -> {
                        check(r.getLong("sr_out") >= 1, "the peer saw no outgoing stream reset: " + r);
                        check(us.seen(ExtensionCalls::isStreamReset), "no StreamReset event: " + us.summary());
                    }
                    case ADD_STREAMS -> check(
                            r.getLong("sc_in") == streams() + ADDED && r.getLong("sc_out") == streams() + ADDED,
                            "the peer's streams after the addition in/out " + r.getLong("sc_in") + "/"
                                    + r.getLong("sc_out"));
                    default -> {}
                }
            } catch (AssertionError | Exception e) {
                snap.take(us);
                throw e;
            }
        }
    }

    /** The peer's client sends (with the policy, resetting or adding midway), we echo. */
    private void weServer() throws Exception {
        us.echo(true);
        us.bind(ourPort, ours, options(), opener);
        us.listen();
        int n = count();
        PeerJob job = tune(
                PeerJob.client(theirs, randomPort(), topo.peerUdpPort(), ours, ourPort, topo.ourUdpPort())
                        .withMessages(n, smallSize(), PPID, false),
                true);
        if (c == InteropCase.RESET_BY_US) {
            job = job.withPauseAt(MIDWAY);
        }
        if (lossPercent(c) > 0) {
            topo.dropRandomly(lossPercent(c));
        }
        try (Peer.PeerRun p = peer.start(job, topo)) {
            try {
                p.awaitReady(STEP);
                AssociationChange up = awaitChange(p, null, AssociationChangeType.COMMUNICATION_UP);
                AssociationId id = up.association();
                checkNegotiated(id);
                if (c == InteropCase.RESET_BY_US) {
                    // The client pauses after MIDWAY messages and their echoes: unpaused, a fast one
                    // sent all 400 and shut down before we saw 200 (the reset then had no
                    // association to act on). We ask for the reset and let it go on at once: the
                    // second half flows while our request is out.
                    p.awaitPaused(LONG);
                    check(
                            us.messageCount() >= MIDWAY,
                            "fewer than " + MIDWAY + " messages at the client's pause: " + us.summary());
                    us.resetOutgoing(id);
                    p.resume();
                }
                awaitChange(p, id, AssociationChangeType.SHUTDOWN_COMPLETE);
                PeerResult r = p.awaitResult(STEP);
                checkPeer(r, p);
                List<MessageReceived> got = us.messages(0, us.messageCount());
                verify(got, n, pr());
                checkChunks(us.traffic());
                if (pr()) {
                    check(
                            r.getLong("pr_missing") == 0,
                            "messages neither echoed nor reported abandoned by the peer: " + r.getLong("pr_missing")
                                    + "; " + r);
                    check(r.getLong("pr_high_lost") <= 0, "priority-0 messages lost: " + r);
                    check(
                            r.getLong("rx_msgs") == got.size(),
                            "the peer got " + r.getLong("rx_msgs") + " echoes of our " + got.size());
                    // usrsctp 0.9.5 abandoned nothing under the priority policy in our trials: not required there
                    if (c != InteropCase.PR_PRIO) {
                        check(
                                r.getLong("pr_abandoned") > 0,
                                "the peer abandoned nothing under " + lossPercent(c) + "% loss: " + r);
                    }
                } else {
                    check(r.getLong("rx_msgs") == n, "the peer got " + r.getLong("rx_msgs") + " echoes of " + n);
                }
                switch (c) {
                    case RESET_BY_US -> {
                        check(r.getLong("sr_in") >= 1, "the peer saw no incoming stream reset: " + r);
                        check(us.seen(ExtensionCalls::isStreamReset), "no StreamReset event: " + us.summary());
                    }
                    case RESET_BY_PEER -> {
                        check(r.getLong("sr_out") >= 1, "the peer saw no outgoing stream reset: " + r);
                        check(us.seen(ExtensionCalls::isStreamReset), "no StreamReset event: " + us.summary());
                    }
                    case ADD_STREAMS -> check(
                            us.seen(e -> ExtensionCalls.streamChangeOutbound(e).isPresent()),
                            "no StreamChange event: " + us.summary());
                    default -> {}
                }
            } catch (AssertionError | Exception e) {
                snap.take(us);
                throw e;
            }
        }
    }

    // ---------------------------------------------------------------- checks

    private void checkNegotiated(AssociationId id) {
        Set<Extension> got = us.info(id).map(ExtensionCalls::negotiated).orElse(Set.of());
        check(got.containsAll(offered()), "negotiated " + got + ", expected at least " + offered());
    }

    /** I-DATA cases carry no DATA chunk either way; the others no I-DATA. */
    private void checkChunks(Tap.Traffic t) {
        boolean idata = offered().contains(Extension.I_DATA);
        int used = idata ? 64 : 0;
        int unused = idata ? 0 : 64;
        check(
                t.sent(used) > 0 && t.received(used) > 0,
                "no " + (idata ? "I-DATA" : "DATA") + " chunk each way: sent " + t.sent(used) + ", received "
                        + t.received(used));
        check(
                t.sent(unused) == 0 && t.received(unused) == 0,
                (idata ? "DATA" : "I-DATA") + " chunks on the wire: sent " + t.sent(unused) + ", received "
                        + t.received(unused));
    }

    private void checkPeer(PeerResult r, Peer.PeerRun p) {
        check(r.ok() && r.getLong("errors") == 0, "the peer reports " + r + "\npeer output:\n" + tail(p.output()));
        String key =
                switch (c) {
                    case PR_TTL, PR_RTX, PR_PRIO -> "pr";
                    case IDATA_INTERLEAVE, IDATA_PR_RTX -> "idata";
                    default -> "reconfig";
                };
        check(r.getLong(key) == 1, "the peer says " + key + "=" + r.getLong(key) + " was negotiated: " + r);
    }

    /** Messages echoed (we-client) or abandoned (their index in {@code abandoned}), each counted once. */
    private int echoedOrAbandoned(Set<Integer> abandoned) {
        Set<Integer> done = new HashSet<>(abandoned);
        for (MessageReceived m : us.messages(0, us.messageCount())) {
            done.add(m.ppid() - PPID);
        }
        return done.size();
    }

    /**
     * Each message at most once (exactly once unless {@code holes}), on its stream, unordered flag
     * off, with its bytes, in order within its stream.
     */
    private void verify(List<MessageReceived> got, int n, boolean holes) {
        check(holes ? got.size() <= n : got.size() == n, got.size() + " messages, expected " + n);
        boolean[] seen = new boolean[n];
        int[] last = new int[streams() + ADDED];
        Arrays.fill(last, -1);
        for (MessageReceived m : got) {
            int i = m.ppid() - PPID;
            check(i >= 0 && i < n && !seen[i], "message with PPID " + m.ppid() + " (repeated or out of range)");
            seen[i] = true;
            int sid = streamOf(i);
            check(m.streamId() == sid, "message " + i + " on stream " + m.streamId() + ", expected " + sid);
            check(!m.unordered(), "message " + i + " with the U bit");
            check(
                    Arrays.equals(m.data(), payload(i, sizeOn(sid))),
                    "bytes of message " + i + " (" + m.data().length + " bytes)");
            check(last[sid] < i, "message " + i + " after " + last[sid] + " on stream " + sid);
            last[sid] = i;
        }
    }

    /** Waits until everything we queued is acknowledged: the peer's cumulative TSN covers it all. */
    private void awaitAllAcked(AssociationId id) throws InterruptedException {
        long full = options().sendBufferBytes();
        check(
                poll(
                        () -> us.outboxEmpty()
                                && us.info(id)
                                        .map(i -> i.sendBufferFree() >= full)
                                        .orElse(false),
                        STEP),
                "not everything we sent was acknowledged within 15 s: " + us.info(id));
    }

    private AssociationChange awaitChange(Peer.PeerRun p, AssociationId id, AssociationChangeType type)
            throws InterruptedException {
        return CaseRunner.awaitChange(us, p, id, type, LONG);
    }

    /**
     * Waits until no message has arrived for {@code quiet} (at most {@link #STEP}); whether the
     * count is right is checked afterwards against the peer's own.
     */
    private void awaitNoNewMessage(Duration quiet) throws InterruptedException {
        long end = System.nanoTime() + STEP.toNanos();
        int seen = us.messageCount();
        long since = System.nanoTime();
        while (System.nanoTime() < end && System.nanoTime() - since < quiet.toNanos()) {
            Thread.sleep(20);
            int now = us.messageCount();
            if (now != seen) {
                seen = now;
                since = System.nanoTime();
            }
        }
    }

    /**
     * Polls {@code condition} every 20 ms until it holds or {@code timeout} passes (for conditions
     * that ask the stack thread, which must not run under {@link OurStack#await}'s lock).
     */
    static boolean poll(java.util.function.BooleanSupplier condition, Duration timeout) throws InterruptedException {
        long end = System.nanoTime() + timeout.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > end) {
                return false;
            }
            Thread.sleep(20);
        }
        return true;
    }
}
