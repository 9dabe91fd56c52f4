package org.sctpj.tests.interop;

import java.util.HexFormat;
import java.util.List;
import java.util.stream.Collectors;

/**
 * What a {@link PeerJob} asks of the peer's issue-13 features: AUTH (RFC 4895) and ECN (RFC 9260
 * appendix A). Each peer maps them onto its program: {@code upeer --auth-chunks T,T --auth-key
 * ID:HEX --auth-switch-at K}; {@code kpeer --auth-chunk T ... --auth-key ID:HEX --auth-switch-at
 * K} with the sysctls {@code net.sctp.auth_enable} and {@code net.sctp.ecn_enable}.
 *
 * @param auth offer AUTH (the kernel: {@code auth_enable=1}; usrsctp offers it by default)
 * @param authChunks chunk types the peer requires authenticated (SCTP_AUTH_CHUNK)
 * @param keyId an endpoint pair shared key's identifier given to the peer (SCTP_AUTH_KEY); -1 none
 * @param key that key's bytes
 * @param switchAt the peer makes {@code keyId} its sending key (SCTP_AUTH_ACTIVE_KEY) before client
 *     message {@code switchAt}, or after receiving that many (servers); 0 never
 * @param ecn offer ECN (the kernel: {@code ecn_enable=1}; usrsctp offers it by default)
 */
public record PeerFeatures(boolean auth, List<Integer> authChunks, int keyId, byte[] key, int switchAt, boolean ecn) {

    /** Nothing asked: the peers' defaults. */
    public static final PeerFeatures NONE = new PeerFeatures(false, List.of(), -1, new byte[0], 0, false);

    /** Copies the list. */
    public PeerFeatures {
        authChunks = List.copyOf(authChunks);
    }

    /** {@code ID:HEX} of the key, for both programs' {@code --auth-key}. */
    public String keyArg() {
        return keyId + ":" + HexFormat.of().formatHex(key);
    }

    /** The chunk types as {@code T,T} ({@code upeer --auth-chunks}). */
    public String chunkList() {
        return authChunks.stream().map(String::valueOf).collect(Collectors.joining(","));
    }
}
