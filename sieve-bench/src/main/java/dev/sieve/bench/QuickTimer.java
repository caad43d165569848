package dev.sieve.bench;

/**
 * A plain {@code System.nanoTime} timer in the report's own JVM: a few builds (best of) and a few
 * passes over the query streams (best of). Much cruder than JMH — one JVM for all structures, so
 * call sites go megamorphic — and meant for tests and smoke runs ({@code --timer quick}).
 */
public final class QuickTimer implements Timer {
  private final int repeats;
  private final int queryStream;

  public QuickTimer(int repeats, int queryStream) {
    if (repeats < 1 || queryStream < 1) {
      throw new IllegalArgumentException("repeats and query stream must be positive");
    }
    this.repeats = repeats;
    this.queryStream = queryStream;
  }

  @Override
  public void time(StructureKind kind, Row row, long seed) {
    Workload workload = Workload.create(row.n, seed);
    long bestBuild = Long.MAX_VALUE;
    Membership m = null;
    for (int i = 0; i < repeats; i++) {
      long t0 = System.nanoTime();
      m = kind.build(workload.keys(), row.bitsPerKeySetting);
      bestBuild = Math.min(bestBuild, System.nanoTime() - t0);
    }
    row.buildNsPerKey = (double) bestBuild / row.n;
    long[] present = workload.presentQueries(queryStream);
    long[] absent = workload.absentQueries(queryStream);
    row.positiveNs = bestPass(m, present);
    row.negativeNs = bestPass(m, absent);
    row.timer = "quick";
  }

  private double bestPass(Membership m, long[] stream) {
    long best = Long.MAX_VALUE;
    int sink = 0;
    for (int r = 0; r < repeats + 1; r++) {
      long t0 = System.nanoTime();
      for (long key : stream) {
        if (m.mayContain(key)) {
          sink++;
        }
      }
      best = Math.min(best, System.nanoTime() - t0);
    }
    if (sink == -1) {
      throw new AssertionError(); // keeps the loop's result alive
    }
    return (double) best / stream.length;
  }

  @Override
  public String describe() {
    return "quick in-process nanoTime timer (best of " + repeats + "; not JMH)";
  }
}
