package org.sctpj.tests.interop;

import java.util.ArrayList;
import java.util.List;

/**
 * What a {@link PeerJob} asks of the peer's extensions (issue 12): PR-SCTP sending (RFC 3758 with
 * the policies of RFC 7496), I-DATA (RFC 8260) and stream reconfiguration (RFC 6525). Both peer
 * programs ({@code upeer}, {@code kpeer}) take the same flags, {@link #args()}; both report what
 * was negotiated ({@code pr}, {@code idata}, {@code reconfig}: 1 or 0), the stream reset and stream
 * change events they saw ({@code sr_in}, {@code sr_out}, {@code sr_denied}, {@code sc_events},
 * {@code sc_in}, {@code sc_out}) and, as PR-SCTP clients, {@code pr_abandoned} (messages reported
 * abandoned), {@code pr_missing} (neither echoed nor reported abandoned) and {@code pr_high_lost}
 * (priority-0 messages not echoed).
 *
 * @param policy the PR-SCTP policy every client message is sent with ({@link Policy#NONE}: reliable)
 * @param policyValue TTL in ms, number of retransmissions, or the priority of odd messages (even
 *     ones have priority 0, the highest)
 * @param idata offer I-DATA
 * @param big when positive, client messages on stream 0 have this size (the others the job's size)
 * @param reconfig offer RE-CONFIG and accept every request
 * @param reset which streams to reset ({@link Reset#NONE}: none), all of them
 * @param resetAt clients: before this message; servers: after this many messages received
 * @param addStreams streams to add each way (0: none); also raises the incoming streams allowed
 * @param addAt clients: before this message (then messages use every stream); servers: after this
 *     many messages received (0: only allow {@code addStreams} more incoming streams)
 */
public record PeerExtensions(
        Policy policy,
        long policyValue,
        boolean idata,
        int big,
        boolean reconfig,
        Reset reset,
        int resetAt,
        int addStreams,
        int addAt) {

    /** No extension used (the peers' defaults). */
    public static final PeerExtensions NONE = new PeerExtensions(Policy.NONE, 0, false, 0, false, Reset.NONE, 0, 0, 0);

    /** The PR-SCTP policies of RFC 7496 section 3 (flag {@code --pr}). */
    public enum Policy {
        /** Reliable. */
        NONE(null),
        /** Time to live (RFC 7496 section 3.1): SCTP_PR_SCTP_TTL. */
        TTL("ttl"),
        /** Limited retransmissions (section 3.2): SCTP_PR_SCTP_RTX. */
        RTX("rtx"),
        /** Priority (section 3.3, "buffer based"): SCTP_PR_SCTP_PRIO, usrsctp's SCTP_PR_SCTP_BUF. */
        PRIO("prio");

        private final String flag;

        Policy(String flag) {
            this.flag = flag;
        }
    }

    /** Which SSN reset the peer asks for (flag {@code --reset}, RFC 6525 sections 4.1 and 4.2). */
    public enum Reset {
        /** None. */
        NONE(null),
        /** Its outgoing streams (Outgoing SSN Reset Request). */
        OUT("out"),
        /** Its incoming streams (Incoming SSN Reset Request: the other side resets its outgoing). */
        IN("in"),
        /** Both, in one RE-CONFIG chunk. */
        BOTH("both");

        private final String flag;

        Reset(String flag) {
            this.flag = flag;
        }
    }

    /** With PR-SCTP sending under {@code p} with value {@code v}. */
    public PeerExtensions withPolicy(Policy p, long v) {
        return new PeerExtensions(p, v, idata, big, reconfig, reset, resetAt, addStreams, addAt);
    }

    /** Offering I-DATA, with messages of {@code bigBytes} on stream 0 (0: all of the job's size). */
    public PeerExtensions withIdata(int bigBytes) {
        return new PeerExtensions(policy, policyValue, true, bigBytes, reconfig, reset, resetAt, addStreams, addAt);
    }

    /** Offering RE-CONFIG, accepting every request. */
    public PeerExtensions withReconfig() {
        return new PeerExtensions(policy, policyValue, idata, big, true, reset, resetAt, addStreams, addAt);
    }

    /** Resetting {@code r} at message {@code at} (see {@link #resetAt}). */
    public PeerExtensions withReset(Reset r, int at) {
        return new PeerExtensions(policy, policyValue, idata, big, true, r, at, addStreams, addAt);
    }

    /** Adding {@code n} streams each way at message {@code at} (0: only allowing them). */
    public PeerExtensions withAddStreams(int n, int at) {
        return new PeerExtensions(policy, policyValue, idata, big, true, reset, resetAt, n, at);
    }

    /** The size of message {@code i} sent on {@code stream} by a client of size {@code size}. */
    public int sizeOn(int stream, int size) {
        return big > 0 && stream == 0 ? big : size;
    }

    /** The command-line flags, the same for {@code upeer} and {@code kpeer}. */
    public List<String> args() {
        List<String> a = new ArrayList<>();
        if (policy != Policy.NONE) {
            a.addAll(List.of("--pr", policy.flag, "--pr-value", Long.toString(policyValue)));
        }
        if (idata) {
            a.add("--idata");
        }
        if (big > 0) {
            a.addAll(List.of("--big", Integer.toString(big)));
        }
        if (reconfig) {
            a.add("--reconfig");
        }
        if (reset != Reset.NONE) {
            a.addAll(List.of("--reset", reset.flag, "--reset-at", Integer.toString(resetAt)));
        }
        if (addStreams > 0) {
            a.addAll(List.of("--add-streams", Integer.toString(addStreams)));
            if (addAt > 0) {
                a.addAll(List.of("--add-at", Integer.toString(addAt)));
            }
        }
        return a;
    }
}
