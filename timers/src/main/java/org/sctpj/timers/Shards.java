package org.sctpj.timers;

import java.net.InetAddress;
import java.nio.ByteBuffer;

/**
 * Which shard of a sharded endpoint a packet belongs to (issue 15): an endpoint's associations are
 * spread over several stack threads (shards), each shard an {@link org.sctpj.stack.Endpoint} of
 * its own made with {@link org.sctpj.stack.Endpoint#shard}, and one lower layer shared by them
 * ({@link SharedLayer}) hands each packet it receives to the shard this class names. No table is
 * consulted, so the answer costs the same at any number of associations:
 *
 * <ul>
 *   <li>a packet with a Verification Tag of ours (every packet of an association, a COOKIE ECHO
 *       included: RFC 9260 section 8.5) goes to the shard whose class the tag is in, since each
 *       shard chooses its tags in its own class;
 *   <li>a packet without one: an INIT (tag 0, section 8.5.1 A), and an ABORT or SHUTDOWN COMPLETE
 *       with the T bit (it carries the peer's tag, section 8.5.1 B and C), goes to the shard of its
 *       source address and port ({@link #ofPeer}); so does an ICMP error, by the peer it quotes.
 *       An association a shard starts ({@code connect}) is put on the shard of its first peer
 *       address and port, and one a peer starts is made by the shard its INIT reached, so both
 *       kinds live on their peer's shard and INIT collisions and restarts (section 5.2) meet the
 *       association they concern.
 * </ul>
 *
 * A peer that starts an association from another of its addresses than before, or a T-bit packet
 * from a secondary address, reaches another shard, which treats it as out of the blue (section
 * 8.4): the association on its own shard goes on, or times out.
 */
public final class Shards {

    private static final int ABORT = 6;
    private static final int SHUTDOWN_COMPLETE = 14;

    private Shards() {}

    /**
     * The shard of {@code shards} that the SCTP packet in {@code sctp} (position to limit, not
     * moved) from {@code from} belongs to.
     */
    public static int of(ByteBuffer sctp, InetAddress from, int shards) {
        if (shards == 1) {
            return 0;
        }
        int p = sctp.position();
        if (sctp.remaining() < 16) {
            return 0; // too short for a chunk: any shard counts it as malformed
        }
        int tag = sctp.getInt(p + 4);
        int type = sctp.get(p + 12) & 0xff;
        boolean tBit = (sctp.get(p + 13) & 1) != 0;
        if (tag == 0 || (tBit && (type == ABORT || type == SHUTDOWN_COMPLETE))) {
            int port = ((sctp.get(p) & 0xff) << 8) | (sctp.get(p + 1) & 0xff);
            return ofPeer(from, port, shards);
        }
        return Integer.remainderUnsigned(tag, shards);
    }

    /** The shard of {@code shards} for the peer at {@code address} and SCTP {@code port}. */
    public static int ofPeer(InetAddress address, int port, int shards) {
        if (shards == 1) {
            return 0;
        }
        int h = address.hashCode() * 31 + port;
        h ^= h >>> 16;
        h *= 0x45d9f3b;
        h ^= h >>> 16;
        return Math.floorMod(h, shards);
    }

    /** The shard of {@code shards} that owns association id {@code value} (see {@code Endpoint.shard}). */
    public static int ofAssociation(int value, int shards) {
        return Math.floorMod(value - 1, shards);
    }
}
