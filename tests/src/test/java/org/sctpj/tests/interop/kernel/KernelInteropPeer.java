package org.sctpj.tests.interop.kernel;

import java.io.IOException;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.sctpj.tests.interop.Direction;
import org.sctpj.tests.interop.InteropCase;
import org.sctpj.tests.interop.Llp;
import org.sctpj.tests.interop.Peer;
import org.sctpj.tests.interop.PeerExtensions;
import org.sctpj.tests.interop.PeerFeatures;
import org.sctpj.tests.interop.PeerJob;
import org.sctpj.tests.interop.PeerResult;
import org.sctpj.tests.interop.Topology;

/**
 * Linux kernel SCTP (Debian's cloud kernel in a qemu VM, {@code interop/kernel/}) as a {@link
 * Peer} of the interop matrix. One VM serves the whole run: it boots at the first kernel cell and
 * stops in {@link #stopVm()} (or at JVM exit). Each job is one {@code kpeer} job in the guest,
 * started through its control port: {@code echo PORT ...} for servers, {@code cstart HOST PORT
 * ...} (a background client that checks every echo) for clients. Our side runs in the VM's
 * namespace ({@link KernelTopology}): raw IPv4 or IPv6 on the taps, or UDP encapsulation to the
 * guest's {@code net.sctp.udp_port}.
 *
 * <p>A kernel client cannot open a second association from the address and port of one that still
 * exists, so {@link PeerRun#kill()} (the restart case) makes it ABORT while nftables drops that
 * ABORT: for our stack the client vanished without a word, as a crashed host would.
 */
public final class KernelInteropPeer implements Peer {
    private static final Duration POLL = Duration.ofMillis(100);
    /** The keys kpeer reports about the extensions, as upeer names them (see {@code PeerExtensions}). */
    private static final List<String> EXTENSION_KEYS = List.of(
            "pr",
            "idata",
            "reconfig",
            "send_failed_events",
            "failed_sent",
            "sr_in",
            "sr_out",
            "sr_denied",
            "ar_events",
            "sc_events",
            "sc_denied",
            "sc_in",
            "sc_out",
            "pr_abandoned",
            "pr_missing",
            "pr_high_lost",
            "pr_counted",
            "pa_added",
            "pa_removed",
            "pa_made_prim",
            "pa_confirmed",
            "asconf_calls");

    private static KernelVm vm;
    private static String bootFailure;
    private static boolean hooked;

    @Override
    public String name() {
        return "kernel";
    }

    @Override
    public Optional<String> unavailable() {
        Optional<String> why = KernelVm.unavailable();
        if (why.isPresent()) {
            // not root: a missing privilege (skipped off CI), named as such for CaseRunner
            return Optional.of("kernel VM unavailable: " + why.get()
                    + (KernelVm.isRoot() ? "" : " (CAP_NET_ADMIN, CAP_SYS_ADMIN)"));
        }
        try {
            vm();
            return Optional.empty();
        } catch (IOException | RuntimeException e) {
            return Optional.of("kernel VM did not start: " + e.getMessage());
        }
    }

    @Override
    public Optional<String> notApplicable(Llp llp, Direction direction, InteropCase c) {
        // every case runs, over every lower layer (multihoming over UDP too: both taps)
        return Optional.empty();
    }

    /** The run's VM, booted on first use (with UDP encapsulation on port 9899). */
    static synchronized KernelVm vm() throws IOException {
        if (vm != null) {
            return vm;
        }
        if (bootFailure != null) {
            throw new IOException(bootFailure);
        }
        try {
            KernelVm v = KernelVm.start("skmx" + (ProcessHandle.current().pid() % 100_000));
            if (!hooked) {
                hooked = true;
                Runtime.getRuntime().addShutdownHook(new Thread(KernelInteropPeer::stopVm, "kernel-vm-stop"));
            }
            vm = v;
            v.ok("sysctl net.sctp.udp_port " + KernelTopology.GUEST_UDP_PORT);
            System.out.println("interop: kernel VM " + v.namespace() + " booted in "
                    + v.bootTime().toMillis() + " ms");
            return v;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            bootFailure = "interrupted while booting";
            throw new IOException(bootFailure, e);
        } catch (IOException | RuntimeException e) {
            bootFailure = String.valueOf(e.getMessage());
            throw e;
        }
    }

    /** Stops the VM if one runs (idempotent; a later cell would boot a new one). */
    public static synchronized void stopVm() {
        if (vm != null) {
            try {
                vm.close();
            } catch (IOException e) {
                System.err.println("interop: stopping the kernel VM: " + e.getMessage());
            }
            vm = null;
        }
    }

    @Override
    public Topology topology(Llp llp, boolean multihomed) throws IOException {
        return new KernelTopology(vm().namespace(), llp, multihomed);
    }

    @Override
    public PeerRun start(PeerJob job, Topology topology) throws IOException {
        KernelVm v = vm();
        StringBuilder o = new StringBuilder();
        List<InetAddress> local = job.localAddresses();
        o.append(" --streams ").append(job.streams()).append(" --nodelay");
        o.append(" --bind ").append(local.get(0).getHostAddress());
        for (InetAddress a : local.subList(1, local.size())) {
            o.append(" --bindx ").append(a.getHostAddress());
        }
        if (job.heartbeatMillis() >= 0) {
            o.append(" --hb ").append(job.heartbeatMillis());
        }
        if (job.rtoMinMillis() > 0) {
            o.append(" --rto-min ").append(job.rtoMinMillis());
        }
        if (job.rtoMaxMillis() > 0) {
            o.append(" --rto-max ").append(job.rtoMaxMillis());
        }
        if (job.rtoInitialMillis() > 0) {
            o.append(" --rto-initial ").append(job.rtoInitialMillis());
        }
        if (job.pathMaxRetrans() > 0) {
            o.append(" --pmr ").append(job.pathMaxRetrans());
        }
        if (job.bufferBytes() > 0) {
            o.append(" --buf ").append(job.bufferBytes());
        }
        PeerExtensions ext = job.extensions();
        for (String a : ext.args()) {
            o.append(' ').append(a);
        }
        // The extensions' sysctls (net.sctp.*): intl_enable lets a socket offer I-DATA at all;
        // reconf_enable makes new endpoints offer RE-CONFIG (kpeer also sets SCTP_RECONFIG_SUPPORTED);
        // prsctp_enable is the kernel's default (1). Per job, so the other cases see the defaults.
        v.ok("sysctl net.sctp.intl_enable " + (ext.idata() ? 1 : 0));
        v.ok("sysctl net.sctp.reconf_enable " + (ext.reconfig() ? 1 : 0));
        v.ok("sysctl net.sctp.prsctp_enable 1");
        // Issue 13: auth_enable (default 0) before the socket is made; ecn_enable is 1 by default.
        PeerFeatures f = job.features();
        for (int t : f.authChunks()) {
            o.append(" --auth-chunk ").append(t);
        }
        if (f.keyId() >= 0) {
            o.append(" --auth-key ").append(f.keyArg());
        }
        if (f.switchAt() > 0) {
            o.append(" --auth-switch-at ").append(f.switchAt());
        }
        for (String a : f.asconf().args()) {
            o.append(' ').append(a);
        }
        // ASCONF (RFC 5061): addip_enable before the socket is made; Linux then requires AUTH for
        // ASCONF (unless addip_noauth_enable), as we do, so auth_enable goes with it.
        boolean asconf = f.asconf().offer();
        v.ok("sysctl net.sctp.addip_enable " + (asconf ? 1 : 0));
        v.ok("sysctl net.sctp.auth_enable " + (f.auth() || asconf ? 1 : 0));
        if (f.ecn()) {
            v.ok("sysctl net.sctp.ecn_enable 1");
        }
        String cmd;
        boolean server = job.role() == PeerJob.Role.ECHO_SERVER;
        if (server) {
            if (local.get(0) instanceof Inet6Address) {
                o.append(" --6");
            }
            if (job.messages() > 0) {
                o.append(" --after ").append(job.messages());
            }
            if (job.end() == PeerJob.End.ABORT) {
                o.append(" --abort");
            }
            cmd = "echo " + job.port() + o;
        } else {
            o.append(" --lport ").append(job.port());
            o.append(" -n ").append(job.messages()).append(" -z ").append(job.size());
            o.append(" -k ").append(job.streams()).append(" --ppid ").append(job.ppidBase() & 0xffffffffL);
            if (job.unordered()) {
                o.append(" --unordered");
            }
            switch (job.end()) {
                case SHUTDOWN -> {}
                case ABORT -> o.append(" --abort");
                case BY_OTHER_SIDE -> o.append(" --wait-end");
            }
            if (job.udpPort() > 0) {
                o.append(" --encap ").append(job.remoteUdpPort());
            }
            if (job.pauseAt() > 0) {
                o.append(" --pause-at ").append(job.pauseAt());
            }
            o.append(" --timeout ").append(Math.max(1, job.timeout().toSeconds()));
            cmd = "cstart " + job.peerAddresses().get(0).getHostAddress() + " " + job.peerPort() + o;
        }
        Run r = new Run(v, server, (KernelTopology) topology);
        String answer = r.send(cmd);
        if (!answer.startsWith("ok")) {
            throw new IOException("the guest refused \"" + cmd + "\": " + answer);
        }
        r.job = KernelVm.field(answer, "job").orElseThrow(() -> new IOException("no job= in " + answer));
        return r;
    }

    /** One kpeer job in the guest. */
    private static final class Run implements PeerRun {
        private final KernelVm vm;
        private final boolean server;
        private final KernelTopology topology;
        private final StringBuilder log = new StringBuilder();
        private String job;
        private boolean stopped;
        private String stopAnswer;

        Run(KernelVm vm, boolean server, KernelTopology topology) {
            this.vm = vm;
            this.server = server;
            this.topology = topology;
        }

        synchronized String send(String command) throws IOException {
            log.append("> ").append(command).append('\n');
            String a = vm.command(command);
            log.append("< ").append(a).append('\n');
            return a;
        }

        @Override
        public void awaitReady(Duration timeout) {
            // a server answers once it listens; a client is started (and connecting) when it answers
        }

        @Override
        public PeerResult awaitResult(Duration timeout) throws InterruptedException {
            long end = System.nanoTime() + timeout.toNanos();
            try {
                if (server) {
                    // the server's result: its counters once its associations have ended
                    boolean done = false;
                    while (System.nanoTime() < end) {
                        String s = send("status " + job);
                        long up = num(s, "up");
                        if (up >= 1 && num(s, "open") == 0) {
                            done = true;
                            break;
                        }
                        Thread.sleep(POLL.toMillis());
                    }
                    String s = stop();
                    return serverResult(s, done ? null : "timeout");
                }
                while (System.nanoTime() < end) {
                    String a = send("result " + job);
                    if (a.startsWith("ok done ")) {
                        stop();
                        return clientResult(a.substring("ok done ".length()));
                    }
                    Thread.sleep(POLL.toMillis());
                }
                stop();
                return new PeerResult(Map.of("status", "timeout", "errors", "1", "first_error", "no result"));
            } catch (IOException e) {
                return new PeerResult(Map.of("status", "fail", "errors", "1", "first_error", e.toString()));
            }
        }

        private static long num(String answer, String key) {
            return KernelVm.field(answer, key).map(Long::parseLong).orElse(-1L);
        }

        private static PeerResult serverResult(String s, String forcedStatus) {
            Map<String, String> m = new HashMap<>();
            long errors = num(s, "errors");
            m.put("status", forcedStatus != null ? forcedStatus : errors == 0 ? "ok" : "fail");
            m.put("assocs_up", String.valueOf(num(s, "up")));
            m.put("assocs_ended", String.valueOf(num(s, "shutdown") + num(s, "lost")));
            m.put("comm_lost", String.valueOf(num(s, "lost")));
            m.put("restarts", String.valueOf(num(s, "restart")));
            m.put("peer_shutdown", String.valueOf(num(s, "peer_shutdown")));
            m.put("ostreams", String.valueOf(num(s, "ostreams")));
            m.put("istreams", String.valueOf(num(s, "istreams")));
            m.put("rx_msgs", String.valueOf(num(s, "msgs")));
            m.put("echoed", String.valueOf(num(s, "echoed")));
            m.put("errors", String.valueOf(errors));
            m.put("first_error", KernelVm.field(s, "first_error").orElse("-"));
            for (String k : EXTENSION_KEYS) {
                KernelVm.field(s, k).ifPresent(v -> m.put(k, v));
            }
            return new PeerResult(m);
        }

        private static PeerResult clientResult(String line) {
            if (!line.startsWith("ok client")) {
                return new PeerResult(Map.of("status", "fail", "errors", "1", "first_error", line));
            }
            Map<String, String> m = new HashMap<>(serverResult(line, null).values());
            // a client receives the echoes: those are its messages
            m.put("rx_msgs", String.valueOf(num(line, "echoed")));
            return new PeerResult(m);
        }

        @Override
        public void awaitPaused(Duration timeout) throws InterruptedException {
            long end = System.nanoTime() + timeout.toNanos();
            try {
                while (System.nanoTime() < end) {
                    String s = send("status " + job);
                    if (s.contains("paused=1")) {
                        return;
                    }
                    if (send("result " + job).startsWith("ok done")) {
                        throw new AssertionError("the kernel client ended before its pause:\n" + output());
                    }
                    Thread.sleep(POLL.toMillis());
                }
            } catch (IOException e) {
                throw new AssertionError("control connection: " + e, e);
            }
            throw new AssertionError("the kernel client did not pause within " + timeout + ":\n" + output());
        }

        @Override
        public void resume() throws IOException {
            send("resume " + job);
        }

        @Override
        public void kill() {
            try {
                topology.dropGuestAborts();
                stop();
            } catch (IOException e) {
                throw new AssertionError("killing the kernel client: " + e, e);
            }
        }

        private synchronized String stop() throws IOException {
            if (!stopped) {
                stopped = true;
                stopAnswer = send("stop " + job);
            }
            return stopAnswer;
        }

        @Override
        public synchronized String output() {
            return log.toString();
        }

        @Override
        public void close() {
            try {
                stop();
            } catch (IOException e) {
                log.append("stop failed: ").append(e).append('\n');
            }
        }
    }
}
