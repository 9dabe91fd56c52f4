package org.sctpj.journal;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.sctpj.stack.wire.chunk.ChunkType;

/** One-line descriptions of journal entries and packets, for timelines and difference reports. */
final class Describe {

    private Describe() {}

    /**
     * The chunks of an SCTP packet, e.g. {@code 5000>5001 vtag 0x1a2b DATA(tsn 7, s0, 1000 B),
     * SACK(cum 3, a_rwnd 65536, 1 gaps)}.
     */
    static String chunks(byte[] p, int off, int end, int originalLength) {
        if (end - off < 12) {
            return "runt packet of " + (end - off) + " bytes";
        }
        ByteBuffer b = ByteBuffer.wrap(p).order(ByteOrder.BIG_ENDIAN);
        StringBuilder s = new StringBuilder();
        s.append(b.getShort(off) & 0xffff)
                .append('>')
                .append(b.getShort(off + 2) & 0xffff)
                .append(" vtag 0x")
                .append(Integer.toHexString(b.getInt(off + 4)))
                .append(' ');
        int o = off + 12;
        boolean first = true;
        while (o + 4 <= end) {
            int type = b.get(o) & 0xff;
            int flags = b.get(o + 1) & 0xff;
            int len = b.getShort(o + 2) & 0xffff;
            s.append(first ? "" : ", ").append(ChunkType.name(type));
            first = false;
            if (type == ChunkType.DATA && o + 16 <= end) {
                s.append("(tsn ")
                        .append(Integer.toUnsignedString(b.getInt(o + 4)))
                        .append(", s")
                        .append(b.getShort(o + 8) & 0xffff)
                        .append(", ssn ")
                        .append(b.getShort(o + 10) & 0xffff)
                        .append(", ")
                        .append(len - 16)
                        .append(" B")
                        .append((flags & 4) != 0 ? ", U" : "")
                        .append(')');
            } else if (type == ChunkType.SACK && o + 16 <= end) {
                s.append("(cum ")
                        .append(Integer.toUnsignedString(b.getInt(o + 4)))
                        .append(", a_rwnd ")
                        .append(Integer.toUnsignedString(b.getInt(o + 8)))
                        .append(", ")
                        .append(b.getShort(o + 12) & 0xffff)
                        .append(" gaps, ")
                        .append(b.getShort(o + 14) & 0xffff)
                        .append(" dups)");
            } else if ((type == ChunkType.INIT || type == ChunkType.INIT_ACK) && o + 20 <= end) {
                s.append("(itag 0x")
                        .append(Integer.toHexString(b.getInt(o + 4)))
                        .append(", a_rwnd ")
                        .append(Integer.toUnsignedString(b.getInt(o + 8)))
                        .append(", itsn ")
                        .append(Integer.toUnsignedString(b.getInt(o + 16)))
                        .append(')');
            } else if (type == ChunkType.SHUTDOWN && o + 8 <= end) {
                s.append("(cum ")
                        .append(Integer.toUnsignedString(b.getInt(o + 4)))
                        .append(')');
            }
            if (len < 4) {
                s.append(" [bad length ").append(len).append(']');
                break;
            }
            o += (len + 3) & ~3;
        }
        if (originalLength > end - off) {
            s.append(" [").append(originalLength).append(" B, headers only]");
        }
        return s.toString();
    }

    static String entry(JournalEntry e) {
        Codec.In in = e.body();
        try {
            return switch (e.kind()) {
                case CREATED -> {
                    int format = in.i32();
                    int port = in.i32();
                    String locals = Codec.describe(in);
                    in.pos = skipValue(in);
                    String layer = in.string();
                    boolean headers = in.u8() != 0;
                    boolean digests = in.u8() != 0;
                    yield "endpoint port " + port + " on " + locals + " over " + layer + " (format " + format
                            + (headers ? ", headers only" : "") + (digests ? ", outputs by digest" : "") + ")";
                }
                case DRAW -> "random draw (method " + in.u8() + ")";
                case DRAW_BYTES -> "random draw of " + in.bytes().length + " bytes";
                case PACKET_IN -> {
                    String from = in.address().getHostAddress();
                    String to = in.address().getHostAddress();
                    in.i32();
                    yield "in  " + from + " > " + to + "  " + packet(in);
                }
                case ICMP -> "icmp " + Codec.describe(in);
                case TIMEOUT -> "timeout";
                case SEND -> {
                    boolean nested = in.u8() != 0;
                    int id = in.i32();
                    String info = Codec.describe(in);
                    int len = in.i32();
                    yield "send assoc " + id + " " + info + " " + len + " B" + (nested ? " (from a callback)" : "");
                }
                case COMMAND -> {
                    boolean nested = in.u8() != 0;
                    String name = in.string();
                    int n = in.u8();
                    StringBuilder s = new StringBuilder(name).append('(');
                    for (int i = 0; i < n; i++) {
                        s.append(i == 0 ? "" : ", ").append(Codec.describe(in));
                    }
                    yield s.append(')')
                            .append(nested ? " (from a callback)" : "")
                            .toString();
                }
                case TRANSMIT -> {
                    in.i32();
                    String from = in.address().getHostAddress();
                    String to = in.address().getHostAddress();
                    yield "out " + from + " > " + to + "  " + packet(in);
                }
                case NO_TRANSMIT -> "nothing to send";
                case EVENT -> {
                    boolean polled = in.u8() != 0;
                    yield "event " + Codec.describe(in) + (polled ? " (polled)" : "");
                }
                case MESSAGE -> {
                    int id = in.i32();
                    int stream = in.i32();
                    int ppid = in.i32();
                    boolean u = in.u8() != 0;
                    int len = in.i32();
                    yield "message assoc " + id + " stream " + stream + " ppid " + ppid + (u ? " unordered" : "") + " "
                            + len + " B";
                }
                case FREED -> "send space assoc " + in.i32() + " free " + in.i64() + " B";
                case GAP -> "GAP: " + in.i64() + " entries in " + in.i64()
                        + " batches dropped here (the journal's writer was behind)";
                case BAD_CHECKSUM -> "the packet before failed its checksum and was dropped";
                case CLOSED -> "recorder closed after " + in.i64() + " entries (" + in.i64() + " dropped)";
            };
        } catch (RuntimeException x) {
            return e.kind() + " (undecodable: " + x.getMessage() + ")";
        }
    }

    /** Reads {@code [i32 original length][bytes]} and summarises the chunks. */
    static String packet(Codec.In in) {
        int original = in.i32();
        int n = in.i32();
        int off = in.pos;
        in.pos += n;
        return chunks(in.buf, off, off + n, original);
    }

    /** The position after the value at {@code in}'s position. */
    static int skipValue(Codec.In in) {
        Codec.In copy = new Codec.In(in.buf, in.pos, in.end);
        Codec.describe(copy);
        return copy.pos;
    }
}
