package org.sctpj.api.socket;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.lang.module.ModuleDescriptor;
import java.lang.module.ModuleFinder;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.spi.ToolProvider;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.sctpj.api.callback.CallbackSocket;
import org.sctpj.stack.SctpOptions;

/**
 * Keeps the module boundary: api-socket is built on api-callback's public API alone. Its compiled
 * classes may refer, among sctpj's classes, only to its own package, to the packages api-callback
 * exports and to those the stack exports (the value types api-callback's signatures hand out): not
 * to the stack threads ({@code org.sctpj.timers}), not to a lower layer ({@code org.sctpj.llp.*}:
 * UDP encapsulation is chosen through api-callback), not to the stack's internal packages. Which
 * classes a class refers to comes from the JDK's {@code jdeps} (constant pool, descriptors and
 * signatures of every class file); which packages a module exports, from its module descriptor.
 */
class BoundaryTest {

    /** One reference read from a class file: a class of the checked code to another class. */
    record Ref(String from, String to) {}

    private static final Pattern JDEPS_LINE = Pattern.compile("^\\s+(\\S+)\\s+->\\s+(\\S+)\\s");

    @Test
    void apiSocketRefersOnlyToApiCallbacksPublicApiAndTheStacksExportedPackages() throws IOException {
        List<Ref> refs = references(classesOf(Core.class));
        assertTrue(
                refs.contains(new Ref(Core.class.getName(), CallbackSocket.class.getName())),
                "jdeps should show Core's use of CallbackSocket; it showed " + refs.size() + " references");
        assertEquals(List.of(), violations(refs, allowedPackages()));
    }

    /** The check is not blind: api-callback's own classes drive the stack thread and UDP layer. */
    @Test
    void theCheckFlagsTheStackThreadAndTheUdpLayerInApiCallbacksClasses() throws IOException {
        List<String> v = violations(references(classesOf(CallbackSocket.class)), allowedPackages());
        for (String pkg : List.of("org.sctpj.timers.", "org.sctpj.llp.udp.")) {
            assertTrue(
                    v.stream().anyMatch(line -> line.contains(" -> " + pkg)), "expected a use of " + pkg + " in " + v);
        }
    }

    @Test
    void theCheckFlagsTheStacksInternalPackagesAndLetsItsExportedOnesThrough() {
        List<Ref> refs = List.of(
                new Ref("org.sctpj.api.socket.X", "org.sctpj.stack.tx.DataSender"),
                new Ref("org.sctpj.api.socket.X", "org.sctpj.stack.assoc.Association"),
                new Ref("org.sctpj.api.socket.X", "org.sctpj.stack.SctpOptions"),
                new Ref("org.sctpj.api.socket.X", "org.sctpj.stack.wire.cause.ErrorCause"),
                new Ref("org.sctpj.api.socket.X", "org.sctpj.api.callback.Callbacks"),
                new Ref("org.sctpj.api.socket.X", "java.lang.Thread"));
        assertEquals(
                List.of(
                        "org.sctpj.api.socket.X -> org.sctpj.stack.tx.DataSender",
                        "org.sctpj.api.socket.X -> org.sctpj.stack.assoc.Association"),
                violations(refs, allowedPackages()));
    }

    /** The references to sctpj classes outside {@code allowed} packages, as "from -> to". */
    static List<String> violations(List<Ref> refs, Set<String> allowed) {
        List<String> out = new ArrayList<>();
        for (Ref r : refs) {
            int dot = r.to().lastIndexOf('.');
            String pkg = dot < 0 ? "" : r.to().substring(0, dot);
            if (r.to().startsWith("org.sctpj.") && !allowed.contains(pkg)) {
                out.add(r.from() + " -> " + r.to());
            }
        }
        return out;
    }

    /** api-socket's own package, and the packages api-callback and the stack export. */
    static Set<String> allowedPackages() {
        Set<String> allowed = new TreeSet<>();
        allowed.add(Core.class.getPackageName());
        for (Class<?> c : List.of(CallbackSocket.class, SctpOptions.class)) {
            ModuleDescriptor d = ModuleFinder.of(classesOf(c)).findAll().stream()
                    .findFirst()
                    .orElseThrow(() -> new AssertionError("no module descriptor beside " + c))
                    .descriptor();
            for (ModuleDescriptor.Exports e : d.exports()) {
                assertTrue(e.targets().isEmpty(), d.name() + " exports " + e.source() + " to some modules only");
                allowed.add(e.source());
            }
        }
        return allowed;
    }

    /** Every reference of the class files under {@code classes} (module-info aside), from jdeps. */
    static List<Ref> references(Path classes) throws IOException {
        List<String> args = new ArrayList<>(List.of("-verbose:class", "-filter:none", "--ignore-missing-deps"));
        Path dir = Files.isRegularFile(classes) ? unpacked(classes) : classes;
        try (Stream<Path> s = Files.walk(dir)) {
            s.filter(p -> p.toString().endsWith(".class") && !p.endsWith("module-info.class"))
                    .sorted()
                    .forEach(p -> args.add(p.toString()));
        }
        assertTrue(args.size() > 3, "no class files under " + classes);
        ToolProvider jdeps =
                ToolProvider.findFirst("jdeps").orElseThrow(() -> new AssertionError("jdeps is missing: run on a JDK"));
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int rc;
        try {
            rc = jdeps.run(new PrintWriter(out, true), new PrintWriter(err, true), args.toArray(String[]::new));
        } finally {
            if (dir != classes) {
                deleteTree(dir);
            }
        }
        assertEquals(0, rc, "jdeps failed: " + err);
        List<Ref> refs = new ArrayList<>();
        for (String line : out.toString().split("\\R")) {
            Matcher m = JDEPS_LINE.matcher(line);
            if (m.find()) {
                refs.add(new Ref(m.group(1), m.group(2)));
            }
        }
        return refs;
    }

    /** Deletes the temporary tree {@link #unpacked} made. */
    static void deleteTree(Path dir) throws IOException {
        try (Stream<Path> s = Files.walk(dir)) {
            for (Path p : s.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }

    /**
     * The class files of {@code jar} in a new temporary directory: jdeps given a modular jar
     * would resolve the modules it requires, which are not on its path.
     */
    static Path unpacked(Path jar) throws IOException {
        Path dir = Files.createTempDirectory("boundary-test");
        try (java.util.zip.ZipInputStream in = new java.util.zip.ZipInputStream(Files.newInputStream(jar))) {
            for (java.util.zip.ZipEntry e; (e = in.getNextEntry()) != null; ) {
                if (!e.isDirectory() && e.getName().endsWith(".class")) {
                    Path to = dir.resolve(e.getName()).normalize();
                    if (!to.startsWith(dir)) {
                        throw new IOException("entry outside the jar's root: " + e.getName());
                    }
                    Files.createDirectories(to.getParent());
                    Files.copy(in, to);
                }
            }
        }
        return dir;
    }

    /**
     * The classes directory or jar {@code c} was loaded from: a directory when Maven runs the
     * tests before packaging ({@code mvn test}), the module's jar under {@code mvn verify}.
     */
    static Path classesOf(Class<?> c) {
        Path p;
        try {
            p = Path.of(c.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
        assertTrue(
                Files.isDirectory(p) || (Files.isRegularFile(p) && p.toString().endsWith(".jar")),
                c + " was not loaded from a classes directory or a jar but " + p
                        + ": run the test in the reactor (mvn -pl api-socket -am test)");
        return p;
    }
}
