package org.sctpj.bench.core;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordedStackTrace;
import jdk.jfr.consumer.RecordingFile;

/**
 * Summarises a JFR recording: the methods most often on top of the stack in CPU samples ({@code
 * jdk.ExecutionSample}), the same counted as the topmost {@code org.sctpj} frame (which of our
 * methods the time is spent under), and the allocation sites by sampled weight ({@code
 * jdk.ObjectAllocationSample}: class and allocating frame). Optionally only the threads whose
 * name contains a filter.
 *
 * <pre>java -cp bench/target/benchmarks.jar org.sctpj.bench.core.JfrTop FILE.jfr [threadFilter] [top]</pre>
 */
public final class JfrTop {
    private JfrTop() {}

    /** Prints the three tables. */
    public static void main(String[] args) throws Exception {
        String filter = args.length > 1 ? args[1] : "";
        int top = args.length > 2 ? Integer.parseInt(args[2]) : 15;
        Map<String, Long> self = new HashMap<>();
        Map<String, Long> ours = new HashMap<>();
        Map<String, Long> alloc = new HashMap<>();
        long samples = 0;
        long allocTotal = 0;
        for (RecordedEvent e : RecordingFile.readAllEvents(Path.of(args[0]))) {
            String type = e.getEventType().getName();
            if (!type.equals("jdk.ExecutionSample") && !type.equals("jdk.ObjectAllocationSample")) {
                continue;
            }
            String thread = type.equals("jdk.ExecutionSample")
                    ? e.getThread("sampledThread") == null
                            ? ""
                            : e.getThread("sampledThread").getJavaName()
                    : e.getThread() == null ? "" : e.getThread().getJavaName();
            if (thread == null || !thread.contains(filter)) {
                continue;
            }
            RecordedStackTrace st = e.getStackTrace();
            if (st == null || st.getFrames().isEmpty()) {
                continue;
            }
            List<RecordedFrame> frames = st.getFrames();
            if (type.equals("jdk.ExecutionSample")) {
                samples++;
                self.merge(name(frames.get(0)), 1L, Long::sum);
                for (RecordedFrame f : frames) {
                    if (f.getMethod().getType().getName().startsWith("org.sctpj")) {
                        ours.merge(name(f), 1L, Long::sum);
                        break;
                    }
                }
            } else {
                long w = e.getLong("weight");
                allocTotal += w;
                String cls = e.getClass("objectClass").getName();
                String site = name(frames.get(0));
                for (RecordedFrame f : frames) {
                    if (f.getMethod().getType().getName().startsWith("org.sctpj")) {
                        site = name(f);
                        break;
                    }
                }
                alloc.merge(cls + " at " + site, w, Long::sum);
            }
        }
        print("CPU samples, top frame (" + samples + " samples)", self, samples, top);
        print("CPU samples, topmost org.sctpj frame", ours, samples, top);
        print(
                "allocation (sampled weight, " + allocTotal / 1_000_000 + " MB), class at the topmost org.sctpj frame",
                alloc,
                allocTotal,
                top);
    }

    private static String name(RecordedFrame f) {
        String t = f.getMethod().getType().getName();
        return t.substring(t.lastIndexOf('.') + 1) + "." + f.getMethod().getName();
    }

    private static void print(String title, Map<String, Long> m, long total, int top) {
        System.out.println("== " + title);
        m.entrySet().stream()
                .sorted(Map.Entry.<String, Long>comparingByValue().reversed())
                .limit(top)
                .forEach(e -> System.out.printf(
                        Locale.ROOT, "%6.1f%%  %s%n", 100.0 * e.getValue() / Math.max(1, total), e.getKey()));
    }
}
