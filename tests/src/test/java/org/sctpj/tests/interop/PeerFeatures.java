package org.sctpj.tests.interop;

import java.net.InetAddress;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.stream.Collectors;

/**
 * What a {@link PeerJob} asks of the peer's issue-13 features: AUTH (RFC 4895), ECN (RFC 9260
 * appendix A) and dynamic addresses (RFC 5061, {@link Asconf}). Each peer maps them onto its
 * program: {@code upeer --auth-chunks T,T --auth-key ID:HEX --auth-switch-at K}; {@code kpeer
 * --auth-chunk T ... --auth-key ID:HEX --auth-switch-at K} with the sysctls {@code
 * net.sctp.auth_enable}, {@code net.sctp.ecn_enable} and {@code net.sctp.addip_enable}; the ASCONF
 * flags are the same for both ({@link Asconf#args()}).
 *
 * @param auth offer AUTH (the kernel: {@code auth_enable=1}; usrsctp offers it by default)
 * @param authChunks chunk types the peer requires authenticated (SCTP_AUTH_CHUNK)
 * @param keyId an endpoint pair shared key's identifier given to the peer (SCTP_AUTH_KEY); -1 none
 * @param key that key's bytes
 * @param switchAt the peer makes {@code keyId} its sending key (SCTP_AUTH_ACTIVE_KEY) before client
 *     message {@code switchAt}, or after receiving that many (servers); 0 never
 * @param ecn offer ECN (the kernel: {@code ecn_enable=1}; usrsctp offers it by default)
 * @param nrsack offer NR-SACK with CMT on ({@code upeer --nrsack}; Linux has no NR-SACK)
 * @param asconf what the peer does with its addresses ({@link Asconf#NONE}: nothing)
 */
public record PeerFeatures(
        boolean auth,
        List<Integer> authChunks,
        int keyId,
        byte[] key,
        int switchAt,
        boolean ecn,
        boolean nrsack,
        Asconf asconf) {

    /** Nothing asked: the peers' defaults. */
    public static final PeerFeatures NONE =
            new PeerFeatures(false, List.of(), -1, new byte[0], 0, false, false, Asconf.NONE);

    /**
     * Dynamic address reconfiguration (RFC 5061) asked of the peer: it offers ASCONF (the kernel:
     * {@code net.sctp.addip_enable=1}, which needs AUTH, {@code auth_enable=1}; usrsctp offers it by
     * default) and may change its own addresses on the live association. Both programs take the
     * same flags: {@code --asconf-add ADDR} binds an address to the live socket ({@code
     * sctp_bindx} SCTP_BINDX_ADD_ADDR: an ASCONF with Add IP Address), {@code --asconf-primary}
     * then asks us to take it as our primary (SCTP_SET_PEER_PRIMARY_ADDR: Set Primary Address),
     * both at {@code --asconf-at K}; {@code --asconf-del ADDR} unbinds one (Delete IP Address) at
     * {@code --asconf-del-at K}. K counts as for the other flags: a client acts before its message K,
     * a server after K messages received. {@code --gap-us N} paces a client's messages N
     * microseconds apart, so that data still flows while the addresses change.
     *
     * @param offer offer ASCONF
     * @param add the address to add, or null
     * @param primary ask us to make {@code add} our primary
     * @param at when to add
     * @param delete the address to delete, or null
     * @param deleteAt when to delete
     * @param gapMicros a client's pause between two messages (0: none)
     */
    public record Asconf(
            boolean offer, InetAddress add, boolean primary, int at, InetAddress delete, int deleteAt, int gapMicros) {

        /** Not asked: the peer's defaults. */
        public static final Asconf NONE = new Asconf(false, null, false, 0, null, 0, 0);

        /** The command-line flags, the same for {@code upeer} and {@code kpeer}. */
        public List<String> args() {
            List<String> a = new ArrayList<>();
            if (add != null) {
                a.addAll(List.of("--asconf-add", add.getHostAddress(), "--asconf-at", Integer.toString(at)));
                if (primary) {
                    a.add("--asconf-primary");
                }
            }
            if (delete != null) {
                a.addAll(List.of(
                        "--asconf-del", delete.getHostAddress(), "--asconf-del-at", Integer.toString(deleteAt)));
            }
            if (gapMicros > 0) {
                a.addAll(List.of("--gap-us", Integer.toString(gapMicros)));
            }
            return a;
        }
    }

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
