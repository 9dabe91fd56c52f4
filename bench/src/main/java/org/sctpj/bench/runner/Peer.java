package org.sctpj.bench.runner;

/**
 * Entry point of one benchmark process started by {@link Runner}: {@code Peer MODE key=value...}.
 * Modes {@code sctp-sink}, {@code sctp-bulk}, {@code sctp-echo}, {@code sctp-ping} (sctpj, {@code
 * api=callback|socket}) and the kernel modes of {@link KernelPeer}. Prints {@code PEER-READY} (servers)
 * and one {@code PEER-RESULT} line.
 */
public final class Peer {
    private Peer() {}

    /** Runs the mode given as the first argument. */
    public static void main(String[] argv) throws Exception {
        if (argv.length < 1) {
            System.err.println("usage: Peer MODE [key=value...]");
            System.exit(64);
        }
        String mode = argv[0];
        Args a = new Args(argv, 1);
        int rc;
        if (mode.startsWith("sctp-")) {
            rc = new SctpPeer(mode.substring(5), a).run();
        } else {
            rc = KernelPeer.run(mode, a);
        }
        System.exit(rc);
    }
}
