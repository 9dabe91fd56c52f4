package org.sctpj.journal;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.sctpj.trace.Frames;

/**
 * Writes a pcapng file (the IETF draft "PCAP Next Generation (pcapng) Capture File Format",
 * draft-ietf-opsawg-pcapng, which Wireshark and tshark read): a Section Header Block with a
 * comment, then Interface Description Blocks (link type Ethernet, nanosecond timestamps, a name and
 * a description) declared as the caller needs them, and one Enhanced Packet Block per frame, with
 * its direction (inbound or outbound, the {@code epb_flags} option) and an optional comment. Frames
 * are built as the {@code trace} module's pcap writer builds them ({@link Frames}): Ethernet, IPv4
 * or IPv6, and UDP for RFC 6951 encapsulation. Written in Java (libpcap writes the classic format
 * only). Little-endian; not thread-safe.
 */
final class PcapngWriter implements AutoCloseable {

    private static final int SHB = 0x0A0D0D0A;
    private static final int IDB = 1;
    private static final int EPB = 6;
    private static final int LINKTYPE_ETHERNET = 1;
    private static final int SNAPSHOT_LENGTH = 262_144;
    private static final int OPT_COMMENT = 1;
    private static final int SHB_USERAPPL = 4;
    private static final int IF_NAME = 2;
    private static final int IF_DESCRIPTION = 3;
    private static final int IF_TSRESOL = 9;
    private static final int EPB_FLAGS = 2;

    private final OutputStream out;
    private int interfaces;
    private int identification;

    private PcapngWriter(OutputStream out) {
        this.out = out;
    }

    /** Creates (or truncates) {@code file} and writes the section header with {@code comment}. */
    static PcapngWriter open(Path file, String comment) throws IOException {
        PcapngWriter w = new PcapngWriter(new BufferedOutputStream(Files.newOutputStream(file), 1 << 16));
        Block b = new Block(SHB);
        b.body.putInt(0x1A2B3C4D).putShort((short) 1).putShort((short) 0).putLong(-1L);
        b.option(OPT_COMMENT, comment);
        b.option(SHB_USERAPPL, "sctpj journal export");
        w.write(b.end());
        return w;
    }

    /** Declares an interface; returns its id for {@link #packet}. */
    int addInterface(String name, String description) throws IOException {
        Block b = new Block(IDB);
        b.body.putShort((short) LINKTYPE_ETHERNET).putShort((short) 0).putInt(SNAPSHOT_LENGTH);
        b.option(IF_NAME, name);
        b.option(IF_DESCRIPTION, description);
        b.option(IF_TSRESOL, new byte[] {9}); // 10^-9 s: nanoseconds
        write(b.end());
        return interfaces++;
    }

    /**
     * Writes an SCTP packet on interface {@code id}, framed in IP (and UDP on {@code udpPort} at
     * both ends when it is above 0), inbound or outbound, at {@code nanos}, with {@code comment}
     * (or null).
     */
    void packet(
            int id,
            byte[] sctp,
            InetAddress from,
            InetAddress to,
            int udpPort,
            boolean inbound,
            long nanos,
            String comment)
            throws IOException {
        byte[] payload = udpPort > 0 ? Frames.udp(from, udpPort, to, udpPort, sctp) : sctp;
        int protocol = udpPort > 0 ? Frames.PROTOCOL_UDP : Frames.PROTOCOL_SCTP;
        byte[] ip;
        int etherType;
        if (from instanceof Inet4Address s && to instanceof Inet4Address d) {
            ip = Frames.ipv4(s, d, protocol, identification, payload);
            identification = (identification + 1) & 0xffff;
            etherType = Frames.ETHERTYPE_IPV4;
        } else if (from instanceof Inet6Address s && to instanceof Inet6Address d) {
            ip = Frames.ipv6(s, d, protocol, payload);
            etherType = Frames.ETHERTYPE_IPV6;
        } else {
            throw new IllegalArgumentException(from + " and " + to + " must both be IPv4 or both IPv6");
        }
        byte[] frame = Frames.ethernet(Frames.macFor(to), Frames.macFor(from), etherType, ip);
        Block b = new Block(EPB, frame.length + 64 + (comment == null ? 0 : comment.length() * 3));
        b.body.putInt(id).putInt((int) (nanos >>> 32)).putInt((int) nanos);
        b.body.putInt(frame.length).putInt(frame.length).put(frame);
        b.pad();
        b.option(
                EPB_FLAGS,
                ByteBuffer.allocate(4)
                        .order(ByteOrder.LITTLE_ENDIAN)
                        .putInt(inbound ? 1 : 2)
                        .array());
        if (comment != null) {
            b.option(OPT_COMMENT, comment);
        }
        write(b.end());
    }

    private void write(byte[] block) throws IOException {
        out.write(block);
    }

    @Override
    public void close() throws IOException {
        out.close();
    }

    /** One block: type, length, body, options, length again. */
    private static final class Block {
        final ByteBuffer body;
        private boolean options;

        Block(int type) {
            this(type, 1024);
        }

        Block(int type, int capacity) {
            body = ByteBuffer.allocate(capacity + 64).order(ByteOrder.LITTLE_ENDIAN);
            body.putInt(type).putInt(0);
        }

        void pad() {
            while (body.position() % 4 != 0) {
                body.put((byte) 0);
            }
        }

        void option(int code, String value) {
            option(code, value.getBytes(StandardCharsets.UTF_8));
        }

        void option(int code, byte[] value) {
            body.putShort((short) code).putShort((short) value.length).put(value);
            pad();
            options = true;
        }

        byte[] end() {
            if (options) {
                body.putShort((short) 0).putShort((short) 0); // opt_endofopt
            }
            int length = body.position() + 4;
            body.putInt(length);
            body.putInt(4, length);
            byte[] b = new byte[length];
            body.flip();
            body.get(b);
            return b;
        }
    }
}
