package org.sctpj.bench.scale;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Locale;
import org.sctpj.stack.SctpEvent;
import org.sctpj.stack.SendInfo;

/**
 * The client process of the scale benchmarks: a {@link Swarm} of associations to a {@link
 * ScaleServer}. Modes:
 *
 * <ul>
 *   <li>{@code idle N}: opens N associations (at most 100 handshakes at a time), prints {@code UP
 *       n=N ms=...}, then keeps them (answering heartbeats) until {@code QUIT} on standard input;
 *   <li>{@code active N SECONDS RATE}: opens N associations, then two phases of SECONDS each after
 *       a warm-up of SECONDS/2: saturation (every association keeps one 100-byte message in flight,
 *       the next sent when its echo comes back: round trips per second) and paced (RATE messages per
 *       second over all associations together, round robin, one in flight per association at most:
 *       median and 99th percentile round trip). Prints {@code SAT ...} and {@code PACED ...} lines,
 *       and {@code MARK name} lines when a phase starts and ends (the caller reads the server's
 *       CPU time there);
 *   <li>{@code churn TOTAL WINDOW}: TOTAL associations, at most WINDOW at a time, each opened, sent
 *       one 100-byte message, and once the echo is back closed: even ones with SHUTDOWN, odd ones
 *       with ABORT. Pauses after the first tenth at {@code MARK warm} until {@code GO} on standard
 *       input; prints {@code CHURN ...} with the counts at the end.
 * </ul>
 *
 * <pre>java -cp bench/target/benchmarks.jar org.sctpj.bench.scale.ScaleClient SERVER_UDP_PORT MODE ...</pre>
 */
public final class ScaleClient {
    private ScaleClient() {}

    private static final int SERVER_PORT = 5000;
    /**
     * Handshakes in flight at most: the server's endpoint queues a bounded number of packets of its
     * own (INIT ACKs) at a time, so a larger window only makes INITs time out and retransmit.
     */
    private static final int HANDSHAKE_WINDOW = 100;

    private static volatile boolean quit;
    private static volatile boolean go;

    /** Runs one mode; see the class comment. */
    public static void main(String[] args) throws Exception {
        int udp = Integer.parseInt(args[0]);
        String mode = args[1];
        Thread stdin = new Thread(() -> {
            try {
                BufferedReader r = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
                String l;
                while ((l = r.readLine()) != null) {
                    if (l.equals("GO")) {
                        go = true;
                    } else if (l.equals("QUIT")) {
                        break;
                    }
                }
            } catch (Exception e) {
                // end of input: quit
            }
            quit = true;
        });
        stdin.setDaemon(true);
        stdin.start();
        InetAddress server = InetAddress.getByName("127.0.0.1");
        switch (mode) {
            case "idle" -> idle(server, udp, Integer.parseInt(args[2]));
            case "active" -> active(
                    server, udp, Integer.parseInt(args[2]), Integer.parseInt(args[3]), Integer.parseInt(args[4]));
            case "churn" -> churn(server, udp, Integer.parseInt(args[2]), Integer.parseInt(args[3]));
            default -> throw new IllegalArgumentException("mode must be idle, active or churn, was " + mode);
        }
        System.out.flush();
    }

    static void say(String line) {
        System.out.println(line);
        System.out.flush();
    }

    /**
     * Opens every association of the swarm, at most {@link #HANDSHAKE_WINDOW} at a time; an
     * endpoint whose handshake fails (INIT retransmissions exhausted) tries again, at most 3 times.
     */
    private static long openAll(Swarm s) throws Exception {
        int n = s.size();
        java.util.ArrayDeque<Integer> todo = new java.util.ArrayDeque<>();
        for (int i = 0; i < n; i++) {
            todo.add(i);
        }
        int[] tries = new int[n];
        boolean[] isUp = new boolean[n];
        int[] up = {0};
        int[] inFlight = {0};
        int[] failed = {0};
        long t0 = System.nanoTime();
        s.runUntil(t0 + 600_000_000_000L, () -> up[0] + failed[0] == n, new Swarm.Handler() {
            @Override
            public void onEvent(Swarm w, int slot, SctpEvent e, long now) {
                if (e instanceof SctpEvent.AssociationChange c) {
                    switch (c.type()) {
                        case COMMUNICATION_UP -> {
                            if (isUp[slot]) {
                                duplicateUps++; // a second COMMUNICATION_UP: counted, not re-counted
                            } else {
                                isUp[slot] = true;
                                up[0]++;
                                inFlight[0]--;
                            }
                        }
                        case COMMUNICATION_LOST, CANT_START -> {
                            inFlight[0]--;
                            retries++;
                            if (++tries[slot] < 3) {
                                todo.add(slot);
                            } else {
                                failed[0]++;
                            }
                        }
                        default -> {}
                    }
                }
            }

            @Override
            public void onTurn(Swarm w, long now) {
                while (!todo.isEmpty() && inFlight[0] < HANDSHAKE_WINDOW) {
                    inFlight[0]++;
                    w.connect(todo.poll(), SERVER_PORT, now);
                }
            }
        });
        long ms = (System.nanoTime() - t0) / 1_000_000;
        if (failed[0] > 0 || up[0] != n) {
            throw new IllegalStateException(up[0] + " of " + n + " associations came up, " + failed[0] + " failed");
        }
        return ms;
    }

    /** Handshakes that failed and were tried again, in {@link #openAll}. */
    private static long retries;

    /**
     * COMMUNICATION_UP events beyond the first of an endpoint's association in {@link #openAll}:
     * seen (374 in 10,374) when opening 10^4 at a load average above 300; not explained yet.
     */
    private static long duplicateUps;

    private static void idle(InetAddress server, int udp, int n) throws Exception {
        try (Swarm s = new Swarm(n, ScaleServer.OPTIONS, server, udp)) {
            long ms = openAll(s);
            say("UP n=" + n + " ms=" + ms + " retries=" + retries + " duplicate_ups=" + duplicateUps + " drops="
                    + s.sendDrops());
            long[] lost = {0};
            s.runUntil(Long.MAX_VALUE, () -> quit, (w, slot, e, now) -> {
                if (e instanceof SctpEvent.AssociationChange c
                        && c.type() == SctpEvent.AssociationChangeType.COMMUNICATION_LOST) {
                    lost[0]++;
                }
            });
            say("IDLE-END lost=" + lost[0] + " drops=" + s.sendDrops() + " in=" + s.datagramsIn() + " out="
                    + s.datagramsOut());
        }
    }

    private static ByteBuffer stamped(long now) {
        ByteBuffer b = ByteBuffer.allocate(100);
        b.putLong(0, now);
        return b;
    }

    private static void active(InetAddress server, int udp, int n, int seconds, int rate) throws Exception {
        try (Swarm s = new Swarm(n, ScaleServer.OPTIONS, server, udp)) {
            long ms = openAll(s);
            say("UP n=" + n + " ms=" + ms + " retries=" + retries);
            boolean[] inFlight = new boolean[n];
            long[] rtts = new long[4_000_000];
            int[] rttCount = {0};
            long[] echoes = {0};
            boolean[] measuring = {false};
            boolean[] saturating = {true};
            long[] lost = {0};
            SendInfo info = SendInfo.of(0, 0);
            Swarm.Handler h = new Swarm.Handler() {
                @Override
                public void onEvent(Swarm w, int slot, SctpEvent e, long now) {
                    if (e instanceof SctpEvent.MessageReceived m) {
                        inFlight[slot] = false;
                        if (measuring[0]) {
                            echoes[0]++;
                            if (rttCount[0] < rtts.length) {
                                rtts[rttCount[0]++] =
                                        now - ByteBuffer.wrap(m.data()).getLong(0);
                            }
                        }
                        if (saturating[0]) {
                            inFlight[slot] = w.send(slot, info, stamped(now), now);
                        }
                    } else if (e instanceof SctpEvent.AssociationChange c
                            && c.type() == SctpEvent.AssociationChangeType.COMMUNICATION_LOST) {
                        lost[0]++;
                    }
                }
            };
            // Saturation: one message in flight per association.
            long now = System.nanoTime();
            for (int i = 0; i < n; i++) {
                inFlight[i] = s.send(i, info, stamped(now), now);
            }
            long warm = seconds * 500_000_000L;
            long len = seconds * 1_000_000_000L;
            s.runUntil(System.nanoTime() + warm, () -> false, h);
            say("MARK sat-start");
            measuring[0] = true;
            long cpu0 = ScaleServer.processCpuNanos();
            long t0 = System.nanoTime();
            s.runUntil(t0 + len, () -> false, h);
            long t1 = System.nanoTime();
            long cpu1 = ScaleServer.processCpuNanos();
            measuring[0] = false;
            say("MARK sat-end");
            say(String.format(
                    Locale.ROOT,
                    "SAT n=%d round_trips_per_s=%.0f p50_us=%.0f p99_us=%.0f lost=%d drops=%d client_cpu_pct=%.0f",
                    n,
                    echoes[0] * 1e9 / (t1 - t0),
                    pct(rtts, rttCount[0], 0.50) / 1e3,
                    pct(rtts, rttCount[0], 0.99) / 1e3,
                    lost[0],
                    s.sendDrops(),
                    (cpu1 - cpu0) * 100.0 / (t1 - t0)));
            // Drain: let the saturation's messages come back.
            saturating[0] = false;
            s.runUntil(System.nanoTime() + 2_000_000_000L, () -> false, h);
            // Paced: RATE messages per second in all, round robin over the associations.
            echoes[0] = 0;
            rttCount[0] = 0;
            long[] skipped = {0};
            long[] sent = {0};
            long period = 1_000_000_000L / rate;
            long[] due = {System.nanoTime()};
            int[] cursor = {0};
            Swarm.Handler paced = new Swarm.Handler() {
                @Override
                public void onEvent(Swarm w, int slot, SctpEvent e, long t) {
                    h.onEvent(w, slot, e, t);
                }

                @Override
                public void onTurn(Swarm w, long t) {
                    while (due[0] <= t) {
                        int slot = cursor[0];
                        cursor[0] = (slot + 1) % n;
                        due[0] += period;
                        if (inFlight[slot]) {
                            skipped[0]++;
                            continue;
                        }
                        inFlight[slot] = w.send(slot, info, stamped(t), t);
                        sent[0]++;
                    }
                }
            };
            s.runUntil(System.nanoTime() + warm, () -> false, paced);
            say("MARK paced-start");
            measuring[0] = true;
            sent[0] = 0;
            skipped[0] = 0;
            cpu0 = ScaleServer.processCpuNanos();
            t0 = System.nanoTime();
            s.runUntil(t0 + len, () -> false, paced);
            t1 = System.nanoTime();
            cpu1 = ScaleServer.processCpuNanos();
            measuring[0] = false;
            say("MARK paced-end");
            say(String.format(
                    Locale.ROOT,
                    "PACED n=%d rate=%d echoes_per_s=%.0f p50_us=%.0f p99_us=%.0f sent=%d skipped=%d lost=%d drops=%d"
                            + " client_cpu_pct=%.0f",
                    n,
                    rate,
                    echoes[0] * 1e9 / (t1 - t0),
                    pct(rtts, rttCount[0], 0.50) / 1e3,
                    pct(rtts, rttCount[0], 0.99) / 1e3,
                    sent[0],
                    skipped[0],
                    lost[0],
                    s.sendDrops(),
                    (cpu1 - cpu0) * 100.0 / (t1 - t0)));
        }
    }

    static double pct(long[] v, int n, double p) {
        if (n == 0) {
            return Double.NaN;
        }
        long[] c = Arrays.copyOf(v, n);
        Arrays.sort(c);
        return c[Math.min(n - 1, (int) Math.floor(p * n))];
    }

    private static final int FREE = 0;
    private static final int CONNECTING = 1;
    private static final int SENT = 2;
    private static final int CLOSING = 3;

    private static void churn(InetAddress server, int udp, int total, int window) throws Exception {
        try (Swarm s = new Swarm(window, ScaleServer.OPTIONS, server, udp)) {
            int[] state = new int[window];
            int[] echoesOf = new int[window];
            long[] seq = new long[window];
            long[] opened = {0};
            long[] closed = {0};
            long[] echoes = {0};
            long[] duplicates = {0};
            long[] lostBeforeEcho = {0};
            long[] aborts = {0};
            long warmAt = total / 10;
            boolean[] paused = {false};
            SendInfo info = SendInfo.of(0, 0);
            long t0 = System.nanoTime();
            Swarm.Handler h = new Swarm.Handler() {
                @Override
                public void onEvent(Swarm w, int slot, SctpEvent e, long now) {
                    if (e instanceof SctpEvent.MessageReceived) {
                        echoes[0]++;
                        if (++echoesOf[slot] > 1) {
                            duplicates[0]++;
                            return;
                        }
                        state[slot] = CLOSING;
                        if (seq[slot] % 2 == 0) {
                            w.shutdown(slot, now);
                        } else {
                            w.abort(slot, now);
                            aborts[0]++;
                            free(slot);
                        }
                    } else if (e instanceof SctpEvent.AssociationChange c) {
                        switch (c.type()) {
                            case COMMUNICATION_UP -> {
                                state[slot] = SENT;
                                echoesOf[slot] = 0;
                                w.send(slot, info, ByteBuffer.allocate(100), now);
                            }
                            case SHUTDOWN_COMPLETE -> free(slot);
                            case COMMUNICATION_LOST, CANT_START -> {
                                if (state[slot] == CONNECTING || state[slot] == SENT) {
                                    lostBeforeEcho[0]++;
                                }
                                free(slot);
                            }
                            default -> {}
                        }
                    }
                }

                private void free(int slot) {
                    if (state[slot] != FREE) {
                        state[slot] = FREE;
                        closed[0]++;
                    }
                }

                @Override
                public void onTurn(Swarm w, long now) {
                    if (paused[0]) {
                        return;
                    }
                    for (int i = 0; i < window && opened[0] < total; i++) {
                        if (opened[0] == warmAt && closed[0] < warmAt) {
                            return; // the warm-up's associations end before the mark
                        }
                        if (opened[0] == warmAt && closed[0] == warmAt && !go) {
                            paused[0] = true;
                            say("MARK warm opened=" + opened[0]);
                            return;
                        }
                        if (state[i] == FREE) {
                            state[i] = CONNECTING;
                            seq[i] = opened[0]++;
                            w.connect(i, SERVER_PORT, now);
                        }
                    }
                }
            };
            while (closed[0] < total) {
                s.runUntil(Long.MAX_VALUE, () -> paused[0] || closed[0] >= total || quit, h);
                if (quit) {
                    break;
                }
                if (paused[0]) {
                    while (!go && !quit) {
                        Thread.sleep(10);
                    }
                    paused[0] = false;
                }
            }
            long ms = (System.nanoTime() - t0) / 1_000_000;
            say(String.format(
                    Locale.ROOT,
                    "CHURN total=%d window=%d opened=%d closed=%d echoes=%d duplicates=%d lost_before_echo=%d"
                            + " aborts=%d client_live=%d ms=%d drops=%d",
                    total,
                    window,
                    opened[0],
                    closed[0],
                    echoes[0],
                    duplicates[0],
                    lostBeforeEcho[0],
                    aborts[0],
                    s.liveAssociations(),
                    ms,
                    s.sendDrops()));
            while (!quit) {
                Thread.sleep(10);
            }
        }
    }
}
