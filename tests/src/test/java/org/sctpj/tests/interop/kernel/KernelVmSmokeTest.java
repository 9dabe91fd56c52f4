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
 * Boots the Linux kernel SCTP VM and checks that an sctpj client talks to the kernel's SCTP over
 * UDP encapsulation (RFC 6951): 100 messages on 4 streams echoed by the kernel, then a graceful
 * shutdown. The sctpj side runs in a child JVM inside the VM's network namespace ({@link
 * UdpEchoCheck}). Skipped, with the reason, where the VM cannot run (not root, not Linux).
 */
class KernelVmSmokeTest {

    @Test
    @Timeout(value = 20, unit = TimeUnit.MINUTES) // the first run installs packages; later runs take about a minute
    void kernelEchoesSctpjMessagesOverUdpEncapsulation() throws Exception {
        Optional<String> why = KernelVm.unavailable();
        Requirements.need(why.isEmpty(), () -> "kernel VM unavailable: " + why.orElse(""));
        try (KernelVm vm = KernelVm.start()) {
            System.out.println("kernel VM " + vm.namespace() + " booted in "
                    + vm.bootTime().toMillis() + " ms");
            assertEquals("ok pong", vm.command("ping"));
            vm.ok("sysctl net.sctp.udp_port 9899");
            String server = vm.ok("echo 7000 --streams 4 --bind " + KernelVm.GUEST + " --bindx " + KernelVm.GUEST2);
            String job = KernelVm.field(server, "job").orElseThrow();

            KernelVm.Result r = vm.runInNamespace(
                    KernelVm.javaCommand(UdpEchoCheck.class, KernelVm.HOST, KernelVm.GUEST, "7000", "100", "4"),
                    Duration.ofSeconds(90));
            System.out.println("sctpj client: " + r.output().strip());
            assertEquals(0, r.exitCode(), () -> "sctpj client failed: " + r.output());
            assertTrue(r.output().contains("ok messages=100"), r.output());

            String stats = vm.ok("stop " + job);
            System.out.println("kernel echo server: " + stats);
            assertEquals("100", KernelVm.field(stats, "msgs").orElse(""), stats);
            assertEquals("1", KernelVm.field(stats, "up").orElse(""), stats);
            assertEquals("1", KernelVm.field(stats, "shutdown").orElse(""), stats);
            assertEquals("0", KernelVm.field(stats, "lost").orElse(""), stats);
            assertEquals("0", KernelVm.field(stats, "errors").orElse(""), stats);
            String snmp = vm.ok("snmp");
            assertEquals("0", KernelVm.field(snmp, "SctpChecksumErrors").orElse(""), snmp);
            assertEquals("0", KernelVm.field(snmp, "SctpAborteds").orElse(""), snmp);
        }
    }
}
