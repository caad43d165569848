package dev.sieve.bloom;

import dev.sieve.internal.AtomicBits;
import dev.sieve.internal.BloomWords;
import dev.sieve.internal.LongSegments;
import dev.sieve.internal.base.BatchScratch;
import dev.sieve.math.TwoWordMath;

/**
 * The probe and add loops of {@link TwoWordBloomFilter} over raw storage, heap ({@code long[]}) and
 * wrapped ({@link LongSegments}) side by side: pure static math, so a query inlines it into its own
 * loop. The layout is the filter's class comment; in short, for the 64-bit hash {@code h}:
 *
 * <ul>
 *   <li>block {@code b = ((h >>> 32) · numBlocks) >>> 32}, words {@code [8b, 8b + 8)};
 *   <li>{@code g = h · 0x9E3779B97F4A7C15} (one multiply: the low half of {@code h} spread over all
 *       64 bits of {@code g});
 *   <li>first word {@code w1 = g & 7}; {@code x = (g >>> 3) & 7}, {@code d = x == 0 ? 1 : x},
 *       second word {@code w2 = w1 ^ d} (never {@code w1});
 *   <li>bits: field {@code t} of {@code g} is {@code (g >>> (58 - 6t)) & 63}; word {@code w1} gets
 *       fields {@code 0 .. j-1}, word {@code w2} fields {@code j .. 2j-1}.
 * </ul>
 */
final class TwoWordBloomKernel {

  /** Longs per 64-byte block. */
  static final int WORDS_PER_BLOCK = 8;

  /** The odd multiplier of the remix (2^64 / golden ratio). */
  static final long REMIX = 0x9E3779B97F4A7C15L;

  private TwoWordBloomKernel() {}

  /** The index of the first long of the hash's block: the top 32 bits, multiply-shift. */
  static int blockBase(long hash64, int numBlocks) {
    return (int) (((hash64 >>> 32) * numBlocks) >>> 32) * WORDS_PER_BLOCK;
  }

  /** The remixed hash whose bits pick the words and the bits. */
  static long remix(long hash64) {
    return hash64 * REMIX;
  }

  /** The first word of the block, {@code 0..7}. */
  static int firstWord(long g) {
    return (int) g & 7;
  }

  /** The second word, {@code first ^ d} with {@code d} in {@code 1..7}: never the first. */
  static int secondWord(long g) {
    // one load from a 64-byte table indexed by g's low six bits (the first word and x) in place
    // of the six-operation x == 0 fix-up; the index is below the table's length by construction,
    // so C2 drops the bounds check
    return SECOND_WORD[(int) g & 63];
  }

  /** {@link #secondWord} for each value of {@code g & 63}: {@code (g & 7) ^ (x == 0 ? 1 : x)}. */
  private static final byte[] SECOND_WORD = secondWordTable();

  private static byte[] secondWordTable() {
    byte[] t = new byte[64];
    for (int v = 0; v < 64; v++) {
      int x = v >>> 3;
      t[v] = (byte) ((v & 7) ^ (x == 0 ? 1 : x));
    }
    return t;
  }

  /**
   * {@code 1L << i} for {@code i} in {@code 0..63}: a mask bit is one shift and one load from this
   * 512-byte table (always in L1 while lookups run; the index is below 64 by construction, so C2
   * drops the bounds check) in place of the variable shift's five instructions on x86 (count into
   * {@code cl}, a constant 1, the shift). The blocked Bloom build's straight-line add reads it too.
   */
  static final long[] BIT = bitTable();

  private static long[] bitTable() {
    long[] t = new long[64];
    for (int i = 0; i < 64; i++) {
      t[i] = 1L << i;
    }
    return t;
  }

  /** The bits of the first word: fields {@code 0 .. j-1} of {@code g}. */
  static long firstMask(long g, int j) {
    long m = BIT[(int) (g >>> 58)] | BIT[(int) (g >>> 52) & 63];
    if (j == 2) {
      return m;
    }
    m |= BIT[(int) (g >>> 46) & 63];
    return j == 3 ? m : m | BIT[(int) (g >>> 40) & 63];
  }

  /** The bits of the second word: fields {@code j .. 2j-1} of {@code g}. */
  static long secondMask(long g, int j) {
    int s = 58 - 6 * j;
    long m = BIT[(int) (g >>> s) & 63] | BIT[(int) (g >>> (s - 6)) & 63];
    if (j == 2) {
      return m;
    }
    m |= BIT[(int) (g >>> (s - 12)) & 63];
    return j == 3 ? m : m | BIT[(int) (g >>> (s - 18)) & 63];
  }

  // ---------------------------------------------------------------- probes

  /**
   * Whether all bits of the hash are set in the heap block at {@code base}: the first word's test,
   * then, only where it passes, the second's. An absent key fails the first word's {@code j} bits
   * with probability about {@code 1 - f^j} (about 0.9 at 10 bits/key, where a word's fill {@code f}
   * is about 0.45), so the branch is well predicted, most absent keys pay one load, one mask and
   * one line (a block of a 16-byte aligned {@code long[]} spans two lines), and the JIT has fewer
   * instructions per lookup in flight; a present key pays both words, as before.
   */
  static boolean mayContain(long[] w, int base, long hash64, int j) {
    long g = remix(hash64);
    if ((~w[base + firstWord(g)] & firstMask(g, j)) != 0) {
      return false;
    }
    return (~w[base + secondWord(g)] & secondMask(g, j)) == 0;
  }

  /** {@link #mayContain(long[], int, long, int)} for wrapped storage. */
  static boolean mayContain(LongSegments d, int base, long hash64, int j) {
    long g = remix(hash64);
    if ((~d.get(base + firstWord(g)) & firstMask(g, j)) != 0) {
      return false;
    }
    return (~d.get(base + secondWord(g)) & secondMask(g, j)) == 0;
  }

  /**
   * The answers for {@code chunk} (at most 64) hashes from {@code at}, bit {@code i} for hash
   * {@code at + i}, in three passes over heap storage: the first computes every key's two word
   * indices without touching the filter; the second is a tight loop of independent loads of both
   * words (a few instructions per key, so the core keeps many more of the chunk's misses in flight
   * than a loop that also computes the addresses); the third computes the masks and tests the
   * loaded words, branch-free, without touching the filter again.
   */
  static long probeChunk(long[] w, int numBlocks, int j, long[] hashes, int at, int chunk) {
    BatchScratch scratch = BatchScratch.get();
    long[] where = scratch.state;
    long[] first = scratch.loaded;
    long[] second = scratch.loaded2;
    long blocks = numBlocks;
    // pass 1: the two word indices of every key, packed (first in the low half)
    for (int i = 0; i < chunk; i++) {
      long h = hashes[at + i];
      int base = (int) (((h >>> 32) * blocks) >>> 32) * WORDS_PER_BLOCK;
      long g = remix(h);
      where[i] = (base + firstWord(g)) | ((long) (base + secondWord(g)) << 32);
    }
    // pass 2: the loads only
    for (int i = 0; i < chunk; i++) {
      long p = where[i];
      first[i] = w[(int) p];
      second[i] = w[(int) (p >>> 32)];
    }
    // pass 3: the masks and the branch-free test
    long word = 0;
    for (int i = 0; i < chunk; i++) {
      long g = remix(hashes[at + i]);
      long missing = (~first[i] & firstMask(g, j)) | (~second[i] & secondMask(g, j));
      word |= (missing == 0 ? 1L : 0L) << i;
    }
    return word;
  }

  // ---------------------------------------------------------------- adds (heap only)

  /** Sets the hash's bits in the block at {@code base}, lock-free; true if any was new. */
  static boolean add(long[] w, int base, long hash64, int j) {
    long g = remix(hash64);
    boolean changed = AtomicBits.orWord(w, base + firstWord(g), firstMask(g, j));
    changed |= AtomicBits.orWord(w, base + secondWord(g), secondMask(g, j));
    return changed;
  }

  /** Adds {@code count} hashes with plain writes: a builder's, before the filter is published. */
  static void addPlain(long[] words, int j, long[] hashes, int count) {
    int numBlocks = words.length / WORDS_PER_BLOCK;
    for (int i = 0; i < count; i++) {
      long h = hashes[i];
      int base = blockBase(h, numBlocks);
      long g = remix(h);
      words[base + firstWord(g)] |= firstMask(g, j);
      words[base + secondWord(g)] |= secondMask(g, j);
    }
  }

  // ---------------------------------------------------------------- estimates from the bits

  /** {@link TwoWordMath#twoWordBlockElementCount} of each block's set bits, summed. */
  static double approximateElementCount(BloomWords data, int numBlocks, int j) {
    double sum = 0;
    for (long b = 0; b < numBlocks; b++) {
      long base = b * WORDS_PER_BLOCK;
      sum +=
          TwoWordMath.twoWordBlockElementCount(
              (int) data.bitCount(base, base + WORDS_PER_BLOCK), j);
    }
    return sum;
  }

  /**
   * The rate of an absent uniformly hashed key from the bits themselves: in a block whose word
   * {@code i} has the fraction {@code f_i} of bits set, a key whose words are {@code (w1, w2)}
   * matches with probability {@code f_w1^j · f_w2^j} (its {@code j} positions per word are uniform
   * with replacement); averaged over the blocks and over the pairs as the layout draws them ({@code
   * w1} uniform, {@code d = 1} with probability 2/8 and each of {@code 2..7} with 1/8).
   */
  static double expectedFpRate(BloomWords data, int numBlocks, int j) {
    double sum = 0;
    double[] p = new double[WORDS_PER_BLOCK];
    for (long b = 0; b < numBlocks; b++) {
      long base = b * WORDS_PER_BLOCK;
      for (int i = 0; i < WORDS_PER_BLOCK; i++) {
        p[i] = Math.pow(Long.bitCount(data.word(base + i)) / 64.0, j);
      }
      double block = 0;
      for (int w1 = 0; w1 < WORDS_PER_BLOCK; w1++) {
        double pairs = 2 * p[w1 ^ 1];
        for (int d = 2; d < WORDS_PER_BLOCK; d++) {
          pairs += p[w1 ^ d];
        }
        block += p[w1] * pairs / 8.0;
      }
      sum += block / 8.0;
    }
    return numBlocks == 0 ? 0.0 : sum / numBlocks;
  }
}
