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
 * over UDP encapsulation: both sides require DATA and SACK authenticated (ours through {@link
 * org.sctpj.stack.SctpOptions#authChunks()}, the kernel's echo server through {@code kpeer
 * --auth-chunk}, SCTP_AUTH_CHUNK), so every data packet either way carries an AUTH chunk the other
 * implementation computed and verifies (a packet that fails is discarded and the echo never
 * arrives). 100 messages on 4 streams, some fragmented, then a graceful shutdown.
 */
class KernelAuthInteropTest {

    @Test
    @Timeout(value = 20, unit = TimeUnit.MINUTES)
    void kernelAndOurClientVerifyEachOthersHmacs() throws Exception {
        Optional<String> why = KernelVm.unavailable();
        Requirements.need(why.isEmpty(), () -> "kernel VM unavailable: " + why.orElse(""));
        try (KernelVm vm = KernelVm.start()) {
            vm.ok("sysctl net.sctp.udp_port 9899");
            vm.ok("sysctl net.sctp.auth_enable 1");
            // The kernel requires DATA and SACK authenticated too: it verifies our HMACs.
            String server = vm.ok("echo 7001 --streams 4 --bind " + KernelVm.GUEST + " --auth-chunk 0 --auth-chunk 3");
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
