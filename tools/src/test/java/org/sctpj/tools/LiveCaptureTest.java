package org.sctpj.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sctpj.trace.TsharkJudge;
import org.sctpj.trace.Verdict;

/**
 * {@code --pcap FILE} captures a live run through the APIs' layer decorators (the callback API's
 * {@code LowerLayerFactory.decorated} and the socket API's {@code SctpProvider.withLayerDecorator},
 * both with {@code PcapCapture::wrap}), and tshark decodes every captured frame as SCTP with no
 * malformed packet, no bad checksum, no expert warning.
 */
class LiveCaptureTest {

    private static final Pattern PORT = Pattern.compile("SCTP in UDP, port (\\d+)");

    private static Verdict judge(CommandLineTest.Run r, Path pcap) throws Exception {
        assertEquals(0, r.code(), r.err());
        Matcher m = PORT.matcher(r.out() + r.err());
        assertTrue(m.find(), "the run says which UDP port to decode: " + r.out() + r.err());
        Verdict v = new TsharkJudge("tshark", Integer.parseInt(m.group(1))).judge(pcap);
        assertTrue(v.clean(), v.report());
        assertEquals(0, v.malformed(), v.report());
        for (int type : new int[] {0, 1, 2, 3, 10, 11, 7, 8, 14}) { // DATA INIT INIT-ACK SACK COOKIE.. SHUTDOWN..
            assertTrue(v.chunkTypes().contains(type), "chunk type " + type + " captured: " + v.chunkTypes());
        }
        return v;
    }

    @Test
    void perfCallbackApiCaptureDecodesClean(@TempDir Path dir) throws Exception {
        Path pcap = dir.resolve("perf.pcap");
        Verdict v = judge(
                CommandLineTest.run("perf", "--sizes", "1000", "--duration", "200ms", "--pcap", pcap.toString()), pcap);
        assertTrue(v.packets() > 100, v.summary());
    }

    @Test
    void perfSocketApiCaptureDecodesClean(@TempDir Path dir) throws Exception {
        Path pcap = dir.resolve("perf-socket.pcap");
        judge(
                CommandLineTest.run(
                        "perf", "--api", "socket", "--sizes", "1000", "--duration", "200ms", "--pcap", pcap.toString()),
                pcap);
    }

    @Test
    void echoCaptureDecodesClean(@TempDir Path dir) throws Exception {
        Path pcap = dir.resolve("echo.pcap");
        Verdict v = judge(CommandLineTest.run("echo", "--count", "20", "--pcap", pcap.toString()), pcap);
        assertTrue(v.packets() >= 40, v.summary());
    }
}
