package org.sctpj.llp.udp;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The remote UDP encapsulation port of each peer address (RFC 6951 section 5.4: the port is the
 * UDP source port of the last packet received from that address). Several peers may share one
 * address (several processes on one host, each with its own UDP port): so the port is also learned
 * per SCTP source port of the packets, and a packet for a given SCTP destination port goes to the
 * UDP port learned for that SCTP port when there is one, else to the address's last one. An
 * address nothing was learned or set for (one the peer added with an ASCONF, RFC 5061, before any
 * packet came from it) gets the UDP port last learned for the same SCTP port from any address: a
 * peer endpoint uses one encapsulation port for all its addresses, as usrsctp and Linux do (one
 * per association), where the default port could reach no one and draw an ICMP Port Unreachable,
 * which ends the association (RFC 6951 section 5.5). Learned entries live in a
 * bounded least-recently-seen map, since any host can send us datagrams; ports set by the user are
 * kept apart, unbounded (the user controls them), and used when nothing was learned since. Values
 * are the ready-made socket addresses to send to, so that a send allocates nothing. Used by the
 * stack thread only.
 */
final class RemotePorts {

    private final int defaultPort;
    private final Map<InetAddress, InetSocketAddress> learned;
    /** Per address: the UDP source of the last packet from each SCTP port (bounded per address). */
    private final Map<InetAddress, BySctpPort> bySctpPort = new HashMap<>();
    /** Per SCTP source port: the UDP source of the last packet from it, whatever its address (bounded). */
    private final Map<Integer, Integer> udpBySctpPort;

    private int lastSctpPort = -1;

    /** A small map SCTP port -> UDP target, bounded; the oldest entry is replaced when full. */
    private static final class BySctpPort {
        static final int MAX = 256;
        int[] sctp = new int[4];
        InetSocketAddress[] udp = new InetSocketAddress[4];
        int n;
        int next;

        InetSocketAddress get(int port) {
            for (int i = 0; i < n; i++) {
                if (sctp[i] == port) {
                    return udp[i];
                }
            }
            return null;
        }

        void put(int port, InetSocketAddress target) {
            for (int i = 0; i < n; i++) {
                if (sctp[i] == port) {
                    udp[i] = target;
                    return;
                }
            }
            if (n == sctp.length && n < MAX) {
                sctp = java.util.Arrays.copyOf(sctp, n * 2);
                udp = java.util.Arrays.copyOf(udp, n * 2);
            }
            if (n < sctp.length) {
                sctp[n] = port;
                udp[n++] = target;
            } else {
                sctp[next] = port;
                udp[next] = target;
                next = (next + 1) % n;
            }
        }
    }

    private final Map<InetAddress, InetSocketAddress> configured = new HashMap<>();
    private InetSocketAddress lastSeen;

    private final int learnedLimit;

    RemotePorts(int defaultPort, int maxLearned) {
        this.defaultPort = defaultPort;
        this.learnedLimit = maxLearned;
        this.learned = new LinkedHashMap<>(Math.min(maxLearned, 1024) * 2, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<InetAddress, InetSocketAddress> eldest) {
                return size() > maxLearned;
            }
        };
        this.udpBySctpPort = new LinkedHashMap<>(16, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<Integer, Integer> eldest) {
                return size() > maxLearned;
            }
        };
    }

    /** Records the source of a received datagram (its port is not 0). */
    void learn(InetSocketAddress source) {
        learn(source, -1);
    }

    /**
     * Records the source of a received datagram carrying an SCTP packet from {@code sctpPort} (-1
     * if unknown).
     */
    void learn(InetSocketAddress source, int sctpPort) {
        if (source == lastSeen && sctpPort == lastSctpPort) {
            return; // the channel hands back the same object while the source does not change
        }
        InetAddress a = source.getAddress();
        if (sctpPort >= 0) {
            BySctpPort m = bySctpPort.get(a);
            if (m == null) {
                if (bySctpPort.size() >= learnedLimit) {
                    bySctpPort.keySet().retainAll(learned.keySet());
                }
                m = new BySctpPort();
                bySctpPort.put(a, m);
            }
            m.put(sctpPort, source);
            udpBySctpPort.put(sctpPort, source.getPort());
        }
        lastSctpPort = sctpPort;
        InetSocketAddress old = learned.get(a);
        if (old == null || old.getPort() != source.getPort()) {
            learned.put(a, source);
        }
        lastSeen = source;
    }

    /** Sets the port for {@code address}, replacing what was learned until a packet says otherwise. */
    void set(InetAddress address, int port) {
        learned.remove(address);
        bySctpPort.remove(address);
        if (lastSeen != null && lastSeen.getAddress().equals(address)) {
            lastSeen = null;
        }
        configured.put(address, new InetSocketAddress(address, port));
    }

    /** The socket address to send to for {@code address}: learned, else set, else the default port. */
    InetSocketAddress target(InetAddress address) {
        return target(address, -1);
    }

    /**
     * The socket address to send an SCTP packet for {@code sctpPort} (-1: unknown) at {@code
     * address} to: learned from that SCTP port, else learned from the address, else set, else the
     * default port.
     */
    InetSocketAddress target(InetAddress address, int sctpPort) {
        if (sctpPort >= 0) {
            BySctpPort m = bySctpPort.get(address);
            if (m != null) {
                InetSocketAddress t = m.get(sctpPort);
                if (t != null) {
                    return t;
                }
            }
        }
        InetSocketAddress t = learned.get(address);
        if (t == null) {
            t = configured.get(address);
        }
        if (t == null) {
            Integer udp = sctpPort >= 0 ? udpBySctpPort.get(sctpPort) : null;
            t = new InetSocketAddress(address, udp != null ? udp : defaultPort);
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
