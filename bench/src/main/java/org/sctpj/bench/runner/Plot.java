package org.sctpj.bench.runner;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.FontMetrics;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.Stroke;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import javax.imageio.ImageIO;

/**
 * Draws throughput against message size, one line per contender (like the source thesis's Figures
 * 7.6 to 7.8), into a PNG with Java2D. The sizes sit at even steps on the x axis (100 to 1400, then
 * 4 KiB and 64 KiB); the y axis is logarithmic (kernel TCP
 * runs tens of times faster than the SCTP stacks, which a linear axis would flatten). Failed runs leave a gap in their line.
 */
public final class Plot {
    private static final Color[] COLORS = {
        new Color(0x1f77b4),
        new Color(0x2ca02c),
        new Color(0x9467bd),
        new Color(0xd62728),
        new Color(0xff7f0e),
        new Color(0x7f7f7f),
        new Color(0x8c564b),
        new Color(0x17becf)
    };

    private Plot() {}

    static void write(
            Path file, List<Integer> sizes, Map<String, Map<Integer, Double>> medians, int runs, Runner.Machine m)
            throws IOException {
        write(
                file,
                "Throughput over loopback, UDP encapsulation, MTU 1500 (median of " + runs + " run"
                        + (runs == 1 ? "" : "s") + ")",
                m.date() + "  " + m.cpu() + ", " + m.cores() + " cores, load " + m.load(),
                "message size (bytes)",
                "throughput (MB/s, 10^6 bytes of user data per second; log scale)",
                sizes,
                medians);
    }

    /**
     * The same kind of plot for other benchmarks (the scale benchmark draws cost against
     * association count with it): one line per series over the x values {@code xs} at even steps,
     * logarithmic y axis; a series whose name contains "udp" is dashed.
     */
    public static void write(
            Path file,
            String title,
            String subtitle,
            String xLabel,
            String yLabel,
            List<Integer> xs,
            Map<String, Map<Integer, Double>> series)
            throws IOException {
        List<Integer> sizes = xs;
        Map<String, Map<Integer, Double>> medians = series;
        int w = 1100;
        int h = 680;
        int left = 80;
        int right = 250;
        int top = 60;
        int bottom = 70;
        BufferedImage img = new BufferedImage(w, h, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = img.createGraphics();
        g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
        g.setRenderingHint(RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
        g.setColor(Color.WHITE);
        g.fillRect(0, 0, w, h);

        double max = 0;
        double min = Double.MAX_VALUE;
        for (Map<Integer, Double> byS : medians.values()) {
            for (double v : byS.values()) {
                if (!Double.isNaN(v) && v > 0) {
                    max = Math.max(max, v);
                    min = Math.min(min, v);
                }
            }
        }
        if (max == 0) {
            max = 10;
            min = 1;
        }
        // Logarithmic y axis, whole decades: kernel TCP is tens of times faster than the SCTP stacks.
        double lo = Math.pow(10, Math.floor(Math.log10(min)));
        double hi = Math.pow(10, Math.ceil(Math.log10(max)));
        if (hi <= lo) {
            hi = lo * 10;
        }
        int pw = w - left - right;
        int ph = h - top - bottom;
        double logLo = Math.log10(lo);
        double logSpan = Math.log10(hi) - logLo;

        g.setColor(Color.BLACK);
        g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 16));
        g.drawString(title, left, 28);
        g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 12));
        g.drawString(subtitle, left, 46);

        g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 12));
        FontMetrics fm = g.getFontMetrics();
        for (double d = lo; d <= hi * 1.0001; d *= 10) {
            for (int k = 1; k <= 9; k++) {
                double y = d * k;
                if (y > hi * 1.0001) {
                    break;
                }
                int py = top + ph - (int) Math.round((Math.log10(y) - logLo) / logSpan * ph);
                g.setColor(k == 1 ? new Color(0xc8c8c8) : new Color(0xeeeeee));
                g.drawLine(left, py, left + pw, py);
                if (k == 1 || k == 2 || k == 5) {
                    g.setColor(Color.BLACK);
                    String s = y >= 1 ? String.format(Locale.ROOT, "%.0f", y) : String.format(Locale.ROOT, "%.1f", y);
                    g.drawString(s, left - 8 - fm.stringWidth(s), py + 4);
                }
            }
        }
        int n = sizes.size();
        for (int i = 0; i < n; i++) {
            int px = xAt(i, n, left, pw);
            g.setColor(new Color(0xf0f0f0));
            g.drawLine(px, top, px, top + ph);
            g.setColor(Color.BLACK);
            int s = sizes.get(i);
            String lab = s == 4096 ? "4K" : s == 65536 ? "64K" : String.valueOf(s);
            g.drawString(lab, px - fm.stringWidth(lab) / 2, top + ph + 18);
        }
        g.setColor(Color.BLACK);
        g.drawRect(left, top, pw, ph);
        g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 13));
        String xl = xLabel;
        g.drawString(xl, left + pw / 2 - g.getFontMetrics().stringWidth(xl) / 2, top + ph + 45);
        Graphics2D gy = (Graphics2D) g.create();
        gy.rotate(-Math.PI / 2);
        gy.drawString(yLabel, -(top + ph / 2 + 170), 22);
        gy.dispose();

        int ci = 0;
        int ly = top + 10;
        for (Map.Entry<String, Map<Integer, Double>> e : medians.entrySet()) {
            Color c = COLORS[ci % COLORS.length];
            boolean ceiling = e.getKey().contains("udp");
            Stroke stroke = ceiling
                    ? new BasicStroke(2f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_ROUND, 1f, new float[] {6f, 5f}, 0f)
                    : new BasicStroke(2.2f);
            g.setStroke(stroke);
            g.setColor(c);
            int prevX = -1;
            int prevY = -1;
            for (int i = 0; i < n; i++) {
                Double v = e.getValue().get(sizes.get(i));
                if (v == null || v.isNaN()) {
                    prevX = -1;
                    continue;
                }
                int px = xAt(i, n, left, pw);
                int py = top + ph - (int) Math.round((Math.log10(Math.max(v, lo)) - logLo) / logSpan * ph);
                if (prevX >= 0) {
                    g.drawLine(prevX, prevY, px, py);
                }
                g.fillOval(px - 3, py - 3, 7, 7);
                prevX = px;
                prevY = py;
            }
            g.drawLine(left + pw + 15, ly, left + pw + 45, ly);
            g.setColor(Color.BLACK);
            g.setStroke(new BasicStroke(1f));
            g.drawString(e.getKey(), left + pw + 52, ly + 4);
            ly += 22;
            ci++;
        }
        g.dispose();
        ImageIO.write(img, "png", file.toFile());
    }

    private static int xAt(int i, int n, int left, int pw) {
        return left + (int) Math.round((i + 0.5) * pw / n);
    }
}
