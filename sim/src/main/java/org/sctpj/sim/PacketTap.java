package org.sctpj.sim;

import java.net.InetAddress;
import java.nio.ByteBuffer;

/**
 * Sees every packet a link delivers (after loss, corruption and duplication, so exactly what reached
 * the receiving node), for tracing: a pcap writer (such as the {@code trace} module's {@code
 * PcapWriter}) or an in-memory log for comparing runs. Called on the simulator's thread just before
 * the receiving node's {@link SimNode#handleInput}.
 */
@FunctionalInterface
public interface PacketTap {

    /**
     * A packet crossed a link.
     *
     * @param nowNanos the virtual arrival time
     * @param linkId the link's {@link Link#id()}, for example {@code "p0:A>Z"}
     * @param source the packet's source address
     * @param destination the packet's destination address
     * @param packet the bytes as delivered, read-only, from position to limit
     */
    void onPacket(long nowNanos, String linkId, InetAddress source, InetAddress destination, ByteBuffer packet);
}
