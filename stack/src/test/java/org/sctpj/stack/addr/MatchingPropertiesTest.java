package org.sctpj.stack.addr;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import org.junit.jupiter.api.Test;

/** The matching is exact: compared with brute force on random small graphs. */
class MatchingPropertiesTest {

    /** Best (pairs, total weight) over all matchings, by trying every one: O(m^n). */
    private static long[] bruteForce(int[][] w) {
        return search(w, 0, new boolean[w.length == 0 ? 0 : w[0].length]);
    }

    private static long[] search(int[][] w, int row, boolean[] usedCol) {
        if (row == w.length) {
            return new long[] {0, 0};
        }
        long[] best = search(w, row + 1, usedCol); // row stays unmatched
        for (int c = 0; c < usedCol.length; c++) {
            if (usedCol[c] || w[row][c] == 0) {
                continue;
            }
            usedCol[c] = true;
            long[] rest = search(w, row + 1, usedCol);
            usedCol[c] = false;
            long[] cand = {rest[0] + 1, rest[1] + w[row][c]};
            if (cand[0] > best[0] || (cand[0] == best[0] && cand[1] > best[1])) {
                best = cand;
            }
        }
        return best;
    }

    private static long[] score(int[][] w, int[] match) {
        long pairs = 0;
        long weight = 0;
        for (int r = 0; r < match.length; r++) {
            if (match[r] >= 0) {
                pairs++;
                weight += w[r][match[r]];
            }
        }
        return new long[] {pairs, weight};
    }

    private static void assertValid(int[][] w, int[] match) {
        assertEquals(w.length, match.length);
        Set<Integer> cols = new HashSet<>();
        for (int r = 0; r < match.length; r++) {
            if (match[r] >= 0) {
                assertTrue(cols.add(match[r]), "column " + match[r] + " used twice");
                assertTrue(w[r][match[r]] > 0, "matched a non-edge");
            }
        }
    }

    @Provide
    Arbitrary<int[][]> graphs() {
        Arbitrary<Integer> weight = Arbitraries.frequencyOf(
                Tuple.of(3, Arbitraries.just(0)),
                Tuple.of(2, Arbitraries.integers().between(1, 4)));
        return Arbitraries.integers().between(0, 6).flatMap(n -> Arbitraries.integers()
                .between(0, 6)
                .flatMap(m ->
                        weight.array(int[].class).ofSize(m).array(int[][].class).ofSize(n)));
    }

    @Property(tries = 300)
    void mostPairsThenMostWeightLikeBruteForce(@ForAll("graphs") int[][] w) {
        int[] match = Matching.maximum(w);
        assertValid(w, match);
        assertArrayEquals(bruteForce(w), score(w, match));
    }

    @Property(tries = 200)
    void transposingChangesNothingInTheScore(@ForAll("graphs") int[][] w) {
        if (w.length == 0 || w[0].length == 0) {
            return;
        }
        int[][] t = new int[w[0].length][w.length];
        for (int r = 0; r < w.length; r++) {
            for (int c = 0; c < w[0].length; c++) {
                t[c][r] = w[r][c];
            }
        }
        assertArrayEquals(score(w, Matching.maximum(w)), score(t, Matching.maximum(t)));
    }

    @Test
    void largePeerSideStaysValid() {
        Random rnd = new Random(7);
        int[][] w = new int[6][4000];
        for (int[] row : w) {
            for (int c = 0; c < row.length; c++) {
                row[c] = rnd.nextInt(50) == 0 ? 1 + rnd.nextInt(4) : 0;
            }
        }
        int[] match = Matching.maximum(w);
        assertValid(w, match);
        assertEquals(6, score(w, match)[0]);
    }

    // --- the selector's pairing on random hosts built from an address pool ---

    private static final String[] LOCAL_POOL = {
        "193.175.13.2/24", "193.175.14.3/24", "10.0.0.1/24", "10.1.0.1/16", "2001:db8:1::1/64",
        "2001:db8:2::1/64", "fd00:1::1/64", "127.0.0.1/8", "fe80::1/64", "192.168.1.55/24"
    };
    private static final String[] PEER_POOL = {
        "193.175.13.9",
        "193.175.99.9",
        "10.0.0.9",
        "10.2.0.9",
        "2001:db8:1::9",
        "2001:db8:3::9",
        "fd00:1::9",
        "fd00:9::9",
        "141.35.14.189",
        "192.168.1.1",
        "127.0.0.1",
        "fe80::9"
    };

    @Provide
    Arbitrary<List<List<Integer>>> localSides() {
        return Arbitraries.integers()
                .between(0, LOCAL_POOL.length - 1)
                .list()
                .ofMaxSize(3)
                .list()
                .ofMaxSize(5);
    }

    @Provide
    Arbitrary<List<List<Integer>>> peerSides() {
        return Arbitraries.integers()
                .between(0, PEER_POOL.length - 1)
                .list()
                .ofMaxSize(3)
                .list()
                .ofMaxSize(5);
    }

    @Property(tries = 200)
    void pairingUsesNoInterfaceTwiceAndIsMaximal(
            @ForAll("localSides") List<List<Integer>> local,
            @ForAll("peerSides") List<List<Integer>> remote,
            @ForAll boolean collide) {
        List<LocalInterface> host = new ArrayList<>();
        for (int i = 0; i < local.size(); i++) {
            host.add(LocalInterface.of(
                    "L" + i, local.get(i).stream().map(k -> LOCAL_POOL[k]).toArray(String[]::new)));
        }
        List<PeerInterface> peer = new ArrayList<>();
        for (int j = 0; j < remote.size(); j++) {
            peer.add(PeerInterface.of(
                    "P" + j, remote.get(j).stream().map(k -> PEER_POOL[k]).toArray(String[]::new)));
        }
        CollisionInfo c = collide ? CollisionInfo.of(List.of(Literals.parse("10.0.0.9"))) : CollisionInfo.NONE;
        List<PathPair> paths = DefaultAddressSelector.INSTANCE.pairPaths(host, peer, c);

        Set<String> locals = new HashSet<>();
        Set<String> peers = new HashSet<>();
        Set<InetAddress> peerAddrs = new HashSet<>();
        long weight = 0;
        for (PathPair p : paths) {
            assertTrue(locals.add(p.localInterface()), "local interface twice: " + paths);
            assertTrue(peers.add(p.peerInterface()), "peer interface twice: " + paths);
            assertTrue(peerAddrs.add(p.peerAddress()), "peer address twice: " + paths);
            assertTrue(p.weight().usable());
            weight += p.weight().value();
        }
        for (int k = 1; k < paths.size(); k++) {
            assertTrue(paths.get(k - 1).weight().compareTo(paths.get(k).weight()) >= 0, "primary first: " + paths);
        }
        // Every chosen peer address is one rankPeer accepts.
        List<InetAddress> flat =
                peer.stream().flatMap(p -> p.addresses().stream()).toList();
        List<InetAddress> ranked = DefaultAddressSelector.INSTANCE.rankPeer(host, flat, c);
        assertTrue(ranked.containsAll(peerAddrs), paths + " vs " + ranked);

        // Interface weights computed independently, then brute force.
        DefaultAddressSelector.Locality where =
                DefaultAddressSelector.Locality.of(host, flat.stream().findFirst());
        int[][] w = new int[host.size()][peer.size()];
        Set<InetAddress> seen = new HashSet<>();
        for (int j = 0; j < peer.size(); j++) {
            for (InetAddress a : peer.get(j).addresses()) {
                if (!seen.add(a)) {
                    continue;
                }
                for (int i = 0; i < host.size(); i++) {
                    for (LocalInterface.Address l : host.get(i).addresses()) {
                        w[i][j] = Math.max(
                                w[i][j],
                                DefaultAddressSelector.weight(l, a, c, where).value());
                    }
                }
            }
        }
        assertArrayEquals(bruteForce(w), new long[] {paths.size(), weight});
    }
}
