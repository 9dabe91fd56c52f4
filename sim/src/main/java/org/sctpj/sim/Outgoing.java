package org.sctpj.sim;

import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.util.Objects;

/**
 * A packet a {@link SimNode} hands to the network: its bytes (from the buffer's position to its
 * limit) and the IP address pair that selects the {@link Path} it travels on.
 *
 * @param packet the packet bytes, from position to limit
 * @param source the sending address, one of the sending node's path addresses
 * @param destination the peer address
 * @param ecn the ECN codepoint of the IP header ({@code org.sctpj.stack.llp.Ecn}: 0 Not-ECT, 2
 *     ECT(0), 3 CE), which a link's CE-marking model looks at and the receiver is given
 * @param fragmentable the packet may be fragmented by IP (DF clear): a link whose {@link Link#mtu}
 *     it exceeds delivers it (as fragments would be) instead of dropping it
 */
public record Outgoing(ByteBuffer packet, InetAddress source, InetAddress destination, int ecn, boolean fragmentable) {

    /** A packet sent Not-ECT, not to be fragmented. */
    public Outgoing(ByteBuffer packet, InetAddress source, InetAddress destination) {
        this(packet, source, destination, 0, false);
    }

    /** A packet sent with ECN codepoint {@code ecn}, not to be fragmented. */
    public Outgoing(ByteBuffer packet, InetAddress source, InetAddress destination, int ecn) {
        this(packet, source, destination, ecn, false);
    }

    /** Checks that no component is null. */
    public Outgoing {
        Objects.requireNonNull(packet, "packet: pass the bytes to send");
        Objects.requireNonNull(source, "source: pass the local address the packet leaves from");
        Objects.requireNonNull(destination, "destination: pass the peer address the packet goes to");
    }

    /** A packet of the given bytes (the array is wrapped, not copied). */
    public static Outgoing of(byte[] packet, InetAddress source, InetAddress destination) {
        return new Outgoing(ByteBuffer.wrap(packet), source, destination);
    }
}
