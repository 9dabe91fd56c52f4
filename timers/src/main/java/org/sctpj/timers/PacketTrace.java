package org.sctpj.timers;

import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.net.InetAddress;
import java.nio.ByteBuffer;
import org.sctpj.stack.wire.chunk.ChunkType;

/**
 * The protocol trace: one line per SCTP packet in or out at {@link Level#DEBUG} on the logger
 * {@value #LOGGER} (the JDK's {@link System.Logger}: java.util.logging unless the application
 * plugs in another backend), with the chunk summary, e.g. {@code out 5001 -> 127.0.0.1:5002 vtag
 * 0x1a2b3c4d 1228 B: DATA(tsn=12,1200 B) SACK(cum=40)}. The stack thread asks whether the level
 * is on once per turn ({@link #enabled()}); when it is off, no line is built and nothing is
 * allocated.
 */
final class PacketTrace {

    /** The logger's name. */
    static final String LOGGER = "org.sctpj.packets";

    private static final Logger LOG = System.getLogger(LOGGER);

    private PacketTrace() {}

    /** Whether packets are traced now. */
    static boolean enabled() {
        return LOG.isLoggable(Level.DEBUG);
    }

    /** Logs one packet; {@code in}: received from {@code peer}, else sent to it. */
    static void log(boolean in, int localPort, ByteBuffer packet, InetAddress peer) {
        LOG.log(Level.DEBUG, summary(in, localPort, packet, peer));
    }

    /** The line for one packet (its position to limit), malformed ones included. */
    static String summary(boolean in, int localPort, ByteBuffer packet, InetAddress peer) {
        int p = packet.position();
        int n = packet.remaining();
        StringBuilder b = new StringBuilder(96)
                .append(in ? "in  " : "out ")
                .append(localPort)
                .append(in ? " <- " : " -> ")
                .append(peer == null ? "?" : peer.getHostAddress());
        if (n < 12) {
            return b.append(" ")
                    .append(n)
                    .append(" B: too short for an SCTP header")
                    .toString();
        }
        b.append(':')
                .append(packet.getShort(p + (in ? 0 : 2)) & 0xffff)
                .append(String.format(" vtag 0x%08x %d B:", packet.getInt(p + 4), n));
        int off = p + 12;
        int end = p + n;
        while (off + 4 <= end) {
            int type = packet.get(off) & 0xff;
            int len = packet.getShort(off + 2) & 0xffff;
            b.append(' ').append(ChunkType.name(type));
            if (type == ChunkType.DATA && len >= 16 && off + 16 <= end) {
                b.append("(tsn=")
                        .append(Integer.toUnsignedLong(packet.getInt(off + 4)))
                        .append(',')
                        .append(len - 16)
                        .append(" B)");
            } else if (type == ChunkType.SACK && len >= 16 && off + 16 <= end) {
                b.append("(cum=")
                        .append(Integer.toUnsignedLong(packet.getInt(off + 4)))
                        .append(",gaps=")
                        .append(packet.getShort(off + 12) & 0xffff)
                        .append(",dups=")
                        .append(packet.getShort(off + 14) & 0xffff)
                        .append(')');
            }
            if (len < 4) {
                b.append(" (bad chunk length ").append(len).append(')');
                break;
            }
            off += (len + 3) & ~3;
        }
        return b.toString();
    }
}
