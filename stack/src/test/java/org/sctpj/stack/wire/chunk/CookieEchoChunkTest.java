package org.sctpj.stack.wire.chunk;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.sctpj.stack.wire.chunk.ChunkTestSupport.assertReencodes;
import static org.sctpj.stack.wire.chunk.ChunkTestSupport.assertRoundTrip;
import static org.sctpj.stack.wire.chunk.ChunkTestSupport.decodeOk;
import static org.sctpj.stack.wire.chunk.ChunkTestSupport.encode;
import static org.sctpj.stack.wire.chunk.ChunkTestSupport.hex;

import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;
import org.sctpj.stack.wire.Bytes;

class CookieEchoChunkTest {

    @Property(tries = 200)
    void roundTrip(@ForAll("echoes") CookieEchoChunk c) {
        assertRoundTrip(c);
    }

    @Provide
    Arbitrary<CookieEchoChunk> echoes() {
        return CoreChunkArbitraries.cookieEcho();
    }

    @Test
    void encodesTheRfcLayout() {
        CookieEchoChunk c = new CookieEchoChunk(Bytes.fromHex("c0ffee"));
        assertEquals("0a000007" + "c0ffee" + "00", hex(encode(c)));
        assertRoundTrip(c);
    }

    @Test
    void emptyCookieIsLeftToTheHandshake() {
        assertEquals(new CookieEchoChunk(Bytes.EMPTY), decodeOk("0a000004", CookieEchoChunk.class));
    }

    @Test
    void reservedFlagsAreIgnored() {
        assertEquals(
                new CookieEchoChunk(Bytes.fromHex("01020304")), decodeOk("0aff0008 01020304", CookieEchoChunk.class));
    }

    @Test
    void linuxCookieEchoFromCorpus() {
        // kernel-to-usrsctp_udp_handshake-data-shutdown.pcap, frame 3, sent by Linux 6.1 kernel SCTP,
        // echoing the cookie usrsctp put in its INIT ACK.
        CookieEchoChunk c = assertReencodes(
                "0a0001084b414d452d42534420312e3100000000913f026b00000000ca7402000000000060ea00000000000000000000"
                        + "58cbae566b609a490a630002000000000000000000000000050000000a630001000000000000000000000000"
                        + "0500000000000000e77017720100000000010000000000000100002456aecb580003400000100010e33da3ab"
                        + "000c00060005000080000004c0000004020001646b609a4900400000001000109183bddb80000004c0000004"
                        + "80080009c00fc1808200000080020024ce2e6ae8e4b85f2684b6c5fef9c725870588fe218fe8659f0a94377d"
                        + "7a7e515f80040006000100008003000680c100001ccec4763a12aec465c267ccc964581ae6b4f841",
                CookieEchoChunk.class);
        assertEquals(260, c.cookie().length());
        assertEquals(
                "KAME-BSD 1.1", new String(c.cookie().toArray(), 0, 12, java.nio.charset.StandardCharsets.US_ASCII));
    }

    @Test
    void constructorRejectsCookiesThatDoNotFit() {
        assertRoundTrip(new CookieEchoChunk(Bytes.of(new byte[CookieEchoChunk.MAX_COOKIE_LENGTH])));
        assertThrows(
                IllegalArgumentException.class,
                () -> new CookieEchoChunk(Bytes.of(new byte[CookieEchoChunk.MAX_COOKIE_LENGTH + 1])));
    }
}
