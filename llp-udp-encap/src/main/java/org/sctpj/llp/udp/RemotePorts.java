package org.sctpj.llp.udp;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The remote UDP encapsulation port of each peer address (RFC 6951 section 5.4: the port is the
 * UDP source port of the last packet received from that address). Learned entries live in a
 * bounded least-recently-seen map, since any host can send us datagrams; ports set by the user are
 * kept apart, unbounded (the user controls them), and used when nothing was learned since. Values
 * are the ready-made socket addresses to send to, so that a send allocates nothing. Used by the
 * stack thread only.
 */
final class RemotePorts {

    private final int defaultPort;
    private final Map<InetAddress, InetSocketAddress> learned;
    private final Map<InetAddress, InetSocketAddress> configured = new HashMap<>();
    private InetSocketAddress lastSeen;

    RemotePorts(int defaultPort, int maxLearned) {
        this.defaultPort = defaultPort;
        this.learned = new LinkedHashMap<>(Math.min(maxLearned, 1024) * 2, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<InetAddress, InetSocketAddress> eldest) {
                return size() > maxLearned;
            }
        };
    }

    /** Records the source of a received datagram (its port is not 0). */
    void learn(InetSocketAddress source) {
        if (source == lastSeen) {
            return; // the channel hands back the same object while the source does not change
        }
        InetAddress a = source.getAddress();
        InetSocketAddress old = learned.get(a);
        if (old == null || old.getPort() != source.getPort()) {
            learned.put(a, source);
        }
        lastSeen = source;
    }

    /** Sets the port for {@code address}, replacing what was learned until a packet says otherwise. */
    void set(InetAddress address, int port) {
        learned.remove(address);
        if (lastSeen != null && lastSeen.getAddress().equals(address)) {
            lastSeen = null;
        }
        configured.put(address, new InetSocketAddress(address, port));
    }

    /** The socket address to send to for {@code address}: learned, else set, else the default port. */
    InetSocketAddress target(InetAddress address) {
        InetSocketAddress t = learned.get(address);
        if (t == null) {
            t = configured.get(address);
        }
        if (t == null) {
            t = new InetSocketAddress(address, defaultPort);
        }
        return t;
    }

    /** The port {@link #target} uses for {@code address}. */
    int port(InetAddress address) {
        return target(address).getPort();
    }

    /** The number of learned entries. */
    int learnedCount() {
        return learned.size();
    }
}
