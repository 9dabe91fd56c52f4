package org.sctpj.tests.core;

import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.util.List;
import org.sctpj.sim.EndpointNode;
import org.sctpj.sim.Outgoing;
import org.sctpj.sim.SimNode;

/**
 * Several endpoints behind one simulated node (one host running several applications): a packet
 * goes to the endpoint that owns its destination address; output is polled from each in turn.
 */
final class MultiNode implements SimNode {
    private final List<EndpointNode> nodes;
    private int cursor;
    private String lastState;
    private List<InetAddress> lastUserPeers = List.of();
    private boolean lastInputDropped;

    MultiNode(List<EndpointNode> nodes) {
        this.nodes = List.copyOf(nodes);
    }

    @Override
    public void handleInput(ByteBuffer packet, InetAddress from, InetAddress to, long nowNanos) {
        for (EndpointNode n : nodes) {
            if (n.endpoint().localAddresses().contains(to)) {
                n.handleInput(packet, from, to, nowNanos);
                lastInputDropped = n.lastInputDropped();
                return;
            }
        }
        lastInputDropped = true;
    }

    @Override
    public boolean lastInputDropped() {
        return lastInputDropped;
    }

    @Override
    public String lastTransmitState() {
        return lastState;
    }

    @Override
    public List<InetAddress> lastTransmitUserPeers() {
        return lastUserPeers;
    }

    @Override
    public void handleTimeout(long nowNanos) {
        for (EndpointNode n : nodes) {
            if (n.nextTimeout() <= nowNanos) {
                n.handleTimeout(nowNanos);
            }
        }
    }

    @Override
    public long nextTimeout() {
        long m = Long.MAX_VALUE;
        for (EndpointNode n : nodes) {
            m = Math.min(m, n.nextTimeout());
        }
        return m;
    }

    @Override
    public Outgoing pollTransmit(long nowNanos) {
        for (int k = 0; k < nodes.size(); k++) {
            EndpointNode n = nodes.get((cursor + k) % nodes.size());
            Outgoing o = n.pollTransmit(nowNanos);
            if (o != null) {
                cursor = (cursor + k + 1) % nodes.size();
                lastState = n.lastTransmitState();
                lastUserPeers = n.lastTransmitUserPeers();
                return o;
            }
        }
        return null;
    }
}
