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

    /**
     * SCTP port to UDP target of one address: an open-addressing table that grows with the ports
     * seen (up to all 65535, so that every peer behind one address keeps its own entry: with a
     * bound of 256, the 257th peer of a host replaced an active one, and that one's packets then went
     * to another peer's UDP port). What all the tables together hold is bounded by {@link
     * RemotePorts#sctpPortBudget}; past it a new port replaces one of the address's entries.
     */
    private static final class BySctpPort {
        /** Keys are SCTP port + 1 (0: empty slot). */
        int[] keys = new int[8];

        InetSocketAddress[] udp = new InetSocketAddress[8];
        int n;
        int replaceNext;

        private int slot(int port) {
            int mask = keys.length - 1;
            int i = (port * 0x9E3779B1) >>> 16 & mask;
            while (keys[i] != 0 && keys[i] != port + 1) {
                i = (i + 1) & mask;
            }
            return i;
        }

        InetSocketAddress get(int port) {
            int i = slot(port);
            return keys[i] == 0 ? null : udp[i];
        }

        /** Records the target of {@code port}; returns 1 if that took a new entry. */
        int put(int port, InetSocketAddress target, boolean mayGrow) {
            int i = slot(port);
            if (keys[i] != 0) {
                udp[i] = target;
                return 0;
            }
            if (!mayGrow && n > 0) {
                // Out of budget: replace an entry of this address (in slot order) rather than grow.
                for (int k = 0; k < keys.length; k++) {
                    int j = (replaceNext + k) & (keys.length - 1);
                    if (keys[j] != 0) {
                        replaceNext = j + 1;
                        remove(j);
                        put(port, target, true);
                        return 0;
                    }
                }
            }
            if (2 * (n + 1) > keys.length) {
                grow();
                i = slot(port);
            }
            keys[i] = port + 1;
            udp[i] = target;
            n++;
            return 1;
        }

        private void remove(int j) {
            int mask = keys.length - 1;
            keys[j] = 0;
            udp[j] = null;
            n--;
            // Re-place the rest of the cluster (linear probing has no tombstones).
            for (int i = (j + 1) & mask; keys[i] != 0; i = (i + 1) & mask) {
                int k = keys[i];
                InetSocketAddress v = udp[i];
                keys[i] = 0;
                udp[i] = null;
                int to = slot(k - 1);
                keys[to] = k;
                udp[to] = v;
            }
        }

        private void grow() {
            int[] ok = keys;
            InetSocketAddress[] ov = udp;
            keys = new int[ok.length * 2];
            udp = new InetSocketAddress[ok.length * 2];
            for (int i = 0; i < ok.length; i++) {
                if (ok[i] != 0) {
                    int to = slot(ok[i] - 1);
                    keys[to] = ok[i];
                    udp[to] = ov[i];
                }
            }
        }
    }

    /** The most SCTP-port entries all addresses together may hold. */
    private final int sctpPortBudget;

    private int sctpPorts;

    private final Map<InetAddress, InetSocketAddress> configured = new HashMap<>();
    private InetSocketAddress lastSeen;

    private final int learnedLimit;

    RemotePorts(int defaultPort, int maxLearned) {
        this.defaultPort = defaultPort;
        this.learnedLimit = maxLearned;
        this.sctpPortBudget = (int) Math.min(1 << 20, Math.max(65536L, 16L * maxLearned));
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
                    forgetPortsOfForgottenAddresses();
                }
                m = new BySctpPort();
                bySctpPort.put(a, m);
            }
            if (sctpPorts >= sctpPortBudget) {
                forgetPortsOfForgottenAddresses();
            }
            sctpPorts += m.put(sctpPort, source, sctpPorts < sctpPortBudget);
            udpBySctpPort.put(sctpPort, source.getPort());
        }
        lastSctpPort = sctpPort;
        InetSocketAddress old = learned.get(a);
        if (old == null || old.getPort() != source.getPort()) {
            learned.put(a, source);
        }
        lastSeen = source;
    }

    /** Drops the SCTP-port tables of addresses the bounded map of addresses no longer holds. */
    private void forgetPortsOfForgottenAddresses() {
        bySctpPort.keySet().retainAll(learned.keySet());
        int n = 0;
        for (BySctpPort m : bySctpPort.values()) {
            n += m.n;
        }
        sctpPorts = n;
    }

    /** Sets the port for {@code address}, replacing what was learned until a packet says otherwise. */
    void set(InetAddress address, int port) {
        learned.remove(address);
        BySctpPort m = bySctpPort.remove(address);
        if (m != null) {
            sctpPorts -= m.n;
        }
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

    /** The SCTP-port entries held for all addresses together (for tests). */
    int sctpPortEntries() {
        return sctpPorts;
    }

    /** The number of learned entries. */
    int learnedCount() {
        return learned.size();
    }
}
