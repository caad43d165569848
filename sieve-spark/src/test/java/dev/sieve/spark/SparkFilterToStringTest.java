package dev.sieve.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sieve.registry.FilterType;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * {@link SparkFilter#toString} of the Bloom filter of 10^6 keys that {@link SieveSpark#bloomFilter}
 * builds does not label an estimate from the set bits (such as 1000353) as a key count. No Spark
 * session: the aggregator's single-JVM result is byte-identical to a Spark run's ({@link
 * BloomAggregator#singleJvm}).
 */
class SparkFilterToStringTest {
  private static long[] hashes(int n, long seed) {
    SplittableRandom r = new SplittableRandom(seed);
    long[] h = new long[n];
    for (int i = 0; i < n; i++) {
      h[i] = r.nextLong();
    }
    return h;
  }

  @Test
  void aBloomFiltersEstimatedCountIsLabelledAnEstimate() {
    int n = 1_000_000;
    byte[] container = BloomAggregator.overHashes(n, 0.01).singleJvm(hashes(n, 21));
    SparkFilter f = SparkFilter.fromBytes(container, KeyType.LONG);
    long estimate = f.filter().numKeys();
    assertTrue(estimate != n, "the count is the estimate from the bits, here " + estimate);
    assertTrue(Math.abs(estimate - n) < n / 100, "estimate " + estimate);
    assertTrue(f.keyCountEstimated());
    String s = f.toString();
    assertFalse(s.contains("keys=" + estimate), s);
    assertTrue(s.contains("keys\u2248" + estimate + " (estimated from the set bits)"), s);
    assertTrue(s.startsWith("SparkFilter{LONG keys, "), s);
    assertTrue(s.contains("BlockedBloomFilter{bytes="), "the shape stays: " + s);
  }

  @Test
  void aStaticFiltersExactCountIsPrintedAsACount() {
    long[] keys = hashes(10_000, 14);
    SparkFilter f = SparkFilter.of(FilterType.XOR8.builder().build(keys), KeyType.LONG);
    assertFalse(f.keyCountEstimated());
    String s = f.toString();
    assertTrue(s.startsWith("SparkFilter{LONG keys, Xor8Filter{keys=10000, "), s);
    assertFalse(s.contains("\u2248"), s);
    assertEquals(10_000, f.filter().numKeys());
  }
}
