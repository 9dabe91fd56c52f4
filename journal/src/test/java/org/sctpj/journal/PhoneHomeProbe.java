package org.sctpj.journal;

import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The child process of {@link NoPhoneHomeTest}: records a short simulated run with the journal,
 * replays it, and prints the verdict. With {@code --control} it first tries a connection to a
 * documentation address (192.0.2.1, RFC 5737), to show that the observation sees such attempts; it
 * runs in a network namespace with only loopback, so nothing leaves the machine.
 */
public final class PhoneHomeProbe {

    private PhoneHomeProbe() {}

    /** Runs the probe; args: the work directory, then optionally {@code --control}. */
    public static void main(String[] args) throws Exception {
        Path dir = Path.of(args[0]);
        if (args.length > 1 && args[1].equals("--control")) {
            try (Socket s = new Socket()) {
                s.connect(new InetSocketAddress("192.0.2.1", 9), 200);
            } catch (java.io.IOException expected) {
                System.out.println("control connection failed as expected: " + expected);
            }
        }
        Files.createDirectories(dir);
        SimulatedRun r = new SimulatedRun(dir.resolve("a"), dir.resolve("z")).run(3, 0.02, 50);
        ReplayResult a = Replay.run(r.dirA);
        System.out.println("analytics enabled: " + net.openhft.chronicle.core.analytics.AnalyticsFacade.isEnabled());
        System.out.print(a.report());
        System.exit(a.identical() ? 0 : 1);
    }
}
