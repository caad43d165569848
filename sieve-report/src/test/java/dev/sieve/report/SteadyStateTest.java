package dev.sieve.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sieve.bench.Family;
import dev.sieve.bench.Structures;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The steady-state guard: a row whose error exceeds its mean, or a filter lookup above 100× the raw
 * read at its n, is flagged, re-measured once, and never used for a ratio or an acceptance goal.
 */
class SteadyStateTest {
  private static final int N6 = Acceptance.N6;

  private static List<Timer.Job> jobsOf(List<Row> rows) {
    List<Timer.Job> jobs = new ArrayList<>();
    for (Row r : rows) {
      jobs.add(new Timer.Job(Structures.byName(r.name), r));
    }
    return jobs;
  }

  private static Row row(String name, Family f, double pos, double neg, double err) {
    Row r = AcceptanceTest.row(name, f, N6, pos, neg, 20);
    r.positiveNsError = err;
    r.negativeNsError = err;
    r.buildNsPerKeyError = 1;
    return r;
  }

  /**
   * A run whose blocked Bloom rows were not at steady state: Sieve's blocked Bloom at 170,663 ±
   * 852,745 ns against FastFilter's 45 ns; its batch row 11,874 ns (no error bar, but 10,000× the
   * raw read); Ribbon divided by the bogus figure passed the Ribbon-vs-blocked-Bloom goal with
   * 0.000.
   */
  private static List<Row> flaggedRun() {
    List<Row> rows = new ArrayList<>();
    rows.add(row(Names.BLOCKED, Family.SIEVE, 170_663, 165_306, 852_745.9));
    rows.add(row(Names.BLOCKED + "-batch", Family.SIEVE, 11_874, 12_486, 900));
    rows.add(row(Acceptance.FF_BLOCKED, Family.PEER, 45.3, 34.1, 2));
    rows.add(row(Names.RIBBON, Family.SIEVE, 40.5, 39.1, 1.5));
    rows.add(row("raw-read-1x", Family.LIMIT, 1.45, 1.45, 0.1));
    rows.add(row("java-treeset", Family.EXACT, 900, 800, 30)); // pointer chasing: not flagged
    return rows;
  }

  private static Map<String, Acceptance.Check> byId(List<Acceptance.Check> checks) {
    return checks.stream().collect(Collectors.toMap(Acceptance.Check::name, c -> c, (a, b) -> a));
  }

  @Test
  void errorOverMeanAndHundredRawReadsAreFlaggedExactSetsAndSteadyRowsAreNot() {
    List<Row> rows = flaggedRun();
    List<Row> flagged = SteadyState.flag(rows);
    assertEquals(
        List.of(Names.BLOCKED, Names.BLOCKED + "-batch"),
        flagged.stream().map(r -> r.name).toList());
    assertTrue(rows.get(0).unsteady.contains("exceeds its mean"), rows.get(0).unsteady);
    assertTrue(rows.get(1).unsteady.contains("× the raw read"), rows.get(1).unsteady);
    assertFalse(rows.get(1).unsteady.contains("exceeds its mean"));
    for (Row r : rows.subList(2, rows.size())) {
      assertNull(r.unsteady, r.name);
    }
    // exactly at the limit is not over it
    Row edge = row("sieve-xor8", Family.SIEVE, 145, 145, 1);
    List<Row> withEdge = new ArrayList<>(rows);
    withEdge.add(edge);
    SteadyState.flag(withEdge);
    assertNull(edge.unsteady);
    edge.negativeNs = 145.1;
    SteadyState.flag(withEdge);
    assertNotNull(edge.unsteady);
  }

  @Test
  void aFlaggedRawReadIsNotAReference() {
    List<Row> rows = flaggedRun();
    rows.get(4).negativeNsError = 5; // the raw read itself unsteady
    SteadyState.flag(rows);
    assertNotNull(rows.get(4).unsteady);
    assertFalse(rows.get(1).excluded(), "no 100× rule against an unsteady raw read");
    assertTrue(Double.isNaN(ReportWriter.ratios(rows.get(3), rows).negativeOverRawRead()));
  }

  @Test
  void noGoalOrRatioIsComputedFromAFlaggedRow() {
    List<Row> rows = flaggedRun();
    // without the guard: the bogus figures give a MISS by 4,854× and a PASS by 0.000
    Map<String, Acceptance.Check> unguarded = byId(Acceptance.check(rows, 10));
    assertEquals(
        Acceptance.Status.MISS,
        unguarded
            .get("blocked Bloom single negative lookup vs FastFilter BlockedBloom, n=10^6")
            .status());
    assertEquals(
        Acceptance.Status.PASS,
        unguarded.get("Ribbon single lookup vs blocked Bloom single lookup, n=10^6").status());
    assertTrue(ReportWriter.ratios(rows.get(0), rows).negativeOverRawRead() > 100_000);

    SteadyState.flag(rows);
    Map<String, Acceptance.Check> guarded = byId(Acceptance.check(rows, 10));
    for (String id :
        List.of(
            "blocked Bloom single negative lookup vs FastFilter BlockedBloom, n=10^6",
            "Ribbon single lookup vs blocked Bloom single lookup, n=10^6",
            "blocked Bloom batch negative lookup vs FastFilter BlockedBloom, n=10^6",
            "blocked Bloom batch positive lookup vs FastFilter BlockedBloom, n=10^6")) {
      assertEquals(Acceptance.Status.EXCLUDED, guarded.get(id).status(), id);
      assertTrue(Double.isNaN(guarded.get(id).value()), id);
      assertTrue(guarded.get(id).detail().contains("not at steady state"), id);
    }
    ReportWriter.Ratios bloom = ReportWriter.ratios(rows.get(0), rows);
    assertTrue(Double.isNaN(bloom.negativeOverRawRead()));
    assertTrue(Double.isNaN(bloom.positiveOverBestPeer()));
    // an unflagged row still gets its ratios
    ReportWriter.Ratios ribbon = ReportWriter.ratios(rows.get(3), rows);
    assertEquals(39.1 / 1.45, ribbon.negativeOverRawRead(), 1e-9);
    assertEquals(40.5 / 45.3, ribbon.positiveOverBestPeer(), 1e-9);
    // a flagged peer is not the best peer either
    rows.get(2).unsteady = "test";
    assertTrue(Double.isNaN(ReportWriter.ratios(rows.get(3), rows).positiveOverBestPeer()));
    // nor are its lookups compared against a baseline (its steady build time is)
    List<Guard.Baseline> before = List.of(new Guard.Baseline(Names.BLOCKED, N6, 10, 10, 10, 20));
    assertEquals(
        List.of("build ns/key"),
        Guard.compare(rows, before).stream().map(Guard.Entry::metric).toList());
  }

  @Test
  void aNoisyBuildVoidsTheBuildFiguresOnly() {
    List<Row> all = new ArrayList<>(flaggedRun().subList(2, 5)); // FastFilter, Ribbon, raw read
    Row xor = row(Acceptance.XOR8, Family.SIEVE, 8, 8, 0.2);
    xor.buildNsPerKeyError = 40; // over its 20 ns/key
    all.add(xor);
    all.add(row(Acceptance.FF_XOR8, Family.PEER, 5, 5, 0.2));
    assertEquals(List.of(xor), SteadyState.flag(all));
    assertFalse(xor.excluded());
    assertTrue(xor.buildExcluded());
    assertTrue(SteadyState.describe(xor).startsWith("build only"), SteadyState.describe(xor));
    ReportWriter.Ratios x = ReportWriter.ratios(xor, all);
    assertEquals(8 / 1.45, x.negativeOverRawRead(), 1e-9);
    assertEquals(8 / 5.0, x.negativeOverBestPeer(), 1e-9);
    assertTrue(Double.isNaN(x.buildOverBestPeer()));
    Map<String, Acceptance.Check> checks = byId(Acceptance.check(all, 10));
    assertEquals(
        Acceptance.Status.EXCLUDED,
        checks
            .get("Xor8 build vs FastFilter Xor8 build, n=10^6")
            .status()); // Xor8 build vs FastFilter
  }

  @Test
  void flaggedRowsAreRemeasuredOnceAndStayMarkedIfStillUnsteady() throws Exception {
    List<Row> rows = flaggedRun();
    List<Timer.Job> jobs = jobsOf(rows);
    List<List<String>> calls = new ArrayList<>();
    List<Row> still =
        SteadyState.guard(
            jobs,
            again -> {
              calls.add(again.stream().map(j -> j.row().name).toList());
              for (Timer.Job j : again) {
                if (j.row().name.equals(Names.BLOCKED)) { // the longer run reaches steady state
                  j.row().positiveNs = 13.9;
                  j.row().negativeNs = 11.4;
                  j.row().positiveNsError = 0.4;
                  j.row().negativeNsError = 0.3;
                }
              }
              return again;
            });
    assertEquals(List.of(List.of(Names.BLOCKED, Names.BLOCKED + "-batch")), calls);
    assertEquals(List.of(Names.BLOCKED + "-batch"), still.stream().map(r -> r.name).toList());
    assertTrue(rows.get(0).remeasured && rows.get(1).remeasured);
    assertNull(rows.get(0).unsteady);
    assertNotNull(rows.get(0).firstFlag);
    assertTrue(rows.get(1).excluded());
    assertFalse(rows.get(3).remeasured);
    Map<String, Acceptance.Check> checks = byId(Acceptance.check(rows, 10));
    assertEquals(
        Acceptance.Status.PASS,
        checks
            .get("blocked Bloom single negative lookup vs FastFilter BlockedBloom, n=10^6")
            .status()); // 11.4 / 34.1
    assertEquals(
        Acceptance.Status.EXCLUDED,
        checks
            .get("blocked Bloom batch negative lookup vs FastFilter BlockedBloom, n=10^6")
            .status()); // the batch row
  }

  @Test
  void aRowFlaggedOnlyOnceTheRawReadWasRemeasuredGetsItsOwnRemeasurement() throws Exception {
    List<Row> rows = new ArrayList<>();
    rows.add(row("sieve-xor8", Family.SIEVE, 200, 200, 2)); // 20× a raw read of 10: fine
    rows.add(row("raw-read-1x", Family.LIMIT, 10, 10, 20)); // unsteady; really 1.5
    List<Timer.Job> jobs = jobsOf(rows);
    List<List<String>> calls = new ArrayList<>();
    SteadyState.guard(
        jobs,
        again -> {
          calls.add(again.stream().map(j -> j.row().name).toList());
          for (Timer.Job j : again) {
            if (j.row().name.equals("raw-read-1x")) {
              j.row().negativeNs = 1.5;
              j.row().negativeNsError = 0.1;
              j.row().positiveNsError = 0.1;
            }
          }
          return again;
        });
    assertEquals(List.of(List.of("raw-read-1x"), List.of("sieve-xor8")), calls);
    assertTrue(rows.get(0).excluded()); // 200 ns over 100 × 1.5 ns, after its one re-measurement
    assertFalse(rows.get(1).excluded());
  }

  @Test
  void aJobLeftOutByTheBudgetStaysFlaggedAndIsNotRetried() throws Exception {
    List<Row> rows = new ArrayList<>();
    rows.add(row("sieve-xor8", Family.SIEVE, 20, 20, 40)); // error over its mean
    rows.add(row("sieve-binary-fuse8", Family.SIEVE, 20, 20, 40));
    rows.add(row("raw-read-1x", Family.LIMIT, 1.5, 1.5, 0.1));
    List<Timer.Job> jobs = jobsOf(rows);
    List<List<String>> calls = new ArrayList<>();
    List<Row> still =
        SteadyState.guard(
            jobs,
            again -> {
              calls.add(again.stream().map(j -> j.row().name).toList());
              return again.subList(0, 1); // the budget fits the first only, which stays noisy
            });
    assertEquals(List.of(List.of("sieve-xor8", "sieve-binary-fuse8")), calls);
    assertTrue(rows.get(0).remeasured && !rows.get(0).overBudget);
    assertTrue(rows.get(1).overBudget && !rows.get(1).remeasured);
    assertEquals(2, still.size());
    assertTrue(SteadyState.describe(rows.get(1)).contains("time budget"));
    assertTrue(rows.get(1).result(null).notRemeasuredOverBudget()); // results.json says so too
    assertFalse(rows.get(0).result(null).notRemeasuredOverBudget());
    assertFalse(SteadyState.describe(rows.get(0)).contains("time budget"));
  }

  /** A timer that records which parts it was asked to measure and returns fixed figures. */
  private static final class PartsTimer implements Timer {
    final List<String> asked = new ArrayList<>();

    @Override
    public Sample run(Job job, long seed) {
      return run(job, seed, true, true);
    }

    @Override
    public Sample run(Job job, long seed, boolean queries, boolean build) {
      asked.add(job.row().name + (queries ? " queries" : "") + (build ? " build" : ""));
      double[] q = queries ? new double[] {7, 7, 7} : new double[0];
      return new Sample(q, q, build ? new double[] {30, 30, 30} : new double[0]);
    }

    @Override
    public String name() {
      return "parts";
    }

    @Override
    public String describe() {
      return "parts";
    }
  }

  @Test
  void aRemeasurementTimesOnlyTheFlaggedPartsAndKeepsTheOthers() throws Exception {
    Row buildOnly = row("sieve-xor8", Family.SIEVE, 20, 21, 1);
    Rounds.Estimate lookups = new Rounds.Estimate(20, 1, 5, List.of(20.0));
    buildOnly.setTimes(lookups, lookups, new Rounds.Estimate(50, 90, 5, List.of(50.0)), "jmh");
    Row lookupOnly = row("sieve-binary-fuse8", Family.SIEVE, 20, 20, 40);
    lookupOnly.setTimes(
        new Rounds.Estimate(20, 40, 5, List.of(20.0)),
        new Rounds.Estimate(20, 40, 5, List.of(20.0)),
        new Rounds.Estimate(50, 1, 5, List.of(50.0)),
        "jmh");
    SteadyState.flag(List.of(buildOnly, lookupOnly));
    assertNotNull(buildOnly.buildUnsteady);
    assertNull(buildOnly.unsteady);
    assertNotNull(lookupOnly.unsteady);
    assertNull(lookupOnly.buildUnsteady);
    PartsTimer t = new PartsTimer();
    Rounds.remeasure(
        t,
        List.of(
            new Timer.Job(Structures.byName(buildOnly.name), buildOnly),
            new Timer.Job(Structures.byName(lookupOnly.name), lookupOnly)),
        1,
        (round, of, job) -> {});
    assertEquals(List.of("sieve-xor8 build", "sieve-binary-fuse8 queries"), t.asked);
    assertEquals(20, buildOnly.positiveNs, 0); // kept
    assertEquals(30, buildOnly.buildNsPerKey, 0); // re-measured
    assertEquals(7, lookupOnly.negativeNs, 0); // re-measured
    assertEquals(50, lookupOnly.buildNsPerKey, 0); // kept
  }
}
