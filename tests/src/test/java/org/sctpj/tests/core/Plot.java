package org.sctpj.tests.core;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import javax.imageio.ImageIO;

/**
 * A small line plotter on Java2D (no dependency): one throughput-over-time series, axes with
 * ticks, a title and dashed vertical markers with labels, written as PNG.
 */
final class Plot {
    private static final int W = 1000;
    private static final int H = 420;
    private static final int LEFT = 70;
    private static final int RIGHT = 20;
    private static final int TOP = 40;
    private static final int BOTTOM = 55;

    private Plot() {}

    /**
     * Plots {@code s} (Mb/s per bin against seconds) with markers at {@code markerSeconds}, labelled
     * {@code markerLabels}; the y axis runs to {@code yMax} Mb/s.
     */
    static void write(Path file, String title, Series s, double yMax, double[] markerSeconds, String[] markerLabels) {
        System.setProperty("java.awt.headless", "true");
        BufferedImage img = new BufferedImage(W, H, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = img.createGraphics();
        g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
        g.setColor(Color.WHITE);
        g.fillRect(0, 0, W, H);
        int pw = W - LEFT - RIGHT;
        int ph = H - TOP - BOTTOM;
        double xMax = s.bytes.length * s.binNanos / 1e9;
        g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 12));
        // grid and ticks
        for (int i = 0; i <= 5; i++) {
            double v = yMax * i / 5;
            int y = TOP + ph - (int) Math.round(ph * v / yMax);
            g.setColor(new Color(230, 230, 230));
            g.drawLine(LEFT, y, LEFT + pw, y);
            g.setColor(Color.BLACK);
            g.drawString(String.format("%.0f", v), LEFT - 35, y + 4);
        }
        for (int t = 0; t <= xMax; t += 10) {
            int x = LEFT + (int) Math.round(pw * t / xMax);
            g.setColor(new Color(230, 230, 230));
            g.drawLine(x, TOP, x, TOP + ph);
            g.setColor(Color.BLACK);
            g.drawString(Integer.toString(t), x - 6, TOP + ph + 18);
        }
        g.setColor(Color.BLACK);
        g.drawRect(LEFT, TOP, pw, ph);
        g.drawString("time (s)", LEFT + pw / 2 - 20, H - 12);
        Graphics2D gv = (Graphics2D) g.create();
        gv.rotate(-Math.PI / 2);
        gv.drawString("goodput (Mb/s, per 100 ms)", -(TOP + ph / 2 + 80), 18);
        gv.dispose();
        g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 15));
        g.drawString(title, LEFT, TOP - 14);
        // markers
        g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 11));
        g.setStroke(new BasicStroke(1f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10f, new float[] {5f, 4f}, 0f));
        for (int i = 0; i < markerSeconds.length; i++) {
            int x = LEFT + (int) Math.round(pw * markerSeconds[i] / xMax);
            g.setColor(new Color(200, 60, 60));
            g.drawLine(x, TOP, x, TOP + ph);
            g.drawString(markerLabels[i], x + 3, TOP + 12 + (i % 2) * 13);
        }
        // series
        g.setStroke(new BasicStroke(1.3f));
        g.setColor(new Color(30, 80, 200));
        int px = -1;
        int py = -1;
        for (int i = 0; i < s.bytes.length; i++) {
            double t = (i + 0.5) * s.binNanos / 1e9;
            int x = LEFT + (int) Math.round(pw * t / xMax);
            int y = TOP + ph - (int) Math.round(ph * Math.min(yMax, s.mbps(i)) / yMax);
            if (px >= 0) {
                g.drawLine(px, py, x, y);
            }
            px = x;
            py = y;
        }
        g.dispose();
        try {
            Files.createDirectories(file.getParent());
            ImageIO.write(img, "png", file.toFile());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
