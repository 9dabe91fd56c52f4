package org.sctpj.stack.wire.cause;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.InputStream;
import java.nio.ByteBuffer;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.sctpj.stack.testutil.PcapReader;
import org.sctpj.stack.wire.Bytes;
import org.sctpj.stack.wire.Parsed;
import org.sctpj.stack.wire.chunk.AbortChunk;
import org.sctpj.stack.wire.chunk.Chunks;
import org.sctpj.stack.wire.chunk.UnknownChunk;

/**
 * Error causes captured between real SCTP implementations (the corpus in
 * {@code src/test/resources/corpus}, see its README.md). Each test holds the ERROR or ABORT chunk
 * as a hex literal, checks that the literal really is in the named frame, decodes its causes,
 * checks their fields and re-encodes them to the same bytes.
 */
class CauseCorpusTest {

    /** Decodes the causes of the ERROR/ABORT chunk {@code chunkHex} found in {@code file}, frame {@code frame}. */
    private static List<ErrorCause> causes(String file, int frame, String chunkHex) throws Exception {
        Bytes chunk = Bytes.fromHex(chunkHex);
        assertInFrame(file, frame, chunk);
        ByteBuffer b = chunk.asReadOnlyBuffer();
        int type = chunk.get(0);
        int length = (chunk.get(2) << 8) | chunk.get(3);
        assertEquals(chunk.length(), length, "the literal is the chunk without its trailing padding");
        Parsed<List<ErrorCause>> p = ErrorCauses.decodeList(b, 4, length, type);
        assertTrue(p.isOk(), () -> "decode failed: " + p.error());
        List<ErrorCause> causes = p.value();
        ByteBuffer out = ByteBuffer.allocate(ErrorCauses.listLength(causes));
        ErrorCauses.writeList(causes, out);
        assertEquals(Bytes.copyOf(b, 4, length - 4), Bytes.of(out.array()), "re-encoding changed the bytes");
        return causes;
    }

    private static void assertInFrame(String file, int frame, Bytes chunk) throws Exception {
        try (InputStream in = CauseCorpusTest.class.getResourceAsStream("/corpus/" + file)) {
            PcapReader.SctpFrame f = PcapReader.sctpPackets(in).stream()
                    .filter(x -> x.index() == frame)
                    .findFirst()
                    .orElseThrow();
            String all = HexFormat.of().formatHex(f.sctp());
            assertTrue(all.contains(chunk.toHex()), "chunk not found in " + file + " frame " + frame);
        }
    }

    private static ErrorCause only(List<ErrorCause> causes) {
        assertEquals(1, causes.size(), causes::toString);
        return causes.get(0);
    }

    @Test
    void staleCookieFromLinux() throws Exception {
        // usrsctp-to-kernel_raw_stale-cookie-error.pcap, frame 4: ERROR sent by the Linux 6.1 kernel
        String chunk = "0900000c 00030008 000f6e79";
        StaleCookieCause c = (StaleCookieCause) only(causes("usrsctp-to-kernel_raw_stale-cookie-error.pcap", 4, chunk));
        assertEquals(1011321L, c.stalenessMicrosUnsigned());
    }

    @Test
    void unresolvableHostNameFromLinux() throws Exception {
        // crafted-to-kernel_udp_init-rejected-abort.pcap, frame 2: ABORT sent by the Linux 6.1 kernel
        // for an INIT carrying a Host Name Address; the 25-byte parameter is quoted unpadded
        String chunk = "06000021 0005001d 000b0019 706565722e6578616d706c652e696e76616c696400";
        UnresolvableAddressCause c =
                (UnresolvableAddressCause) only(causes("crafted-to-kernel_udp_init-rejected-abort.pcap", 2, chunk));
        assertEquals(11, c.addressType());
        assertEquals(25, c.address().length());
        assertEquals("peer.example.invalid\0", new String(c.address().toArray(), 4, 21, "US-ASCII"));
    }

    @Test
    void unrecognizedChunkTypesFromLinux() throws Exception {
        // crafted-to-kernel_raw_error-invalid-stream-unrecognized-chunk.pcap, frames 13 and 15: ERRORs sent
        // by the Linux 6.1 kernel for chunk types 0x7E and 0xCE; Linux copies the chunk with its padding
        String file = "crafted-to-kernel_raw_error-invalid-stream-unrecognized-chunk.pcap";
        UnrecognizedChunkTypeCause a =
                (UnrecognizedChunkTypeCause) only(causes(file, 13, "09000014 00060010 7e000009 0102030405000000"));
        assertEquals(0x7e, a.chunkType());
        assertEquals(
                new UnknownChunk(0x7e, 0, Bytes.fromHex("0102030405")),
                a.decodeChunk().value());
        UnrecognizedChunkTypeCause b =
                (UnrecognizedChunkTypeCause) only(causes(file, 15, "09000014 00060010 ce5a000b 736b69702d6d6500"));
        assertEquals(0xce, b.chunkType());
        UnknownChunk quoted = (UnknownChunk) b.decodeChunk().value();
        assertEquals(0x5a, quoted.flags());
        assertEquals("skip-me", new String(quoted.value().toArray(), "US-ASCII"));
    }

    @Test
    void invalidStreamAlongsideFromLinux() throws Exception {
        // same file, frame 10: ERROR (Invalid Stream Identifier 10) sent by the Linux 6.1 kernel
        String file = "crafted-to-kernel_raw_error-invalid-stream-unrecognized-chunk.pcap";
        assertEquals(new InvalidStreamIdentifierCause(10), only(causes(file, 10, "0900000c 00010008 000a0000")));
    }

    @Test
    void noUserDataFromLinux() throws Exception {
        // crafted-to-kernel_udp_abort-no-user-data.pcap, frame 10: ABORT sent by the Linux 6.1 kernel
        String chunk = "0600000c 00090008 333824ff";
        assertEquals(
                new NoUserDataCause(0x333824ff),
                only(causes("crafted-to-kernel_udp_abort-no-user-data.pcap", 10, chunk)));
    }

    @Test
    void cookieWhileShuttingDownFromLinux() throws Exception {
        // crafted-to-kernel_udp_error-cookie-while-shutting-down.pcap, frame 14: ERROR sent by the Linux 6.1 kernel
        String chunk = "09000008 000a0004";
        assertEquals(
                CookieReceivedWhileShuttingDownCause.INSTANCE,
                only(causes("crafted-to-kernel_udp_error-cookie-while-shutting-down.pcap", 14, chunk)));
    }

    @Test
    void userInitiatedAbortWithoutReasonFromLinux() throws Exception {
        // kernel-to-usrsctp_raw_abort-linger0-close.pcap, frame 11: ABORT sent by the Linux 6.1 kernel (SO_LINGER 0)
        String chunk = "06000008 000c0004";
        assertEquals(
                new UserInitiatedAbortCause(Bytes.EMPTY),
                only(causes("kernel-to-usrsctp_raw_abort-linger0-close.pcap", 11, chunk)));
    }

    @Test
    void userInitiatedAbortWithReasonFromLinux() throws Exception {
        // kernel-to-usrsctp_udp_abort-user-cause.pcap, frame 9: ABORT sent by the Linux 6.1 kernel; odd length
        String chunk = "0600001b 000c0017 6b65726e656c2d636c69656e742d61626f7274";
        UserInitiatedAbortCause c =
                (UserInitiatedAbortCause) only(causes("kernel-to-usrsctp_udp_abort-user-cause.pcap", 9, chunk));
        assertEquals("kernel-client-abort", c.text());
    }

    @Test
    void userInitiatedAbortWithReasonFromUsrsctp() throws Exception {
        // usrsctp-to-kernel_raw_abort-user-cause.pcap, frame 11: ABORT sent by usrsctp 0.9.5
        String chunk = "06000028 000c0024 757372736374702d636c69656e742d61626f72743a746573742d766563746f72";
        UserInitiatedAbortCause c =
                (UserInitiatedAbortCause) only(causes("usrsctp-to-kernel_raw_abort-user-cause.pcap", 11, chunk));
        assertEquals("usrsctp-client-abort:test-vector", c.text());
    }

    @Test
    void protocolViolationFromLinux() throws Exception {
        // crafted-to-kernel_raw_abort-protocol-violation.pcap, frame 9: ABORT sent by the Linux 6.1 kernel;
        // text followed by binary bytes, odd length
        String chunk = "06000046 000d0042"
                + "5468652063756d756c61746976652074736e2061636b206265796f6e6420746865206d61782074736e2063757272656e746c792073656e743a"
                + "0000030010";
        ProtocolViolationCause c =
                (ProtocolViolationCause) only(causes("crafted-to-kernel_raw_abort-protocol-violation.pcap", 9, chunk));
        assertEquals(62, c.additionalInformation().length());
        assertTrue(c.text().startsWith("The cumulative tsn ack beyond the max tsn currently sent:"), c::text);
    }

    @Test
    void protocolViolationFromUsrsctp() throws Exception {
        // kernel-to-usrsctp_raw_idata-fragmented-fsn-abort.pcap, frame 8: ABORT sent by usrsctp 0.9.5
        String chunk =
                "0600002f 000d002b 46534e207a65726f20666f72204d49443d30303030303030302c2062757420666c6167733d3030";
        ProtocolViolationCause c = (ProtocolViolationCause)
                only(causes("kernel-to-usrsctp_raw_idata-fragmented-fsn-abort.pcap", 8, chunk));
        assertEquals("FSN zero for MID=00000000, but flags=00", c.text());
    }

    @Test
    void abortChunkCarriesTypedCause() throws Exception {
        // the same usrsctp ABORT decoded as a whole chunk: the cause inside is typed
        String chunk =
                "0600002f 000d002b 46534e207a65726f20666f72204d49443d30303030303030302c2062757420666c6167733d3030";
        AbortChunk abort = (AbortChunk)
                Chunks.decode(Bytes.fromHex(chunk).asReadOnlyBuffer()).value();
        assertInstanceOf(ProtocolViolationCause.class, abort.causes().get(0));
    }
}
