package org.sctpj.stack.wire;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import org.sctpj.stack.testutil.Corpus;
import org.sctpj.stack.wire.cause.ErrorCause;
import org.sctpj.stack.wire.cause.ErrorCauses;
import org.sctpj.stack.wire.chunk.Chunk;
import org.sctpj.stack.wire.param.Parameter;
import org.sctpj.stack.wire.param.Parameters;
import org.sctpj.stack.wire.samples.CauseSamples;
import org.sctpj.stack.wire.samples.CoreChunkSamples;
import org.sctpj.stack.wire.samples.ExtChunkSamples;
import org.sctpj.stack.wire.samples.ParameterSamples;

/**
 * Inputs for the decoder fuzzing: seed packets (the corpus and the sample catalogues wrapped in
 * packets), purely random bytes, random well-framed chunks, and structure-aware mutations of seeds.
 * Everything is drawn from the {@link SplittableRandom} passed in, so a seed reproduces a run.
 * Built from raw bytes, not from the codec's records, so that it keeps working whatever decoders
 * exist.
 */
final class FuzzInputs {
    private FuzzInputs() {}

    /** Byte values that sit on boundaries (RFC 9260 lengths, flags, sign bits). */
    static final int[] INTERESTING_BYTES = {0, 1, 3, 4, 0x7f, 0x80, 0xff};

    /** Chunk types with a decoder somewhere in RFC 9260 and its extensions, plus unassigned ones. */
    static final int[] CHUNK_TYPES = {
        0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 64, 0x80, 0x81, 0x82, 0x84, 0xC0, 0xC1, 0xC2, 0x3F,
        0x7E, 0xBF, 0xFF
    };

    /** Parameter types of RFC 9260 and its extensions, plus unassigned ones of each action class. */
    static final int[] PARAMETER_TYPES = {
        1, 5, 6, 7, 8, 9, 11, 12, 13, 14, 15, 16, 17, 18, 0x8000, 0x8001, 0x8002, 0x8003, 0x8004, 0x8005, 0x8008,
        0xC000, 0xC001, 0xC002, 0xC003, 0xC004, 0xC005, 0xC006, 0xC007, 0x0099, 0x4099, 0x80CD, 0xC0AB
    };

    /** Error cause codes of RFC 9260 and its extensions, plus unassigned ones. */
    static final int[] CAUSE_CODES = {
        1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 0xA0, 0xA1, 0xA2, 0xA3, 0xA4, 0x105, 0x77
    };

    /** Where the TLV list of a chunk type starts, from the chunk header; 0 for chunks without one. */
    static int tlvListStart(int chunkType) {
        return switch (chunkType) {
            case 1, 2 -> 20; // INIT, INIT ACK: 16 bytes of fixed fields
            case 4, 5, 6, 9, 0x82 -> 4; // HEARTBEAT (ACK), ABORT, ERROR, RE-CONFIG
            case 0x80, 0xC1 -> 8; // ASCONF ACK, ASCONF: serial number
            default -> 0;
        };
    }

    private static boolean carriesCauses(int chunkType) {
        return chunkType == 6 || chunkType == 9;
    }

    /** Every SCTP packet of the corpus. */
    static List<byte[]> corpusSeeds() {
        return Corpus.allPacketBytes();
    }

    /** The sample catalogues, each element wrapped in a packet (parameters in an INIT, causes in an ERROR). */
    static List<byte[]> sampleSeeds() {
        List<byte[]> out = new ArrayList<>();
        for (Chunk c : samplesChunks()) {
            out.add(SctpPacket.of(5000, 5001, 0x01020304, c).toBytes());
        }
        for (Parameter p : ParameterSamples.all()) {
            ByteBuffer v = ByteBuffer.allocate(16 + Parameters.listLength(List.of(p)));
            v.putInt(0x11223344)
                    .putInt(65536)
                    .putShort((short) 10)
                    .putShort((short) 10)
                    .putInt(1);
            Parameters.writeList(List.of(p), v);
            out.add(packetOf(1, 0, v.array()));
        }
        for (ErrorCause e : CauseSamples.all()) {
            ByteBuffer v = ByteBuffer.allocate(ErrorCauses.listLength(List.of(e)));
            ErrorCauses.writeList(List.of(e), v);
            out.add(packetOf(9, 0, v.array()));
        }
        return out;
    }

    static List<Chunk> samplesChunks() {
        List<Chunk> all = new ArrayList<>(CoreChunkSamples.all());
        all.addAll(ExtChunkSamples.all());
        return all;
    }

    /** A packet (ports 5000/5001, tag 0x01020304, good checksum) of one raw chunk. */
    static byte[] packetOf(int type, int flags, byte[] value) {
        int length = 4 + value.length;
        ByteBuffer b = ByteBuffer.allocate(SctpPacket.HEADER_LENGTH + Wire.pad4(length));
        b.putShort((short) 5000).putShort((short) 5001).putInt(0x01020304).putInt(0);
        b.put((byte) type).put((byte) flags).putShort((short) length).put(value);
        byte[] out = b.array();
        fillChecksum(out);
        return out;
    }

    static void fillChecksum(byte[] packet) {
        if (packet.length >= SctpPacket.HEADER_LENGTH) {
            Crc32c.fill(ByteBuffer.wrap(packet), 0, packet.length);
        }
    }

    /** Purely random bytes, mostly short. */
    static byte[] randomBytes(SplittableRandom r) {
        int n = r.nextInt(4) == 0 ? r.nextInt(16) : r.nextInt(300);
        byte[] b = new byte[n];
        r.nextBytes(b);
        if (r.nextBoolean()) {
            fillChecksum(b);
        }
        return b;
    }

    /**
     * A packet of one to three chunks with correct lengths and padding and random bodies; bodies of
     * chunks that hold parameters or causes are random TLVs half the time. The checksum is good.
     */
    static byte[] randomFramedPacket(SplittableRandom r) {
        ByteBuffer b = ByteBuffer.allocate(4096);
        b.putShort((short) r.nextInt(65536))
                .putShort((short) r.nextInt(65536))
                .putInt(r.nextInt())
                .putInt(0);
        int chunks = 1 + r.nextInt(3);
        for (int i = 0; i < chunks; i++) {
            int type = CHUNK_TYPES[r.nextInt(CHUNK_TYPES.length)];
            int flags = r.nextInt(4) == 0 ? r.nextInt(256) : r.nextInt(16);
            byte[] value = randomChunkValue(type, r);
            b.put((byte) type)
                    .put((byte) flags)
                    .putShort((short) (4 + value.length))
                    .put(value);
            for (int p = value.length; (p & 3) != 0; p++) {
                b.put((byte) 0);
            }
        }
        byte[] out = Arrays.copyOf(b.array(), b.position());
        fillChecksum(out);
        return out;
    }

    private static byte[] randomChunkValue(int type, SplittableRandom r) {
        int listStart = tlvListStart(type);
        if (listStart == 0 || r.nextBoolean()) {
            byte[] v = new byte[r.nextInt(4) == 0 ? r.nextInt(8) : r.nextInt(48)];
            r.nextBytes(v);
            return v;
        }
        ByteBuffer v = ByteBuffer.allocate(1024);
        for (int i = 4; i < listStart; i++) {
            v.put((byte) r.nextInt(256));
        }
        int n = r.nextInt(4);
        for (int i = 0; i < n; i++) {
            int[] types = carriesCauses(type) ? CAUSE_CODES : PARAMETER_TYPES;
            int tlvType = types[r.nextInt(types.length)];
            int len = r.nextInt(3) == 0 ? r.nextInt(4) : r.nextInt(24);
            v.putShort((short) tlvType).putShort((short) (4 + len));
            for (int j = 0; j < len; j++) {
                v.put((byte)
                        (r.nextInt(3) == 0 ? INTERESTING_BYTES[r.nextInt(INTERESTING_BYTES.length)] : r.nextInt(256)));
            }
            if (i < n - 1) {
                for (int p = len; (p & 3) != 0; p++) {
                    v.put((byte) 0);
                }
            }
        }
        return Arrays.copyOf(v.array(), v.position());
    }

    /** One to four mutations of {@code seed} (using {@code pool} for splicing); half the time the checksum is fixed. */
    static byte[] mutate(byte[] seed, List<byte[]> pool, SplittableRandom r) {
        byte[] b = seed.clone();
        int rounds = 1 + r.nextInt(4);
        for (int i = 0; i < rounds; i++) {
            b = mutateOnce(b, pool, r);
        }
        if (r.nextBoolean()) {
            fillChecksum(b);
        }
        return b;
    }

    private static byte[] mutateOnce(byte[] b, List<byte[]> pool, SplittableRandom r) {
        switch (r.nextInt(10)) {
            case 0 -> { // flip a bit
                if (b.length > 0) {
                    int bit = r.nextInt(b.length * 8);
                    b[bit / 8] ^= (byte) (1 << (bit % 8));
                }
                return b;
            }
            case 1 -> { // overwrite a byte with an interesting value
                if (b.length > 0) {
                    b[r.nextInt(b.length)] = (byte) INTERESTING_BYTES[r.nextInt(INTERESTING_BYTES.length)];
                }
                return b;
            }
            case 2, 3 -> {
                return setLengthField(b, r);
            }
            case 4 -> {
                return setTypeField(b, r);
            }
            case 5 -> { // truncate
                if (b.length == 0) {
                    return b;
                }
                int cut = r.nextBoolean() ? r.nextInt(b.length) : Math.max(0, b.length - 1 - r.nextInt(8));
                return Arrays.copyOf(b, cut);
            }
            case 6 -> { // extend with junk
                int extra = 1 + r.nextInt(r.nextBoolean() ? 8 : 64);
                byte[] out = Arrays.copyOf(b, b.length + extra);
                if (r.nextBoolean()) {
                    for (int i = b.length; i < out.length; i++) {
                        out[i] = (byte) r.nextInt(256);
                    }
                }
                return out;
            }
            case 7 -> { // insert or delete bytes in the middle
                if (b.length == 0) {
                    return b;
                }
                int at = r.nextInt(b.length);
                int n = 1 + r.nextInt(8);
                if (r.nextBoolean()) {
                    byte[] out = new byte[b.length + n];
                    System.arraycopy(b, 0, out, 0, at);
                    for (int i = at; i < at + n; i++) {
                        out[i] = (byte) INTERESTING_BYTES[r.nextInt(INTERESTING_BYTES.length)];
                    }
                    System.arraycopy(b, at, out, at + n, b.length - at);
                    return out;
                }
                n = Math.min(n, b.length - at);
                byte[] out = new byte[b.length - n];
                System.arraycopy(b, 0, out, 0, at);
                System.arraycopy(b, at + n, out, at, b.length - at - n);
                return out;
            }
            default -> {
                return splice(b, pool.get(r.nextInt(pool.size())), r);
            }
        }
    }

    /** A field found by walking the packet's structure, as far as it is well-formed. */
    record Field(int at, boolean length, boolean chunk, boolean cause) {}

    /** The chunk and TLV type/length fields of {@code b}, nested lists included. */
    static List<Field> fields(byte[] b) {
        List<Field> out = new ArrayList<>();
        ByteBuffer buf = ByteBuffer.wrap(b);
        int off = SctpPacket.HEADER_LENGTH;
        while (b.length - off >= 4) {
            int type = b[off] & 0xff;
            int length = Wire.u16(buf, off + 2);
            out.add(new Field(off, false, true, false));
            out.add(new Field(off + 2, true, true, false));
            if (length < 4 || length > b.length - off) {
                break;
            }
            int listStart = tlvListStart(type);
            if (listStart > 0) {
                tlvFields(buf, off + listStart, off + length, carriesCauses(type), out, 0);
            }
            off += Wire.pad4(length);
        }
        return out;
    }

    private static void tlvFields(ByteBuffer b, int off, int end, boolean causes, List<Field> out, int depth) {
        while (end - off >= 4 && depth < 4) {
            int type = Wire.u16(b, off);
            int length = Wire.u16(b, off + 2);
            out.add(new Field(off, false, false, causes));
            out.add(new Field(off + 2, true, false, causes));
            if (length < 4 || length > end - off) {
                return;
            }
            int inner = off + 4;
            int innerEnd = off + length;
            if (!causes && type == 8) { // Unrecognized Parameter quotes a parameter
                tlvFields(b, inner, innerEnd, false, out, depth + 1);
            } else if (!causes && (type == 0xC001 || type == 0xC002 || type == 0xC004)) { // ASCONF address TLV
                tlvFields(b, inner + 4, innerEnd, false, out, depth + 1);
            } else if (!causes && (type == 0xC003)) { // Error Cause Indication
                tlvFields(b, inner + 4, innerEnd, true, out, depth + 1);
            } else if (causes && (type == 5 || type == 8)) { // Unresolvable Address, Unrecognized Parameters
                tlvFields(b, inner, innerEnd, false, out, depth + 1);
            } else if (causes && type == 6 && innerEnd - inner >= 4) { // Unrecognized Chunk Type quotes a chunk
                out.add(new Field(inner, false, true, false));
                out.add(new Field(inner + 2, true, true, false));
            }
            off += Wire.pad4(length);
        }
    }

    private static byte[] setLengthField(byte[] b, SplittableRandom r) {
        List<Field> lengths = fields(b).stream().filter(Field::length).toList();
        int at;
        if (lengths.isEmpty() || r.nextInt(8) == 0) {
            if (b.length < 2) {
                return b;
            }
            at = r.nextInt(b.length - 1);
        } else {
            at = lengths.get(r.nextInt(lengths.size())).at();
        }
        ByteBuffer buf = ByteBuffer.wrap(b);
        int old = Wire.u16(buf, at);
        int left = b.length - at + 2;
        int[] choices = {
            0,
            1,
            2,
            3,
            4,
            5,
            6,
            7,
            8,
            old - 1,
            old + 1,
            old - 4,
            old + 4,
            old + 3,
            old + 2,
            left,
            left + 1,
            left - 1,
            left + 4,
            0x7fff,
            0x8000,
            0xfffe,
            0xffff,
            r.nextInt(65536),
            2 * r.nextInt(200) + 1
        };
        buf.putShort(at, (short) choices[r.nextInt(choices.length)]);
        return b;
    }

    private static byte[] setTypeField(byte[] b, SplittableRandom r) {
        List<Field> types = fields(b).stream().filter(f -> !f.length()).toList();
        if (types.isEmpty()) {
            return b;
        }
        Field f = types.get(r.nextInt(types.size()));
        if (f.chunk()) {
            b[f.at()] = (byte) CHUNK_TYPES[r.nextInt(CHUNK_TYPES.length)];
            if (r.nextInt(4) == 0 && f.at() + 1 < b.length) {
                b[f.at() + 1] = (byte) r.nextInt(256); // flags, reserved bits included
            }
        } else {
            int[] codes = f.cause() ? CAUSE_CODES : PARAMETER_TYPES;
            ByteBuffer.wrap(b).putShort(f.at(), (short) codes[r.nextInt(codes.length)]);
        }
        return b;
    }

    /** Chunk splicing: insert, replace, duplicate or drop whole chunks, taking donors from another packet. */
    private static byte[] splice(byte[] b, byte[] donor, SplittableRandom r) {
        List<int[]> mine = chunkSpans(b);
        List<int[]> theirs = chunkSpans(donor);
        if (mine.isEmpty()) {
            return b;
        }
        int[] target = mine.get(r.nextInt(mine.size()));
        byte[] piece;
        int op = r.nextInt(4);
        if (op == 3 || theirs.isEmpty()) {
            piece = op == 3 ? new byte[0] : Arrays.copyOfRange(b, target[0], target[1]); // drop / duplicate
        } else {
            int[] d = theirs.get(r.nextInt(theirs.size()));
            piece = Arrays.copyOfRange(donor, d[0], d[1]);
        }
        boolean replace = op == 1 || op == 3;
        int from = target[0];
        int to = replace ? target[1] : target[0];
        if (op == 2) { // append after the last chunk
            from = to = b.length;
        }
        byte[] out = new byte[b.length - (to - from) + piece.length];
        System.arraycopy(b, 0, out, 0, from);
        System.arraycopy(piece, 0, out, from, piece.length);
        System.arraycopy(b, to, out, from + piece.length, b.length - to);
        return out;
    }

    /** [start, end) of each well-framed chunk (padding included) of a packet. */
    private static List<int[]> chunkSpans(byte[] b) {
        List<int[]> out = new ArrayList<>();
        ByteBuffer buf = ByteBuffer.wrap(b);
        int off = SctpPacket.HEADER_LENGTH;
        while (b.length - off >= 4) {
            int length = Wire.u16(buf, off + 2);
            if (length < 4 || Wire.pad4(length) > b.length - off) {
                break;
            }
            out.add(new int[] {off, off + Wire.pad4(length)});
            off += Wire.pad4(length);
        }
        return out;
    }
}
