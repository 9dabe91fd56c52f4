package org.sctpj.stack.llp;

/**
 * The two ECN bits of the IP header (RFC 3168 section 5: the low two bits of the IPv4 TOS octet
 * and of the IPv6 Traffic Class), as the core and the lower layers pass them: the core says which
 * codepoint an outgoing packet is sent with ({@link org.sctpj.stack.Transmit#ecn()}, {@link
 * org.sctpj.stack.Endpoint#transmitEcn()}) and is told which one a received packet arrived with
 * ({@link org.sctpj.stack.Endpoint#handleInput(java.nio.ByteBuffer, java.net.InetAddress,
 * java.net.InetAddress, int, long)}). SCTP's use of them is RFC 9260 appendix A.
 */
public final class Ecn {
    private Ecn() {}

    /** Not-ECT (00): the sender does not take part in ECN. What a layer that cannot read the bits reports. */
    public static final int NOT_ECT = 0;
    /** ECT(1) (01): ECN-capable transport. */
    public static final int ECT_1 = 1;
    /** ECT(0) (10): ECN-capable transport, the codepoint our DATA packets use (RFC 3168 section 5). */
    public static final int ECT_0 = 2;
    /** CE (11): Congestion Experienced, set by a router instead of dropping an ECT packet. */
    public static final int CE = 3;

    /** The ECN bits of an IPv4 TOS octet or IPv6 Traffic Class. */
    public static int of(int tosOrTrafficClass) {
        return tosOrTrafficClass & 3;
    }

    /** A short name of codepoint {@code ecn} (0..3). */
    public static String name(int ecn) {
        return switch (ecn & 3) {
            case NOT_ECT -> "Not-ECT";
            case ECT_1 -> "ECT(1)";
            case ECT_0 -> "ECT(0)";
            default -> "CE";
        };
    }
}
