package dev.sieve.report;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sieve.bench.RangeCells;
import dev.sieve.bench.RangeCells.Structure;
import dev.sieve.bench.RangeCells.Workload;
import dev.sieve.range.RangeFilter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The range section at a small size: every cell measured, within the bound, timed, judged against
 * the acceptance check's range goals and written; a planted false negative fails the contract; the
 * steady-state check re-measures a flagged filter once. No timing is asserted: the timers here are
 * the in-process one (only its shape is checked) or scripted ones that return fixed scores.
 */
class RangeReportTest {
  @TempDir Path dir;

  private static Map<String, Acceptance.Check> byId(List<Acceptance.Check> checks) {
    Map<String, Acceptance.Check> m = new LinkedHashMap<>();
    checks.forEach(c -> m.put(c.name(), c));
    return m;
  }

  @Test
  void measuresEveryCellWithinTheBoundTimesItAndWritesTheSection() throws Exception {
    RangeFigures.Section s = RangeReport.measure(20_000, 5_000, 16, 25);
    assertEquals(RangeReport.LENGTHS.length * 2, s.points().size());
    for (RangeFigures.Point p : s.points()) {
      assertTrue(p.withinBound(), p.toString());
      assertEquals(5_000, p.queries());
      assertEquals(5_000, p.positives());
      assertEquals(0, p.grafiteFn(), p.toString());
      assertEquals(0, p.prefixFn(), p.toString());
      assertTrue(p.grafiteBound() > 0 && p.grafiteBound() <= 1, p.toString());
      // the baseline is given Grafite's memory (the blocked Bloom rounds to whole blocks), except
      // at 2^20, where its 21 levels need at least 1 bit per prefix (the blocked Bloom's floor)
      assertTrue(
          p.length() > 1024
              || Math.abs(p.prefixBits() - p.grafiteBits()) < 0.05 * p.grafiteBits() + 1.1,
          p.toString());
      assertFalse(p.grafiteTime().timed(), "not timed yet");
    }
    // the bound grows with ℓ: ℓ/2^(B−2)
    assertTrue(s.points().get(2).grafiteBound() < s.points().get(4).grafiteBound());
    RangeFigures.Point shortCorrelated =
        s.points().stream()
            .filter(p -> p.length() == 16 && p.workload() == Workload.CORRELATED)
            .findFirst()
            .orElseThrow();
    // the correlated workload: the prefix Bloom filter's rate well above Grafite's
    assertTrue(
        shortCorrelated.prefixFp() > shortCorrelated.grafiteFp(), shortCorrelated.toString());

    RangeFigures.Section timed = RangeReport.timed(s, RangeTimer.quick(2, 1 << 10), true);
    for (RangeFigures.Point p : timed.points()) {
      for (Structure st : Structure.values()) {
        assertTrue(p.time(st).timed(), p.toString());
        assertTrue(p.time(st).iterations() >= 2, p.toString());
      }
      // the FPR figures are kept
      assertEquals(
          s.points().get(timed.points().indexOf(p)).grafiteFp(), p.grafiteFp(), p.toString());
    }
    assertTrue(timed.timer().startsWith("quick"), timed.timer());

    Map<String, Acceptance.Check> t = byId(AcceptanceRange.checks(timed));
    assertEquals(
        List.of(
            AcceptanceRange.WITHIN_BOUND,
            AcceptanceRange.UNIFORM_FPR,
            AcceptanceRange.CORRELATED_FPR,
            AcceptanceRange.QUERY_TIME,
            AcceptanceRange.NO_FALSE_NEGATIVES),
        new ArrayList<>(t.keySet()));
    assertEquals(
        Acceptance.Status.PASS,
        t.get(AcceptanceRange.WITHIN_BOUND).status(),
        t.get(AcceptanceRange.WITHIN_BOUND).detail());
    assertEquals(
        Acceptance.Status.PASS,
        t.get(AcceptanceRange.NO_FALSE_NEGATIVES).status(),
        t.get(AcceptanceRange.NO_FALSE_NEGATIVES).detail());
    assertEquals(
        Acceptance.Status.NOT_RUN,
        t.get(AcceptanceRange.QUERY_TIME).status(),
        "the query time is held at 10^7 keys");
    // ≤ 1% at ℓ = 2^10 cannot hold at 16 bits/key: the bound there is 2^10/2^14 = 6.25%
    assertEquals(Acceptance.Status.MISS, t.get(AcceptanceRange.UNIFORM_FPR).status());
    assertTrue(
        t.get(AcceptanceRange.UNIFORM_FPR).detail().contains("ℓ=2^10"),
        t.get(AcceptanceRange.UNIFORM_FPR).detail());
    assertTrue(
        t.get(AcceptanceRange.UNIFORM_FPR).detail().contains("no Grafite at 16 bits/key"),
        t.get(AcceptanceRange.UNIFORM_FPR).detail());

    String advice = RangeAdvice.advice(timed);
    assertTrue(advice.startsWith("Range queries (n = 20,000"), advice);
    assertTrue(advice.contains(": grafite — worst FPR "), advice);
    List<String> lines = new ArrayList<>();
    ConsoleSummary.wrap(lines, advice + ".", "- ", "  ");
    assertTrue(lines.size() <= 2, lines.toString());
    lines.forEach(l -> assertTrue(l.length() <= ConsoleSummary.WIDTH, l));

    RangeReport.write(dir, timed);
    String md = Files.readString(dir.resolve("range.md"));
    assertTrue(md.contains("| 2^10 | correlated |"), md);
    assertTrue(md.contains("No false negative"), md);
    assertEquals(timed.points().size() + 1, Files.readAllLines(dir.resolve("range.csv")).size());
    for (String png : List.of(RangeCharts.FPR_PLOT, RangeCharts.TIME_PLOT)) {
      byte[] b = Files.readAllBytes(dir.resolve(png));
      assertTrue(b.length > 1000 && b[1] == 'P' && b[2] == 'N' && b[3] == 'G', png);
    }
    RangeFigures.Result json = timed.result();
    assertEquals(timed.points().size(), json.cells().size());
    assertTrue(Json.write(json).contains("\"grafiteNsPerRange\""));
  }

  @Test
  void aPlantedFalseNegativeFailsTheContract() {
    // a filter that answers "empty" for every range whose low end is a multiple of 8
    RangeFigures.Section s =
        RangeReport.measure(
            5_000, 400, 16, 7, f -> (lo, hi) -> (lo & 7) != 0 && f.mayContainRange(lo, hi));
    assertTrue(s.falseNegatives() > 0);
    Acceptance.Check contract =
        byId(AcceptanceRange.checks(s)).get(AcceptanceRange.NO_FALSE_NEGATIVES);
    assertEquals(Acceptance.Status.MISS, contract.status());
    assertTrue(contract.detail().startsWith("CONTRACT VIOLATION"), contract.detail());
  }

  /** A timer that answers scripted scores: {@code first} for every cell, then {@code longer}. */
  private record Scripted(double[] first, double[] again, int[] calls) implements RangeTimer {
    @Override
    public double[][] time(
        Structure structure,
        int n,
        double bitsPerKey,
        long[] lengths,
        double[] prefixBits,
        long seed) {
      calls[0]++;
      double[][] out = new double[lengths.length * WORKLOADS][];
      Arrays.fill(out, first);
      return out;
    }

    @Override
    public RangeTimer longer() {
      return new Scripted(again, again, calls);
    }

    @Override
    public double plannedSeconds(Structure structure, int n, long[] lengths) {
      return 1;
    }

    @Override
    public String describe() {
      return "scripted";
    }
  }

  private static RangeFigures.Section atTenMillion(RangeFigures.Section small) {
    return new RangeFigures.Section(
        10_000_000, small.bitsPerKey(), small.queries(), small.seed(), "", small.points());
  }

  @Test
  void flaggedCellsAreReMeasuredOnceAndTheQueryTimeGoalUsesOnlySteadyOnes() throws Exception {
    RangeFigures.Section s = atTenMillion(RangeReport.measure(2_000, 200, 16, 3));
    double[] noisy = {10, 400, 12, 9, 300};
    double[] steady = {50, 51, 49, 50, 50};
    double[] slow = {150, 151, 149, 150, 150};
    int[] calls = {0};
    // noisy, then steady: every cell re-measured once, then kept
    RangeFigures.Section fixed = RangeReport.timed(s, new Scripted(noisy, steady, calls), true);
    assertEquals(4, calls[0], "each filter timed, then re-measured once");
    for (RangeFigures.Point p : fixed.points()) {
      assertTrue(p.grafiteTime().steady() && p.grafiteTime().remeasured(), p.toString());
    }
    assertTrue(fixed.unsteady().isEmpty());
    Acceptance.Check queryTime =
        byId(AcceptanceRange.checks(fixed)).get(AcceptanceRange.QUERY_TIME);
    assertEquals(Acceptance.Status.PASS, queryTime.status(), queryTime.detail());
    assertEquals(50, queryTime.value(), 1);

    // noisy twice: flagged, excluded from the goal and the advice's times
    calls[0] = 0;
    RangeFigures.Section still = RangeReport.timed(s, new Scripted(noisy, noisy, calls), true);
    assertEquals(4, calls[0]);
    assertEquals(still.points().size() * 2, still.unsteady().size());
    assertEquals(
        Acceptance.Status.EXCLUDED,
        byId(AcceptanceRange.checks(still)).get(AcceptanceRange.QUERY_TIME).status());
    assertFalse(RangeAdvice.advice(still).contains("ns/range"), RangeAdvice.advice(still));

    // no room in the budget: not re-measured, flagged
    calls[0] = 0;
    RangeFigures.Section noRoom = RangeReport.timed(s, new Scripted(noisy, steady, calls), false);
    assertEquals(2, calls[0]);
    assertFalse(noRoom.points().get(0).grafiteTime().remeasured());
    assertFalse(noRoom.points().get(0).grafiteTime().steady());

    // steady but slow: a miss with the slowest cell named
    calls[0] = 0;
    RangeFigures.Section slowRun = RangeReport.timed(s, new Scripted(slow, slow, calls), true);
    assertEquals(2, calls[0], "nothing flagged, nothing re-measured");
    Acceptance.Check miss = byId(AcceptanceRange.checks(slowRun)).get(AcceptanceRange.QUERY_TIME);
    assertEquals(Acceptance.Status.MISS, miss.status());
    assertTrue(miss.detail().contains("grafite ℓ="), miss.detail());
  }

  @Test
  void theSectionOffMeansEveryRangeGoalNotRun() {
    List<Acceptance.Check> t = AcceptanceRange.checks(null);
    assertEquals(5, t.size());
    assertTrue(t.stream().allMatch(c -> c.status() == Acceptance.Status.NOT_RUN));
  }

  @Test
  void forkScoresAreSplitByTurnAndAWrongCountIsAnError() {
    double[][] cells = RangeTimer.byCell(new double[] {1, 2, 3, 11, 12, 13}, 3);
    assertArrayEquals(new double[] {1, 11}, cells[0]);
    assertArrayEquals(new double[] {3, 13}, cells[2]);
    assertThrows(IllegalStateException.class, () -> RangeTimer.byCell(new double[5], 3));
  }

  @Test
  void theSectionIsPlannedWithinThirtySecondsAtAMillionKeys() {
    RangeTimer jmh = RangeReport.defaultJmhTimer(1_000_000, System.out);
    double planned = RangeReport.plannedSeconds(1_000_000, 200_000, jmh);
    assertTrue(planned > 10 && planned <= 30, "planned " + planned);
    assertTrue(RangeReport.plannedSeconds(10_000_000, 200_000, jmh) > planned);
    assertTrue(
        Double.isNaN(RangeReport.plannedSeconds(1_000, 100, RangeReport.defaultQuickTimer())));
    assertThrows(IllegalArgumentException.class, () -> RangeReport.measure(0, 10, 16, 1));
    assertThrows(
        IllegalArgumentException.class,
        () -> RangeReport.measure(RangeReport.MAX_KEYS + 1, 10, 16, 1));
  }

  @Test
  void theBenchmarksCellOrderIsTheSections() {
    // RangeCellsBenchmark times cell k mod C in turn: length-major, uniform before correlated
    RangeFigures.Section s = RangeReport.measure(1_000, 50, 16, 1);
    for (int i = 0; i < s.points().size(); i++) {
      RangeFigures.Point p = s.points().get(i);
      assertEquals(RangeReport.LENGTHS[i / RangeTimer.WORKLOADS], p.length());
      assertEquals(Workload.values()[i % RangeTimer.WORKLOADS], p.workload());
    }
    long[][] stream = RangeCells.stream(Workload.CORRELATED, new long[] {-5L}, 16, 8, 1);
    for (int i = 0; i < 8; i++) {
      // a range that would wrap past 2^64 − 1 ends there
      assertTrue(Long.compareUnsigned(stream[0][i], stream[1][i]) <= 0);
    }
    RangeFilter all = (lo, hi) -> true;
    assertEquals(8, RangeCells.query(all, stream[0], stream[1], 3, 8));
  }
}
