package dev.sieve.bloom;

import dev.sieve.internal.LongSegments;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.SplittableRandom;

/**
 * The differential check of {@link TwoWordBloomKernel}'s probes (the early-exit single probe, heap
 * and wrapped, and the three-pass chunk probe) against {@link TwoWordBloomKernelOracle} (the probes
 * they replaced), shared by {@code TwoWordBloomDifferentialTest}'s jqwik properties and, as a main
 * class, run in a fresh JVM so that the first comparisons are the JVM's first calls of the probes
 * (interpreted) and the last ones run compiled (the test checks the compilation log for C2).
 *
 * <p>A case is random words of a random fill (so that both the early exit and the second word's
 * test decide answers, and positives are common at the dense fills), a random block count and
 * {@code j} in {2, 3, 4}; hashes are random, or added to the words by the kernel's own add (every
 * such answer must be true). Every answer of a new probe must equal the oracle's; every bit of the
 * chunk probe must equal the single probe's answer for its hash (batch and single agree).
 */
public final class TwoWordBloomDifferentialMain {
  private TwoWordBloomDifferentialMain() {}

  /** Random words at a random density: each bit set with probability 1 - 2^-k, k in 1..6. */
  static long[] randomWords(SplittableRandom rnd, int numBlocks) {
    int k = 1 + rnd.nextInt(6);
    long[] w = new long[numBlocks * TwoWordBloomKernel.WORDS_PER_BLOCK];
    for (int i = 0; i < w.length; i++) {
      long v = 0;
      for (int t = 0; t < k; t++) {
        v |= rnd.nextLong();
      }
      w[i] = v;
    }
    return w;
  }

  static LongSegments wrap(long[] w) {
    ByteBuffer b = ByteBuffer.allocateDirect(w.length * 8).order(ByteOrder.LITTLE_ENDIAN);
    b.asLongBuffer().put(w);
    return LongSegments.of(b, w.length);
  }

  /** One comparison of the single probes, heap and wrapped; returns the answer. */
  static boolean compareSingle(long[] w, LongSegments d, int numBlocks, long h, int j) {
    int base = TwoWordBloomKernel.blockBase(h, numBlocks);
    boolean got = TwoWordBloomKernel.mayContain(w, base, h, j);
    boolean want = TwoWordBloomKernelOracle.mayContain(w, numBlocks, h, j);
    if (got != want) {
      throw new AssertionError(
          "heap: new probe answers "
              + got
              + " for hash "
              + h
              + ", j "
              + j
              + ", "
              + numBlocks
              + " blocks");
    }
    if (d != null) {
      boolean wrapped = TwoWordBloomKernel.mayContain(d, base, h, j);
      if (wrapped != TwoWordBloomKernelOracle.mayContain(d, numBlocks, h, j) || wrapped != got) {
        throw new AssertionError(
            "wrapped: new probe answers " + wrapped + " for hash " + h + ", j " + j);
      }
    }
    return got;
  }

  /**
   * A random case of {@code probes} hashes (a quarter of them added first): single probes against
   * the oracle, then the chunk probe over random chunks against the oracle's and the singles.
   * Returns the comparisons made.
   */
  static int randomCase(SplittableRandom rnd, int numBlocks, int probes, boolean wrapped) {
    int j = 2 + rnd.nextInt(3);
    long[] w = randomWords(rnd, numBlocks);
    long[] hashes = new long[probes];
    for (int i = 0; i < probes; i++) {
      hashes[i] = rnd.nextLong();
      if ((i & 3) == 0) {
        TwoWordBloomKernel.add(w, TwoWordBloomKernel.blockBase(hashes[i], numBlocks), hashes[i], j);
      }
    }
    LongSegments d = wrapped ? wrap(w) : null;
    boolean[] single = new boolean[probes];
    for (int i = 0; i < probes; i++) {
      single[i] = compareSingle(w, d, numBlocks, hashes[i], j);
      if ((i & 3) == 0 && !single[i]) {
        throw new AssertionError("false negative for added hash " + hashes[i] + ", j " + j);
      }
    }
    for (int at = 0; at < probes; ) {
      int chunk = Math.min(probes - at, 1 + rnd.nextInt(64));
      long got = TwoWordBloomKernel.probeChunk(w, numBlocks, j, hashes, at, chunk);
      long want = TwoWordBloomKernelOracle.probeChunk(w, numBlocks, j, hashes, at, chunk);
      if (got != want) {
        throw new AssertionError(
            "chunk: new probe answers "
                + Long.toHexString(got)
                + " against the oracle's "
                + Long.toHexString(want)
                + " at "
                + at
                + ", chunk "
                + chunk
                + ", j "
                + j);
      }
      for (int i = 0; i < chunk; i++) {
        if (((got >>> i) & 1) != (single[at + i] ? 1 : 0)) {
          throw new AssertionError("chunk bit " + i + " differs from the single probe");
        }
      }
      at += chunk;
    }
    return 2 * probes;
  }

  /** Arguments: seed, comparisons. Prints "cold" after the first case, "warm" at the end. */
  public static void main(String[] args) {
    SplittableRandom rnd = new SplittableRandom(Long.parseLong(args[0]));
    long target = Long.parseLong(args[1]);
    long done = randomCase(rnd, 1 + rnd.nextInt(40), 200, true);
    System.out.println("cold " + done);
    while (done < target) {
      // wrapped cases now and then: the direct buffer copy costs more than the comparisons
      done += randomCase(rnd, 1 + rnd.nextInt(200), 2000, rnd.nextInt(16) == 0);
    }
    System.out.println("warm " + done);
  }
}
