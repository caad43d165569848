package dev.sieve.bloom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sieve.math.BloomMath;
import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The key-count estimate from the set bits ({@code approximateElementCount}) and its use by {@code
 * union}, which estimates the union's keys instead of adding the two key counts (adding them would
 * make the same filter unioned with itself 20 times report 2^20 times its keys).
 *
 * <p>Bounds: the estimate's standard error is about {@code sqrt(m·(e^λ - 1 - λ))/k} ({@link
 * BloomMath#standardBloomElementCount}), 0.25·sqrt(n) at 10 bits/key: 79 keys (0.08%) at {@code n =
 * 10^5}. The blocked filter's per-block sum has the same order of error per block plus a bias of
 * under 0.5% from the concavity of the logarithm on 512-bit blocks (measured mean error over 5
 * seeds at loads 0.1 to 2: at most 0.12% for either filter). The tests allow 1.5%, over ten
 * standard errors above the bias, so they fail only if the estimator is wrong (the old summed count
 * is off by 20% to 10^6-fold here).
 */
class BloomElementCountTest {

  private static final int N = 100_000;
  private static final double TOLERANCE = 0.015;

  private static long[] hashes(int n, long seed) {
    SplittableRandom r = new SplittableRandom(seed);
    long[] h = new long[n];
    for (int i = 0; i < n; i++) {
      h[i] = r.nextLong();
    }
    return h;
  }

  private static void assertNear(double expected, double actual, String what) {
    assertTrue(
        Math.abs(actual - expected) <= TOLERANCE * expected,
        what + ": " + actual + " for " + expected + " keys");
  }

  @Test
  void estimateAtTheDesignedLoadAndBelow() {
    for (double load : new double[] {0.1, 0.5, 1.0, 2.0}) {
      int n = (int) (N * load);
      long[] keys = hashes(n, 11);
      StandardBloomFilter s = StandardBloomFilter.createWithBitsPerKey(N, 10);
      BlockedBloomFilter b = BlockedBloomFilter.createWithBitsPerKey(N, 10);
      for (long h : keys) {
        s.addHash(h);
        b.addHash(h);
      }
      assertNear(n, s.approximateElementCount(), "standard at load " + load);
      assertNear(n, b.approximateElementCount(), "blocked at load " + load);
    }
    assertEquals(0.0, StandardBloomFilter.createWithBitsPerKey(N, 10).approximateElementCount());
    assertEquals(0.0, BlockedBloomFilter.createWithBitsPerKey(N, 10).approximateElementCount());
  }

  @Test
  void aRawRocksDbBlockLearnsItsKeyCount() {
    long[] keys = hashes(N, 12);
    BlockedBloomFilter built = BlockedBloomFilter.builder().bitsPerKey(10).buildFromHashes(keys);
    BlockedBloomFilter read =
        BlockedBloomFilter.fromRocksDbFilterBlock(built.toRocksDbFilterBlock());
    assertEquals(0, read.numKeys(), "RocksDB's block does not store the count");
    assertNear(N, read.approximateElementCount(), "from the raw block");
  }

  @Test
  void unionWithItselfKeepsTheCount() {
    long[] keys = hashes(N, 13);
    StandardBloomFilter s = StandardBloomFilter.createWithBitsPerKey(N, 10);
    BlockedBloomFilter b = BlockedBloomFilter.createWithBitsPerKey(N, 10);
    for (long h : keys) {
      s.addHash(h);
      b.addHash(h);
    }
    long sKeys = s.numKeys(); // the adds that changed the filter: N less the false positives
    long bKeys = b.numKeys();
    double sFpr = s.modelledFpRate();
    double bFpr = b.modelledFpRate();
    for (int i = 0; i < 20; i++) {
      s.union(s);
      b.union(b);
      s.union(s.copy());
      b.union(b.copy());
    }
    assertNear(N, s.numKeys(), "standard after 40 self-unions");
    assertNear(N, b.numKeys(), "blocked after 40 self-unions");
    assertTrue(s.numKeys() >= sKeys && b.numKeys() >= bKeys, "never below either count");
    assertEquals(sFpr, s.modelledFpRate(), sFpr * 0.05);
    assertEquals(bFpr, b.modelledFpRate(), bFpr * 0.05);
  }

  @Test
  void unionOfOverlappingSetsCountsTheirDistinctKeys() {
    long[] keys = hashes(N, 14);
    long[] first = Arrays.copyOfRange(keys, 0, 60_000);
    long[] second = Arrays.copyOfRange(keys, 40_000, N); // 20,000 shared: the sum says 120,000
    StandardBloomFilter s = StandardBloomFilter.createWithBitsPerKey(N, 10);
    StandardBloomFilter s2 = StandardBloomFilter.createWithBitsPerKey(N, 10);
    BlockedBloomFilter b = BlockedBloomFilter.createWithBitsPerKey(N, 10);
    BlockedBloomFilter b2 = BlockedBloomFilter.createWithBitsPerKey(N, 10);
    for (long h : first) {
      s.addHash(h);
      b.addHash(h);
    }
    for (long h : second) {
      s2.addHash(h);
      b2.addHash(h);
    }
    s.union(s2);
    b.union(b2);
    assertNear(N, s.numKeys(), "standard union");
    assertNear(N, b.numKeys(), "blocked union");
    for (long h : keys) {
      assertTrue(s.mayContainHash(h) && b.mayContainHash(h));
    }
    // a union with an empty filter keeps the count
    long before = s.numKeys();
    s.union(StandardBloomFilter.createWithBitsPerKey(N, 10));
    assertEquals(before, s.numKeys());
  }

  @Test
  void theMath() {
    // m = 1000, k = 1: 632 bits set is about 1000 keys (1 - 1/e of the bits)
    assertEquals(999.6, BloomMath.standardBloomElementCount(632, 1000, 1), 0.5);
    assertEquals(0.0, BloomMath.standardBloomElementCount(0, 1000, 3));
    // saturated: finite, as X = m - 1/2
    double saturated = BloomMath.blockedBloomBlockElementCount(512, 512, 6);
    assertTrue(Double.isFinite(saturated) && saturated > 500, "saturated " + saturated);
    assertEquals(Math.log(0.5 / 512) / (6 * Math.log1p(-1.0 / 512)), saturated, 1e-9 * saturated);
    assertThrows(
        IllegalArgumentException.class, () -> BloomMath.standardBloomElementCount(5, 4, 1));
    assertThrows(
        IllegalArgumentException.class, () -> BloomMath.standardBloomElementCount(1, 4, 0));
  }
}
