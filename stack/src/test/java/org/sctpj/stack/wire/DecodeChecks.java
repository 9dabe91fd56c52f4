package org.sctpj.stack.wire;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.Objects;
import java.util.SplittableRandom;
import java.util.function.Supplier;
import org.sctpj.stack.wire.cause.ErrorCause;
import org.sctpj.stack.wire.cause.ErrorCauses;
import org.sctpj.stack.wire.chunk.Chunk;
import org.sctpj.stack.wire.chunk.ChunkType;
import org.sctpj.stack.wire.chunk.Chunks;
import org.sctpj.stack.wire.param.Parameter;
import org.sctpj.stack.wire.param.Parameters;

/**
 * The invariants every decoder entry point keeps for any input, shared by the seeded fuzz run and
 * the jqwik properties: nothing is thrown; a failure's offset lies within the bytes looked at; a
 * success re-encodes to exactly {@code encodedLength()} bytes that decode again to an equal value;
 * and the result does not depend on where the bytes sit in the buffer. Violations are reported as
 * {@link AssertionError}s naming the entry point; the caller adds the input and the seed.
 */
final class DecodeChecks {
    private DecodeChecks() {}

    /** Where TLV lists start inside the chunks of a packet: 0 (bare list), 4, 16, 20 and 32. */
    private static final int[] LIST_STARTS = {0, 4, 16, 20, 32};

    /** Outcome counters, for the summary line. */
    static final class Stats {
        long inputs;
        long packetOkVerify;
        long packetOkIgnore;
        long chunkOk;
        long parameterListOk;
        long causeListOk;

        @Override
        public String toString() {
            return String.format(
                    "decoded ok: packet/VERIFY %.1f%%, packet/IGNORE %.1f%%, first chunk %.1f%%, "
                            + "parameter lists %d, cause lists %d",
                    100.0 * packetOkVerify / Math.max(1, inputs),
                    100.0 * packetOkIgnore / Math.max(1, inputs),
                    100.0 * chunkOk / Math.max(1, inputs),
                    parameterListOk,
                    causeListOk);
        }
    }

    /** Runs every decoder entry point over {@code in}; {@code rnd} places the bytes in a bigger buffer. */
    static void exercise(byte[] in, SplittableRandom rnd, Stats stats) {
        stats.inputs++;
        Parsed<SctpPacket> verify = packet(in, ChecksumPolicy.VERIFY, "SctpPacket.decode(VERIFY)");
        Parsed<SctpPacket> ignore = packet(in, ChecksumPolicy.IGNORE, "SctpPacket.decode(IGNORE)");
        packet(in, ChecksumPolicy.VERIFY_OR_ZERO, "SctpPacket.decode(VERIFY_OR_ZERO)");
        if (verify.isOk()) {
            stats.packetOkVerify++;
            check(
                    ignore.isOk() && verify.value().equals(ignore.value()),
                    () -> "VERIFY and IGNORE decode a good packet differently: " + verify + " / " + ignore);
        }
        if (ignore.isOk()) {
            stats.packetOkIgnore++;
        }
        samePacketAnywhereInTheBuffer(in, ignore, rnd);

        chunk(in, 0);
        if (in.length > SctpPacket.HEADER_LENGTH && chunk(in, SctpPacket.HEADER_LENGTH)) {
            stats.chunkOk++;
        }

        int chunkType = in.length > SctpPacket.HEADER_LENGTH ? in[SctpPacket.HEADER_LENGTH] & 0xff : ChunkType.INIT;
        int shift = 1 + rnd.nextInt(7);
        ByteBuffer plain = ByteBuffer.wrap(in);
        ByteBuffer shifted = embed(in, shift, rnd);
        for (int start : LIST_STARTS) {
            if (start > in.length) {
                break;
            }
            if (parameterList(plain, shifted, shift, start, in.length, chunkType)) {
                stats.parameterListOk++;
            }
            if (causeList(plain, shifted, shift, start, in.length, chunkType)) {
                stats.causeListOk++;
            }
        }
    }

    /** Checks the round trip of one wire element (chunk, parameter or error cause). */
    static void roundTrip(Object element) {
        if (element instanceof Chunk c) {
            ByteBuffer out = ByteBuffer.allocate(c.encodedLength());
            c.encode(out);
            check(
                    out.position() == c.encodedLength(),
                    () -> "encode wrote " + out.position() + " bytes, not " + c.encodedLength() + ": " + c);
            Parsed<? extends Chunk> back = Chunks.decode(out.flip());
            check(back.isOk() && back.value().equals(c), () -> "chunk " + c + " decodes back as " + back);
            SctpPacket p = SctpPacket.of(5000, 5001, 0x01020304, c);
            Parsed<SctpPacket> pb = SctpPacket.decode(ByteBuffer.wrap(p.toBytes()), ChecksumPolicy.VERIFY);
            check(pb.isOk() && pb.value().equals(p), () -> "packet of " + c + " decodes back as " + pb);
        } else if (element instanceof Parameter p) {
            for (List<Parameter> list : List.of(List.of(p), List.of(p, p))) {
                ByteBuffer out = ByteBuffer.allocate(Parameters.listLength(list));
                Parameters.writeList(list, out);
                check(
                        out.position() == out.capacity(),
                        () -> "writeList wrote " + out.position() + " bytes, not " + out.capacity() + ": " + list);
                Parsed<List<Parameter>> back = Parameters.decodeList(out, 0, out.capacity(), ChunkType.INIT);
                check(back.isOk() && back.value().equals(list), () -> "parameters " + list + " decode back as " + back);
            }
        } else if (element instanceof ErrorCause e) {
            for (List<ErrorCause> list : List.of(List.of(e), List.of(e, e))) {
                ByteBuffer out = ByteBuffer.allocate(ErrorCauses.listLength(list));
                ErrorCauses.writeList(list, out);
                check(
                        out.position() == out.capacity(),
                        () -> "writeList wrote " + out.position() + " bytes, not " + out.capacity() + ": " + list);
                Parsed<List<ErrorCause>> back = ErrorCauses.decodeList(out, 0, out.capacity(), ChunkType.ERROR);
                check(back.isOk() && back.value().equals(list), () -> "causes " + list + " decode back as " + back);
            }
        } else {
            throw new IllegalArgumentException("not a wire element: " + element);
        }
    }

    private static Parsed<SctpPacket> packet(byte[] in, ChecksumPolicy policy, String what) {
        ByteBuffer buf = ByteBuffer.wrap(in);
        Parsed<SctpPacket> r = SctpPacket.decode(buf, policy);
        check(buf.position() == 0 && buf.limit() == in.length, () -> what + " moved the buffer's position or limit");
        if (!r.isOk()) {
            errorWithin(r.error(), 0, in.length, () -> what);
            return r;
        }
        SctpPacket p = r.value();
        byte[] out = p.toBytes();
        check(
                out.length == p.encodedLength(),
                () -> what + ": toBytes() gave " + out.length + " bytes, encodedLength() " + p.encodedLength());
        Parsed<SctpPacket> again = SctpPacket.decode(ByteBuffer.wrap(out), ChecksumPolicy.VERIFY);
        check(again.isOk(), () -> what + ": the re-encoded packet does not decode: " + again);
        check(
                again.value().equals(p),
                () -> what + ": the re-encoded packet decodes to another value:\n  first  " + p + "\n  second "
                        + again.value());
        return r;
    }

    private static void samePacketAnywhereInTheBuffer(byte[] in, Parsed<SctpPacket> expected, SplittableRandom rnd) {
        int shift = 1 + rnd.nextInt(13);
        ByteBuffer b = embed(in, shift, rnd);
        Parsed<SctpPacket> r = SctpPacket.decode(b, ChecksumPolicy.IGNORE);
        check(
                Objects.equals(expected, r),
                () -> "SctpPacket.decode(IGNORE) depends on the buffer's position: " + expected + " at 0, " + r + " at "
                        + shift);
    }

    private static boolean chunk(byte[] in, int from) {
        Supplier<String> what = () -> "Chunks.decode(ByteBuffer) from offset " + from;
        ByteBuffer buf = ByteBuffer.wrap(in, from, in.length - from);
        Parsed<? extends Chunk> r = Chunks.decode(buf);
        if (!r.isOk()) {
            errorWithin(r.error(), 0, in.length - from, what);
            return false;
        }
        roundTripChecked(r.value(), what);
        return true;
    }

    private static boolean parameterList(
            ByteBuffer plain, ByteBuffer shifted, int shift, int start, int end, int chunkType) {
        Supplier<String> what = () -> "Parameters.decodeList [" + start + ", " + end + ")";
        Parsed<List<Parameter>> r = Parameters.decodeList(plain, start, end, chunkType);
        Parsed<List<Parameter>> s = Parameters.decodeList(shifted, start + shift, end + shift, chunkType);
        sameAnywhere(r, s, shift, what);
        if (!r.isOk()) {
            errorWithin(r.error(), start, end, what);
            return false;
        }
        List<Parameter> list = r.value();
        ByteBuffer out = ByteBuffer.allocate(Parameters.listLength(list));
        Parameters.writeList(list, out);
        check(
                out.position() == out.capacity(),
                () -> what + ": writeList wrote " + out.position() + " bytes, listLength " + out.capacity());
        Parsed<List<Parameter>> again = Parameters.decodeList(out, 0, out.capacity(), chunkType);
        check(
                again.isOk() && again.value().equals(list),
                () -> what + ": re-encoded list decodes as " + again + ", first " + list);
        return true;
    }

    private static boolean causeList(
            ByteBuffer plain, ByteBuffer shifted, int shift, int start, int end, int chunkType) {
        Supplier<String> what = () -> "ErrorCauses.decodeList [" + start + ", " + end + ")";
        Parsed<List<ErrorCause>> r = ErrorCauses.decodeList(plain, start, end, chunkType);
        Parsed<List<ErrorCause>> s = ErrorCauses.decodeList(shifted, start + shift, end + shift, chunkType);
        sameAnywhere(r, s, shift, what);
        if (!r.isOk()) {
            errorWithin(r.error(), start, end, what);
            return false;
        }
        List<ErrorCause> list = r.value();
        ByteBuffer out = ByteBuffer.allocate(ErrorCauses.listLength(list));
        ErrorCauses.writeList(list, out);
        check(
                out.position() == out.capacity(),
                () -> what + ": writeList wrote " + out.position() + " bytes, listLength " + out.capacity());
        Parsed<List<ErrorCause>> again = ErrorCauses.decodeList(out, 0, out.capacity(), chunkType);
        check(
                again.isOk() && again.value().equals(list),
                () -> what + ": re-encoded list decodes as " + again + ", first " + list);
        return true;
    }

    /** A list decoded at absolute indexes shifted by {@code shift} gives the same value, or the same error shifted. */
    private static <T> void sameAnywhere(Parsed<T> at0, Parsed<T> atShift, int shift, Supplier<String> what) {
        boolean same;
        if (at0.isOk() || atShift.isOk()) {
            same = at0.isOk() && atShift.isOk() && at0.value().equals(atShift.value());
        } else {
            ParseError a = at0.error();
            ParseError b = atShift.error();
            same = a.kind() == b.kind() && a.chunkType() == b.chunkType() && a.offset() + shift == b.offset();
        }
        check(
                same,
                () -> what.get() + " depends on where the bytes sit: " + at0 + " at 0, " + atShift + " at " + shift);
    }

    private static void roundTripChecked(Chunk c, Supplier<String> what) {
        try {
            roundTrip(c);
        } catch (AssertionError | RuntimeException e) {
            throw new AssertionError(what.get() + ": decoded chunk does not round-trip: " + e.getMessage(), e);
        }
    }

    private static void errorWithin(ParseError e, int from, int to, Supplier<String> what) {
        check(e != null && e.kind() != null, () -> what.get() + ": failure without an error kind");
        check(
                e.offset() >= from && e.offset() <= to,
                () -> what + ": error offset " + e.offset() + " outside [" + from + ", " + to + "]: " + e);
        check(
                e.chunkType() >= ParseError.NO_CHUNK && e.chunkType() <= 0xff,
                () -> what.get() + ": chunk type out of range: " + e);
    }

    /** A copy of {@code in} at index {@code shift} of a bigger array with junk around it; position/limit frame it. */
    private static ByteBuffer embed(byte[] in, int shift, SplittableRandom rnd) {
        byte[] big = new byte[in.length + shift + 9];
        for (int i = 0; i < big.length; i++) {
            big[i] = (byte) rnd.nextInt(256);
        }
        System.arraycopy(in, 0, big, shift, in.length);
        return ByteBuffer.wrap(big).position(shift).limit(shift + in.length);
    }

    private static void check(boolean ok, Supplier<String> message) {
        if (!ok) {
            throw new AssertionError(message.get());
        }
    }
}
