package dev.sieve.bench.jmh;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * The benchmark's two forms answer alike invocation by invocation over the whole query stream, at
 * about the filter's false-positive rate for the random (absent) hashes, and the filter has the
 * stated bits per key (whole 32-byte blocks).
 */
class SplitBlockHashCheckBenchmarkTest {

  private static SplitBlockHashCheckBenchmark bench(int n) {
    SplitBlockHashCheckBenchmark b = new SplitBlockHashCheckBenchmark();
    b.n = n;
    b.bitsPerKey = 10;
    b.seed = 20260512L;
    b.setUp();
    return b;
  }

  @Test
  void singleAndBatchAnswerAlikeAtTheFalsePositiveRate() {
    SplitBlockHashCheckBenchmark single = bench(100_000);
    SplitBlockHashCheckBenchmark batch = bench(100_000);
    int invocations =
        2 * SplitBlockHashCheckBenchmark.QUERY_STREAM / SplitBlockHashCheckBenchmark.BATCH;
    long hits = 0;
    for (int k = 0; k < invocations; k++) {
      int s = single.single();
      assertEquals(s, batch.batch(), "invocation " + k);
      hits += s;
    }
    long checks = (long) invocations * SplitBlockHashCheckBenchmark.BATCH;
    // 10 bits/key: about 1% of random hashes pass
    assertTrue(hits > 0 && hits < checks / 50, hits + " maybes of " + checks);
  }

  @Test
  void theFiltersHoldTenBitsPerKey() {
    for (int n : new int[] {100_000, 1_000_000}) {
      long bytes = bench(n).filter().sizeInBytes();
      assertTrue(bytes >= n * 10L / 8 && bytes < n * 10L / 8 + 32, n + " keys: " + bytes);
    }
  }
}
