package org.sctpj.stack;

/**
 * What explicit congestion notification (RFC 9260 appendix A) did on one association, since it
 * started: counters only, all zero when {@link Extension#ECN} was not negotiated. From {@link
 * Endpoint#ecnStats}.
 *
 * @param ceMarked received packets with DATA whose IP header carried Congestion Experienced
 * @param ecneSent ECNE chunks we sent (one in every packet while an echo is pending)
 * @param ecneReceived ECNE chunks the peer sent us
 * @param cwrSent CWR chunks we sent (queued: one waiting chunk is replaced by a newer one)
 * @param cwrReceived CWR chunks the peer sent us
 * @param windowReductions congestion window reductions made for the peer's ECNEs (at most one per
 *     window of data per path)
 */
public record EcnStats(
        long ceMarked, long ecneSent, long ecneReceived, long cwrSent, long cwrReceived, long windowReductions) {}
