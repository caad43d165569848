package dev.sieve.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sieve.bench.Family;
import java.awt.image.BufferedImage;
import java.io.File;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The lookup plots pick their form from the run (bars per n under three n, lines against n from
 * three), one panel per family with at most six series; the FPR plot has a panel per kind.
 */
class ChartsTest {
  @TempDir Path dir;

  private static List<Row> rows(int... ns) {
    List<Row> rows = new ArrayList<>();
    for (int n : ns) {
      rows.add(AcceptanceTest.row("sieve-blocked-bloom", Family.SIEVE, n, 10, 12, 5));
      rows.add(AcceptanceTest.row("sieve-blocked-bloom-batch", Family.SIEVE, n, 8, 9, 5));
      rows.add(AcceptanceTest.row("sieve-xor8", Family.SIEVE, n, 9, 9, 50));
      rows.add(AcceptanceTest.row("fastfilter-blocked-bloom", Family.PEER, n, 7, 7, 3));
      rows.add(AcceptanceTest.row("raw-read-1x", Family.LIMIT, n, 2, 2, 1));
    }
    return rows;
  }

  @Test
  void fewerThanThreeKeyCountsGiveABarChartPerNThreeOrMoreGiveLinesAgainstN() throws Exception {
    List<Row> two = rows(10_000, 1_000_000);
    List<LookupCharts.Plot> bars = LookupCharts.lookupPlots(two);
    assertEquals(
        List.of("lookup-n10000.png", "lookup-n1000000.png"),
        bars.stream().map(LookupCharts.Plot::file).toList());
    LookupCharts.lookupTimes(dir.toFile(), two);
    for (LookupCharts.Plot p : bars) {
      BufferedImage img = ImageIO.read(dir.resolve(p.file()).toFile());
      // two families present (blocked Bloom, Xor; the raw read in each): two columns
      assertEquals(2 * Charts.PANEL_W, img.getWidth());
    }
    List<Row> three = rows(10_000, 1_000_000, 10_000_000);
    List<LookupCharts.Plot> lines = LookupCharts.lookupPlots(three);
    assertEquals(
        List.of("lookup-negative-vs-n.png", "lookup-positive-vs-n.png"),
        lines.stream().map(LookupCharts.Plot::file).toList());
    LookupCharts.lookupTimes(dir.toFile(), three);
    assertTrue(dir.resolve("lookup-negative-vs-n.png").toFile().length() > 1000);
  }

  @Test
  void aPanelPerFamilyWithAtMostSixSeriesAndFlaggedRowsLeftOut() {
    List<Row> rows = new ArrayList<>();
    for (String name :
        List.of(
            "sieve-blocked-bloom",
            "sieve-blocked-bloom-batch",
            "sieve-blocked-bloom-prehashed",
            "sieve-blocked-bloom-fasthash",
            "sieve-split-block-bloom",
            "sieve-split-block-bloom-batch",
            "fastfilter-blocked-bloom",
            "sieve-ribbon",
            "guava-bloom")) {
      rows.add(
          AcceptanceTest.row(
              name, name.startsWith("sieve") ? Family.SIEVE : Family.PEER, 1000, 5, 5, 1));
    }
    rows.add(AcceptanceTest.row("raw-read-1x", Family.LIMIT, 1000, 1, 1, 1));
    Row flagged = AcceptanceTest.row("sieve-cuckoo8", Family.SIEVE, 1000, 5000, 5000, 1);
    flagged.unsteady = "negative 5000 ns is 5000× the raw read";
    rows.add(flagged);
    List<LookupCharts.LookupPanel> panels = LookupCharts.panels(rows);
    // seven blocked/split-block rows: two panels of at most five structures (+ the raw read)
    assertEquals(
        List.of(
            "Blocked, split-block and two-word Bloom (1 of 2)",
            "Blocked, split-block and two-word Bloom (2 of 2)",
            "Standard Bloom and growable filters",
            "Ribbon"),
        panels.stream().map(LookupCharts.LookupPanel::title).toList());
    for (LookupCharts.LookupPanel p : panels) {
      assertTrue(p.structures().size() + 1 <= LookupCharts.MAX_SERIES, p.toString());
      assertFalse(p.structures().contains("raw-read-1x"));
    }
    assertTrue(panels.stream().noneMatch(p -> p.structures().contains("sieve-cuckoo8")));
  }

  @Test
  void fprSmallMultiplesHaveAPanelPerKindOfFilter() throws Exception {
    List<Experiments.SweepPoint> sweep =
        List.of(
            new Experiments.SweepPoint(
                "sieve-blocked-bloom", 10, 10.0, 0.0095, 0.009, 0.01, 0.0094),
            new Experiments.SweepPoint("sieve-ribbon", 10, 7.1, 0.0095, 0.009, 0.01, 0.0095));
    List<Row> rows = rows(1_000_000);
    Row xor = rows.get(2);
    xor.absentQueried = 1_000_000;
    xor.falsePositives = 3_900;
    xor.modelFpr = 1 / 256.0;
    xor.sizeBits = (long) (9.84 * xor.n);
    File f = dir.resolve("fpr.png").toFile();
    Charts.fprVsBitsPerKey(f, sweep, rows);
    assertEquals(350 * 3 + 200, ImageIO.read(f).getHeight()); // Bloom, Ribbon, fixed-size
    File bloomOnly = dir.resolve("fpr1.png").toFile();
    Charts.fprVsBitsPerKey(bloomOnly, sweep.subList(0, 1), List.of());
    assertEquals(350 + 200, ImageIO.read(bloomOnly).getHeight());
    assertEquals("10^6", LogAxes.Ticks.POWER_OF_TEN.format().format(1e6));
    assertEquals("2.5", LogAxes.Ticks.POWER_OF_TEN.format().format(2.5));
  }
}
