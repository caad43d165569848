package dev.sieve.report;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import picocli.CommandLine;

/**
 * A small {@code ./sieve report} through its command, for the tests of the growth sections: one
 * filter at 2,000 keys with the quick timer, no range or cold-start section, the growth sections to
 * {@code growthMaxN} keys and without their timings, written under {@code out}.
 */
final class SmallGrowthReport {
  private SmallGrowthReport() {}

  /** Runs it and fails the test, with the command's output, if it does not exit 0. */
  static void run(Path out, Path resultsDir, long growthMaxN) {
    ByteArrayOutputStream text = new ByteArrayOutputStream();
    PrintStream print = new PrintStream(text, true, StandardCharsets.UTF_8);
    int status =
        new CommandLine(new ReportCommand(print, print))
            .execute(
                "--n",
                "2000",
                "--filters",
                "sieve-blocked-bloom",
                "--timer",
                "quick",
                "--rounds",
                "1",
                "--fpr-queries",
                "20000",
                "--experiment-keys",
                "3000",
                "--experiment-queries",
                "20000",
                "--sweep-bits",
                "10",
                "--no-progress",
                "--range-keys",
                "0",
                "--no-cold-start",
                "--growth-max-n",
                Long.toString(growthMaxN),
                "--growth-timings=false",
                "--out",
                out.toString(),
                "--results-dir",
                resultsDir.toString());
    assertEquals(0, status, text.toString(StandardCharsets.UTF_8));
  }
}
