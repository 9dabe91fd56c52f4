package org.sctpj.tests.interop;

import java.util.Map;
import java.util.Optional;

/**
 * Cells of the interop matrix that fail today, every time or in some runs, because of a defect
 * not fixed yet (in our stack or in the cell's harness), each with what is known of it. They are
 * not run by default and show as {@code known defect} in the table, never as a pass; {@code
 * -Dsctpj.interop.knownDefects=run} runs them like any other cell (a pass then says the entry may
 * go, a failure fails). The list shrinks as the defects are fixed.
 */
final class KnownDefects {
    private KnownDefects() {}

    private static final String TTL_ECHOES = "intermittent (about one run in three): the peer echoes more"
            + " messages than we count; in the captures we send SHUTDOWN while echoes of messages we"
            + " abandoned after they arrived are still in flight; whether the cell's harness stops"
            + " counting too early or messages received in SHUTDOWN-SENT miss the application is not"
            + " settled";
    private static final String RAW4_PEER_LOSS = "usrsctp as sender over raw IPv4 abandons nothing: the"
            + " 10% random loss of the namespace's nftables rules is not seen on its packets (it is on"
            + " UDP and with the kernel); the cell cannot check abandonment until the bed drops them";
    private static final String IFWD_NONE = "intermittent: 'no message was abandoned under 10% loss' with"
            + " RTX 0 over I-DATA; not yet known whether the loss missed the DATA or our sender failed to"
            + " abandon";
    private static final String RESET_EVENT = "intermittent (2 of 4 runs, UDP and raw IPv4): no performed"
            + " StreamReset event for our outgoing reset while usrsctp's client sends at full speed;"
            + " likely the client ends the association before the request is answered (a request still"
            + " waiting at SHUTDOWN fails), not investigated yet";

    /** Cell name ({@link InteropMatrix.Cell#name()}) to what is known of its defect. */
    static final Map<String, String> CELLS = Map.ofEntries(
            Map.entry("usrsctp udp we-client prsctp-ttl-loss", TTL_ECHOES),
            Map.entry("usrsctp raw4 we-client prsctp-ttl-loss", TTL_ECHOES),
            Map.entry("kernel udp we-client prsctp-ttl-loss", TTL_ECHOES),
            Map.entry("kernel raw4 we-client prsctp-ttl-loss", TTL_ECHOES),
            Map.entry("usrsctp raw4 we-server prsctp-ttl-loss", RAW4_PEER_LOSS),
            Map.entry("usrsctp raw4 we-server prsctp-rtx-loss", RAW4_PEER_LOSS),
            Map.entry("usrsctp raw4 we-server idata-iforward-rtx-loss", RAW4_PEER_LOSS),
            Map.entry("usrsctp udp we-client idata-iforward-rtx-loss", IFWD_NONE),
            Map.entry("usrsctp raw4 we-client idata-iforward-rtx-loss", IFWD_NONE),
            Map.entry("usrsctp udp we-server reconfig-reset-by-us", RESET_EVENT),
            Map.entry("usrsctp raw4 we-server reconfig-reset-by-us", RESET_EVENT));

    /** The defect recorded for this cell, unless the run asks for known defects to be run. */
    static Optional<String> of(String cellName) {
        if ("run".equals(System.getProperty("sctpj.interop.knownDefects"))) {
            return Optional.empty();
        }
        return Optional.ofNullable(CELLS.get(cellName));
    }
}
