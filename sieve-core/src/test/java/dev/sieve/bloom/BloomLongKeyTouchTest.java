package dev.sieve.bloom;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.sieve.KeyScheme;
import dev.sieve.hash.KeyHash;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The builds from {@code long} keys with the touch pass of large filters ({@link
 * BloomLongKeyBuild#TOUCH_MIN_BYTES}) forced give, word for word, the builds without it (which
 * {@code BloomLongKeyBuildPropertyTest} compares with adds one by one) and the adds one by one
 * themselves: for random keys with repeats next to each other and apart, over enough rounds that
 * both paths run interpreted first and compiled by C2 last.
 */
class BloomLongKeyTouchTest {
  private static final int ROUNDS = 200;
  private static final int KEYS = 20_000;

  @Test
  void touchedBuildsEqualTheUntouchedBeforeAndAfterCompilation() {
    SplittableRandom rnd = new SplittableRandom(5_171L);
    KeyScheme[] schemes = {KeyScheme.XXPH3, KeyScheme.FAST, KeyScheme.MIX64};
    for (int round = 0; round < ROUNDS; round++) {
      long[] keys = keys(rnd, 1 + rnd.nextInt(KEYS));
      KeyScheme scheme = schemes[round % schemes.length];
      int millibits = round % 2 == 0 ? 10_000 : 1_000 + rnd.nextInt(30_000);
      BlockedBloomFilter blocked = BloomLongKeyBuild.blocked(keys, scheme, millibits, 0);
      assertEquals(
          BloomLongKeyBuild.blocked(keys, scheme, millibits, Long.MAX_VALUE),
          blocked,
          "round " + round);
      double bitsPerKey = 1 + rnd.nextDouble() * 20;
      int j = 2 + rnd.nextInt(3);
      TwoWordBloomFilter twoWord = BloomLongKeyBuild.twoWord(keys, scheme, bitsPerKey, j, 0);
      assertEquals(
          BloomLongKeyBuild.twoWord(keys, scheme, bitsPerKey, j, Long.MAX_VALUE),
          twoWord,
          "round " + round);
      if (round == 0 || round == ROUNDS - 1) {
        BlockedBloomFilter oneByOne =
            BlockedBloomFilter.withShape(blocked.numBlocks() * 64L, blocked.numProbes());
        TwoWordBloomFilter twoWordOneByOne = TwoWordBloomForm.empty(twoWord.numBlocks(), j);
        for (long key : keys) {
          long hash = scheme == KeyScheme.XXPH3 ? KeyHash.hash64(key) : scheme.hash(key);
          oneByOne.addHash(hash);
          twoWordOneByOne.addHash(hash);
        }
        assertEquals(oneByOne, blocked, "round " + round);
        assertEquals(twoWordOneByOne, twoWord, "round " + round);
      }
    }
  }

  private static long[] keys(SplittableRandom rnd, int n) {
    long[] keys = new long[n];
    for (int i = 0; i < n; i++) {
      keys[i] = i > 0 && rnd.nextInt(10) == 0 ? keys[rnd.nextInt(i)] : rnd.nextLong();
    }
    return keys;
  }
}
