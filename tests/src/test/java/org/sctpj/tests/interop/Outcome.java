package org.sctpj.tests.interop;

/**
 * The result of one cell of the matrix.
 *
 * @param status pass, fail, n/a (the peer cannot do it), skipped (this machine cannot run it) or
 *     known defect (not run: see {@link KnownDefects})
 * @param detail why (empty for a pass)
 * @param millis how long the case took
 */
public record Outcome(Status status, String detail, long millis) {

    /** The result column. */
    public enum Status {
        /** Everything checked held. */
        PASS("pass"),
        /** Something checked did not hold (detail says what). */
        FAIL("FAIL"),
        /** The peer cannot do this case (detail says why); never counted as a pass. */
        NOT_APPLICABLE("n/a"),
        /** This machine cannot run it (e.g. no CAP_NET_RAW for raw IP); detail says what is missing. */
        SKIPPED("skipped"),
        /** A defect of ours known to fail this cell and not fixed yet ({@link KnownDefects}); not run. */
        KNOWN_DEFECT("known defect");

        private final String label;

        Status(String label) {
            this.label = label;
        }

        /** The word in the table. */
        public String label() {
            return label;
        }
    }
}
