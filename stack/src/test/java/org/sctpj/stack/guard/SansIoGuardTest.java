package org.sctpj.stack.guard;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.sctpj.stack.guard.fixture.ImpureFixture;
import org.sctpj.stack.guard.fixture.PureFixture;
import org.sctpj.stack.wire.SctpPacket;

/**
 * Keeps the {@code stack} module sans-IO (ARCHITECTURE.md, "The spine"): its compiled classes
 * ({@code target/classes}, every package) may not use threads, clocks, sockets, channels, files or
 * locks, and its sources may not use the {@code synchronized} keyword. The checker reads each class
 * file's constant pool itself ({@link ClassFileRefs}); the fixtures show that it flags impure code
 * and lets pure code through.
 */
class SansIoGuardTest {

    @Test
    void stackClassesUseNoThreadsClocksSocketsChannelsFilesOrLocks() throws IOException {
        Path classes = mainClassesDirectory();
        List<Path> files;
        try (Stream<Path> s = Files.walk(classes)) {
            files = s.filter(p -> p.toString().endsWith(".class")).sorted().toList();
        }
        assertTrue(
                files.contains(classes.resolve("org/sctpj/stack/wire/SctpPacket.class")),
                "the stack's classes were not found in " + classes);
        List<String> violations = new ArrayList<>();
        for (Path f : files) {
            violations.addAll(SansIoRules.check(ClassFileRefs.parse(Files.readAllBytes(f))));
        }
        assertEquals(
                List.of(),
                violations,
                "the stack module must stay sans-IO (" + files.size() + " classes checked in " + classes + ")");
    }

    @Test
    void stackSourcesDoNotUseTheSynchronizedKeyword() throws IOException {
        Path sources = mainClassesDirectory().getParent().getParent().resolve("src/main/java");
        assertTrue(Files.isDirectory(sources), "no sources at " + sources);
        List<String> found = new ArrayList<>();
        int count = 0;
        try (Stream<Path> s = Files.walk(sources)) {
            for (Path f : s.filter(p -> p.toString().endsWith(".java")).sorted().toList()) {
                count++;
                for (int line : SansIoRules.synchronizedKeywords(Files.readString(f, StandardCharsets.UTF_8))) {
                    found.add(sources.relativize(f) + ":" + line + " uses synchronized (the core takes no lock)");
                }
            }
        }
        assertTrue(count > 0, "no Java sources under " + sources);
        assertEquals(List.of(), found);
    }

    @Test
    void checkerFlagsThreadsClocksIoAndLocks() throws IOException {
        List<String> v = SansIoRules.check(ClassFileRefs.parse(classBytes(ImpureFixture.class)));
        String cls = ImpureFixture.class.getName();
        for (String expected : List.of(
                "refers to java/lang/Thread:",
                "uses java/lang/System.nanoTime()J",
                "uses java/lang/System.currentTimeMillis()J",
                "uses java/time/Instant.now()Ljava/time/Instant;",
                "has synchronized method locked()I",
                "uses java/lang/Object.wait(J)V",
                "uses java/lang/Object.notifyAll()V",
                "uses java/lang/System.out",
                "refers to java/io/FileInputStream:",
                "refers to java/net/Socket:",
                "refers to java/nio/channels/DatagramChannel:",
                "refers to java/nio/file/Path:",
                "uses java/net/InetAddress.getByName(Ljava/lang/String;)Ljava/net/InetAddress;",
                "refers to java/util/concurrent/Executors:",
                "refers to java/util/concurrent/locks/ReentrantLock:")) {
            assertTrue(
                    v.stream().anyMatch(line -> line.startsWith(cls + " ") && line.contains(expected)),
                    "expected a violation naming " + cls + " and '" + expected + "' in:\n" + String.join("\n", v));
        }
    }

    @Test
    void checkerAcceptsPureValueCode() throws IOException {
        assertEquals(List.of(), SansIoRules.check(ClassFileRefs.parse(classBytes(PureFixture.class))));
    }

    @Test
    void sourceScanFindsTheFixturesSynchronizedMethodAndBlock() throws IOException {
        Path fixture = mainClassesDirectory()
                .getParent()
                .getParent()
                .resolve("src/test/java/org/sctpj/stack/guard/fixture/ImpureFixture.java");
        String source = Files.readString(fixture, StandardCharsets.UTF_8);
        List<Integer> lines = SansIoRules.synchronizedKeywords(source);
        assertEquals(2, lines.size(), "the synchronized method and block of " + fixture + ", found " + lines);
    }

    @Test
    void sourceScanSkipsCommentsAndLiterals() {
        String source = String.join(
                "\n",
                "/** Not synchronized. */",
                "class A {",
                "  // synchronized",
                "  String s = \"synchronized \\\" synchronized\";",
                "  char c = '\"';",
                "  String t = \"\"\"",
                "      synchronized",
                "      \"\"\";",
                "  void f() { synchronized (this) {} }",
                "  /* synchronized",
                "     synchronized */ synchronized void g() {}",
                "  int unsynchronized;",
                "}");
        assertEquals(List.of(9, 11), SansIoRules.synchronizedKeywords(source));
    }

    private static Path mainClassesDirectory() {
        try {
            Path p = Path.of(SctpPacket.class
                    .getProtectionDomain()
                    .getCodeSource()
                    .getLocation()
                    .toURI());
            assertTrue(Files.isDirectory(p), "the stack's classes are not a directory: " + p);
            return p;
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    private static byte[] classBytes(Class<?> c) {
        try (InputStream in = c.getResourceAsStream(c.getSimpleName() + ".class")) {
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
