package dev.sieve.report;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.sieve.bench.Family;
import dev.sieve.bench.Structures;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The report's time budget (the default run within 10 minutes): the steady-state guard re-measures
 * flagged rows, lookups first, only while the run's budget holds room for them and for the work
 * after the guard.
 */
class ReportBudgetTest {

  /** A plan of 18 s for a row's lookups and 4 s for its build, by the longer timer. */
  private static class PlannedTimer implements Timer {
    @Override
    public Sample run(Job job, long seed) {
      throw new AssertionError("nothing is measured here");
    }

    @Override
    public String name() {
      return "planned";
    }

    @Override
    public String describe() {
      return "planned";
    }

    @Override
    public double plannedSeconds(int n, boolean queries, boolean build) {
      return (queries ? 18 : 0) + (build ? 4 : 0);
    }
  }

  private static Timer.Job job(String name, boolean lookups, boolean build) {
    Row r = AcceptanceTest.row(name, Family.SIEVE, 1_000_000, 10, 10, 20);
    r.unsteady = lookups ? "lookups noisy" : null;
    r.buildUnsteady = build ? "build noisy" : null;
    return new Timer.Job(Structures.byName(name), r);
  }

  private static List<String> names(List<Timer.Job> jobs) {
    List<String> out = new ArrayList<>();
    jobs.forEach(j -> out.add(j.row().name));
    return out;
  }

  @Test
  void lookupsComeFirstAndWhatDoesNotFitIsLeftOut() {
    ReportPlan report = new ReportPlan(new ReportCommand());
    List<Timer.Job> flagged =
        List.of(
            job("sieve-xor8", false, true),
            job("sieve-binary-fuse8", true, false),
            job("sieve-xor16", false, true),
            job("sieve-ribbon", true, true));
    Timer t = new PlannedTimer();
    // 600 s budget, 45 s of work after the guard: from 520 s elapsed, 35 s are left
    assertEquals(
        List.of("sieve-binary-fuse8", "sieve-xor8", "sieve-xor16"),
        names(report.withinBudget(flagged, t, 520, 540, List.of())));
    assertEquals(
        List.of("sieve-binary-fuse8", "sieve-ribbon", "sieve-xor8", "sieve-xor16"),
        names(report.withinBudget(flagged, t, 400, 540, List.of())));
    assertEquals(List.of(), names(report.withinBudget(flagged, t, 560, 540, List.of())));
    // a run planned past 10 minutes gets 10% room over its plan
    assertEquals(4, report.withinBudget(flagged, t, 1100, 1200, List.of()).size());
  }

  @Test
  void aTimerWithoutAPlanReMeasuresEverything() {
    Timer quick =
        new PlannedTimer() {
          @Override
          public double plannedSeconds(int n, boolean queries, boolean build) {
            return Double.NaN;
          }
        };
    List<Timer.Job> flagged =
        List.of(job("sieve-xor8", true, true), job("sieve-xor16", true, false));
    assertEquals(
        2,
        new ReportPlan(new ReportCommand())
            .withinBudget(flagged, quick, 1e6, Double.NaN, List.of())
            .size());
  }
}
