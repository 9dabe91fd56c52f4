package org.sctpj.tests.interop;

import java.util.Map;
import java.util.Optional;

/**
 * Cells of the interop matrix that fail today because of a defect not yet fixed, each with what is
 * known of it. They are not run by default and show as {@code known defect} in the table, never
 * as a pass; {@code -Dsctpj.interop.knownDefects=run} runs them like any other cell (a pass then
 * says the entry can go, a failure fails). The list shrinks as the defects are fixed; it is not a
 * place for cells that fail by chance.
 */
final class KnownDefects {
    private KnownDefects() {}

    /** Cell name ({@link InteropMatrix.Cell#name()}) to what is known of its defect. */
    static final Map<String, String> CELLS = Map.of();

    /** The defect recorded for this cell, unless the run asks for known defects to be run. */
    static Optional<String> of(String cellName) {
        if ("run".equals(System.getProperty("sctpj.interop.knownDefects"))) {
            return Optional.empty();
        }
        return Optional.ofNullable(CELLS.get(cellName));
    }
}
