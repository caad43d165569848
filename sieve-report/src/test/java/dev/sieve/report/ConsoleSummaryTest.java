package dev.sieve.report;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import org.junit.jupiter.api.Test;

/** Stdout fits a terminal: no line over 100 columns, free of the project's goals. */
class ConsoleSummaryTest {
  private static final String LONG_CPU =
      "Intel(R) Xeon(R) Platinum 8480+ CPU @ 2.00GHz with a model name longer than a terminal line"
          + " because some hypervisors append their own identification string to it";

  private static void assertFits(String text) {
    for (String line : text.split("\n", -1)) {
      int cols = line.codePointCount(0, line.length());
      assertTrue(cols <= ConsoleSummary.WIDTH, cols + " columns: " + line);
    }
  }

  @Test
  void everyLineFitsOneHundredColumns() {
    ReportWriter.Run run = ReportFixture.run(0.2, 0.4, LONG_CPU);
    File dir =
        new File(
            "/a/very/long/output/directory/that/a/user/chose/for/the/report/files/and/it/keeps/going"
                + "/even/further/than/one/line/can/hold");
    String out = ConsoleSummary.render(run, dir);
    assertFits(out);
    assertTrue(out.startsWith("Sieve report\nMachine: Intel(R) Xeon(R)"), out);
    assertTrue(out.contains("\nWhich filter to pick\n- "), out);
    assertTrue(out.contains("sieve-xor16 !"), out); // the flagged row, marked
    assertTrue(out.contains("sieve-blocked-bloom "), out);
    assertFalse(out.contains("WARNING"), out); // load 0.4 of 2 cores
    // the project's own goals are the acceptance check's: none of them on the user's stdout
    assertFalse(out.toLowerCase(java.util.Locale.ROOT).contains("target"), out);
    assertFalse(out.matches("(?s).*\\b(issue|[BSXRGT][0-9]|X3[ab])\\b.*"), out);
    // every lookup row shows its ratio to the raw read: sieve-ribbon 30 / 1.45 = 20.7×
    String ribbon =
        out.lines().filter(l -> l.startsWith("sieve-ribbon ")).findFirst().orElseThrow();
    assertTrue(ribbon.contains("20.7×"), ribbon);
  }

  @Test
  void aLoadedMachineIsWarnedAboutAndLongNamesAreShortenedToFit() {
    ReportWriter.Run run = ReportFixture.run(1.5, 3.2, "AMD EPYC");
    Row longName =
        ReportFixture.filter(
            "sieve-split-block-bloom-fasthash-batch-with-an-even-longer-diagnostic-suffix",
            dev.sieve.bench.Family.SIEVE,
            123456.7,
            10,
            0.01);
    longName.negativeNsError = 9876543.2;
    longName.unsteady =
        "negative ± 9876543.2 exceeds its mean 123456.7; negative 123456.7 ns is 85142× the raw"
            + " read (1.45 ns), over 100×";
    run.rows().add(0, longName);
    String out = ConsoleSummary.render(run, new File("report"));
    assertFits(out);
    assertTrue(out.contains("WARNING: the load exceeded half the cores"), out);
    assertTrue(out.contains("…"), out);
  }
}
