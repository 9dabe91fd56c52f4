package org.sctpj.stack.testutil;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads classic libpcap files (Ethernet, raw IP or Linux cooked link types) and extracts the SCTP
 * packets they carry, raw over IPv4/IPv6 (protocol 132) or UDP-encapsulated (RFC 6951). Test code
 * only: the stack module has no runtime dependencies.
 */
public final class PcapReader {
    private PcapReader() {}

    /** One SCTP packet found in a capture. */
    public record SctpFrame(int index, boolean udpEncapsulated, byte[] sctp) {}

    /** The SCTP packets of a capture, in file order. */
    public static List<SctpFrame> sctpPackets(InputStream in) throws IOException {
        ByteBuffer f = ByteBuffer.wrap(in.readAllBytes());
        int magic = f.getInt(0);
        if (magic == 0xd4c3b2a1 || magic == 0x4d3cb2a1) {
            f.order(ByteOrder.LITTLE_ENDIAN);
        } else if (magic != 0xa1b2c3d4 && magic != 0xa1b23c4d) {
            throw new IOException("not a classic pcap file: magic " + Integer.toHexString(magic));
        }
        int linkType = f.getInt(20);
        List<SctpFrame> out = new ArrayList<>();
        int off = 24;
        int index = 0;
        while (off + 16 <= f.limit()) {
            int incl = f.getInt(off + 8);
            byte[] frame = new byte[incl];
            f.get(off + 16, frame);
            off += 16 + incl;
            index++;
            ByteBuffer p = ByteBuffer.wrap(frame);
            int ip;
            switch (linkType) {
                case 1 -> { // Ethernet
                    int etherType = p.getShort(12) & 0xffff;
                    ip = 14;
                    if (etherType == 0x8100) {
                        ip = 18;
                    }
                }
                case 101, 12 -> ip = 0; // raw IP
                case 113 -> ip = 16; // Linux cooked
                default -> throw new IOException("unsupported link type " + linkType);
            }
            int version = (p.get(ip) & 0xf0) >>> 4;
            int proto;
            int payload;
            int end;
            if (version == 4) {
                int ihl = (p.get(ip) & 0x0f) * 4;
                proto = p.get(ip + 9) & 0xff;
                payload = ip + ihl;
                end = ip + (p.getShort(ip + 2) & 0xffff);
            } else if (version == 6) {
                proto = p.get(ip + 6) & 0xff;
                payload = ip + 40;
                end = payload + (p.getShort(ip + 4) & 0xffff);
            } else {
                continue;
            }
            end = Math.min(end, frame.length);
            if (proto == 132) {
                byte[] s = new byte[end - payload];
                p.get(payload, s);
                out.add(new SctpFrame(index, false, s));
            } else if (proto == 17) {
                int sport = p.getShort(payload) & 0xffff;
                int dport = p.getShort(payload + 2) & 0xffff;
                if (sport == 9899 || dport == 9899) {
                    byte[] s = new byte[end - payload - 8];
                    p.get(payload + 8, s);
                    out.add(new SctpFrame(index, true, s));
                }
            }
        }
        return out;
    }
}
