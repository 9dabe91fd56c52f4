package org.sctpj.nativeio;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;
import static org.sctpj.nativeio.Layout.*;

import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The constants and struct layouts against the C ABI of LP64 Linux. */
class LayoutTest {

    /** Sizes and offsets of x86-64 Linux with glibc, as gcc 12 reports them (see abi.c). */
    @Test
    void structLayoutsOfLp64Linux() {
        assertEquals(56, MSGHDR_SIZE);
        assertEquals(
                List.of(0, 8, 16, 24, 32, 40, 48),
                List.of(MSG_NAME, MSG_NAMELEN, MSG_IOV, MSG_IOVLEN, MSG_CONTROL, MSG_CONTROLLEN, MSG_FLAGS));
        assertEquals(64, MMSGHDR_SIZE);
        assertEquals(56, MMSG_LEN);
        assertEquals(16, IOVEC_SIZE);
        assertEquals(8, IOV_LEN);
        assertEquals(16, CMSG_HEADER);
        assertEquals(12, IN_PKTINFO_SIZE);
        assertEquals(8, IPI_ADDR);
        assertEquals(20, IN6_PKTINFO_SIZE);
        assertEquals(16, IPI6_IFINDEX);
        assertEquals(16, SOCKADDR_IN_SIZE);
        assertEquals(28, SOCKADDR_IN6_SIZE);
        assertEquals(24, SIN6_SCOPE_ID);
        assertEquals(8, POLLFD_SIZE);
        assertEquals(6, POLL_REVENTS);
        assertEquals(16, TIMESPEC_SIZE);
        assertEquals(24, cmsgSpace(2)); // the UDP_SEGMENT message
        assertEquals(32, cmsgSpace(IN_PKTINFO_SIZE));
        assertEquals(40, cmsgSpace(IN6_PKTINFO_SIZE));
        assertEquals(18, cmsgLen(2));
    }

    /**
     * Compiles abi.c with gcc and compares every NAME=value it prints with the Java constant of
     * that name in {@link Linux} or {@link Layout}; and every constant of the two has a line.
     */
    @Test
    void everyConstantIsWhatTheCCompilerSays(@TempDir Path dir) throws Exception {
        assumeTrue(System.getProperty("os.name", "").toLowerCase().contains("linux"), "Linux only");
        Path gcc = Path.of("/usr/bin/gcc");
        assumeTrue(Files.isExecutable(gcc), "needs gcc (Debian package gcc)");
        Path source = dir.resolve("abi.c");
        try (InputStream in = LayoutTest.class.getResourceAsStream("abi.c")) {
            Files.copy(in, source);
        }
        Path binary = dir.resolve("abi");
        String compiled = run(List.of(gcc.toString(), "-Wall", "-o", binary.toString(), source.toString()));
        assertTrue(Files.isExecutable(binary), "gcc failed: " + compiled);
        String out = run(List.of(binary.toString()));

        Set<String> seen = new HashSet<>();
        int lines = 0;
        for (String line : out.split("\n")) {
            if (line.isBlank()) {
                continue;
            }
            lines++;
            int eq = line.indexOf('=');
            String name = line.substring(0, eq);
            long c = Long.parseLong(line.substring(eq + 1));
            assertEquals(c, javaValue(name), name + ": C says " + c);
            seen.add(name);
        }
        assertTrue(lines > 80, "abi printed " + lines + " lines:\n" + out);
        for (Class<?> k : new Class<?>[] {Linux.class, Layout.class}) {
            for (Field f : k.getFields()) {
                if (Modifier.isStatic(f.getModifiers()) && !f.getName().equals("UDP_MAX_SEGMENTS")) {
                    assertTrue(seen.contains(f.getName()), k.getSimpleName() + "." + f.getName() + " is not in abi.c");
                }
            }
        }
    }

    private static long javaValue(String name) throws ReflectiveOperationException {
        if (name.startsWith("cmsgSpace(")) {
            return cmsgSpace(Integer.parseInt(name.substring(10, name.length() - 1)));
        }
        if (name.startsWith("cmsgLen(")) {
            return cmsgLen(Integer.parseInt(name.substring(8, name.length() - 1)));
        }
        for (Class<?> k : new Class<?>[] {Linux.class, Layout.class}) {
            try {
                return ((Number) k.getField(name).get(null)).longValue();
            } catch (NoSuchFieldException e) {
                // the other class
            }
        }
        throw new AssertionError("abi.c prints " + name + ", which neither Linux nor Layout has");
    }

    private static String run(List<String> command) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "timed out: " + command);
        assertEquals(0, p.exitValue(), command + ":\n" + out);
        return out;
    }

    @Test
    void findControlReturnsTheDataOfTheWantedMessage() {
        ByteBuffer b = Native.allocate(128);
        int base = 8; // a slot that does not start the buffer
        putControlHeader(b, base, Linux.IPPROTO_IP, Linux.IP_PKTINFO, IN_PKTINFO_SIZE);
        int second = base + cmsgSpace(IN_PKTINFO_SIZE);
        putControlHeader(b, second, Linux.SOL_UDP, Linux.UDP_GRO, 4);
        b.putInt(second + CMSG_HEADER, 1400);
        int length = cmsgSpace(IN_PKTINFO_SIZE) + cmsgLen(4);

        assertEquals(base + CMSG_HEADER, findControl(b, base, length, Linux.IPPROTO_IP, Linux.IP_PKTINFO, 12));
        int at = findControl(b, base, length, Linux.SOL_UDP, Linux.UDP_GRO, 4);
        assertEquals(second + CMSG_HEADER, at);
        assertEquals(1400, b.getInt(at));
        assertEquals(-1, findControl(b, base, length, Linux.SOL_UDP, Linux.UDP_SEGMENT, 2), "absent");
        assertEquals(-1, findControl(b, base, length, Linux.SOL_UDP, Linux.UDP_GRO, 8), "shorter than asked");
        assertEquals(
                -1,
                findControl(b, base, cmsgSpace(IN_PKTINFO_SIZE), Linux.SOL_UDP, Linux.UDP_GRO, 4),
                "beyond the control length");
    }

    @Test
    void findControlStopsAtAMalformedLength() {
        ByteBuffer b = Native.allocate(64);
        putControlHeader(b, 0, Linux.SOL_UDP, Linux.UDP_GRO, 4);
        b.putLong(0, 8); // shorter than a header: a walk that trusted it would never end
        assertEquals(-1, findControl(b, 0, 64, Linux.SOL_UDP, Linux.UDP_GRO, 4));
        b.putLong(0, 1000); // beyond the buffer
        assertEquals(-1, findControl(b, 0, 64, Linux.SOL_UDP, Linux.UDP_GRO, 4));
    }
}
