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
 */
final class BloomLongKeyBuild {
  private BloomLongKeyBuild() {}

  /** RocksDB's filter of the keys' hashes at {@code millibitsPerKey} (a checked setting). */
  static BlockedBloomFilter blocked(long[] keys, KeyScheme scheme, int millibitsPerKey) {
    int n = keys.length;
    long distinct = LongKeyBlocks.countConsecutiveDistinct(keys, n);
    long bytes = BlockedBloomForm.dataBytes(distinct, millibitsPerKey);
    long[] words = new long[(int) (bytes / Long.BYTES)];
    int numProbes = BloomMath.fastLocalBloomNumProbes(millibitsPerKey);
    BlockedBloomFilter filter = BlockedBloomForm.onHeap(words, numProbes, distinct);
    if (bytes > 0) {
      int numBlocks = filter.numBlocks();
      long[] scratch = LongKeyBlocks.scratch(n);
      for (int off = 0; off < n; off += scratch.length) {
        int len = Math.min(scratch.length, n - off);
        scheme.hash(keys, off, len, scratch, 0);
        BlockedBloomKernel.addAllPlain(words, numBlocks, numProbes, scratch, len);
      }
    }
    return filter;
  }

  /** The two-word filter of the keys' hashes at {@code bitsPerKey} and {@code j} bits per word. */
  static TwoWordBloomFilter twoWord(long[] keys, KeyScheme scheme, double bitsPerKey, int j) {
    int n = keys.length;
    long distinct = LongKeyBlocks.countConsecutiveDistinct(keys, n);
    long[] words =
        new long
            [TwoWordBloomForm.numBlocks(distinct, bitsPerKey) * TwoWordBloomKernel.WORDS_PER_BLOCK];
    long[] scratch = LongKeyBlocks.scratch(n);
    for (int off = 0; off < n; off += scratch.length) {
      int len = Math.min(scratch.length, n - off);
      scheme.hash(keys, off, len, scratch, 0);
      TwoWordBloomKernel.addPlain(words, j, scratch, len);
    }
    return new TwoWordBloomFilter(BloomWords.onHeap(words, distinct), j);
  }
}
