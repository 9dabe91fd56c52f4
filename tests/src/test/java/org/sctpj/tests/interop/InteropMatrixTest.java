package org.sctpj.tests.interop;

import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * The interop matrix (issue 5): one dynamic test per peer x lower layer x direction x case, so
 * Surefire lists each; a failed cell fails its test, an n/a or skipped cell is reported as skipped
 * with the reason. At the end the whole table is printed and written to {@code
 * target/interop-table.txt} ({@code interop/run.sh} prints it).
 */
class InteropMatrixTest {

    private static final InteropTable TABLE = new InteropTable();

    @TestFactory
    Stream<DynamicTest> matrix() {
        return InteropMatrix.cells().stream()
                .map(cell -> DynamicTest.dynamicTest(cell.name(), () -> {
                    Outcome o = new CaseRunner(cell.peer()).run(cell.llp(), cell.direction(), cell.c());
                    TABLE.add(new InteropTable.Row(cell.peer().name(), cell.llp(), cell.direction(), cell.c(), o));
                    System.out.println(
                            "interop: " + cell.name() + " -> " + o.status().label() + " in " + o.millis() + " ms"
                                    + (o.detail().isEmpty() ? "" : ": " + o.detail()));
                    switch (o.status()) {
                        case PASS -> {}
                        case FAIL -> fail(o.detail());
                        case NOT_APPLICABLE -> assumeTrue(false, "n/a: " + o.detail());
                        case SKIPPED -> assumeTrue(false, "skipped: " + o.detail());
                        case KNOWN_DEFECT -> assumeTrue(false, "known defect: " + o.detail());
                    }
                }));
    }

    @AfterAll
    static void printTable() throws IOException {
        InteropMatrix.release();
        String t = TABLE.render();
        System.out.println("=== interop table ===");
        System.out.println(t);
        Path out = Path.of("target", "interop-table.txt");
        Files.createDirectories(out.getParent());
        Files.writeString(out, t + "\n", StandardCharsets.UTF_8);
    }
}
