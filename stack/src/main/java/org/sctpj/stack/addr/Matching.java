package org.sctpj.stack.addr;

import java.util.Arrays;

/**
 * Maximum matching on a weighted bipartite graph: first the most edges, then the most total
 * weight. Exact, by the Hungarian method (Kuhn-Munkres with potentials, shortest augmenting
 * paths) on the weights {@code big + w} for edges ({@code w > 0}) and 0 for non-edges, where
 * {@code big} exceeds the largest possible total of plain weights, so one more edge always
 * outweighs any weight gain. Among matchings with as many edges and as much weight, it prefers
 * earlier columns: each edge also earns {@code cols - column}, scaled below one unit of weight, so
 * that a peer's first-ranked address wins a tie (it is the one a peer interface grouping, if
 * known, would most likely favour, and the one the user or the ranking put first).
 *
 * <p>Complexity: O(n² · m) time and O(n · m) space for n = the smaller side and m = the larger
 * side (the smaller side is made the rows). A host has a handful of interfaces, so even a peer
 * listing thousands of addresses stays cheap.
 */
final class Matching {
    private Matching() {}

    /**
     * The matching.
     *
     * @param w weights, {@code w[row][col] >= 0}, 0 meaning "no edge"; all rows of equal length
     * @return for each row the matched column, or -1
     */
    static int[] maximum(int[][] w) {
        int rows = w.length;
        int cols = rows == 0 ? 0 : w[0].length;
        int[] result = new int[rows];
        Arrays.fill(result, -1);
        if (rows == 0 || cols == 0) {
            return result;
        }
        boolean transpose = rows > cols;
        int n = transpose ? cols : rows;
        int m = transpose ? rows : cols;
        int maxW = 0;
        for (int[] row : w) {
            for (int x : row) {
                if (x < 0) {
                    throw new IllegalArgumentException("weights must be >= 0");
                }
                maxW = Math.max(maxW, x);
            }
        }
        long big = (long) maxW * n + 1;
        long scale = (long) n * cols + 1; // above any total of column preferences
        long[][] cost = new long[n][m];
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < m; j++) {
                int x = transpose ? w[j][i] : w[i][j];
                int column = transpose ? i : j;
                // minimise cost = maximise (edges, weight, earlier columns) in that order
                cost[i][j] = x > 0 ? -((big + x) * scale + (cols - column)) : 0;
            }
        }
        int[] colOwner = assign(cost, n, m);
        for (int j = 0; j < m; j++) {
            int i = colOwner[j];
            if (i < 0) {
                continue;
            }
            int r = transpose ? j : i;
            int c = transpose ? i : j;
            if (w[r][c] > 0) {
                result[r] = c;
            }
        }
        return result;
    }

    /**
     * Minimum-cost assignment of every one of n rows to a distinct one of m >= n columns.
     * Returns for each column its row, or -1. Indices inside are 1-based with 0 as a virtual
     * column that holds the row being inserted.
     */
    private static int[] assign(long[][] cost, int n, int m) {
        final long inf = Long.MAX_VALUE / 4;
        long[] rowPot = new long[n + 1];
        long[] colPot = new long[m + 1];
        int[] owner = new int[m + 1]; // owner[j] = row (1-based) holding column j, 0 if free
        int[] prev = new int[m + 1]; // previous column on the shortest alternating path
        long[] slack = new long[m + 1];
        boolean[] visited = new boolean[m + 1];
        for (int row = 1; row <= n; row++) {
            owner[0] = row;
            int col = 0;
            Arrays.fill(slack, inf);
            Arrays.fill(visited, false);
            // Grow a shortest-path tree from the new row until it reaches a free column.
            while (owner[col] != 0) {
                visited[col] = true;
                int r = owner[col];
                long delta = inf;
                int next = 0;
                for (int j = 1; j <= m; j++) {
                    if (visited[j]) {
                        continue;
                    }
                    long reduced = cost[r - 1][j - 1] - rowPot[r] - colPot[j];
                    if (reduced < slack[j]) {
                        slack[j] = reduced;
                        prev[j] = col;
                    }
                    if (slack[j] < delta) {
                        delta = slack[j];
                        next = j;
                    }
                }
                for (int j = 0; j <= m; j++) {
                    if (visited[j]) {
                        rowPot[owner[j]] += delta;
                        colPot[j] -= delta;
                    } else {
                        slack[j] -= delta;
                    }
                }
                col = next;
            }
            // Flip the path: each column on it passes to the row of the column before it.
            while (col != 0) {
                int before = prev[col];
                owner[col] = owner[before];
                col = before;
            }
        }
        int[] out = new int[m];
        for (int j = 1; j <= m; j++) {
            out[j - 1] = owner[j] - 1;
        }
        return out;
    }
}
