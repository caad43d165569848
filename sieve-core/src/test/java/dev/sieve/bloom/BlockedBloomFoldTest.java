package dev.sieve.bloom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sieve.format.SieveFormat;
import dev.sieve.math.GrowthMath;
import java.nio.ByteBuffer;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * {@link BlockedBloomFilter#fold()}: the index identity it rests on, exactness (the folded filter
 * is bit for bit the filter built at half the size), no false negatives, and its modelled rate.
 */
class BlockedBloomFoldTest {

  /** RocksDB's FastRange32, written here independently of the filter. */
  private static long fastRange(long h32, long n) {
    return (h32 * n) >>> 32;
  }

  /**
   * {@code fastRange(h, n/2) == fastRange(h, n) >> 1} for every even {@code n} up to 1024 at every
   * {@code h} where either side can change (the first {@code h} of each block of both, and its
   * neighbours: between two such points both sides are constant), plus random {@code h}; and at 2·
   * 10^6 random pairs with {@code n} up to 2^32 − 2.
   */
  @Test
  void halvingTheBlockCountHalvesTheBlockIndex() {
    long checked = 0;
    for (long n = 2; n <= 1024; n += 2) {
      for (long j = 0; j <= n; j++) {
        long first = (j << 32) / n + ((j << 32) % n == 0 ? 0 : 1); // ceil(j·2^32/n)
        for (long h = Math.max(0, first - 1); h <= Math.min(0xFFFFFFFFL, first + 1); h++) {
          assertEquals(fastRange(h, n) >>> 1, fastRange(h, n / 2), "h=" + h + " n=" + n);
          checked++;
        }
      }
    }
    SplittableRandom random = new SplittableRandom(1);
    for (int i = 0; i < 2_000_000; i++) {
      long h = random.nextLong() & 0xFFFFFFFFL;
      long n = (random.nextLong(1L << 31) + 1) * 2; // even, 2 .. 2^32
      if (n > 0xFFFFFFFFL) {
        n -= 2;
      }
      assertEquals(fastRange(h, n) >>> 1, fastRange(h, n / 2));
    }
    assertTrue(checked > 500_000);
  }

  /**
   * The fold of a filter equals, bit for bit, a filter of half the blocks and the same probes that
   * the same keys were added to; so it has no false negatives, and folding twice equals building at
   * a quarter.
   */
  @Test
  void aFoldIsExactlyTheFilterBuiltAtHalfTheSize() {
    long[] hashes = new SplittableRandom(7).longs(30_000).toArray();
    for (long bytes : new long[] {128, 64 * 6, 64 * 1000, 64 * 4096}) {
      BlockedBloomFilter big = BlockedBloomFilter.withShape(bytes, 9);
      BlockedBloomFilter half = BlockedBloomFilter.withShape(bytes / 2, 9);
      for (long h : hashes) {
        big.addHash(h);
        half.addHash(h);
      }
      BlockedBloomFilter folded = big.fold();
      assertEquals(half, folded, bytes + " bytes");
      assertEquals(big.numKeys(), folded.numKeys());
      for (long h : hashes) {
        assertTrue(folded.mayContainHash(h));
      }
      if ((bytes / 64) % 4 == 0) {
        BlockedBloomFilter quarter = BlockedBloomFilter.withShape(bytes / 4, 9);
        for (long h : hashes) {
          quarter.addHash(h);
        }
        assertEquals(quarter, folded.fold());
      }
    }
  }

  /** A wrapped (read-only, zero-copy) filter folds into a heap filter. */
  @Test
  void aWrappedFilterFolds() {
    long[] keys = new SplittableRandom(3).longs(5_000).toArray();
    BlockedBloomFilter filter = BlockedBloomFilter.builder().bitsPerKey(20).build(keys);
    assertEquals(0, filter.numBlocks() % 2);
    BlockedBloomFilter wrapped =
        SieveFormat.wrap(ByteBuffer.wrap(SieveFormat.toBytes(filter)), BlockedBloomFilter.class);
    assertEquals(filter.fold(), wrapped.fold());
    for (long k : keys) {
      assertTrue(wrapped.fold().mayContain(k));
    }
  }

  /**
   * The measured rate of a fold sits on {@link BlockedBloomFilter#foldedFpRate()}: 10^5 keys at 20
   * bits/key and 11 probes fold to 10 bits/key at 11 probes (model 1.46%). With 10^6 absent queries
   * the count is binomial, σ about 120; the test allows 5σ plus 3% of the model (the cache-local
   * model's own error, measured within about 1% at these sizes in docs/notes.md).
   */
  @Test
  void theFoldedRateMatchesTheModel() {
    long[] keys = new SplittableRandom(9).longs(102_400).toArray();
    BlockedBloomFilter filter = BlockedBloomFilter.builder().bitsPerKey(20).build(keys);
    assertEquals(11, filter.numProbes());
    double model = filter.foldedFpRate();
    assertTrue(model > 0.013 && model < 0.016, "model " + model);
    BlockedBloomFilter folded = filter.fold();
    assertEquals(model, folded.modelledFpRate(), 1e-12);
    SplittableRandom absent = new SplittableRandom(10);
    int queries = 1_000_000;
    long fp = 0;
    for (int i = 0; i < queries; i++) {
      if (folded.mayContainHash(absent.nextLong())) {
        fp++;
      }
    }
    double expected = model * queries;
    assertTrue(
        Math.abs(fp - expected) <= 5 * Math.sqrt(expected) + 0.08 * expected,
        fp + " false positives, the cache-local model expects " + expected);
    double exact =
        GrowthMath.blockedBloomFpRateWithProbeCollisions(
                (double) folded.sizeInBits() / keys.length, 11, 512)
            * queries;
    assertTrue(
        Math.abs(fp - exact) <= 5 * Math.sqrt(exact) + 0.02 * exact,
        fp + " false positives, the model with probe collisions expects " + exact);
  }

  @Test
  void oddBlockCountsDoNotFoldAndShrinkStopsAtTheRate() {
    BlockedBloomFilter odd = BlockedBloomFilter.withShape(64 * 3, 6);
    IllegalStateException e = assertThrows(IllegalStateException.class, odd::fold);
    assertTrue(e.getMessage().contains("has 3"), e.getMessage());
    assertThrows(IllegalStateException.class, () -> BlockedBloomFilter.withShape(64, 6).fold());

    long[] keys = new SplittableRandom(4).longs(10_000).toArray();
    BlockedBloomFilter big = BlockedBloomFilter.withShape(64 * 4096, 6); // ~210 bits/key
    for (long k : keys) {
      big.add(k);
    }
    BlockedBloomFilter shrunk = big.shrink(0.01);
    assertTrue(shrunk.modelledFpRate() <= 0.01);
    assertTrue(shrunk.numBlocks() < big.numBlocks());
    assertTrue(
        shrunk.numBlocks() % 2 == 1 || shrunk.foldedFpRate() > 0.01,
        "shrink stopped while another fold met the rate");
    for (long k : keys) {
      assertTrue(shrunk.mayContain(k));
    }
    assertSame(big, big.shrink(1e-30 + big.modelledFpRate() * 0.5));
  }
}
