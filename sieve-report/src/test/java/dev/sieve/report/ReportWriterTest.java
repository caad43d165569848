package dev.sieve.report;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * report.md from the fixture run: header, advice first, no acceptance goals, flagged rows marked.
 */
class ReportWriterTest {
  @Test
  void markdownHasTheHeaderAndTheAdviceAndNoAcceptanceGoals() {
    String md = ReportWriter.document(ReportFixture.run(1.4, 0.3, "AMD EPYC 7B13")).markdown();
    assertTrue(md.contains("Machine: AMD EPYC 7B13, 2 cores; caches: L1d 32 KiB"), md);
    assertTrue(md.contains("SIMD path: ran"), md);
    assertTrue(md.contains("Load average: 1.40 at the start, 0.30 at the end, on 2 cores."), md);
    assertTrue(md.contains("WARNING: the load exceeded half the cores"), md);
    assertTrue(md.indexOf("## Which filter to pick") > 0, md);
    // the report is the user's: the project's own goals are the acceptance check's, not here
    assertFalse(md.contains("target"), md);
    assertFalse(md.contains("Closing note"), md);
    assertFalse(md.matches("(?s).*\\b(issue|[BSXRGT][0-9])\\b.*"), md);
    assertFalse(md.contains("n=n="), md);
    // the header's lines stay lines in the HTML page
    String html = ReportWriter.document(ReportFixture.run(0.1, 0.1, "AMD EPYC 7B13")).html("t");
    assertTrue(html.contains("caches: L1d 32 KiB, L1i 32 KiB, L2 512 KiB, L3 32 MiB.<br>"), html);
    // the flagged Xor16 is marked, and its ratio to the raw read is not computed
    String xor16 =
        md.lines().filter(l -> l.startsWith("| sieve-xor16 **(!)** |")).findFirst().orElseThrow();
    assertTrue(xor16.contains("| — | — |"), xor16);
    // every other lookup row shows its ratio to the raw read: 30 / 1.45
    String ribbon =
        md.lines().filter(l -> l.startsWith("| sieve-ribbon |")).findFirst().orElseThrow();
    assertTrue(ribbon.contains("| 20.69 | 20.69 |"), ribbon);
  }
}
