package org.sctpj.tests.interop.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.sctpj.tests.Requirements;

/**
 * AUTH (RFC 4895) against the Linux kernel (6.1, in the test VM, {@code net.sctp.auth_enable=1}),
 * over UDP encapsulation: our client offers AUTH and requires DATA and SACK authenticated, so
 * every echo and acknowledgement the kernel sends carries an AUTH chunk that Linux computed and
 * our stack verifies (a packet that fails is discarded and the echo never arrives). 100 messages
 * on 4 streams, some fragmented, then a graceful shutdown. The kernel's own CHUNKS list is empty
 * here (kpeer does not set SCTP_AUTH_CHUNK), so Linux checks no HMAC of ours: that direction is
 * covered against usrsctp.
 */
class KernelAuthInteropTest {

    @Test
    @Timeout(value = 20, unit = TimeUnit.MINUTES)
    void kernelSignsWhatOurClientRequiresAuthenticated() throws Exception {
        Optional<String> why = KernelVm.unavailable();
        Requirements.need(why.isEmpty(), () -> "kernel VM unavailable: " + why.orElse(""));
        try (KernelVm vm = KernelVm.start()) {
            vm.ok("sysctl net.sctp.udp_port 9899");
            vm.ok("sysctl net.sctp.auth_enable 1");
            String server = vm.ok("echo 7001 --streams 4 --bind " + KernelVm.GUEST);
            String job = KernelVm.field(server, "job").orElseThrow();
            KernelVm.Result r = vm.runInNamespace(
                    KernelVm.javaCommand(
                            UdpEchoCheck.class, KernelVm.HOST, KernelVm.GUEST, "7001", "100", "4", "9899", "0,3"),
                    Duration.ofSeconds(90));
            System.out.println("sctpj client with AUTH: " + r.output().strip());
            assertEquals(0, r.exitCode(), () -> "sctpj client failed: " + r.output());
            assertTrue(r.output().contains("ok messages=100"), r.output());
            assertTrue(r.output().contains("auth=1"), () -> "AUTH not negotiated with Linux: " + r.output());
            String stats = vm.ok("stop " + job);
            System.out.println("kernel echo server: " + stats);
            assertEquals("100", KernelVm.field(stats, "msgs").orElse(""), stats);
            assertEquals("0", KernelVm.field(stats, "errors").orElse(""), stats);
        }
    }
}
