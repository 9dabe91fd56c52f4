package org.sctpj.stack;

/**
 * Counters of an {@link Endpoint}'s packets, from its creation.
 *
 * @param received packets handed to {@link Endpoint#handleInput}
 * @param badChecksum dropped: CRC32c mismatch (corruption on the way)
 * @param malformed dropped: chunk framing or a chunk that does not decode
 * @param wrongPort dropped: destination port is not ours
 * @param outOfTheBlue packets that matched no association (RFC 9260 section 8.4), INIT and
 *     COOKIE ECHO included
 * @param staleCookies COOKIE ECHOs refused as expired (answered with a Stale Cookie error)
 * @param badCookies COOKIE ECHOs refused as forged, altered or mismatched (silently)
 * @param cookiesFromUnlistedAddress COOKIE ECHOs with an authentic cookie from an address that the
 *     INIT the cookie answered did not carry (neither its source nor listed): silently discarded,
 *     a cookie is good only from the addresses the peer claimed
 * @param outputDropped endpoint replies dropped because too many were pending
 * @param sent packets handed out by {@link Endpoint#pollTransmit}
 * @param icmpReceived ICMP reports handed to {@link Endpoint#handleIcmp}
 * @param icmpNotVerified ICMP reports that matched no association, or whose quoted Verification
 *     Tag (or INIT's Initiate Tag) was not the association's (RFC 9260 appendix C, ICMP5 and
 *     ICMP6): ignored, as a blind or stale ICMP must be
 * @param icmpActedOn verified ICMP reports that ended a setup or an association, counted a path
 *     error or recorded an MTU (the rest were verified but of a kind or state that is ignored, or
 *     ICMP handling was off)
 * @param lowerLayerDropped packets the lower layer's socket dropped before they could be read (a
 *     full receive buffer: on the raw IP layer the kernel's SO_RXQ_OVFL count), as its owner last
 *     reported it ({@link Endpoint#noteLowerLayerDropped}; 0 when the layer cannot know)
 */
public record EndpointStats(
        long received,
        long badChecksum,
        long malformed,
        long wrongPort,
        long outOfTheBlue,
        long staleCookies,
        long badCookies,
        long cookiesFromUnlistedAddress,
        long outputDropped,
        long sent,
        long icmpReceived,
        long icmpNotVerified,
        long icmpActedOn,
        long lowerLayerDropped) {}
