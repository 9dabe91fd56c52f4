package org.sctpj.stack.pmtu;

import java.net.Inet6Address;
import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.sctpj.stack.PmtuStats;
import org.sctpj.stack.SctpEvent;
import org.sctpj.stack.SctpEvent.PathMtuReason;
import org.sctpj.stack.assoc.Association;
import org.sctpj.stack.assoc.Tcb;
import org.sctpj.stack.assoc.TimerKind;
import org.sctpj.stack.assoc.TimerTable;
import org.sctpj.stack.path.Path;
import org.sctpj.stack.path.PathStatus;
import org.sctpj.stack.tx.PacketBuilder;
import org.sctpj.stack.wire.Bytes;
import org.sctpj.stack.wire.chunk.HeartbeatChunk;
import org.sctpj.stack.wire.chunk.PadChunk;
import org.sctpj.stack.wire.param.HeartbeatInfoParameter;

/**
 * Packetization-layer path MTU discovery for each path of one association (RFC 8899), on when
 * {@link org.sctpj.stack.SctpOptions#pmtuDiscovery()} is:
 *
 * <ul>
 *   <li><b>Probes</b> (RFC 8899 section 6.2.1.1): a HEARTBEAT whose Heartbeat Information is ours
 *       (a nonce, the probed size and the path), padded with a PAD chunk (RFC 4820) so that the IP
 *       packet is exactly the probed size; the peer's HEARTBEAT ACK confirms it. Probes are not
 *       data: they are neither counted in flight nor retransmitted, and their loss is no congestion
 *       signal (section 4.4).
 *   <li><b>Search</b> (section 5.1.2 and 5.3): a path starts at BASE_PLPMTU, 1200 bytes (the
 *       smallest MTU SCTP assumes, section 6.2.1), and probes the largest size first ({@link
 *       org.sctpj.stack.SctpOptions#pmtuSearchMax()}, the interface's MTU where it is known). When
 *       that fails it climbs the common link MTUs between the largest size confirmed and the
 *       smallest that failed ({@link #COMMON_MTUS}), smallest first; once it stands on one of them
 *       and the next one failed, it probes {@value #STEP} bytes above it, and only if that passes
 *       (a link whose MTU is no common one) halves the gap, until the gap is below {@code 2 *
 *       STEP} bytes (SEARCH_COMPLETE). Section 5.3 leaves the search algorithm to the
 *       implementation; this one is chosen because a lost probe costs MAX_PROBES times
 *       PROBE_TIMER while a confirmed one costs a round trip: most links have a common MTU, so a
 *       search from the base to a 1500-byte path under a 9000-byte maximum loses three sizes
 *       (9000, 2002 and 1508: about 9 s at the shortest PROBE_TIMER) where halving lost eleven
 *       (about 33 s). A size fails after {@value #MAX_PROBES}
 *       probes are lost, each given PROBE_TIMER (the larger of 1 s and the path's RTO). Every
 *       confirmed size becomes the path's MTU at once, so new DATA is cut for it. After
 *       PMTU_RAISE_TIMER ({@link org.sctpj.stack.SctpOptions#pmtuRaiseInterval()}, 600 s by
 *       default) a completed search starts again from the top.
 *   <li><b>Black hole detection</b> (section 4.3): two consecutive T3-rtx expiries on a path whose
 *       MTU is above the base take it back to the base and search again between the base and the
 *       size that stopped working. DATA chunks already cut for the larger size are resent in
 *       packets the lower layer may fragment ({@link PacketBuilder#allowOversize}).
 *   <li><b>Packet Too Big</b> (section 4.6): a verified ICMP Packet Too Big / Fragmentation Needed
 *       whose MTU is below the path's and not below the base (section 4.6.2) lowers the path's MTU
 *       to it; one between the path's MTU and the size of the probe out fails that probe at once
 *       and has the reported size probed next; one below the base, or otherwise not below the
 *       current size, is ignored.
 * </ul>
 *
 * <p>Every change of a path's MTU after the start is reported ({@link SctpEvent.PathMtuChange}).
 * Memory is fixed (arrays of {@link TimerTable#MAX_PATHS}); a HEARTBEAT ACK whose information is
 * not the probe outstanding on its path is not ours and goes back to the heartbeat procedure.
 */
public final class PmtuDiscovery {

    /** BASE_PLPMTU and MIN_PLPMTU of SCTP, in bytes of IP packet (RFC 8899 section 6.2.1). */
    public static final int BASE = 1200;
    /** MAX_PROBES (RFC 8899 section 5.1.2). */
    static final int MAX_PROBES = 3;
    /**
     * The search's resolution: the probe just above a confirmed common MTU is this much larger, and
     * the search ends when the gap between confirmed and failed sizes is below twice this.
     */
    static final int STEP = 8;
    /**
     * Link MTUs met in practice, ascending, probed before any size between them: the IPv6 minimum
     * (RFC 8200), tunnels and encapsulations below Ethernet (WireGuard 1420, VXLAN 1450, PPPoE 1492
     * of RFC 2516 and others), Ethernet's 1500, the plateaus of RFC 1191 section 7 above it, and
     * jumbo frames (9000, 9216).
     */
    static final int[] COMMON_MTUS = {
        1280, 1400, 1420, 1450, 1460, 1480, 1492, 1500, 2002, 4352, 8166, 9000, 9216, 17914, 32000, 65535
    };
    /** The smallest PROBE_TIMER (RFC 8899 section 5.1.1: MUST NOT be smaller than 1 s). */
    static final long MIN_PROBE_TIMER = 1_000_000_000L;

    private static final int MAGIC = 0x504d5455; // "PMTU"
    private static final int INFO_LENGTH = 20;

    private final Tcb t;
    private final int n = TimerTable.MAX_PATHS;
    private final boolean[] searching = new boolean[n];
    private final boolean[] triedMax = new boolean[n];
    private final int[] confirmed = new int[n];
    private final int[] failed = new int[n];
    /** The size of the probe outstanding (0: none). */
    private final int[] probe = new int[n];

    private final int[] attempts = new int[n];
    private final long[] nonce = new long[n];
    /** A size a Packet Too Big reported during the search, to probe next (0: none). */
    private final int[] hint = new int[n];
    /** A probe waits for the next packet built ({@link #buildProbe}). */
    private final boolean[] due = new boolean[n];

    private final long[] probesSent = new long[n];
    private final long[] probesAcked = new long[n];
    private final long[] probesLost = new long[n];
    private final long[] blackHoles = new long[n];
    private final long[] tooBigApplied = new long[n];
    private final long[] completedAt = new long[n];
    private final long[] startedAt = new long[n];

    /** The path MTU discovery of the association {@code t} describes. */
    public PmtuDiscovery(Tcb t) {
        this.t = t;
        java.util.Arrays.fill(completedAt, -1);
    }

    private boolean on() {
        return t.o.pmtuDiscovery();
    }

    private int max() {
        return t.o.pmtuSearchMax();
    }

    /** The association is up: every path starts at the base and searches (when discovery is on). */
    public void start(long now) {
        if (!on()) {
            return;
        }
        for (Path p : t.paths) {
            int k = p.index();
            if (k >= n) {
                continue;
            }
            p.setMtu(Math.min(BASE, p.mtu()));
            confirmed[k] = p.mtu();
            restart(k, false, max() + 1, now);
            t.timers.start(TimerKind.PMTU, k, now);
        }
    }

    private void restart(int k, boolean maxTried, int failedSize, long now) {
        startedAt[k] = now;
        hint[k] = 0;
        searching[k] = true;
        triedMax[k] = maxTried;
        failed[k] = failedSize;
        probe[k] = 0;
        attempts[k] = 0;
        due[k] = false;
    }

    /** The size to probe next on path {@code k}, or 0 when the search is complete. */
    private int nextSize(int k) {
        int h = hint[k];
        hint[k] = 0;
        if (h > confirmed[k] && h < failed[k]) {
            return h;
        }
        int top = max();
        if (!triedMax[k] && top > confirmed[k]) {
            return top;
        }
        return nextProbeSize(confirmed[k], failed[k]);
    }

    /**
     * The size the search probes once the maximum was tried (and no Packet Too Big named one), with
     * {@code ok} the largest size confirmed and {@code bad} the smallest that failed; 0 when the
     * search is complete (see the class comment). Public so that tools and tests can tell how
     * many sizes a search will lose on a given path.
     */
    public static int nextProbeSize(int ok, int bad) {
        if (bad - ok < 2 * STEP) {
            return 0;
        }
        for (int m : COMMON_MTUS) {
            if (m > ok && m < bad) {
                return m; // the smallest common MTU in the gap
            }
        }
        if (java.util.Arrays.binarySearch(COMMON_MTUS, ok) >= 0) {
            return ok + STEP; // standing on a common MTU whose next one failed: is it the link's?
        }
        return ((ok + bad) / 2) & ~3;
    }

    /** The PMTU timer of path {@code k}: a probe was lost, or the next one (or a new search) is due. */
    public void onTimer(int k, long now) {
        t.timers.start(TimerKind.PMTU, k, TimerTable.NONE);
        if (!on() || k >= t.paths.size()) {
            return;
        }
        Path p = t.paths.get(k);
        if (p.removed()) {
            return; // the peer deleted the address (RFC 5061 section 5.2): nothing more to find
        }
        if (p.status() != PathStatus.ACTIVE) {
            t.timers.start(TimerKind.PMTU, k, now + probeTimer(p)); // probe confirmed, working paths only
            return;
        }
        if (!searching[k]) {
            restart(k, false, max() + 1, now); // PMTU_RAISE_TIMER: look for a larger MTU again
        } else if (probe[k] != 0) {
            probesLost[k]++;
            if (++attempts[k] >= MAX_PROBES) {
                // MAX_PROBES lost: this size does not pass.
                if (probe[k] == max()) {
                    triedMax[k] = true;
                }
                failed[k] = Math.min(failed[k], probe[k]);
                probe[k] = 0;
                attempts[k] = 0;
            }
        }
        sendNext(k, p, now);
    }

    private void sendNext(int k, Path p, long now) {
        int size = probe[k] != 0 ? probe[k] : nextSize(k);
        if (size == 0) {
            complete(k, now);
            return;
        }
        if (size == max()) {
            triedMax[k] = true;
        }
        probe[k] = size;
        nonce[k] = t.host.random().nextLong();
        due[k] = true;
        t.timers.start(TimerKind.PMTU, k, now + probeTimer(p));
    }

    private void complete(int k, long now) {
        searching[k] = false;
        probe[k] = 0;
        due[k] = false;
        completedAt[k] = now;
        t.timers.start(TimerKind.PMTU, k, now + t.o.pmtuRaiseInterval().toNanos());
    }

    private static long probeTimer(Path p) {
        return Math.max(MIN_PROBE_TIMER, p.rto().rto());
    }

    /**
     * Builds a probe into {@code pb} if one is due (before anything else goes), and returns its
     * destination; null when none is due.
     */
    public InetAddress buildProbe(PacketBuilder pb, int localPort, int encapsulationOverhead) {
        if (!on() || t.state != Association.State.ESTABLISHED) {
            return null;
        }
        for (int k = 0; k < Math.min(n, t.paths.size()); k++) {
            if (!due[k]) {
                continue;
            }
            due[k] = false;
            Path p = t.paths.get(k);
            int ip = p.address() instanceof Inet6Address ? 40 : 20;
            int bytes = probe[k] - ip - encapsulationOverhead;
            pb.reset(localPort, t.peerPort, t.peerTag, bytes);
            if (!pb.tryAdd(new HeartbeatChunk(List.of(info(k))))) {
                continue;
            }
            int pad = pb.remaining() & ~3;
            if (pad >= PadChunk.HEADER_LENGTH) {
                pb.tryAdd(PadChunk.ofLength(pad));
            }
            probesSent[k]++;
            return p.address();
        }
        return null;
    }

    private HeartbeatInfoParameter info(int k) {
        ByteBuffer b = ByteBuffer.allocate(INFO_LENGTH);
        b.putInt(MAGIC).putLong(nonce[k]).putInt(probe[k]).putInt(k);
        return new HeartbeatInfoParameter(Bytes.of(b.array()));
    }

    /**
     * A HEARTBEAT ACK's information: true when it answers the probe outstanding on its path (which
     * then confirms the probed size); false when it is none of ours.
     */
    public boolean onHeartbeatAck(Bytes info, long now) {
        if (info.length() != INFO_LENGTH) {
            return false;
        }
        ByteBuffer b = info.asReadOnlyBuffer();
        if (b.getInt(0) != MAGIC) {
            return false;
        }
        int k = b.getInt(16);
        int size = b.getInt(12);
        if (k < 0 || k >= Math.min(n, t.paths.size()) || size != probe[k] || b.getLong(4) != nonce[k]) {
            return true; // a probe of ours, stale or altered: nothing to learn
        }
        probesAcked[k]++;
        Path p = t.paths.get(k);
        confirmed[k] = size;
        setMtu(p, size, PathMtuReason.PROBE);
        probe[k] = 0;
        attempts[k] = 0;
        if (failed[k] <= size) {
            failed[k] = max() + 1;
        }
        sendNext(k, p, now);
        return true;
    }

    /**
     * T3-rtx expired on {@code p} (after its error was counted): the second expiry in a row with
     * the MTU above the base is taken for a black hole (RFC 8899 section 4.3): back to the base,
     * and search again below the size that stopped passing.
     */
    public void onT3(Path p, long now) {
        int k = p.index();
        if (!on() || k >= n || p.mtu() <= BASE || p.errorCount() < 2) {
            return;
        }
        blackHoles[k]++;
        int stopped = p.mtu();
        setMtu(p, BASE, PathMtuReason.BLACK_HOLE);
        confirmed[k] = BASE;
        restart(k, true, stopped, now);
        t.timers.start(TimerKind.PMTU, k, now);
    }

    /**
     * A verified Packet Too Big for {@code p} reporting {@code mtu} (RFC 8899 section 4.6.2):
     * lowers the path's MTU when {@code mtu} is below it and not below the base. Returns whether it
     * did.
     */
    public boolean onPacketTooBig(Path p, int mtu, long now) {
        int k = p.index();
        if (!on() || k >= n || mtu < BASE) {
            return false;
        }
        if (mtu >= p.mtu()) {
            if (!searching[k] || probe[k] <= mtu) {
                return false;
            }
            // It answers the probe out (RFC 8899 section 4.6.2): that size fails at once, and the
            // reported size is probed next instead of waiting for PROBE_TIMER.
            if (probe[k] == max()) {
                triedMax[k] = true;
            }
            failed[k] = Math.min(failed[k], probe[k]);
            probe[k] = 0;
            attempts[k] = 0;
            hint[k] = mtu & ~3;
            tooBigApplied[k]++;
            sendNext(k, p, now);
            return true;
        }
        tooBigApplied[k]++;
        int was = p.mtu();
        setMtu(p, mtu, PathMtuReason.PACKET_TOO_BIG);
        confirmed[k] = mtu;
        failed[k] = Math.min(failed[k], was);
        complete(k, now);
        return true;
    }

    /** Sets the MTU of {@code p} and reports the change ({@link SctpEvent.PathMtuChange}), if any. */
    private void setMtu(Path p, int mtu, PathMtuReason reason) {
        int was = p.mtu();
        p.setMtu(mtu);
        if (was != mtu) {
            t.host.emit(new SctpEvent.PathMtuChange(t.id, p.address(), was, mtu, reason));
        }
    }

    /** What discovery did on each path so far. */
    public List<PmtuStats> stats() {
        List<PmtuStats> out = new ArrayList<>();
        for (Path p : t.paths) {
            int k = p.index();
            if (k >= n) {
                continue;
            }
            out.add(new PmtuStats(
                    p.address(),
                    p.mtu(),
                    searching[k],
                    probesSent[k],
                    probesAcked[k],
                    probesLost[k],
                    blackHoles[k],
                    tooBigApplied[k],
                    startedAt[k],
                    completedAt[k]));
        }
        return out;
    }
}
