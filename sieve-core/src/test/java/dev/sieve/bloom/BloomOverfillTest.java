package dev.sieve.bloom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sieve.MutableFilter;
import org.junit.jupiter.api.Test;

/**
 * An overfilled mutable Bloom filter tells the truth: filled with 1×, 10× and 100× the keys it was
 * created for (capacity 10,000 at 10 bits/key), {@code approximateElementCount()} and {@code
 * expectedFpRate()} stay within stated bounds of the truth, and where the count can no longer be
 * estimated the filter says so ({@code isSaturated()}).
 *
 * <p>Bounds. Count: within 2% at 1× (the estimators' standard errors there are 0.25% for the
 * standard and about 1% for the blocked filter), within 6% at 10× (the standard filter's estimate
 * then rests on about 90 zero bits: standard error {@code (m/k)/sqrt(zeros)}, about 1.5%; the
 * blocked filter's pooled estimate on about 250, about 1%; 6% covers four standard errors and the
 * Poisson approximation of the keys per block). At 100× both filters have fewer than 32 zero bits
 * left: saturated, the count only a lower bound. FPR: the estimate from the bits against the rate
 * measured on 200,000 absent keys, within 5 standard deviations of the measurement plus 5% of the
 * rate (the probes of one key are not exactly independent).
 */
class BloomOverfillTest {
  private static final int CAPACITY = 10_000;
  private static final int QUERIES = 200_000;

  @Test
  void blockedBloomOverfilled() {
    check(BlockedBloomFilter.builder().expectedKeys(CAPACITY).bitsPerKey(10).create(), "blocked");
  }

  @Test
  void standardBloomOverfilled() {
    check(StandardBloomFilter.builder().expectedKeys(CAPACITY).bitsPerKey(10).create(), "standard");
  }

  private static void check(MutableFilter f, String name) {
    long added = 0;
    for (int factor : new int[] {1, 10, 100}) {
      long target = (long) factor * CAPACITY;
      for (; added < target; added++) {
        f.addHash(f.keyScheme().hash(added)); // the hash mayContain(long) asks for
      }
      for (long k = 0; k < target; k += 97) {
        assertTrue(f.mayContain(k), name + " lost key " + k);
      }
      int fp = 0;
      for (int q = 0; q < QUERIES; q++) {
        fp += f.mayContain(-1L - q) ? 1 : 0;
      }
      double measured = (double) fp / QUERIES;
      double estimated = f.expectedFpRate();
      double sd = Math.sqrt(Math.max(measured * (1 - measured), 1e-6) / QUERIES);
      String at = name + " at " + factor + "x: ";
      assertEquals(measured, estimated, 5 * sd + 0.05 * measured, at + "FPR estimate");
      double count = f.approximateElementCount();
      boolean saturated = saturated(f);
      if (factor == 1) {
        assertFalse(saturated, at + "saturated");
        assertEquals(target, count, 0.02 * target, at + "count");
        assertTrue(estimated < 0.02, at + "FPR " + estimated);
      } else if (factor == 10) {
        assertFalse(saturated, at + "saturated");
        assertEquals(target, count, 0.06 * target, at + "count");
        // the key count the model uses is far off: the estimate is what tells the truth
        assertTrue(f.modelledFpRate() < measured, at + "modelled " + f.modelledFpRate());
      } else {
        assertTrue(saturated, at + "not saturated, count " + count);
        assertTrue(count <= target, at + "a saturated count is a lower bound: " + count);
        assertTrue(estimated > 0.99 && measured > 0.99, at + estimated + " / " + measured);
      }
    }
  }

  private static boolean saturated(MutableFilter f) {
    return f instanceof BlockedBloomFilter
        ? ((BlockedBloomFilter) f).isSaturated()
        : ((StandardBloomFilter) f).isSaturated();
  }

  @Test
  void aRawRocksDbBlockWithoutKeyCountReportsItsRate() {
    long[] keys = new java.util.SplittableRandom(4).longs(20_000).toArray();
    BlockedBloomFilter built = BlockedBloomFilter.builder().bitsPerKey(10).build(keys);
    BlockedBloomFilter raw =
        BlockedBloomFilter.fromRocksDbFilterBlock(built.toRocksDbFilterBlock());
    assertEquals(0, raw.numKeys(), "RocksDB's block does not store the count");
    assertEquals(0.0, raw.modelledFpRate(), "the model of 0 keys");
    assertEquals(built.modelledFpRate(), raw.expectedFpRate(), 0.1 * built.modelledFpRate());
    assertEquals(keys.length, raw.approximateElementCount(), 0.02 * keys.length);
  }
}
