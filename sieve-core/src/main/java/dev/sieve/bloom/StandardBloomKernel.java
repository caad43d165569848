package dev.sieve.bloom;

import dev.sieve.internal.AtomicBits;
import dev.sieve.internal.LongSegments;
import dev.sieve.internal.base.BatchScratch;

/**
 * The probe and add loops of {@link StandardBloomFilter} over raw storage, heap ({@code long[]})
 * and wrapped ({@link LongSegments}) side by side, as {@link BlockedBloomKernel} is for the blocked
 * filter: pure static math, so a query inlines it into its own loop. The probes are the filter's
 * class comment: enhanced double hashing from {@code x = h} and {@code y = }{@link #mixSecond}
 * {@code (h)}, each {@code x} mapped onto {@code [0, m)} by {@link #reduce}.
 */
final class StandardBloomKernel {

  private StandardBloomKernel() {}

  /** The second hash of double hashing: the halves swapped and remixed, forced odd. */
  static long mixSecond(long hash64) {
    return (Long.rotateLeft(hash64, 32) * 0x9E3779B97F4A7C15L) | 1L;
  }

  /** {@code (x · numBits) >>> 64} over unsigned {@code x}: a uniform index in {@code [0, m)}. */
  static long reduce(long x, long numBits) {
    return Math.multiplyHigh(x, numBits) + ((x >> 63) & numBits);
  }

  // ---------------------------------------------------------------- probes

  /** Whether all {@code numProbes} bits of {@code hash64} are set in heap storage. */
  static boolean mayContain(long[] w, long numBits, int numProbes, long hash64) {
    long x = hash64;
    long y = mixSecond(hash64);
    for (int i = 0; i < numProbes; i++) {
      long bit = reduce(x, numBits);
      if ((w[(int) (bit >>> 6)] & (1L << bit)) == 0) {
        return false;
      }
      x += y;
      y += i;
    }
    return true;
  }

  /** {@link #mayContain(long[], long, int, long)} for wrapped storage. */
  static boolean mayContain(LongSegments data, long numBits, int numProbes, long hash64) {
    long x = hash64;
    long y = mixSecond(hash64);
    for (int i = 0; i < numProbes; i++) {
      long bit = reduce(x, numBits);
      if ((data.get(bit >>> 6) & (1L << bit)) == 0) {
        return false;
      }
      x += y;
      y += i;
    }
    return true;
  }

  /**
   * The answers for {@code chunk} (at most 64) hashes from {@code at}, bit {@code i} for hash
   * {@code at + i}, breadth first over heap storage (see {@link
   * StandardBloomFilter#mayContainHashes}).
   */
  static long probeChunk(long[] w, long numBits, int numProbes, long[] hashes, int at, int chunk) {
    BatchScratch scratch = BatchScratch.get();
    long[] xs = scratch.loaded;
    long[] ys = scratch.state;
    for (int i = 0; i < chunk; i++) {
      long hash = hashes[at + i];
      xs[i] = hash;
      ys[i] = mixSecond(hash);
    }
    long alive = chunk == 64 ? -1L : (1L << chunk) - 1;
    for (int j = 0; j < numProbes && alive != 0; j++) {
      for (long m = alive; m != 0; m &= m - 1) {
        int i = Long.numberOfTrailingZeros(m);
        long x = xs[i];
        long bit = reduce(x, numBits);
        long hit = w[(int) (bit >>> 6)] >>> bit;
        alive &= ~((~hit & 1L) << i);
        xs[i] = x + ys[i];
        ys[i] += j;
      }
    }
    return alive;
  }

  // ---------------------------------------------------------------- adds (heap only)

  /** Sets the bits of {@code hash64}, lock-free; true if any was new. */
  static boolean add(long[] words, long numBits, int numProbes, long hash64) {
    long x = hash64;
    long y = mixSecond(hash64);
    boolean changed = false;
    for (int i = 0; i < numProbes; i++) {
      long bit = reduce(x, numBits);
      changed |= AtomicBits.setBit(words, (int) (bit >>> 6), (int) (bit & 63));
      x += y;
      y += i;
    }
    return changed;
  }

  /** Sets the bits of {@code hash64} with plain writes: a builder's, before publication. */
  static void addPlain(long[] w, long numBits, int numProbes, long hash64) {
    long x = hash64;
    long y = mixSecond(hash64);
    for (int i = 0; i < numProbes; i++) {
      long bit = reduce(x, numBits);
      w[(int) (bit >>> 6)] |= 1L << bit;
      x += y;
      y += i;
    }
  }
}
