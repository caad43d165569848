package dev.sieve.bloom;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The single-key probe forms of {@link BlockedBloomFilter} (branch-free in cache, early exit above,
 * straight-line beside the SIMD gate) answer alike: on blocks from empty to full, for every probe
 * count, each form agrees with the plain early-exit loop.
 */
class ProbeFormsTest {

  @Test
  void everyFormAnswersAsTheLoop() {
    SplittableRandom random = new SplittableRandom(41);
    long[] w = linesFromFullToEmpty(random);
    int agreeTrue = 0;
    for (int q = 0; q < 200_000; q++) {
      int base = random.nextInt(64) * 8;
      int h = random.nextInt();
      int k = 1 + random.nextInt(30);
      boolean loop = BlockedBloomKernel.earlyLoop(w, base, h, k);
      assertEquals(
          loop, (BlockedBloomProbeOracle.branchFree(w, base, h, k) & 1) != 0, "old loop k=" + k);
      assertEquals(
          loop, (BlockedBloomKernel.allProbes(w, base, h, k) & 1) != 0, "branch-free k=" + k);
      if (k <= 8) {
        assertEquals(loop, BlockedBloomKernel.upTo8(w, base, h, k), "straight-line k=" + k);
      }
      if (k == 6) {
        assertEquals(loop, BlockedBloomKernel.early6(w, base, h), "unrolled k=6");
        assertEquals(loop, (BlockedBloomKernel.all6(w, base, h) & 1) != 0, "straight-line k=6");
      }
      agreeTrue += loop ? 1 : 0;
    }
    // both answers occur often, so agreement is not vacuous
    org.junit.jupiter.api.Assertions.assertTrue(agreeTrue > 20_000 && agreeTrue < 180_000);
  }

  /**
   * 64 lines of eight words, from full to sparse (an AND of up to three random words thins the
   * bits) and the last one empty, so that probe tests answer both ways.
   */
  static long[] linesFromFullToEmpty(SplittableRandom random) {
    long[] w = new long[8 * 64];
    for (int block = 0; block < 64; block++) {
      for (int i = 0; i < 8; i++) {
        long word = -1L;
        for (int t = 0; t < block % 4; t++) {
          word &= random.nextLong();
        }
        w[block * 8 + i] = block == 63 ? 0 : word;
      }
    }
    return w;
  }
}
