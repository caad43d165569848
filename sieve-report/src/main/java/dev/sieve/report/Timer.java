package dev.sieve.report;

import dev.sieve.bench.StructureKind;

/**
 * Measures the build and query times of one structure once: one round of the report's rounds (see
 * {@link Rounds#run}).
 */
public interface Timer {
  /** One structure at one key count and bits/key setting, and the row its figures go into. */
  record Job(StructureKind kind, Row row) {}

  /**
   * The measured iteration scores of one round: ns per positive and per negative lookup, and ns per
   * key of a whole build. Empty where not measured.
   */
  record Sample(double[] positiveNs, double[] negativeNs, double[] buildNsPerKey) {}

  /** Times {@code job} once (warm-up included, not reported). */
  Sample run(Job job, long seed) throws Exception;

  /**
   * Times only the parts of {@code job} asked for: its lookups (the query forks) and its build (the
   * build fork), so the steady-state guard re-measures only what it flagged; a part not asked for
   * is empty in the sample. This one times both where the engine cannot split them.
   */
  default Sample run(Job job, long seed, boolean queries, boolean build) throws Exception {
    return run(job, seed);
  }

  /** The engine's name, as stored in each row: {@code jmh} or {@code quick}. */
  String name();

  /** A one-line description for the report (engine, iterations). */
  String describe();

  /**
   * The timer the steady-state guard re-measures a flagged row with: twice the warm-up and twice
   * the measured iterations ({@link SteadyState}). This one where the engine has no longer form.
   */
  default Timer longer() {
    return this;
  }

  /**
   * Seconds one {@link #run} takes by the plan (forks × (start-up + warm-up + measurement)), for
   * the duration printed before a run starts; {@code NaN} where it cannot be told in advance.
   *
   * @param n the row's key count (the forks' set-up builds the structure over n keys)
   */
  default double plannedSeconds(int n) {
    return Double.NaN;
  }

  /** {@link #plannedSeconds(int)} of a run of {@code kind} (whose warm-up may be its own). */
  default double plannedSeconds(StructureKind kind, int n) {
    return plannedSeconds(n);
  }

  /** {@link #plannedSeconds(int)} of {@link #run(Job, long, boolean, boolean)}'s parts. */
  default double plannedSeconds(int n, boolean queries, boolean build) {
    return plannedSeconds(n);
  }
}
