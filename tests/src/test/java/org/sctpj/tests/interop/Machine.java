package org.sctpj.tests.interop;

import java.io.IOException;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;
import org.sctpj.llp.raw.RawIpLowerLayer;
import org.sctpj.llp.raw.RawSocketPermissionException;

/**
 * What this machine lets the matrix do, probed once per JVM: raw IP (CAP_NET_RAW), network
 * namespaces (CAP_SYS_ADMIN, iproute2) and nftables (CAP_NET_ADMIN, the {@code nft} program).
 */
final class Machine {
    private Machine() {}

    private static Optional<String> raw;
    private static Optional<String> nft;

    /**
     * Why raw IP cases cannot run here, or empty. Without CAP_NET_RAW this is llp-raw's own
     * message (it names CAP_NET_RAW and suggests UDP encapsulation).
     */
    static synchronized Optional<String> rawUnavailable() {
        if (raw == null) {
            raw = probeRaw();
        }
        return raw;
    }

    private static Optional<String> probeRaw() {
        try (RawIpLowerLayer l = RawIpLowerLayer.builder().ipv6(false).open()) {
            // opened and closed at once: raw IP works here
        } catch (RawSocketPermissionException e) {
            return Optional.of(e.getMessage());
        } catch (IOException | RuntimeException e) {
            return Optional.of("raw IP sockets unavailable: " + e.getMessage());
        }
        if (!Shell.has("ip")) {
            return Optional.of("raw IP cases need the ip program (iproute2) for network namespaces");
        }
        String probe =
                "sctpj-iu-probe-" + Long.toHexString(ThreadLocalRandom.current().nextLong() & 0xffffffL);
        try {
            Shell.run("ip", "netns", "add", probe);
        } catch (IOException e) {
            return Optional.of("raw IP cases need CAP_SYS_ADMIN (root) for network namespaces: " + e.getMessage());
        } finally {
            try {
                Shell.run("ip", "netns", "delete", probe);
            } catch (IOException e) {
                // not created
            }
        }
        return Optional.empty();
    }

    /** Why nftables rules (loss, path cuts) cannot be set here, or empty. */
    static synchronized Optional<String> nftUnavailable() {
        if (nft == null) {
            if (!Shell.has("nft")) {
                nft = Optional.of("needs nftables (apt-get install nftables) for random loss and path cuts");
            } else {
                try {
                    Shell.run("nft", "list", "tables");
                    nft = Optional.empty();
                } catch (IOException e) {
                    nft = Optional.of("nftables needs CAP_NET_ADMIN (root): " + e.getMessage());
                }
            }
        }
        return nft;
    }

    /** Whether the missing piece is a privilege (skip) rather than a missing tool (fail under CI). */
    static boolean isPrivilege(String reason) {
        return reason.contains("CAP_");
    }
}
