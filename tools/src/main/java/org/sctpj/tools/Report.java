package org.sctpj.tools;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.FontMetrics;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import javax.imageio.ImageIO;
import org.sctpj.stack.AssociationStats;

/**
 * The outputs of {@code perf}: a table, CSV, JSON, and a PNG plot of throughput against message
 * size. One unit throughout: MB = 10^6 bytes of user data, Mbit = 10^6 bits; rates per second of
 * wall time.
 */
final class Report {
    private Report() {}

    /** The one statement of the units and of what the rate measures, printed under the table. */
    static final String UNITS = "(MB = 10^6 bytes, Mbit = 10^6 bits; rate = bytes sent / time until the graceful"
            + " shutdown completed, i.e. all acknowledged; CPU % = process CPU time / wall time, both sides when in"
            + " one process)";

    /** The human-readable table (the default output). */
    static void table(PrintWriter out, List<Perf.Result> results) {
        out.println();
        out.printf("%8s %10s %10s %12s %7s%n", "size", "MB/s", "Mbit/s", "messages/s", "CPU %");
        for (Perf.Result r : results) {
            double mbs = r.megabytesPerSecond();
            out.printf(
                    Locale.ROOT,
                    "%8d %10.1f %10.1f %12.0f %7.0f%n",
                    r.size(),
                    mbs,
                    mbs * 8,
                    r.messages() / r.seconds(),
                    r.cpuPercent());
        }
        out.println(UNITS);
    }

    /** CSV with a header line; the unit is in each column's name. */
    static void csv(PrintWriter out, List<Perf.Result> results) {
        out.println("size_bytes,bytes,messages,seconds,MB_per_s,Mbit_per_s,messages_per_s,cpu_percent,"
                + "chunks_retransmitted,timeouts,fast_retransmits,srtt_us");
        for (Perf.Result r : results) {
            double mbs = r.megabytesPerSecond();
            out.printf(
                    Locale.ROOT,
                    "%d,%d,%d,%.6f,%.3f,%.3f,%.1f,%.1f,%s%n",
                    r.size(),
                    r.bytes(),
                    r.messages(),
                    r.seconds(),
                    mbs,
                    mbs * 8,
                    r.messages() / r.seconds(),
                    r.cpuPercent(),
                    String.join(",", sender(r)));
        }
    }

    /**
     * The sender's retransmission figures when it stopped sending: chunks retransmitted, T3-rtx
     * expirations, fast retransmissions, SRTT of the primary path in microseconds (empty when the
     * association was gone).
     */
    static String[] sender(Perf.Result r) {
        AssociationStats s = r.sender();
        if (s == null) {
            return new String[] {"", "", "", ""};
        }
        long srtt = s.paths().isEmpty() ? 0 : s.paths().get(0).srttNanos();
        return new String[] {
            String.valueOf(s.chunksRetransmitted()),
            String.valueOf(s.timeoutRetransmissions()),
            String.valueOf(s.fastRetransmissions()),
            String.format(Locale.ROOT, "%.1f", srtt / 1e3)
        };
    }

    /** One JSON object: the run's description, the units, and one object per size. */
    static void json(PrintWriter out, List<Perf.Result> results, String description) {
        StringBuilder b = new StringBuilder();
        b.append("{\"run\":\"")
                .append(description.replace("\\", "\\\\").replace("\"", "\\\""))
                .append("\",\"units\":{\"MB\":1000000,\"Mbit\":1000000},\"results\":[");
        for (int i = 0; i < results.size(); i++) {
            Perf.Result r = results.get(i);
            double mbs = r.megabytesPerSecond();
            b.append(i == 0 ? "" : ",")
                    .append(String.format(
                            Locale.ROOT,
                            "{\"size_bytes\":%d,\"bytes\":%d,\"messages\":%d,\"seconds\":%.6f,\"MB_per_s\":%.3f,"
                                    + "\"Mbit_per_s\":%.3f,\"messages_per_s\":%.1f,\"cpu_percent\":%s,"
                                    + "\"chunks_retransmitted\":%s,\"timeouts\":%s,\"fast_retransmits\":%s,"
                                    + "\"srtt_us\":%s}",
                            r.size(),
                            r.bytes(),
                            r.messages(),
                            r.seconds(),
                            mbs,
                            mbs * 8,
                            r.messages() / r.seconds(),
                            Double.isNaN(r.cpuPercent()) ? "null" : String.format(Locale.ROOT, "%.1f", r.cpuPercent()),
                            orNull(sender(r)[0]),
                            orNull(sender(r)[1]),
                            orNull(sender(r)[2]),
                            orNull(sender(r)[3])));
        }
        out.println(b.append("]}"));
    }

    private static String orNull(String v) {
        return v.isEmpty() ? "null" : v;
    }

    /**
     * Draws MB/s against message size (sizes at even steps on the x axis, a linear y axis from 0)
     * into a PNG, with Java2D in headless mode.
     */
    static void plot(Path file, List<Perf.Result> results, String description) throws IOException {
        System.setProperty("java.awt.headless", "true");
        int w = 900;
        int h = 560;
        int left = 80;
        int right = 30;
        int top = 60;
        int bottom = 70;
        BufferedImage img = new BufferedImage(w, h, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = img.createGraphics();
        g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
        g.setRenderingHint(RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
        g.setColor(Color.WHITE);
        g.fillRect(0, 0, w, h);
        double max = 0;
        for (Perf.Result r : results) {
            max = Math.max(max, r.megabytesPerSecond());
        }
        double step = niceStep(max <= 0 ? 1 : max / 5);
        double hi = Math.max(step, Math.ceil(max / step) * step);
        int pw = w - left - right;
        int ph = h - top - bottom;
        g.setColor(Color.BLACK);
        g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 16));
        g.drawString("sctpj perf: throughput against message size", left, 26);
        g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 12));
        g.drawString(description, left, 46);
        FontMetrics fm = g.getFontMetrics();
        for (double y = 0; y <= hi * 1.0001; y += step) {
            int py = top + ph - (int) Math.round(y / hi * ph);
            g.setColor(new Color(0xdddddd));
            g.drawLine(left, py, left + pw, py);
            g.setColor(Color.BLACK);
            String s = String.format(Locale.ROOT, step < 1 ? "%.1f" : "%.0f", y);
            g.drawString(s, left - 8 - fm.stringWidth(s), py + 4);
        }
        int n = results.size();
        for (int i = 0; i < n; i++) {
            int px = xAt(i, n, left, pw);
            String lab = String.valueOf(results.get(i).size());
            g.drawString(lab, px - fm.stringWidth(lab) / 2, top + ph + 18);
        }
        g.drawRect(left, top, pw, ph);
        g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 13));
        String xl = "message size (bytes)";
        g.drawString(xl, left + pw / 2 - g.getFontMetrics().stringWidth(xl) / 2, top + ph + 45);
        Graphics2D gy = (Graphics2D) g.create();
        gy.rotate(-Math.PI / 2);
        gy.drawString("throughput (MB/s, MB = 10^6 bytes of user data)", -(top + ph / 2 + 150), 22);
        gy.dispose();
        g.setColor(new Color(0x1f77b4));
        g.setStroke(new BasicStroke(2.2f));
        int prevX = -1;
        int prevY = -1;
        for (int i = 0; i < n; i++) {
            int px = xAt(i, n, left, pw);
            int py = top + ph - (int) Math.round(results.get(i).megabytesPerSecond() / hi * ph);
            if (prevX >= 0) {
                g.drawLine(prevX, prevY, px, py);
            }
            g.fillOval(px - 4, py - 4, 9, 9);
            prevX = px;
            prevY = py;
        }
        g.dispose();
        if (!ImageIO.write(img, "png", file.toFile())) {
            throw new IOException("no PNG writer in this JDK");
        }
    }

    private static int xAt(int i, int n, int left, int pw) {
        return n == 1 ? left + pw / 2 : left + 30 + (int) Math.round(i * (pw - 60) / (double) (n - 1));
    }

    /** 1, 2 or 5 times a power of ten, at least {@code raw}. */
    private static double niceStep(double raw) {
        double p = Math.pow(10, Math.floor(Math.log10(raw)));
        for (double m : new double[] {1, 2, 5, 10}) {
            if (m * p >= raw) {
                return m * p;
            }
        }
        return 10 * p;
    }
}
