package dev.sieve.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sieve.bench.Structures;
import dev.sieve.json.JsonReader;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The report's cold-start section: rendered from fixture cells, and one real tiny measurement. */
class ColdStartSectionTest {
  @TempDir Path dir;

  /** Two filters, both JVM kinds, checkpoints 10^3 and 10^5; simd/scalar 0.50 and 2.00. */
  static ColdStart.Section fixture() {
    List<ColdStart.Cell> cells =
        List.of(
            new ColdStart.Cell("sieve-blocked-bloom", "scalar", 1_000, new double[] {400, 420}),
            new ColdStart.Cell("sieve-blocked-bloom", "simd", 1_000, new double[] {200, 210}),
            new ColdStart.Cell("sieve-blocked-bloom", "scalar", 100_000, new double[] {40, 42}),
            new ColdStart.Cell("sieve-blocked-bloom", "simd", 100_000, new double[] {20, 21}),
            new ColdStart.Cell(
                "sieve-split-block-bloom-prehashed-with-a-long-name",
                "scalar",
                1_000,
                new double[] {300, 300}),
            new ColdStart.Cell(
                "sieve-split-block-bloom-prehashed-with-a-long-name",
                "simd",
                1_000,
                new double[] {600, 600}),
            new ColdStart.Cell(
                "sieve-split-block-bloom-prehashed-with-a-long-name",
                "scalar",
                100_000,
                new double[] {30, 30}),
            new ColdStart.Cell(
                "sieve-split-block-bloom-prehashed-with-a-long-name",
                "simd",
                100_000,
                new double[] {60, 60}));
    return new ColdStart.Section(10_000, 2, "512m", List.of(1_000, 100_000), cells);
  }

  @Test
  void theSectionIsInReportMdResultsJsonAndACompactStdoutBlock() throws Exception {
    ReportWriter.Run base = ReportFixture.run(0.2, 0.4, "AMD EPYC");
    ReportWriter.Run run =
        new ReportWriter.Run(base.meta(), base.rows(), base.guard(), base.experiments(), fixture());
    ReportWriter.write(dir.toFile(), run);

    String md = Files.readString(dir.resolve("report.md"));
    assertTrue(md.contains("## Cold start"), md);
    assertTrue(
        md.contains(
            "| filter | scalar 10^3 | scalar 10^5 | simd 10^3 | simd 10^5 | simd/scalar 10^3 |"
                + " simd/scalar 10^5 |"),
        md);
    assertTrue(
        md.contains("| sieve-blocked-bloom | 410.0 | 41.0 | 205.0 | 20.5 | 0.50 | 0.50 |"), md);
    assertTrue(md.contains("median of 2 JVM(s)"), md);

    Map<?, ?> json = (Map<?, ?>) JsonReader.parse(Files.readString(dir.resolve("results.json")));
    Map<?, ?> cold = (Map<?, ?>) json.get("coldStart");
    assertEquals(10_000.0, ((Number) cold.get("n")).doubleValue());
    List<?> cells = (List<?>) cold.get("cells");
    assertEquals(8, cells.size());
    Map<?, ?> first = (Map<?, ?>) cells.get(0);
    assertEquals("sieve-blocked-bloom", first.get("filter"));
    assertEquals("scalar", first.get("jvm"));
    assertEquals(List.of(400.0, 420.0), first.get("nanosPerLookup"));

    String out = ConsoleSummary.render(run, dir.toFile());
    assertTrue(out.contains("Cold start (fresh JVM, n = 10^4, median of 2)"), out);
    assertTrue(out.lines().anyMatch(l -> l.matches("sieve-blocked-bloom +410/205 +41/21 +0\\.50")));
    assertTrue(out.lines().anyMatch(l -> l.contains("600/") || l.contains("300/600")), out);
    for (String line : out.split("\n")) {
      assertTrue(line.length() <= ConsoleSummary.WIDTH, line);
    }

    String without = ConsoleSummary.render(base, dir.toFile());
    assertFalse(without.contains("Cold start"), without);
    assertFalse(ReportWriter.document(base).markdown().contains("## Cold start"));
  }

  @Test
  void theReportsColdStartFiltersAreEveryFilterAndPeerButNotBatchOrExactRows() {
    List<String> names =
        ColdStart.filtersOf(
            RowSets.select(List.of("sieve-blocked-bloom-batch", "guava-bloom", "default")));
    assertTrue(names.contains("sieve-blocked-bloom"), names.toString());
    assertTrue(names.contains("sieve-cuckoo8"), names.toString());
    assertTrue(names.contains("fastfilter-xor8"), names.toString());
    assertFalse(names.contains("sieve-blocked-bloom-batch"), names.toString());
    assertFalse(names.contains("fastutil-hashset"), names.toString());
    assertFalse(names.contains("raw-read-1x"), names.toString());
    assertFalse(names.contains("java-treeset"), names.toString());
    assertEquals(15, names.size(), names.toString());
  }

  @Test
  void oneRealTinyRunGivesPositiveFiniteCellsForBothJvms() throws Exception {
    assertTrue(Structures.exists("sieve-blocked-bloom"));
    List<ColdStart.Cell> cells =
        ColdStart.measure(
            ColdStart.currentJava(),
            "128m",
            1_000,
            1,
            List.of("sieve-blocked-bloom"),
            new int[] {10, 100});
    assertEquals(4, cells.size());
    for (ColdStart.Cell c : cells) {
      assertEquals(1, c.nanosPerLookup().length);
      double v = c.median();
      assertTrue(v > 0 && Double.isFinite(v), c.filter() + " " + c.jvm() + " " + v);
    }
    assertEquals(
        List.of("scalar", "simd"),
        cells.stream().filter(c -> c.lookups() == 100).map(ColdStart.Cell::jvm).toList());
    assertTrue(new File(ColdStart.currentJava()).canExecute());
  }
}
