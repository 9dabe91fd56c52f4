package org.sctpj.stack.wire.chunk;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.sctpj.stack.wire.chunk.ExtChunkTesting.assertFails;
import static org.sctpj.stack.wire.chunk.ExtChunkTesting.assertRoundTrip;
import static org.sctpj.stack.wire.chunk.ExtChunkTesting.decodeOk;
import static org.sctpj.stack.wire.chunk.ExtChunkTesting.hex;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;
import org.sctpj.stack.wire.Bytes;
import org.sctpj.stack.wire.ParseErrorKind;

class AuthChunkTest {

    @Property(tries = 200)
    void roundTrip(
            @ForAll @IntRange(max = 65535) int keyId,
            @ForAll @IntRange(max = 65535) int hmacId,
            @ForAll @Size(max = 64) byte[] hmac) {
        assertRoundTrip(new AuthChunk(keyId, hmacId, Bytes.of(hmac)));
    }

    @Test
    void encodesByteExact() {
        // type 0x0F, length 11 | key 0x0102, HMAC id 3 | 3 HMAC bytes + 1 padding byte
        assertEquals("0f00000b" + "01020003" + "a1a2a300", hex(new AuthChunk(0x0102, 3, Bytes.fromHex("a1a2a3"))));
        assertEquals("0f000008" + "ffff0001", hex(new AuthChunk(0xffff, AuthChunk.HMAC_SHA1, Bytes.EMPTY)));
    }

    @Test
    void rejectsChunkShorterThanIdentifiers() {
        assertFails("0f000006 0001", ParseErrorKind.TRUNCATED_FIXED_FIELDS, 0x0f, 0);
        assertFails("0f000004", ParseErrorKind.TRUNCATED_FIXED_FIELDS, 0x0f, 0);
    }

    @Test
    void constructorRejectsMisuse() {
        assertThrows(IllegalArgumentException.class, () -> new AuthChunk(65536, 1, Bytes.EMPTY));
        assertThrows(IllegalArgumentException.class, () -> new AuthChunk(0, -1, Bytes.EMPTY));
    }

    /**
     * kernel-to-usrsctp_udp_auth-data-sack.pcap, frame 5: AUTH (key 0, HMAC-SHA-1) in front of DATA,
     * sent by Linux 6.1.
     */
    @Test
    void decodesKernelAuth() {
        String bytes = "0f00001c00000001dc1a4415c9270039a0e3fe7c888ff9ceefd6571d";
        AuthChunk c = (AuthChunk) decodeOk(bytes);
        assertEquals(0, c.sharedKeyId());
        assertEquals(AuthChunk.HMAC_SHA1, c.hmacId());
        assertEquals(Bytes.fromHex("dc1a4415c9270039a0e3fe7c888ff9ceefd6571d"), c.hmac());
        assertEquals(bytes, hex(c));
    }

    /** usrsctp-to-kernel_raw_auth-asconf.pcap, frame 5: AUTH sent by usrsctp 0.9.5. */
    @Test
    void decodesUsrsctpAuth() {
        String bytes = "0f00001c000000014898c083d74fdda8a999b4d6de448ee2220fd540";
        AuthChunk c = (AuthChunk) decodeOk(bytes);
        assertEquals(new AuthChunk(0, 1, Bytes.fromHex("4898c083d74fdda8a999b4d6de448ee2220fd540")), c);
        assertEquals(bytes, hex(c));
    }
}
