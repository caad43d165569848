package dev.sieve.bloom;

import dev.sieve.KeyScheme;
import dev.sieve.internal.BloomWords;
import dev.sieve.internal.LongKeyBlocks;
import dev.sieve.math.BloomMath;

/**
 * The builds from {@code long} keys of {@link BlockedBloomFilter} and {@link TwoWordBloomFilter}
 * that hash the keys themselves ({@link LongKeyBlocks}): the size comes from the distinct
 * neighbours counted on the keys (the same count as on their hashes under an {@link
 * LongKeyBlocks#injective} scheme; the builders take the common path under the others), then the
 * keys are hashed a block at a time and each block added with plain writes. The filter is the one
 * the build from their hashes gives ({@link BlockedBloomForm#build}, {@link
 * TwoWordBloomForm#build}).
 *
 * <p>A filter larger than {@link #TOUCH_MIN_BYTES} no longer stays in cache, and an add has many
 * instructions per key (the hash's, the bits', the writes), so few of the keys' cache misses are in
 * flight at once while the adds run. There each block of hashes first goes through a touch pass: a
 * loop of a few instructions per key that loads one word of each key's block ({@link
 * #touchBlocked}, {@link #touchTwoWord}), so the misses of the whole block overlap; the adds then
 * find the lines in cache. A filter that stays in cache skips it (the pass would be pure cost).
 */
final class BloomLongKeyBuild {
  private BloomLongKeyBuild() {}

  /**
   * The filter size in bytes past which the builds touch each block's lines before adding it: 4
   * MiB, {@link BlockedBloomKernel#BRANCH_FREE_MAX_BYTES}, the size up to which a filter stays in
   * cache.
   */
  static final long TOUCH_MIN_BYTES = BlockedBloomKernel.BRANCH_FREE_MAX_BYTES;

  /**
   * The sum of the words the touch passes loaded: written so that the compiler keeps the loads
   * (Java has no prefetch instruction); nothing reads it, and concurrent builds may overwrite each
   * other's sums.
   */
  @SuppressWarnings("unused")
  private static long touchedSum;

  /** RocksDB's filter of the keys' hashes at {@code millibitsPerKey} (a checked setting). */
  static BlockedBloomFilter blocked(long[] keys, KeyScheme scheme, int millibitsPerKey) {
    return blocked(keys, scheme, millibitsPerKey, TOUCH_MIN_BYTES);
  }

  /** {@link #blocked(long[], KeyScheme, int)}, touching first past {@code touchMinBytes}. */
  static BlockedBloomFilter blocked(
      long[] keys, KeyScheme scheme, int millibitsPerKey, long touchMinBytes) {
    int n = keys.length;
    long distinct = LongKeyBlocks.countConsecutiveDistinct(keys, n);
    long bytes = BlockedBloomForm.dataBytes(distinct, millibitsPerKey);
    long[] words = new long[(int) (bytes / Long.BYTES)];
    int numProbes = BloomMath.fastLocalBloomNumProbes(millibitsPerKey);
    BlockedBloomFilter filter = BlockedBloomForm.onHeap(words, numProbes, distinct);
    if (bytes > 0) {
      int numBlocks = filter.numBlocks();
      boolean touch = bytes > touchMinBytes;
      long[] scratch = LongKeyBlocks.scratch(n);
      for (int off = 0; off < n; off += scratch.length) {
        int len = Math.min(scratch.length, n - off);
        scheme.hash(keys, off, len, scratch, 0);
        if (touch) {
          touchBlocked(words, numBlocks, scratch, len);
        }
        BlockedBloomKernel.addAllPlain(words, numBlocks, numProbes, scratch, len);
      }
    }
    return filter;
  }

  /** The two-word filter of the keys' hashes at {@code bitsPerKey} and {@code j} bits per word. */
  static TwoWordBloomFilter twoWord(long[] keys, KeyScheme scheme, double bitsPerKey, int j) {
    return twoWord(keys, scheme, bitsPerKey, j, TOUCH_MIN_BYTES);
  }

  /**
   * {@link #twoWord(long[], KeyScheme, double, int)}, touching first past {@code touchMinBytes}.
   */
  static TwoWordBloomFilter twoWord(
      long[] keys, KeyScheme scheme, double bitsPerKey, int j, long touchMinBytes) {
    int n = keys.length;
    long distinct = LongKeyBlocks.countConsecutiveDistinct(keys, n);
    long[] words =
        new long
            [TwoWordBloomForm.numBlocks(distinct, bitsPerKey) * TwoWordBloomKernel.WORDS_PER_BLOCK];
    int numBlocks = words.length / TwoWordBloomKernel.WORDS_PER_BLOCK;
    boolean touch = (long) words.length * Long.BYTES > touchMinBytes;
    long[] scratch = LongKeyBlocks.scratch(n);
    for (int off = 0; off < n; off += scratch.length) {
      int len = Math.min(scratch.length, n - off);
      scheme.hash(keys, off, len, scratch, 0);
      if (touch) {
        touchTwoWord(words, numBlocks, scratch, len);
      }
      TwoWordBloomKernel.addPlain(words, j, scratch, len);
    }
    return new TwoWordBloomFilter(BloomWords.onHeap(words, distinct), j);
  }

  /** Loads the first word of each hash's block ({@link BlockedBloomKernel#blockBase}). */
  private static void touchBlocked(long[] words, int numBlocks, long[] hashes, int count) {
    long sum = 0;
    for (int i = 0; i < count; i++) {
      sum += words[BlockedBloomKernel.blockBase(hashes[i], numBlocks)];
    }
    touchedSum = sum;
  }

  /** Loads the first word of each hash's block ({@link TwoWordBloomKernel#blockBase}). */
  private static void touchTwoWord(long[] words, int numBlocks, long[] hashes, int count) {
    long sum = 0;
    for (int i = 0; i < count; i++) {
      sum += words[TwoWordBloomKernel.blockBase(hashes[i], numBlocks)];
    }
    touchedSum = sum;
  }
}
