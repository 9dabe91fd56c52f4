package org.sctpj.tools;

import com.sun.nio.sctp.MessageInfo;
import java.io.Closeable;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.sctpj.api.callback.CallbackSocket;
import org.sctpj.api.callback.Callbacks;
import org.sctpj.api.callback.LowerLayerFactory;
import org.sctpj.api.socket.SctpjChannel;
import org.sctpj.api.socket.SctpjMessageInfo;
import org.sctpj.api.socket.SctpjSocketOptions;
import org.sctpj.stack.AssociationId;
import org.sctpj.stack.SctpEvent;
import org.sctpj.stack.SctpOptions;
import org.sctpj.stack.SendInfo;
import org.sctpj.stack.SendStatus;
import org.sctpj.timers.StackConfig;
import org.sctpj.timers.StackRuntime;
import org.sctpj.trace.PcapCapture;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code echo}: echo server (callback API: each message is sent back from inside the receive
 * callback, on the same stream and PPID; what the send buffer refuses waits for the send callback)
 * and echo client (socket API: blocking send and receive, checking every byte and measuring round
 * trips); without a role, both in this process over loopback.
 */
@Command(
        name = "echo",
        mixinStandardHelpOptions = true,
        sortOptions = false,
        description = {
            "Echo server (callback API) and client (socket API, checks every echo, prints round-trip times).",
            "ROLE: server, client, or none for both in this process over loopback."
        })
public final class Echo implements Callable<Integer> {

    /** Which side runs. */
    enum Role {
        /** The callback echo server, until interrupted. */
        server,
        /** The socket-API client. */
        client,
        /** Both, in this process. */
        loopback
    }

    @Spec
    CommandLine.Model.CommandSpec spec;

    @Parameters(arity = "0..1", paramLabel = "ROLE", description = "server, client or loopback (the default)")
    Role role = Role.loopback;

    @Option(names = "--host", paramLabel = "H", description = "server: address to bind; client: the server (127.0.0.1)")
    String host = "127.0.0.1";

    @Option(names = "--port", paramLabel = "P", converter = Args.Port.class, description = "server SCTP port (5002)")
    int port = 5002;

    @Option(
            names = "--udp-port",
            paramLabel = "U",
            converter = Args.Port.class,
            description = "server: local UDP port (9899; 0 for an ephemeral one, printed)")
    int udpPort = 9899;

    @Option(
            names = "--remote-udp-port",
            paramLabel = "U",
            converter = Args.Port.class,
            description = "client: the server's UDP port (9899)")
    int remoteUdpPort = 9899;

    @Option(names = "--count", paramLabel = "N", converter = Args.Positive.class, description = "messages (1000)")
    int count = 1000;

    @Option(
            names = "--size",
            paramLabel = "S",
            converter = Args.MessageSize.class,
            description = "bytes per message (100)")
    int size = 100;

    @Option(names = "--streams", paramLabel = "N", converter = Args.StreamCount.class, description = "streams (1)")
    int streams = 1;

    @Option(
            names = "--pcap",
            paramLabel = "FILE",
            description = "capture the traffic to a pcap file (loopback and client: the client's side; server: the"
                    + " server's)")
    Path pcap;

    @Option(
            names = "--journal",
            paramLabel = "DIR",
            description = "record the server's endpoint to a journal in DIR/port-PORT (for replay, journal, stats)")
    Path journal;

    @Option(names = "--csv", description = "client and loopback: the result as CSV on standard output")
    boolean csv;

    @Option(names = "--json", description = "client and loopback: the result as JSON on standard output")
    boolean json;

    /** How the client prints its result. */
    enum Format {
        /** One sentence. */
        TEXT,
        /** A header line and one row. */
        CSV,
        /** One JSON object. */
        JSON
    }

    /** Picocli's constructor. */
    public Echo() {}

    @Override
    public Integer call() throws Exception {
        InetAddress address = Args.address(spec.commandLine(), host);
        if (csv && json) {
            throw new CommandLine.ParameterException(
                    spec.commandLine(), "--csv and --json exclude each other: choose one");
        }
        if ((csv || json) && role == Role.server) {
            throw new CommandLine.ParameterException(
                    spec.commandLine(),
                    (csv ? "--csv" : "--json") + " applies to the client and loopback runs: the server prints no"
                            + " results");
        }
        Format format = csv ? Format.CSV : json ? Format.JSON : Format.TEXT;
        if (journal != null) {
            Path parent = journal.toAbsolutePath().getParent();
            if (parent == null
                    || !java.nio.file.Files.isDirectory(parent)
                    || java.nio.file.Files.isRegularFile(journal)) {
                throw new CommandLine.ParameterException(
                        spec.commandLine(),
                        "Invalid value for option '--journal': '" + journal
                                + "' is not a directory in an existing one");
            }
        }
        // With --csv or --json, standard output holds the result only; the rest goes to standard error.
        PrintWriter results = spec.commandLine().getOut();
        PrintWriter out = format == Format.TEXT ? results : spec.commandLine().getErr();
        SctpOptions o = Net.profile("lan", true);
        Args.checkWritable(spec.commandLine(), "--pcap", pcap);
        int[] capturedPort = {role == Role.server ? udpPort : remoteUdpPort};
        try (PcapCapture capture = pcap == null ? null : PcapCapture.open(pcap);
                Closeable said = () -> Net.sayCaptured(out, capture, capturedPort[0]);
                StackRuntime rt = StackRuntime.start(2, StackConfig.DEFAULT.withName("echo"));
                // Closed first: associations still ending (a SHUTDOWN COMPLETE on its way) end
                // gracefully instead of being aborted when the process goes.
                Closeable ending = () -> rt.close(true, Net.GRACE.toNanos())) {
            LowerLayerFactory.Decorator wrap = Net.wrapper(capture);
            switch (role) {
                case server -> {
                    int[] udp = new int[1];
                    CallbackSocket s = server(rt, o, address, port, udpPort, udp, wrap, journal);
                    capturedPort[0] = udp[0];
                    out.printf(
                            "echo server on %s SCTP port %d, UDP port %d; Ctrl-C to stop%n",
                            address.getHostAddress(), s.localPort(), udp[0]);
                    out.flush();
                    Thread.currentThread().join();
                    return 0;
                }
                case client -> {
                    return client(
                            out,
                            results,
                            format,
                            rt,
                            o,
                            wrap,
                            new InetSocketAddress(address, port),
                            remoteUdpPort,
                            count,
                            size,
                            streams);
                }
                default -> {
                    int[] udp = new int[1];
                    int p = 5002 + (int) (Math.random() * 1000);
                    CallbackSocket s = server(rt, o, address, p, 0, udp, null, journal);
                    try {
                        capturedPort[0] = udp[0];
                        return client(
                                out,
                                results,
                                format,
                                rt,
                                o,
                                wrap,
                                new InetSocketAddress(address, p),
                                udp[0],
                                count,
                                size,
                                streams);
                    } finally {
                        s.close(true, Net.GRACE); // the client's last SHUTDOWN COMPLETE may still be on its way
                    }
                }
            }
        }
    }

    /** The callback echo server. */
    static CallbackSocket server(
            StackRuntime rt,
            SctpOptions o,
            InetAddress host,
            int port,
            int udpPort,
            int[] udp,
            LowerLayerFactory.Decorator capture,
            Path journal)
            throws IOException {
        Map<AssociationId, ArrayDeque<SctpEvent.MessageReceived>> waiting = new HashMap<>();
        CallbackSocket s =
                CallbackSocket.open(rt.threads().get(0), o, Net.udp(udpPort, null, 0, udp, capture), new Callbacks() {
                    @Override
                    public void onMessage(CallbackSocket s, SctpEvent.MessageReceived m) {
                        ArrayDeque<SctpEvent.MessageReceived> q = waiting.get(m.association());
                        if (q != null && !q.isEmpty()) {
                            q.add(m); // keep the order behind what already waits
                            return;
                        }
                        if (!echo(s, m)) {
                            waiting.computeIfAbsent(m.association(), k -> new ArrayDeque<>())
                                    .add(m);
                        }
                    }

                    @Override
                    public void onSendSpace(CallbackSocket s, AssociationId id, long free) {
                        ArrayDeque<SctpEvent.MessageReceived> q = waiting.get(id);
                        while (q != null && !q.isEmpty() && echo(s, q.peek())) {
                            q.poll();
                        }
                    }

                    @Override
                    public void onAssociationChange(CallbackSocket s, SctpEvent.AssociationChange c) {
                        if (c.type() != SctpEvent.AssociationChangeType.COMMUNICATION_UP
                                && c.type() != SctpEvent.AssociationChangeType.RESTART) {
                            waiting.remove(c.association());
                        }
                    }

                    private boolean echo(CallbackSocket s, SctpEvent.MessageReceived m) {
                        try {
                            return s.send(
                                            m.association(),
                                            new SendInfo(m.streamId(), m.ppid(), m.unordered(), false),
                                            ByteBuffer.wrap(m.data()))
                                    == SendStatus.ACCEPTED;
                        } catch (IllegalStateException e) {
                            return true; // the peer is shutting down: nothing to echo to
                        }
                    }
                });
        s.setSendThreshold(64 * 1024);
        if (journal != null) {
            s.recordTo(org.sctpj.journal.JournalRecorder.factory(journal, b -> b));
        }
        s.bind(port, List.of(host));
        s.listen();
        return s;
    }

    /**
     * The socket-API client: one message at a time, checked, timed; problems go to {@code out},
     * the result to {@code results} in {@code format}.
     */
    static int client(
            PrintWriter out,
            PrintWriter results,
            Format format,
            StackRuntime rt,
            SctpOptions o,
            LowerLayerFactory.Decorator capture,
            InetSocketAddress server,
            int udpPort,
            int count,
            int size,
            int streams)
            throws IOException {
        try (SctpjChannel ch = Net.provider(rt, o, capture).openSctpChannel()) {
            ch.setOption(SctpjSocketOptions.SCTP_REMOTE_UDP_ENCAPS_PORT, udpPort);
            ch.connect(server, Duration.ofSeconds(10));
            ByteBuffer in = ByteBuffer.allocate(size);
            long[] rtt = new long[count];
            byte[] msg = new byte[size];
            for (int i = 0; i < count; i++) {
                Arrays.fill(msg, (byte) i);
                long t0 = System.nanoTime();
                ch.send(
                        ByteBuffer.wrap(msg),
                        SctpjMessageInfo.createOutgoing(null, i % streams).sackImmediately(true));
                in.clear();
                MessageInfo mi = ch.receive(in, null, null, Duration.ofSeconds(10));
                rtt[i] = System.nanoTime() - t0;
                if (mi == null || mi.bytes() != size || !Arrays.equals(in.array(), msg)) {
                    out.println("echo " + i + " wrong or missing: " + mi);
                    return 1;
                }
            }
            ch.shutdown();
            // Wait for the end of the association (SHUTDOWN ACK and COMPLETE exchanged) before the
            // channel and the process go: closing during the shutdown would abort it.
            in.clear();
            MessageInfo end = ch.receive(in, null, null, Duration.ofSeconds(10));
            if (end == null || end.bytes() != -1) {
                out.println("the association did not end after the shutdown: " + end);
                return 1;
            }
            Arrays.sort(rtt);
            double median = rtt[count / 2] / 1e3;
            double p99 = rtt[(int) (count * 0.99)] / 1e3;
            double max = rtt[count - 1] / 1e3;
            switch (format) {
                case CSV -> {
                    results.println("messages,size_bytes,streams,rtt_median_us,rtt_p99_us,rtt_max_us");
                    results.printf(
                            java.util.Locale.ROOT, "%d,%d,%d,%.1f,%.1f,%.1f%n", count, size, streams, median, p99, max);
                }
                case JSON -> results.printf(
                        java.util.Locale.ROOT,
                        "{\"run\":\"echo: socket-API client, callback server, UDP encapsulation\","
                                + "\"units\":{\"rtt\":\"microseconds\"},\"messages\":%d,\"size_bytes\":%d,"
                                + "\"streams\":%d,\"checked\":true,\"rtt_median_us\":%.1f,\"rtt_p99_us\":%.1f,"
                                + "\"rtt_max_us\":%.1f}%n",
                        count,
                        size,
                        streams,
                        median,
                        p99,
                        max);
                default -> results.printf(
                        java.util.Locale.ROOT,
                        "%d echoes of %d bytes checked; round trip: median %.1f us, p99 %.1f us, max %.1f us%n",
                        count,
                        size,
                        median,
                        p99,
                        max);
            }
            results.flush();
            return 0;
        }
    }
}
