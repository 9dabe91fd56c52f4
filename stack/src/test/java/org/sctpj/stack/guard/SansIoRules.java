package org.sctpj.stack.guard;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The sans-IO rules of ARCHITECTURE.md for the {@code stack} module: no threads, clocks, sockets,
 * channels, files or locks. {@link #check} lists every violation of a class, each naming the class,
 * the reference and the rule; {@link #synchronizedKeywords} finds the {@code synchronized} keyword
 * in Java source (synchronized blocks leave no trace in the constant pool).
 */
final class SansIoRules {
    private SansIoRules() {}

    /** A forbidden class, or package when it ends with '/', and why. */
    private record Banned(String prefix, String why) {
        boolean matches(String internalName) {
            return prefix.endsWith("/")
                    ? internalName.startsWith(prefix)
                    : internalName.equals(prefix) || internalName.startsWith(prefix + "$");
        }
    }

    private static final String THREADS = "threads (the core runs on its caller's thread)";
    private static final String LOCKS = "locks (the core is single-threaded and takes no lock)";
    private static final String CONCURRENCY =
            "java.util.concurrent (executors, concurrent collections, atomics: the core is single-threaded)";
    private static final String CLOCKS = "clocks (time is passed in as nowNanos)";
    private static final String SOCKETS = "sockets and networking (lower layers live in other modules)";
    private static final String CHANNELS = "channels (I/O lives in other modules)";
    private static final String FILES = "files and consoles (I/O lives in other modules)";

    private static final List<Banned> BANNED_CLASSES = List.of(
            new Banned("java/lang/Thread", THREADS),
            new Banned("java/lang/ThreadGroup", THREADS),
            new Banned("java/lang/ThreadLocal", THREADS),
            new Banned("java/lang/InheritableThreadLocal", THREADS),
            new Banned("java/lang/ref/Cleaner", THREADS),
            new Banned("java/lang/Process", THREADS),
            new Banned("java/lang/ProcessBuilder", THREADS),
            new Banned("java/lang/Runtime", THREADS),
            new Banned("java/util/Timer", THREADS),
            new Banned("java/util/TimerTask", THREADS),
            new Banned("java/util/concurrent/locks/", LOCKS),
            new Banned("java/util/concurrent/", CONCURRENCY),
            new Banned("java/time/Clock", CLOCKS),
            new Banned("java/time/InstantSource", CLOCKS),
            new Banned("java/nio/channels/", CHANNELS),
            new Banned("java/nio/file/", FILES),
            new Banned("java/io/RandomAccessFile", FILES),
            new Banned("java/io/Console", FILES),
            new Banned("java/net/DatagramPacket", SOCKETS),
            new Banned("java/net/URLConnection", SOCKETS),
            new Banned("java/net/HttpURLConnection", SOCKETS),
            new Banned("java/net/http/", SOCKETS));

    /** java/io/File, FileInputStream, FileDescriptor, FilenameFilter...: any java/io class named File*. */
    private static final Pattern JAVA_IO_FILE = Pattern.compile("java/io/File\\w*(\\$.*)?");

    /**
     * java/net classes with "Socket" in the name, except the two plain address values (an
     * InetSocketAddress built from an InetAddress does no I/O; the resolving constructor is banned
     * below).
     */
    private static final Pattern JAVA_NET_SOCKET = Pattern.compile("java/net/\\w*Socket\\w*(\\$.*)?");

    private static final Set<String> ALLOWED_SOCKET_VALUES =
            Set.of("java/net/SocketAddress", "java/net/InetSocketAddress");

    /** Every violation of {@code c}, one line each, naming the class and the reference. */
    static List<String> check(ClassFileRefs c) {
        List<String> out = new ArrayList<>();
        for (String type : c.classes()) {
            String why = bannedClass(type);
            if (why != null) {
                out.add(c.className() + " refers to " + type + ": " + why);
            }
        }
        for (ClassFileRefs.MemberRef m : c.members()) {
            String why = bannedMember(m);
            if (why != null) {
                out.add(c.className() + " uses " + m + ": " + why);
            }
        }
        for (String method : c.synchronizedMethods()) {
            out.add(c.className() + " has synchronized method " + method + ": " + LOCKS);
        }
        return out;
    }

    /** Plain values inside banned packages: TimeUnit only converts durations, it reads no clock. */
    private static final Set<String> ALLOWED_VALUES = Set.of("java/util/concurrent/TimeUnit");

    private static String bannedClass(String type) {
        if (ALLOWED_VALUES.contains(type)) {
            return null;
        }
        for (Banned b : BANNED_CLASSES) {
            if (b.matches(type)) {
                return b.why();
            }
        }
        if (JAVA_IO_FILE.matcher(type).matches()) {
            return FILES;
        }
        if (JAVA_NET_SOCKET.matcher(type).matches() && !ALLOWED_SOCKET_VALUES.contains(type)) {
            return SOCKETS;
        }
        return null;
    }

    private static String bannedMember(ClassFileRefs.MemberRef m) {
        String owner = m.owner();
        String name = m.name();
        String desc = m.descriptor();
        if (!m.field()
                && ((name.equals("wait") && (desc.equals("()V") || desc.equals("(J)V") || desc.equals("(JI)V")))
                        || ((name.equals("notify") || name.equals("notifyAll")) && desc.equals("()V")))) {
            return LOCKS + " (Object monitor methods)";
        }
        if (owner.equals("java/lang/System")) {
            if (name.equals("currentTimeMillis") || name.equals("nanoTime")) {
                return CLOCKS;
            }
            if (name.equals("out") || name.equals("err") || name.equals("in") || name.equals("console")) {
                return FILES;
            }
        }
        if (owner.startsWith("java/time/") && name.equals("now")) {
            return CLOCKS;
        }
        if (owner.equals("java/util/Date") && name.equals("<init>") && desc.equals("()V")) {
            return CLOCKS + " (new Date() reads the clock)";
        }
        if (owner.equals("java/util/Calendar") && name.equals("getInstance")) {
            return CLOCKS + " (Calendar.getInstance() reads the clock)";
        }
        if ((owner.equals("java/util/Random") && name.equals("<init>") && desc.equals("()V"))
                || (owner.equals("java/lang/Math") && name.equals("random"))) {
            return CLOCKS + " (an unseeded Random is seeded from the clock; take a random source from the caller)";
        }
        if (owner.equals("java/net/InetAddress")
                && Set.of(
                                "getByName",
                                "getAllByName",
                                "getLocalHost",
                                "getHostName",
                                "getCanonicalHostName",
                                "isReachable")
                        .contains(name)) {
            return SOCKETS + " (name resolution or network probe)";
        }
        if (owner.equals("java/net/InetSocketAddress")
                && name.equals("<init>")
                && desc.startsWith("(Ljava/lang/String;")) {
            return SOCKETS + " (this constructor resolves the host name)";
        }
        if (owner.equals("java/net/URL") && (name.equals("openConnection") || name.equals("openStream"))) {
            return SOCKETS;
        }
        return null;
    }

    /**
     * The lines (1-based) of {@code source} that use the {@code synchronized} keyword, outside
     * comments, string and character literals and text blocks.
     */
    static List<Integer> synchronizedKeywords(String source) {
        String code = blankCommentsAndLiterals(source);
        List<Integer> lines = new ArrayList<>();
        Matcher m = Pattern.compile("\\bsynchronized\\b").matcher(code);
        while (m.find()) {
            int line = 1;
            for (int i = 0; i < m.start(); i++) {
                if (code.charAt(i) == '\n') {
                    line++;
                }
            }
            lines.add(line);
        }
        return lines;
    }

    /** The source with comments and literals replaced by spaces (line breaks kept). */
    static String blankCommentsAndLiterals(String s) {
        StringBuilder out = new StringBuilder(s.length());
        int i = 0;
        int n = s.length();
        while (i < n) {
            char c = s.charAt(i);
            String end;
            int skip;
            if (s.startsWith("//", i)) {
                end = "\n";
                skip = 2;
            } else if (s.startsWith("/*", i)) {
                end = "*/";
                skip = 2;
            } else if (s.startsWith("\"\"\"", i)) {
                end = "\"\"\"";
                skip = 3;
            } else if (c == '"') {
                end = "\"";
                skip = 1;
            } else if (c == '\'') {
                end = "'";
                skip = 1;
            } else {
                out.append(c);
                i++;
                continue;
            }
            int j = i + skip;
            while (j < n && !s.startsWith(end, j)) {
                j += s.charAt(j) == '\\' && !end.equals("\n") && !end.equals("*/") ? 2 : 1;
            }
            j = Math.min(n, j + (end.equals("\n") ? 0 : end.length()));
            for (int k = i; k < j; k++) {
                out.append(s.charAt(k) == '\n' ? '\n' : ' ');
            }
            i = j;
        }
        return out.toString();
    }
}
