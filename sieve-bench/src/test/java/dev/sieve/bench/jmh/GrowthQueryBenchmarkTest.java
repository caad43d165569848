package dev.sieve.bench.jmh;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * The benchmark's {@code -batch} structures answer as their single-lookup rows: the same filter
 * (same keys), the same streams from the same cursor, the same hit counts invocation by invocation
 * (every present key found; absent keys at about the rate).
 */
class GrowthQueryBenchmarkTest {

  private static GrowthQueryBenchmark bench(String structure) {
    GrowthQueryBenchmark b = new GrowthQueryBenchmark();
    b.structure = structure;
    b.n = 30_000;
    b.fpRate = 0.01;
    b.guess = 0;
    b.queryForm = "loop";
    b.setUp();
    return b;
  }

  @Test
  void batchRowsAnswerAsTheSingleRows() {
    for (String s : new String[] {"expandable", "expandable-hinted", "rightsized"}) {
      GrowthQueryBenchmark single = bench(s);
      GrowthQueryBenchmark batch = bench(s + GrowthQueryBenchmark.BATCH_SUFFIX);
      long absentHits = 0;
      for (int k = 0; k < 40; k++) {
        int p = single.positive();
        assertEquals(GrowthQueryBenchmark.BATCH, p, s + ": every present key");
        assertEquals(p, batch.positive(), s + " positive " + k);
        int a = single.negative();
        assertEquals(a, batch.negative(), s + " negative " + k);
        absentHits += a;
      }
      assertTrue(absentHits < 40 * GrowthQueryBenchmark.BATCH * 0.03, s + ": " + absentHits);
    }
  }

  @Test
  void theScalableQueryFormsHaveNoBatch() {
    GrowthQueryBenchmark b = new GrowthQueryBenchmark();
    b.structure = "scalable-batch";
    b.n = 1000;
    b.fpRate = 0.01;
    b.guess = 0;
    b.queryForm = "twopass";
    assertThrows(IllegalArgumentException.class, b::setUp);
  }
}
