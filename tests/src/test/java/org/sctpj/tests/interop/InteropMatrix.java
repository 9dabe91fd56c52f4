package org.sctpj.tests.interop;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.Consumer;
import org.sctpj.tests.interop.kernel.KernelInteropPeer;
import org.sctpj.tests.interop.usrsctp.UsrsctpInteropPeer;

/**
 * The cells of the interop matrix: peer x lower layer x direction x case, in the order they run.
 * The selection can be narrowed with system properties (comma-separated, labels as in the table):
 * {@code sctpj.interop.peer} (usrsctp, kernel), {@code sctpj.interop.llp} (udp, raw4, raw6), {@code
 * sctpj.interop.direction}, {@code sctpj.interop.case}; {@code sctpj.interop.group=extensions} keeps
 * only the cases of issue 12 ({@link InteropCase#extension()}), {@code auth}, {@code ecn}, {@code
 * pmtu}, {@code asconf} and {@code nrsack} those of issue 13 ({@link InteropCase#feature()}), {@code
 * core} only the others.
 */
public final class InteropMatrix {
    /** The groups of the issue 13 cases ({@link InteropCase#feature()}). */
    static final List<String> FEATURE_GROUPS = List.of("auth", "ecn", "pmtu", "asconf", "nrsack");

    private InteropMatrix() {}

    /** One cell. */
    public record Cell(Peer peer, Llp llp, Direction direction, InteropCase c) {
        /** {@code peer llp direction case}, the test's display name. */
        public String name() {
            return peer.name() + " " + llp.label() + " " + direction.label() + " " + c.label();
        }
    }

    /**
     * The selected peers: usrsctp, then the Linux kernel (one VM booted at its first cell, stopped
     * by {@link #release()}).
     */
    public static List<Peer> peers() {
        List<Peer> all = List.of(new UsrsctpInteropPeer(), new KernelInteropPeer());
        String v = System.getProperty("sctpj.interop.peer", "").trim();
        if (v.isEmpty()) {
            return all;
        }
        List<Peer> out = new ArrayList<>();
        for (String want : v.split(",")) {
            String w = want.trim().toLowerCase(Locale.ROOT);
            out.add(all.stream()
                    .filter(p -> p.name().equals(w))
                    .findFirst()
                    .orElseThrow(() -> new IllegalArgumentException("sctpj.interop.peer: no " + want + " among "
                            + all.stream().map(Peer::name).toList())));
        }
        return out;
    }

    /** Stops what the peers keep for the whole run (the kernel's VM). */
    public static void release() {
        KernelInteropPeer.stopVm();
    }

    /** Every selected cell. */
    public static List<Cell> cells() {
        Set<Llp> llps = select("sctpj.interop.llp", Llp.class, Llp::label);
        Set<Direction> dirs = select("sctpj.interop.direction", Direction.class, Direction::label);
        Set<InteropCase> cases = select("sctpj.interop.case", InteropCase.class, InteropCase::label);
        String group = System.getProperty("sctpj.interop.group", "").trim().toLowerCase(Locale.ROOT);
        switch (group) {
            case "" -> {}
            case "extensions" -> cases.removeIf(c -> !c.extension());
            case "core" -> cases.removeIf(c -> c.extension() || c.feature() != null);
            default -> {
                // auth, ecn, pmtu, asconf, nrsack, or several of them: auth,ecn,pmtu
                List<String> features = List.of(group.split(","));
                if (!FEATURE_GROUPS.containsAll(features)) {
                    throw new IllegalArgumentException("sctpj.interop.group: " + group
                            + " is none of core, extensions, " + String.join(", ", FEATURE_GROUPS)
                            + " (the last five may be listed)");
                }
                cases.removeIf(c -> c.feature() == null || !features.contains(c.feature()));
            }
        }
        List<Cell> out = new ArrayList<>();
        for (Peer p : peers()) {
            for (Llp l : llps) {
                for (Direction d : dirs) {
                    for (InteropCase c : cases) {
                        out.add(new Cell(p, l, d, c));
                    }
                }
            }
        }
        return out;
    }

    private static <E extends Enum<E>> Set<E> select(
            String property, Class<E> type, java.util.function.Function<E, String> label) {
        String v = System.getProperty(property, "").trim();
        EnumSet<E> all = EnumSet.allOf(type);
        if (v.isEmpty()) {
            return all;
        }
        EnumSet<E> chosen = EnumSet.noneOf(type);
        for (String want : v.split(",")) {
            String w = want.trim().toLowerCase(Locale.ROOT);
            all.stream()
                    .filter(e -> label.apply(e).toLowerCase(Locale.ROOT).equals(w))
                    .findFirst()
                    .ifPresentOrElse(chosen::add, () -> {
                        throw new IllegalArgumentException(property + ": no " + want + " among " + all);
                    });
        }
        return chosen;
    }

    /** Runs every selected cell in order, reporting each row as it finishes. */
    public static InteropTable runAll(Consumer<InteropTable.Row> onRow) {
        InteropTable t = new InteropTable();
        for (Cell cell : cells()) {
            Outcome o = new CaseRunner(cell.peer()).run(cell.llp(), cell.direction(), cell.c());
            InteropTable.Row r = new InteropTable.Row(cell.peer().name(), cell.llp(), cell.direction(), cell.c(), o);
            t.add(r);
            onRow.accept(r);
        }
        return t;
    }

    /**
     * Runs the selected cells and prints the table (for a child JVM or by hand); exit status 0
     * when nothing failed.
     */
    public static void main(String[] args) {
        InteropTable t;
        try {
            t = runAll(r -> System.out.println("# " + r.peer() + " " + r.llp().label() + " "
                    + r.direction().label() + " " + r.c().label() + ": "
                    + r.outcome().status().label() + " "
                    + r.outcome().detail()));
        } finally {
            release();
        }
        System.out.println("=== interop table ===");
        System.out.println(t.render());
        System.exit(t.count(Outcome.Status.FAIL) == 0 ? 0 : 1);
    }
}
