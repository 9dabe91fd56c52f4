package org.sctpj.llp.raw;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.sctpj.nativeio.Linux;
import org.sctpj.nativeio.Native;

/** The error a user without CAP_NET_RAW gets: it says what is missing and what to use instead. */
class RawSocketPermissionTest {

    @Test
    void epermAndEaccesSayCapNetRawAndSuggestUdpEncapsulation() throws IOException {
        Native.libc();
        for (int errno : new int[] {Linux.EPERM, Linux.EACCES}) {
            IOException e = RawSocket.socketError(errno, "IPv4");
            assertInstanceOf(RawSocketPermissionException.class, e);
            String m = e.getMessage();
            assertTrue(m.contains("raw IPv4 socket"), m);
            assertTrue(m.contains("CAP_NET_RAW"), m);
            assertTrue(m.contains("root"), m);
            assertTrue(m.contains("UDP encapsulation"), m);
            assertTrue(m.contains("llp-udp-encap"), m);
            assertTrue(m.contains("(errno " + errno + ")"), m);
        }
    }

    @Test
    void missingFamilyIsNotAPermissionProblem() throws IOException {
        Native.libc();
        IOException e = RawSocket.socketError(Linux.EAFNOSUPPORT, "IPv6");
        assertInstanceOf(RawSocket.FamilyUnsupportedException.class, e);
        assertTrue(e.getMessage().contains("no raw IPv6 sockets"), e.getMessage());
        IOException other = RawSocket.socketError(24, "IPv4"); // EMFILE
        assertFalse(other instanceof RawSocketPermissionException);
        assertTrue(other.getMessage().contains("errno 24"), other.getMessage());
    }

    @Test
    void aChildJvmWithoutCapNetRawGetsTheMessage() throws Exception {
        VethPair.assumeRoot();
        assumeTrue(Files.isExecutable(Path.of("/usr/bin/setpriv")), "needs setpriv (util-linux) to drop CAP_NET_RAW");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        // Stay root (so the class path is readable) but without CAP_NET_RAW in any set.
        List<String> cmd = List.of(
                "setpriv",
                "--bounding-set=-net_raw",
                "--inh-caps=-net_raw",
                java,
                "-cp",
                System.getProperty("java.class.path"),
                PermissionProbe.class.getName());
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "child JVM did not finish");
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, p.exitValue(), out);
        List<String> lines = out.lines().filter(l -> !l.isBlank()).toList();
        assertEquals(RawSocketPermissionException.class.getName(), lines.get(lines.size() - 2), out);
        String m = lines.get(lines.size() - 1);
        assertTrue(
                m.startsWith("cannot open a raw IPv4 socket for SCTP (protocol 132): Operation not permitted"
                        + " (errno 1). Raw SCTP needs CAP_NET_RAW"),
                m);
        assertTrue(m.contains("llp-udp-encap"), m);
    }
}
