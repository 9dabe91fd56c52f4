package org.sctpj.tests;

import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.function.Supplier;

/**
 * What a test needs from the machine (root, a peer binary, tshark...). On a developer machine a
 * missing requirement skips the test with the reason; under CI ({@code CI=true}, set by CI and by
 * {@code ./test.sh} users who want the same strictness) or with {@code -Dsctpj.strict=true} it fails
 * it, so that a CI run can never pass by skipping the interop suite.
 */
public final class Requirements {
    private Requirements() {}

    /** True when missing requirements must fail rather than skip. */
    public static boolean strict() {
        return "true".equalsIgnoreCase(System.getenv("CI")) || Boolean.getBoolean("sctpj.strict");
    }

    /** Skips (or, when strict, fails) the test unless {@code condition}. */
    public static void need(boolean condition, Supplier<String> reason) {
        if (condition) {
            return;
        }
        if (strict()) {
            fail("requirement missing under CI: " + reason.get());
        }
        assumeTrue(false, reason);
    }
}
