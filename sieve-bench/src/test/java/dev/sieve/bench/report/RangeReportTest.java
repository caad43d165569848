package dev.sieve.bench.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The range section at a small size: every cell measured, within the bound, and written. */
class RangeReportTest {
  @TempDir Path dir;

  @Test
  void measuresEveryCellWithinTheBoundAndWritesTheTable() throws Exception {
    List<RangeReport.Point> points = RangeReport.measure(20_000, 5_000, 16);
    assertEquals(RangeReport.LENGTHS.length * 2, points.size());
    for (RangeReport.Point p : points) {
      assertTrue(p.withinBound(), p.toString());
      System.out.println(p);
      // the baseline is given Grafite's memory (the blocked Bloom rounds to whole blocks), except
      // at 2^20, where its 21 levels need at least 1 bit per prefix (the blocked Bloom's floor)
      assertTrue(
          p.length() > 1024
              || Math.abs(p.prefixBits() - p.grafiteBits()) < 0.05 * p.grafiteBits() + 1.1,
          p.toString());
    }
    RangeReport.Point shortCorrelated =
        points.stream()
            .filter(p -> p.length() == 16 && p.workload() == RangeReport.Workload.CORRELATED)
            .findFirst()
            .orElseThrow();
    // the correlated workload: the prefix Bloom filter's rate well above Grafite's
    assertTrue(
        shortCorrelated.prefixFp() > shortCorrelated.grafiteFp(), shortCorrelated.toString());
    RangeReport.write(dir, points, 20_000, 16);
    String md = Files.readString(dir.resolve("range.md"));
    assertTrue(md.contains("| 2^10 | correlated |"), md);
    assertEquals(points.size() + 1, Files.readAllLines(dir.resolve("range.csv")).size());
  }
}
