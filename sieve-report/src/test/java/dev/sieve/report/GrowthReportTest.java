package dev.sieve.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.awt.image.BufferedImage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The growth measurement: its checkpoints, its interval, and the files it writes. */
class GrowthReportTest {
  @TempDir Path dir;

  @Test
  void wilsonIntervalMatchesAWorkedValue() {
    // 100 successes in 10^4 trials, z = 1.96: [0.00823, 0.01215] (the formula evaluated apart)
    double[] ci = GrowthReport.wilson(100, 10_000, 1.96);
    assertEquals(0.00823, ci[0], 1e-5);
    assertEquals(0.01215, ci[1], 1e-5);
    assertEquals(0.0, GrowthReport.wilson(0, 1000, 3.29)[0]);
  }

  @Test
  void measuresEveryCheckpointAndWritesTheTableAndPlots() throws Exception {
    List<GrowthReport.Point> points = GrowthReport.measure(0.01, 1_000, 40_000, 20_000);
    // ten per decade from 10^3 (1.6 decades: 17) plus the moments after stages open (4)
    assertTrue(points.size() >= 20, "points: " + points.size());
    assertEquals(1_000, points.get(0).keys());
    assertEquals(40_000, points.get(points.size() - 1).keys());
    assertTrue(points.stream().anyMatch(GrowthReport.Point::justOpened));
    for (GrowthReport.Point p : points) {
      assertTrue(p.upper() < 0.01, "FPR bound at " + p.keys() + ": " + p.upper());
      assertTrue(p.memoryRatio() > 1.0, "the chain is never smaller than a right-sized filter");
    }
    GrowthOutput.write(dir, points, 1_000, 40_000);
    String md = Files.readString(dir.resolve("growth.md"));
    assertTrue(md.contains("| 40,000 |"), md);
    assertEquals(points.size() + 1, Files.readAllLines(dir.resolve("growth.csv")).size());
    for (String png : new String[] {"fpr-vs-keys.png", "bits-per-key.png"}) {
      BufferedImage image = ImageIO.read(dir.resolve(png).toFile());
      assertEquals(1100, image.getWidth());
    }
  }

  @Test
  void everyStructureAtEveryCheckpointWithVerdictsAndThreePlots() throws Exception {
    long maxN = 20_000;
    // 200,000 absent keys a checkpoint: a filter sized to use most of its budget (a modelled rate
    // up to f / 1.125) has a 99.9% upper bound under f only with that many
    List<GrowthReport.Point> points =
        GrowthReport.measureAll(0.01, 1_000, maxN, 200_000, GrowthReport.defaultHints(maxN));
    TreeSet<Long> fixed = GrowthReport.checkpoints(1_000, maxN);
    for (String label :
        List.of(
            "scalable",
            "expandable",
            "expandable-hinted (hint 10,000)",
            "expandable-hinted (hint 20,000)",
            "rightsized")) {
      List<GrowthReport.Point> mine = points.stream().filter(p -> p.label().equals(label)).toList();
      Set<Long> keys = new TreeSet<>(mine.stream().map(GrowthReport.Point::keys).toList());
      assertTrue(keys.containsAll(fixed), label + " misses checkpoints: " + keys);
      for (GrowthReport.Point p :
          label.equals("rightsized") ? List.<GrowthReport.Point>of() : mine) {
        assertTrue(p.upper() < 0.01, label + " FPR bound at " + p.keys() + ": " + p.upper());
      }
    }
    // the expandable filter grows from its smallest table: doubled before 1,000 keys, and again
    // (marked) on the way to 20,000; the one hinted 20,000 never doubles, the one hinted 10,000
    // does once or more
    List<GrowthReport.Point> expandable =
        points.stream().filter(p -> p.label().equals("expandable")).toList();
    assertTrue(expandable.stream().allMatch(p -> p.steps() >= 1));
    assertTrue(expandable.stream().anyMatch(GrowthReport.Point::justOpened));
    assertTrue(
        points.stream()
            .filter(p -> p.label().equals("expandable-hinted (hint 20,000)"))
            .allMatch(p -> p.steps() == 0));
    assertTrue(
        points.stream()
            .filter(p -> p.label().equals("expandable-hinted (hint 10,000)"))
            .anyMatch(p -> p.steps() >= 1));
    for (GrowthReport.Point p : points) {
      if (p.structure().equals("rightsized")) {
        assertEquals(1.0, p.memoryRatio(), 1e-9, "the right-sized filter is the reference");
      }
    }
    List<GrowthVerdicts.Verdict> verdicts = GrowthVerdicts.verdicts(points);
    // the memory verdict of the unhinted expandable filter agrees with its points, whatever it is
    double worst =
        expandable.stream().mapToDouble(GrowthReport.Point::memoryRatio).max().orElseThrow();
    GrowthVerdicts.Verdict memory =
        verdicts.stream()
            .filter(v -> v.structure().equals("expandable") && v.target().startsWith("memory"))
            .findFirst()
            .orElseThrow();
    assertEquals(
        worst <= GrowthVerdicts.MEMORY_TARGET
            ? GrowthVerdicts.Outcome.MET
            : GrowthVerdicts.Outcome.MISSED,
        memory.outcome(),
        memory.figure());
    assertEquals(
        4,
        verdicts.stream()
            .filter(v -> v.target().startsWith("FPR") && v.outcome() == GrowthVerdicts.Outcome.MET)
            .count());
    assertEquals(
        2, verdicts.stream().filter(v -> v.target().startsWith("moonshot")).count(), "hinted");
    GrowthOutput.write(dir, points, 1_000, maxN);
    String md = Files.readString(dir.resolve("growth.md"));
    assertTrue(md.contains("## Verdicts"), md);
    assertTrue(md.contains("| expandable-hinted (hint 10,000) |"), md);
    assertEquals(points.size() + 1, Files.readAllLines(dir.resolve("growth.csv")).size());
    for (String png : new String[] {"fpr-vs-keys.png", "bits-per-key.png", "memory-ratio.png"}) {
      BufferedImage image = ImageIO.read(dir.resolve(png).toFile());
      assertEquals(1100, image.getWidth());
    }
  }

  private static GrowthReport.Point point(
      String structure, long hint, long keys, int steps, long bits, long falsePositives) {
    return new GrowthReport.Point(
        structure, hint, 0.01, keys, steps, bits, 1_000, falsePositives, 100_000, 0.005, false);
  }

  @Test
  void queriesScaleWithTheRateSoTheBoundFitsUnderF() {
    assertEquals(1_000_000, GrowthReport.queriesFor(0.01));
    assertEquals(10_000_000, GrowthReport.queriesFor(0.001));
    assertEquals(100_000_000, GrowthReport.queriesFor(0.0001));
    // at f = 0.1% and a true rate of 0.089% (the expandable filter's model at 10^8 keys), the
    // 99.9% upper bound must stay under f with these queries, and did not with 10^6
    long q = GrowthReport.queriesFor(0.001);
    long fp = Math.round(0.00089 * q);
    assertTrue(GrowthReport.wilson(fp, q, GrowthReport.Z999)[1] < 0.001);
    assertTrue(GrowthReport.wilson(890, 1_000_000, GrowthReport.Z999)[1] > 0.00098);
  }

  @Test
  void structuresSelectsWhatIsGrown() {
    long maxN = 5_000;
    List<GrowthReport.Point> points =
        GrowthReport.measureAll(
            0.01, 1_000, maxN, 5_000, List.of(maxN), Set.of("expandable", "expandable-hinted"));
    Set<String> grown = new TreeSet<>(points.stream().map(GrowthReport.Point::structure).toList());
    assertEquals(Set.of("expandable", "expandable-hinted"), grown);
    for (GrowthReport.Point p : points) {
      assertTrue(p.rightSizedBits() > 0, "memory ratio needs the computed right-sized size");
    }
  }

  @Test
  void aHintedFiltersSummaryCountsOnlyTheCheckpointsNearItsHint(@TempDir Path dir)
      throws Exception {
    List<GrowthReport.Point> points =
        List.of(
            point("expandable-hinted", 10_000, 1_000, 0, 900_000, 5), // 900x: far below the hint
            point("expandable-hinted", 10_000, 6_000, 0, 1_700, 5),
            point("expandable-hinted", 10_000, 10_000, 0, 1_300, 5),
            point("rightsized", 0, 1_000, 0, 1_000, 5));
    GrowthOutput.write(dir, points, 1_000, 10_000, "GrowthReport --max-n 10000");
    String md = Files.readString(dir.resolve("growth.md"));
    String machine = md.lines().skip(2).findFirst().orElseThrow();
    assertTrue(machine.startsWith("Machine: ") && machine.contains(" cores; caches: "), machine);
    assertTrue(machine.endsWith("Command: `GrowthReport --max-n 10000`."), machine);
    assertTrue(
        md.contains(
            "- expandable-hinted (hint 10,000): FPR significantly above f (99.9% lower bound > f)"
                + " at 0 of 3 points, upper bound above f at 0; memory ÷ right-sized (counts"
                + " within 2× of the hint) worst 1.70×, worst at powers of ten 1.30×, mean 1.50×"),
        md);
  }

  @Test
  void verdictsJudgeOnlyTheQualifyingCheckpoints() {
    List<GrowthReport.Point> met =
        List.of(
            point("scalable", 0, 1_000, 0, 3_000, 500), // before the first step: not judged
            point("scalable", 0, 2_000, 1, 1_500, 500),
            point("expandable-hinted", 1_000, 1_500, 0, 1_200, 500),
            point("expandable-hinted", 1_000, 2_001, 1, 5_000, 500)); // hint 2x under: not judged
    List<GrowthVerdicts.Verdict> v = GrowthVerdicts.verdicts(met);
    assertEquals(4, v.size(), v.toString());
    assertTrue(v.stream().allMatch(x -> x.outcome() == GrowthVerdicts.Outcome.MET), v.toString());

    List<GrowthReport.Point> missed =
        List.of(
            point("expandable", 0, 2_000, 1, 1_501, 500), // memory just over 1.5x
            point("expandable", 0, 3_000, 2, 1_000, 1_200), // 1.2% measured: FPR above f
            point("expandable-hinted", 1_000, 500, 0, 1_201, 0), // hint 2x over: judged
            point("rightsized", 0, 1_000, 0, 1_000, 0));
    List<GrowthVerdicts.Verdict> w = GrowthVerdicts.verdicts(missed);
    assertEquals(4, w.size(), w.toString()); // the right-sized reference is not judged
    for (GrowthVerdicts.Verdict x : w) {
      boolean shouldMeet =
          x.structure().startsWith("expandable-hinted") && x.target().startsWith("FPR");
      assertEquals(
          shouldMeet ? GrowthVerdicts.Outcome.MET : GrowthVerdicts.Outcome.MISSED,
          x.outcome(),
          x.toString());
    }
    assertFalse(
        GrowthVerdicts.verdicts(List.of(point("expandable", 0, 1_000, 0, 9_000, 0))).stream()
            .anyMatch(x -> x.outcome() == GrowthVerdicts.Outcome.MISSED),
        "no checkpoint after the first doubling: not measured, not missed");
  }
}
