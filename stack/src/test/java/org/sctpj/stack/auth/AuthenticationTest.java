package org.sctpj.stack.auth;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.sctpj.stack.assoc.InboundPacket;
import org.sctpj.stack.wire.Bytes;
import org.sctpj.stack.wire.Crc32c;

/**
 * RFC 4895: the HMACs, the key vectors and the association shared key of section 6.1, and the
 * check of a received AUTH chunk (section 6.3), against values computed outside this code: the
 * expected MACs come from {@code openssl dgst -mac HMAC} (and Python's {@code hmac}, which agree)
 * over the same bytes, the vectors are written out by hand from the parameter formats of section 3.
 */
class AuthenticationTest {

    static final HexFormat HEX = HexFormat.of();

    /** Our side: Random 01..20, CHUNKS [DATA, SACK], HMAC-ALGO [SHA-256, SHA-1]. */
    static final KeyVector LOCAL = new KeyVector(Bytes.of(range(0x01, 32)), List.of(0, 3), List.of(3, 1));
    /** The peer: Random a0..bf, no CHUNKS, HMAC-ALGO [SHA-1]. */
    static final KeyVector PEER = new KeyVector(Bytes.of(range(0xa0, 32)), null, List.of(1));

    static final String LOCAL_HEX = "80020024" + "0102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f20"
            + "80030006" + "0003" + "80040008" + "00030001";
    static final String PEER_HEX =
            "80020024" + "a0a1a2a3a4a5a6a7a8a9aaabacadaeafb0b1b2b3b4b5b6b7b8b9babbbcbdbebf" + "80040006" + "0001";

    static byte[] range(int from, int n) {
        byte[] b = new byte[n];
        for (int i = 0; i < n; i++) {
            b[i] = (byte) (from + i);
        }
        return b;
    }

    @Test
    void hmacsMatchRfc2202AndOpenssl() {
        // RFC 2202 test case 2 (HMAC-SHA-1), RFC 4231 test case 2 (HMAC-SHA-256).
        byte[] data = "what do ya want for nothing?".getBytes(StandardCharsets.US_ASCII);
        byte[] jefe = "Jefe".getBytes(StandardCharsets.US_ASCII);
        assertEquals("effcdf6ae5eb2fa2d27416d5f184df9c259a7c79", HEX.formatHex(HmacAlgorithm.SHA_1.mac(jefe, data)));
        assertEquals(
                "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843",
                HEX.formatHex(HmacAlgorithm.SHA_256.mac(jefe, data)));
        // The empty endpoint pair key of RFC 4895 section 6.2 (openssl -macopt hexkey:00 over "abc").
        assertEquals(
                "9b4a918f398d74d3e367970aba3cbe54e4d2b5d9",
                HEX.formatHex(HmacAlgorithm.SHA_1.mac(new byte[0], "abc".getBytes(StandardCharsets.US_ASCII))));
        assertEquals(HmacAlgorithm.SHA_1, HmacAlgorithm.of(1));
        assertEquals(HmacAlgorithm.SHA_256, HmacAlgorithm.of(3));
        assertEquals(null, HmacAlgorithm.of(2));
    }

    @Test
    void keyVectorsAreTheParametersWithoutPadding() {
        assertEquals(LOCAL_HEX, HEX.formatHex(LOCAL.bytes()));
        // The odd-length CHUNKS (2 types) and HMAC-ALGO (1 id) are not padded inside the vector.
        assertEquals(PEER_HEX, HEX.formatHex(PEER.bytes()));
    }

    @Test
    void associationKeyIsEndpointKeyThenSmallerThenLargerVector() {
        byte[] secret = "secret".getBytes(StandardCharsets.US_ASCII);
        // Both vectors start 0x80, and ours is 50 bytes to the peer's 42: as numbers the peer's is
        // the smaller one and goes first (a byte-wise comparison would put ours first).
        String expected = HEX.formatHex(secret) + PEER_HEX + LOCAL_HEX;
        assertEquals(expected, HEX.formatHex(KeyVector.associationKey(secret, LOCAL.bytes(), PEER.bytes())));
        assertEquals(expected, HEX.formatHex(KeyVector.associationKey(secret, PEER.bytes(), LOCAL.bytes())));
        // Compared as numbers: leading zeros do not count, so 000001 < 02.
        assertArrayEquals(
                new byte[] {0, 0, 1, 2}, KeyVector.associationKey(new byte[0], new byte[] {2}, new byte[] {0, 0, 1}));
        // Equal as numbers, different lengths: the shorter first.
        assertArrayEquals(
                new byte[] {1, 0, 1}, KeyVector.associationKey(new byte[0], new byte[] {0, 1}, new byte[] {1}));
        // A longer vector with a non-zero first byte is the larger number.
        assertArrayEquals(
                new byte[] {9, 1, 0}, KeyVector.associationKey(new byte[0], new byte[] {1, 0}, new byte[] {9}));
    }

    /** AUTH (key 7, SHA-1, HMAC zero) then DATA(TSN 1, "hello"), as the openssl input. */
    static byte[] authThenData(int keyId, int hmacId, int hmacLength) {
        ByteBuffer b = ByteBuffer.allocate(8 + hmacLength + 24);
        b.put((byte) 15).put((byte) 0).putShort((short) (8 + hmacLength));
        b.putShort((short) keyId).putShort((short) hmacId);
        b.put(new byte[hmacLength]);
        b.put((byte) 0)
                .put((byte) 3)
                .putShort((short) 21)
                .putInt(1)
                .putShort((short) 0)
                .putShort((short) 0);
        b.putInt(0).put("hello".getBytes(StandardCharsets.US_ASCII)).put(new byte[3]);
        return b.array();
    }

    static InboundPacket packet(byte[] chunks, byte[] hmac) throws Exception {
        ByteBuffer p = ByteBuffer.allocate(12 + chunks.length);
        p.putShort((short) 5001).putShort((short) 5002).putInt(0x12345678).putInt(0);
        p.put(chunks);
        p.put(12 + 8, hmac);
        Crc32c.fill(p, 0, p.capacity());
        p.flip();
        InboundPacket pkt = new InboundPacket();
        InetAddress a = InetAddress.getByName("10.0.0.1");
        assertEquals(true, pkt.frame(p, a, a).isOk());
        return pkt;
    }

    @Test
    void receivedAuthVerifiesWithTheDerivedKeyAndNothingElse() throws Exception {
        SharedKeys keys = new SharedKeys();
        keys.set(7, "secret".getBytes(StandardCharsets.US_ASCII));
        byte[] mac = HEX.parseHex("3251a8a4a2fbb107c73d3fc4c3bea54599381481"); // openssl over authThenData(7, 1, 20)
        byte[] chunks = authThenData(7, 1, 20);
        assertEquals(Authentication.Verdict.OK, Authentication.verifyWith(packet(chunks, mac), 0, LOCAL, PEER, keys));
        // Either side derives the same key: the vectors' roles do not matter.
        assertEquals(Authentication.Verdict.OK, Authentication.verifyWith(packet(chunks, mac), 0, PEER, LOCAL, keys));

        byte[] tampered = chunks.clone();
        tampered[tampered.length - 4] ^= 1; // a byte of the padding after "hello": padding is covered too
        assertEquals(
                Authentication.Verdict.BAD_HMAC,
                Authentication.verifyWith(packet(tampered, mac), 0, LOCAL, PEER, keys));

        SharedKeys without7 = new SharedKeys();
        assertEquals(
                Authentication.Verdict.UNKNOWN_KEY,
                Authentication.verifyWith(packet(chunks, mac), 0, LOCAL, PEER, without7));

        byte[] sha256Only = authThenData(7, 1, 20);
        KeyVector onlySha256 = new KeyVector(LOCAL.random(), LOCAL.chunks(), List.of(3));
        assertEquals(
                Authentication.Verdict.UNSUPPORTED_HMAC,
                Authentication.verifyWith(packet(sha256Only, mac), 0, onlySha256, PEER, keys));
        byte[] unknownHmac = authThenData(7, 2, 20);
        assertEquals(
                Authentication.Verdict.UNSUPPORTED_HMAC,
                Authentication.verifyWith(packet(unknownHmac, mac), 0, LOCAL, PEER, keys));
    }

    @Test
    void sha256WithTheEmptyKeyZero() throws Exception {
        byte[] mac = HEX.parseHex("98a50c02865fdb7ddc37306d5ca17f5982b74b0a37038df77acb64bff0ca1f00");
        byte[] chunks = authThenData(0, 3, 32);
        assertEquals(
                Authentication.Verdict.OK,
                Authentication.verifyWith(packet(chunks, mac), 0, LOCAL, PEER, new SharedKeys()));
        // A SHA-256 AUTH whose HMAC field has SHA-1's length does not verify.
        assertEquals(
                Authentication.Verdict.BAD_HMAC,
                Authentication.verifyWith(
                        packet(authThenData(0, 3, 20), new byte[20]), 0, LOCAL, PEER, new SharedKeys()));
    }

    @Test
    void cookieFormRoundTripsAndRefusesTruncation() {
        ByteBuffer b = ByteBuffer.allocate(LOCAL.encodedLength() + PEER.encodedLength());
        LOCAL.writeTo(b);
        PEER.writeTo(b);
        b.flip();
        assertEquals(LOCAL, KeyVector.readFrom(b));
        assertEquals(PEER, KeyVector.readFrom(b));
        ByteBuffer cut = ByteBuffer.allocate(LOCAL.encodedLength());
        LOCAL.writeTo(cut);
        cut.flip().limit(cut.limit() - 1);
        assertEquals(null, KeyVector.readFrom(cut));
    }

    @Test
    void refusalsOfRfc4895Section61() {
        assertEquals(null, Authentication.refusal(PEER));
        assertEquals(null, Authentication.refusal(new KeyVector(PEER.random(), null, List.of(0x99, 3))));
        assertEquals(true, Authentication.refusal(new KeyVector(Bytes.of(new byte[16]), null, List.of(1))) != null);
        assertEquals(true, Authentication.refusal(new KeyVector(PEER.random(), null, List.of(2, 0x99))) != null);
        List<Integer> many = new java.util.ArrayList<>(java.util.Collections.nCopies(KeyVector.MAX_HMACS, 0x99));
        many.add(1);
        assertEquals(true, Authentication.refusal(new KeyVector(PEER.random(), null, many)) != null);
        assertEquals(
                true,
                Authentication.refusal(new KeyVector(PEER.random(), java.util.Collections.nCopies(257, 0), List.of(1)))
                        != null);
    }

    @Test
    void sharedKeysRefuseWhatRfc6458Forbids() {
        SharedKeys k = new SharedKeys();
        assertEquals(0, k.active());
        assertThrows(IllegalStateException.class, () -> k.delete(0)); // the active key
        assertThrows(IllegalStateException.class, () -> k.deactivate(0));
        assertThrows(IllegalArgumentException.class, () -> k.activate(5)); // not set
        assertThrows(IllegalArgumentException.class, () -> k.set(70000, new byte[1]));
        k.set(5, new byte[] {1});
        k.activate(5);
        k.deactivate(0);
        assertEquals(true, k.isDeactivated(0));
        k.delete(0);
        assertEquals(java.util.Set.of(5), k.ids());
        for (int i = 0; k.ids().size() < SharedKeys.MAX_KEYS; i++) {
            k.set(100 + i, new byte[0]);
        }
        assertThrows(IllegalStateException.class, () -> k.set(60000, new byte[0]));
    }
}
