package dev.sieve.report;

import dev.sieve.bench.Membership;
import dev.sieve.bench.Workload;
import dev.sieve.bench.jmh.QueryBenchmark;

/**
 * A plain {@code System.nanoTime} timer in the report's own JVM: per round, a few warm builds, then
 * a few measured builds, and a few passes over the query streams in runs of {@link
 * QueryBenchmark#BATCH} keys (the same {@link Membership#mayContainBatch} call as JMH's). Much
 * cruder than JMH — one JVM for all structures, so call sites go megamorphic — and meant for tests
 * and smoke runs ({@code --timer quick}).
 */
public final class QuickTimer implements Timer {
  private final int repeats;
  private final int queryStream;

  public QuickTimer(int repeats, int queryStream) {
    if (repeats < 2 || queryStream < QueryBenchmark.BATCH) {
      throw new IllegalArgumentException(
          "repeats must be at least 2 and the query stream at least " + QueryBenchmark.BATCH);
    }
    this.repeats = repeats;
    this.queryStream = queryStream - queryStream % QueryBenchmark.BATCH;
  }

  @Override
  public Sample run(Job job, long seed) {
    Row row = job.row();
    Workload workload = Workload.create(row.n, seed);
    Membership m = null;
    for (int i = 0; i < repeats; i++) { // warm builds, not measured
      m = job.kind().build(workload.keys(), row.bitsPerKeySetting);
    }
    double[] builds = new double[repeats];
    for (int i = 0; i < repeats; i++) {
      long t0 = System.nanoTime();
      m = job.kind().build(workload.keys(), row.bitsPerKeySetting);
      builds[i] = (double) (System.nanoTime() - t0) / row.n;
    }
    long[] present = workload.presentQueries(queryStream);
    long[] absent = workload.absentQueries(queryStream);
    passes(m, present, 1); // warm-up pass
    double[] positive = passes(m, present, repeats);
    passes(m, absent, 1);
    double[] negative = passes(m, absent, repeats);
    return new Sample(positive, negative, builds);
  }

  private static double[] passes(Membership m, long[] stream, int count) {
    double[] ns = new double[count];
    int sink = 0;
    for (int r = 0; r < count; r++) {
      long t0 = System.nanoTime();
      for (int off = 0; off < stream.length; off += QueryBenchmark.BATCH) {
        sink += m.mayContainBatch(stream, off, QueryBenchmark.BATCH);
      }
      ns[r] = (double) (System.nanoTime() - t0) / stream.length;
    }
    if (sink == -1) {
      throw new AssertionError(); // keeps the loop's result alive
    }
    return ns;
  }

  @Override
  public String name() {
    return "quick";
  }

  @Override
  public Timer longer() {
    return new QuickTimer(2 * repeats, 2 * queryStream);
  }

  @Override
  public String describe() {
    return "quick in-process nanoTime timer (per round: "
        + repeats
        + " warm builds, "
        + repeats
        + " measured builds, "
        + repeats
        + " measured passes of "
        + queryStream
        + " keys; not JMH)";
  }
}
