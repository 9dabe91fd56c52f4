package org.sctpj.journal;

import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.util.Objects;
import org.sctpj.stack.AssociationId;
import org.sctpj.stack.SctpEvent;

/**
 * The compact encoding of journal format 3, and its decoding back into the entry bodies of format
 * 2, which every reader of a journal (replay, timeline, statistics, export) takes.
 *
 * <p>A batch (one Chronicle excerpt) starts with the 4 bytes {@link #MAGIC} (which a reader of
 * format 2 takes for a bad entry length) and holds entries framed as {@code [u8 kind | flags << 4]
 * [zigzag varint time - previous entry's time]} and a body; the bodies of the kinds that are
 * stored as format 2 has them (CREATED, DRAW, DRAW_BYTES, ICMP, COMMAND, GAP, CLOSED: rare, or
 * random bytes) are preceded by their varint length, the others are read by their kind. What each
 * body holds is written down at {@link JournalRecorder}'s methods. The encoding saves bytes by
 * state kept within the batch, so that every batch decodes on its own (a journal whose first
 * cycles retention deleted still reads):
 *
 * <ul>
 *   <li>times as the difference to the previous entry's (0 for the entries of one call);
 *   <li>as a flag, when they are the same as before: the addresses of a packet in or out, the
 *       buffer room of a poll, the {@code SendInfo} of a send, the association of a send,
 *       send-space event or figure, the association, stream and PPID of a message;
 *   <li>packet, message and send lengths as the difference to the previous one;
 *   <li>class and enum names of events by number after their first use ({@link Codec.Names});
 *       integers, lengths and counts as varints;
 *   <li>the headers of a packet (the common header and each chunk, DATA and I-DATA chunks cut to
 *       their headers: {@link Headers#cut}) as the 32-bit words that changed from the previous
 *       packet the same way (in or out), each as the zigzag varint of its difference, with a bitmap
 *       of which changed; the user data that {@link Headers#cut} leaves out follows as it is when
 *       the entry holds the whole packet.
 * </ul>
 *
 * For a stream of full-sized DATA packets this makes an entry of a few bytes besides its user data.
 */
final class Compact {

    private Compact() {}

    /** The first bytes of every batch of format 3: as a format 2 entry length, -13. */
    static final byte[] MAGIC = {(byte) 0xF3, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF};

    /** Packets whose cut form is longer than this many 32-bit words are written as they are. */
    static final int MAX_WORDS = 256;

    /** Flag (PACKET_IN, TRANSMIT): the addresses are those of the previous entry of this kind. */
    static final int SAME_ADDRESSES = 1;
    /** Flag (TRANSMIT, NO_TRANSMIT): the buffer room is that of the previous poll entry. */
    static final int SAME_ROOM = 2;
    /** PACKET_IN: the ECN codepoint (0 to 3) is in flag bits 1 and 2, or follows when this is set. */
    static final int ECN_FOLLOWS = 8;
    /** Flag (SEND, EVENT): made by the event handler during a hand-out (SEND) or polled (EVENT). */
    static final int NESTED = 1;
    /** Flag (SEND): the SendInfo is that of the previous SEND. */
    static final int SAME_INFO = 2;
    /** Flag (SEND): the message bytes follow (not headers only). */
    static final int BYTES = 4;
    /** Flag (SEND, FREED, a send-space EVENT): the association of the previous such entry. */
    static final int SAME_ASSOCIATION = 8;
    /** Flag (EVENT): a SendSpaceAvailable event, stored as {@code [association][zigzag free bytes]}. */
    static final int SEND_SPACE = 2;
    /** Flag (MESSAGE): the association, stream and PPID of the previous MESSAGE. */
    static final int SAME_STREAM = 8;
    /** Flag (MESSAGE): unordered; the payload form is in {@code (flags >> 1) & 3}. */
    static final int UNORDERED = 1;
    /** MESSAGE payload forms. */
    static final int PAYLOAD_NONE = 0;

    static final int PAYLOAD_DIGEST = 1;
    static final int PAYLOAD_WHOLE = 2;

    /** Packet forms. */
    private static final int RAW = 0;

    private static final int HEADERS = 1;
    private static final int HEADERS_AND_REST = 2;

    /** True for the kinds whose body is stored as format 2 has it, after its varint length. */
    static boolean lengthPrefixed(Kind k) {
        return switch (k) {
            case CREATED, DRAW, DRAW_BYTES, ICMP, COMMAND, GAP, CLOSED -> true;
            default -> false;
        };
    }

    /** True when the excerpt {@code b} starts with {@link #MAGIC}. */
    static boolean isCompact(byte[] b) {
        return b.length >= 4 && b[0] == MAGIC[0] && b[1] == MAGIC[1] && b[2] == MAGIC[2] && b[3] == MAGIC[3];
    }

    /** The cut headers of the previous packet one way, as 32-bit words. */
    static final class Reference {
        final int[] words = new int[MAX_WORDS];
        int n;
        /** The previous packet's length. */
        int length;
    }

    /** The state a batch keeps for the encoding of its next entries: reset at each batch. */
    static final class State {
        long time;
        InetAddress inFrom;
        InetAddress inTo;
        InetAddress outFrom;
        InetAddress outTo;
        int room = Integer.MIN_VALUE;
        /** The association of the previous SEND, MESSAGE, FREED or send-space EVENT; -1 for none. */
        long association = -1;
        /** The previous message's length, association, stream and PPID; the previous send's length. */
        int messageLength;

        long messageAssociation = -1;
        int messageStream;
        int messagePpid;
        int sendLength;

        final Reference in = new Reference();
        final Reference out = new Reference();
        final Codec.Names names = new Codec.Names();
        /** Encoder: the last SendInfo written; decoder: its format 2 bytes. */
        Object info;

        byte[] infoBytes;

        void reset() {
            time = 0;
            inFrom = inTo = outFrom = outTo = null;
            room = Integer.MIN_VALUE;
            association = -1;
            messageLength = 0;
            messageAssociation = -1;
            sendLength = 0;
            in.n = 0;
            in.length = 0;
            out.n = 0;
            out.length = 0;
            names.clear();
            info = null;
            infoBytes = null;
        }

        boolean sameIn(InetAddress from, InetAddress to) {
            boolean same = inTo != null && Objects.equals(from, inFrom) && Objects.equals(to, inTo);
            inFrom = from;
            inTo = to;
            return same;
        }

        boolean sameOut(InetAddress from, InetAddress to) {
            boolean same = outTo != null && Objects.equals(from, outFrom) && Objects.equals(to, outTo);
            outFrom = from;
            outTo = to;
            return same;
        }

        boolean sameRoom(int r) {
            boolean same = r == room;
            room = r;
            return same;
        }

        /** Writes the association unless it is the previous one; returns the flag to set. */
        int association(Codec.Out out, AssociationId id) {
            long a = id.value() & 0xFFFFFFFFL;
            if (a == association) {
                return SAME_ASSOCIATION;
            }
            association = a;
            out.varint(a);
            return 0;
        }

        /** Reads an association written by {@link #association(Codec.Out, AssociationId)}. */
        int association(Codec.In in, int flags) {
            if ((flags & SAME_ASSOCIATION) == 0) {
                association = in.varint();
            } else if (association < 0) {
                throw new IllegalArgumentException("the previous association, but none came before");
            }
            return (int) association;
        }
    }

    // ------------------------------------------------------------------ packets

    /**
     * Writes packet {@code p} (position to limit, not moved): {@code [zigzag length - the previous
     * packet's][u8 form | words << 2]} ({@code words} 63: a varint of the words follows) and then,
     * for form RAW, {@code [varint n][n bytes]} (the whole packet, or its cut form when {@code whole}
     * is false); for form HEADERS its cut form as the words changed from {@code ref} (a bitmap of
     * them, then each as the zigzag varint of its difference, then the words {@code ref} does not
     * have as they are); for form HEADERS_AND_REST that and the bytes the cut left out. With {@code
     * zeroChecksum} the cut form's checksum is written as 0 (headers only: it covered user data the
     * journal does not have).
     */
    static void writePacket(
            Codec.Out out, ByteBuffer p, boolean whole, boolean zeroChecksum, Reference ref, Codec.Out scratch) {
        int length = p.remaining();
        out.zigzag32(length - ref.length);
        ref.length = length;
        scratch.pos = 0;
        boolean lossless = Headers.cut(p, scratch);
        int h = scratch.pos;
        if (length < 12 || (h & 3) != 0 || h > MAX_WORDS * 4 || (whole && !lossless)) {
            out.u8(RAW);
            if (whole) {
                out.varint(length);
                out.raw(p);
            } else {
                if (zeroChecksum && h >= 12) {
                    zeroChecksum(scratch.buf);
                }
                out.varint(h);
                out.raw(scratch.buf, 0, h);
            }
            return;
        }
        if (zeroChecksum) {
            zeroChecksum(scratch.buf);
        }
        int w = h >>> 2;
        int form = whole ? HEADERS_AND_REST : HEADERS;
        if (w < 63) {
            out.u8(form | w << 2);
        } else {
            out.u8(form | 63 << 2);
            out.varint(w);
        }
        int common = Math.min(w, ref.n);
        int bitmap = out.pos;
        int bitmapBytes = (common + 7) >>> 3;
        out.ensure(bitmapBytes);
        java.util.Arrays.fill(out.buf, bitmap, bitmap + bitmapBytes, (byte) 0);
        out.pos += bitmapBytes;
        byte[] s = scratch.buf;
        int[] words = ref.words;
        for (int i = 0; i < w; i++) {
            int j = i << 2;
            int v = (s[j] & 0xff) << 24 | (s[j + 1] & 0xff) << 16 | (s[j + 2] & 0xff) << 8 | s[j + 3] & 0xff;
            if (i < common) {
                if (v != words[i]) {
                    out.buf[bitmap + (i >>> 3)] |= (byte) (1 << (i & 7));
                    out.zigzag32(v - words[i]);
                }
            } else {
                out.be32(v);
            }
            words[i] = v;
        }
        ref.n = w;
        if (whole) {
            Headers.restInto(p, out);
        }
    }

    private static void zeroChecksum(byte[] cut) {
        cut[8] = 0;
        cut[9] = 0;
        cut[10] = 0;
        cut[11] = 0;
    }

    /**
     * Reads a packet written by {@link #writePacket} and writes it as format 2 has it: {@code [i32
     * length][i32 n][n bytes]}.
     */
    static void readPacket(Codec.In in, Codec.Out out, Reference ref, Codec.Out scratch) {
        int length = ref.length + in.zigzag32();
        if (length < 0) {
            throw new IllegalArgumentException("a packet of " + length + " bytes at " + in.position());
        }
        ref.length = length;
        int head = in.u8();
        int form = head & 3;
        out.i32(length);
        if (form == RAW) {
            int n = in.count();
            out.i32(n);
            in.copyTo(out, n);
            return;
        }
        if (form != HEADERS && form != HEADERS_AND_REST) {
            throw new IllegalArgumentException("unknown packet form " + form + " at " + (in.position() - 1));
        }
        int w = head >>> 2;
        if (w == 63) {
            w = in.count();
        }
        if (w > MAX_WORDS || w < 3) {
            throw new IllegalArgumentException("a packet of " + w + " header words at " + in.position());
        }
        int common = Math.min(w, ref.n);
        int bitmap = in.position();
        int bitmapBytes = (common + 7) >>> 3;
        for (int i = 0; i < bitmapBytes; i++) {
            in.u8();
        }
        scratch.pos = 0;
        int[] words = ref.words;
        for (int i = 0; i < w; i++) {
            int v;
            if (i < common) {
                v = (in.buf[bitmap + (i >>> 3)] & (1 << (i & 7))) != 0 ? words[i] + in.zigzag32() : words[i];
            } else {
                v = in.be32();
            }
            words[i] = v;
            scratch.be32(v);
        }
        ref.n = w;
        if (form == HEADERS) {
            out.i32(scratch.pos);
            out.raw(scratch.buf, 0, scratch.pos);
            return;
        }
        int rest = length - scratch.pos;
        int r = in.position();
        if (rest < 0 || r + rest > in.end) {
            throw new IllegalArgumentException(
                    "a packet of " + length + " bytes with " + scratch.pos + " of headers at " + r);
        }
        out.i32(length);
        Headers.join(scratch.buf, 0, scratch.pos, in.buf, r, r + rest, length, out);
        in.pos = r + rest;
    }

    // ------------------------------------------------------------------ batches

    /**
     * Decodes a batch of format 3 ({@code raw}, starting with {@link #MAGIC}) into the entries of
     * format 2, each framed {@code [i32 body length + 9][u8 kind][i64 time][body]}; {@code stored[0]}
     * gets, per entry, the bytes it took in {@code raw} (grown as needed).
     *
     * @throws IllegalArgumentException at the first entry that does not decode, saying where
     */
    static byte[] decode(byte[] raw, int[][] stored) {
        Codec.In in = new Codec.In(raw, MAGIC.length, raw.length);
        Codec.Out out = new Codec.Out(raw.length * 2 + 64);
        Codec.Out scratch = new Codec.Out(MAX_WORDS * 4 + 16);
        State st = new State();
        int count = 0;
        int[] sizes = stored[0];
        while (in.hasMore()) {
            int start = in.position();
            int head = in.u8();
            Kind kind = Kind.of(head & 15);
            int flags = head >>> 4;
            long time = st.time + in.zigzag();
            st.time = time;
            int frame = out.pos;
            out.i32(0);
            out.u8(kind.ordinal());
            out.i64(time);
            try {
                if (lengthPrefixed(kind)) {
                    int len = in.count();
                    in.copyTo(out, len);
                } else {
                    body(kind, flags, in, out, st, scratch);
                }
            } catch (IllegalArgumentException x) {
                throw new IllegalArgumentException(
                        "entry " + count + " of the batch (" + kind + ", at byte " + start + "): " + x.getMessage(), x);
            }
            int n = out.pos - frame - 4;
            out.buf[frame] = (byte) n;
            out.buf[frame + 1] = (byte) (n >>> 8);
            out.buf[frame + 2] = (byte) (n >>> 16);
            out.buf[frame + 3] = (byte) (n >>> 24);
            if (count == sizes.length) {
                sizes = java.util.Arrays.copyOf(sizes, Math.max(16, sizes.length * 2));
            }
            sizes[count++] = in.position() - start;
        }
        stored[0] = sizes;
        return out.toArray();
    }

    /** Decodes one body of {@code kind} into its format 2 form. */
    private static void body(Kind kind, int flags, Codec.In in, Codec.Out out, State st, Codec.Out scratch) {
        switch (kind) {
            case PACKET_IN -> {
                if ((flags & SAME_ADDRESSES) == 0) {
                    st.inFrom = in.address();
                    st.inTo = in.address();
                }
                out.address(st.inFrom);
                out.address(st.inTo);
                out.i32((flags & ECN_FOLLOWS) != 0 ? in.zigzag32() : (flags >>> 1) & 3);
                readPacket(in, out, st.in, scratch);
            }
            case TRANSMIT -> {
                if ((flags & SAME_ROOM) == 0) {
                    st.room = in.zigzag32();
                }
                out.i32(st.room);
                if ((flags & SAME_ADDRESSES) == 0) {
                    st.outFrom = in.address();
                    st.outTo = in.address();
                }
                out.address(st.outFrom);
                out.address(st.outTo);
                readPacket(in, out, st.out, scratch);
            }
            case NO_TRANSMIT -> {
                if ((flags & SAME_ROOM) == 0) {
                    st.room = in.zigzag32();
                }
                out.i32(st.room);
            }
            case SEND -> {
                out.u8((flags & NESTED) != 0 ? 1 : 0);
                out.i32(st.association(in, flags));
                if ((flags & SAME_INFO) == 0) {
                    Codec.Out info = new Codec.Out(64);
                    Codec.transcode(in, info, st.names);
                    st.infoBytes = info.toArray();
                } else if (st.infoBytes == null) {
                    throw new IllegalArgumentException("the previous SendInfo, but none came before");
                }
                out.raw(st.infoBytes, 0, st.infoBytes.length);
                int length = st.sendLength + in.zigzag32();
                if (length < 0) {
                    throw new IllegalArgumentException("a message of " + length + " bytes");
                }
                st.sendLength = length;
                out.i32(length);
                if ((flags & BYTES) != 0) {
                    out.i32(length);
                    in.copyTo(out, length);
                } else {
                    out.i32(0);
                }
            }
            case EVENT -> {
                out.u8((flags & NESTED) != 0 ? 1 : 0);
                if ((flags & SEND_SPACE) != 0) {
                    int id = st.association(in, flags);
                    Codec.write(out, new SctpEvent.SendSpaceAvailable(new AssociationId(id), in.zigzag()));
                } else {
                    Codec.transcode(in, out, st.names);
                }
            }
            case MESSAGE -> {
                if ((flags & SAME_STREAM) == 0) {
                    st.messageAssociation = in.varint();
                    st.messageStream = (int) in.varint();
                    st.messagePpid = (int) in.varint();
                } else if (st.messageAssociation < 0) {
                    throw new IllegalArgumentException("the previous message's stream, but none came before");
                }
                out.i32((int) st.messageAssociation);
                out.i32(st.messageStream);
                out.i32(st.messagePpid);
                out.u8((flags & UNORDERED) != 0 ? 1 : 0);
                int length = st.messageLength + in.zigzag32();
                if (length < 0) {
                    throw new IllegalArgumentException("a message of " + length + " bytes");
                }
                st.messageLength = length;
                out.i32(length);
                switch ((flags >>> 1) & 3) {
                    case PAYLOAD_NONE -> out.i32(0);
                    case PAYLOAD_DIGEST -> {
                        out.i32(4);
                        in.copyTo(out, 4);
                    }
                    case PAYLOAD_WHOLE -> {
                        out.i32(length);
                        in.copyTo(out, length);
                    }
                    default -> throw new IllegalArgumentException("unknown message payload form");
                }
            }
            case FREED -> {
                out.i32(st.association(in, flags));
                out.i64(in.zigzag());
            }
            case TIMEOUT, BAD_CHECKSUM -> {}
            default -> throw new IllegalArgumentException("no compact form for " + kind);
        }
    }
}
