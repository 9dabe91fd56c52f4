package org.sctpj.timers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.sctpj.stack.AssociationId;
import org.sctpj.stack.Endpoint;
import org.sctpj.stack.SctpOptions;

/**
 * Routing of a sharded endpoint's packets ({@link Shards}) and the tags and ids a shard chooses
 * ({@link Endpoint#shard}): an INIT a shard sends carries a tag of its class, so the INIT ACK that
 * answers it comes back to that shard; INITs and T-bit packets go by the peer.
 */
class ShardsTest {

    private static ByteBuffer packet(int srcPort, int tag, int type, int flags) {
        ByteBuffer b = ByteBuffer.allocate(16);
        b.putShort(0, (short) srcPort).putShort(2, (short) 5000).putInt(4, tag);
        b.put(12, (byte) type).put(13, (byte) flags).putShort(14, (short) 4);
        return b;
    }

    @Test
    void packetsGoToTheShardOfTheirTagOrOfTheirPeer() throws Exception {
        InetAddress peer = InetAddress.getByName("10.0.0.7");
        int byPeer = Shards.ofPeer(peer, 6000, 3);
        assertEquals(7 % 3, Shards.of(packet(6000, 7, 0, 0), peer, 3), "DATA: by tag");
        assertEquals(Integer.remainderUnsigned(0xfffffff0, 3), Shards.of(packet(6000, 0xfffffff0, 3, 0), peer, 3));
        assertEquals(byPeer, Shards.of(packet(6000, 0, 1, 0), peer, 3), "INIT: by peer");
        assertEquals(byPeer, Shards.of(packet(6000, 12345, 6, 1), peer, 3), "ABORT with the T bit: by peer");
        assertEquals(12345 % 3, Shards.of(packet(6000, 12345, 6, 0), peer, 3), "ABORT without: by tag");
        assertEquals(byPeer, Shards.of(packet(6000, 12345, 14, 1), peer, 3), "SHUTDOWN COMPLETE with the T bit");
        assertEquals(0, Shards.of(ByteBuffer.allocate(8), peer, 3), "too short: shard 0 counts it");
        assertEquals(0, Shards.of(packet(6000, 7, 0, 0), peer, 1));
        int[] seen = new int[4];
        for (int port = 1; port < 4001; port++) {
            seen[Shards.ofPeer(peer, port, 4)]++;
        }
        for (int k = 0; k < 4; k++) {
            assertTrue(seen[k] > 800, "peers spread over the shards: " + java.util.Arrays.toString(seen));
        }
    }

    @Test
    void aShardChoosesTagsAndIdsOfItsClass() throws Exception {
        InetAddress lo = InetAddress.getByName("127.0.0.1");
        for (int k = 0; k < 3; k++) {
            Endpoint ep = new Endpoint(5000, List.of(lo), SctpOptions.LAN, new SplittableRandom(k), 0);
            ep.shard(3, k);
            for (int i = 0; i < 50; i++) {
                AssociationId id = ep.connect(List.of(lo), 6000 + i, 0);
                assertEquals(k, Shards.ofAssociation(id.value(), 3), "id " + id);
                ByteBuffer init = ByteBuffer.allocate(65535);
                InetAddress to = ep.pollTransmit(init, 0);
                assertEquals(lo, to);
                int initiateTag = init.getInt(init.position() + 16); // INIT's Initiate Tag
                assertEquals(k, Integer.remainderUnsigned(initiateTag, 3), "tag " + Integer.toHexString(initiateTag));
            }
            int shard = k;
            assertThrows(IllegalStateException.class, () -> ep.shard(3, shard), "after the first association");
        }
        Endpoint ep = new Endpoint(5000, List.of(lo), SctpOptions.LAN, new SplittableRandom(1), 0);
        assertThrows(IllegalArgumentException.class, () -> ep.shard(3, 3));
        assertThrows(IllegalArgumentException.class, () -> ep.shard(0, 0));
    }
}
