package dev.sieve.bench.jmh;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sieve.bench.StreamedStructures;
import org.junit.jupiter.api.Test;

/**
 * Every row of the benchmark answers its streams as a filter must: all present keys found in every
 * invocation, absent keys at about the rate; the batch rows as their single rows, invocation by
 * invocation.
 */
class OutOfCacheBenchmarkTest {

  private static OutOfCacheBenchmark bench(String structure) {
    OutOfCacheBenchmark b = new OutOfCacheBenchmark();
    b.structure = structure;
    b.n = 40_000;
    b.bitsPerKey = 10;
    b.seed = 21;
    b.setUp();
    return b;
  }

  @Test
  void filtersFindEveryPresentKeyAndFewAbsentOnes() {
    for (String s : StreamedStructures.names()) {
      if (s.startsWith("raw-read")) {
        continue;
      }
      OutOfCacheBenchmark b = bench(s);
      long absentHits = 0;
      for (int k = 0; k < 30; k++) {
        assertEquals(OutOfCacheBenchmark.BATCH, b.positive(), s);
        absentHits += b.negative();
      }
      assertTrue(absentHits < 30 * OutOfCacheBenchmark.BATCH * 0.03, s + ": " + absentHits);
    }
  }

  @Test
  void batchRowsAnswerAsTheSingleRows() {
    for (String s : new String[] {"sieve-two-word-bloom", "sieve-blocked-bloom"}) {
      OutOfCacheBenchmark single = bench(s);
      OutOfCacheBenchmark batch = bench(s + "-batch");
      for (int k = 0; k < 30; k++) {
        assertEquals(single.positive(), batch.positive(), s);
        assertEquals(single.negative(), batch.negative(), s);
      }
    }
  }
}
