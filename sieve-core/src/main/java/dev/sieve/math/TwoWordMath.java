package dev.sieve.math;

/**
 * The models of Sieve's two-word blocked Bloom filter ({@code dev.sieve.bloom.TwoWordBloomFilter}):
 * 512-bit blocks of eight 64-bit words, each key setting {@code j} bits in two words of its block.
 * Its false-positive rate, the best {@code j} for a bits/key, and the key count estimated from a
 * block's zero bits. The measures every family shares are {@link BloomMath}'s.
 */
public final class TwoWordMath {
  private TwoWordMath() {}

  /** The bits of one two-word Bloom filter block: eight 64-bit words, one cache line. */
  public static final int TWO_WORD_BLOCK_BITS = 512;

  /** The fewest bits a two-word Bloom filter sets in each of a key's two words. */
  public static final int TWO_WORD_MIN_BITS_PER_WORD = 2;

  /** The most bits a two-word Bloom filter sets in each of a key's two words. */
  public static final int TWO_WORD_MAX_BITS_PER_WORD = 4;

  /**
   * The false-positive rate of Sieve's two-word blocked Bloom filter ({@code
   * dev.sieve.bloom.TwoWordBloomFilter}) at {@code c} bits per key, with {@code j} bits set in each
   * of a key's two words.
   *
   * <p>The layout: 512-bit blocks of eight 64-bit words; a key picks a block, then two distinct
   * words of it, and sets {@code j} bits in each (positions drawn with replacement, so a word may
   * get fewer than {@code j} distinct bits). Derivation: keys per block are Poisson with mean
   * {@code λ = 512 / c}. Of {@code L} keys in a block, the number {@code H} that chose a given word
   * is {@code Bin(L, 2/8)} (each key picks two of the eight words), and a given bit of that word is
   * still 0 with probability {@code a^H}, {@code a = (63/64)^j}. An absent key's {@code j} probes
   * of one of its words all hit set bits with probability {@code E[(1 - a^H)^j]}; expanding the
   * power and using {@code E[x^H] = (3/4 + x/4)^L}, that is {@code g(L) = Σ_i C(j,i) (-1)^i (3/4 +
   * a^i/4)^L}. Its two words are treated as independent given {@code L}, so the rate is {@code Σ_L
   * Poisson(L; λ) · g(L)^2}. Worked: at 10 bits/key 1.078% for {@code j = 3} (1.335% for {@code j =
   * 2}, 1.197% for {@code j = 4}); 0.520% at 12 bits/key and 2.520% at 8, both {@code j = 3}.
   * RocksDB's FastLocalBloom (six probes anywhere in the same 512-bit line) has 0.95% at 10
   * bits/key; the two-word layout pays a little for touching only two words, and gets a probe of
   * two loads and two masks.
   *
   * @param bitsPerKey {@code c > 0}: bits of filter per key
   * @param bitsPerWord {@code j} in {@code [2, 4]}
   * @return the false-positive rate
   */
  public static double twoWordFpRate(double bitsPerKey, int bitsPerWord) {
    if (!(bitsPerKey > 0.0) || Double.isInfinite(bitsPerKey)) {
      throw new IllegalArgumentException("need finite bitsPerKey > 0; got " + bitsPerKey);
    }
    checkTwoWordBitsPerWord(bitsPerWord);
    double a = Math.pow(63.0 / 64.0, bitsPerWord);
    double[] coefficient = new double[bitsPerWord + 1];
    double[] base = new double[bitsPerWord + 1];
    double binomial = 1;
    for (int i = 0; i <= bitsPerWord; i++) {
      coefficient[i] = (i % 2 == 0 ? 1 : -1) * binomial;
      base[i] = 0.75 + 0.25 * Math.pow(a, i);
      binomial = binomial * (bitsPerWord - i) / (i + 1);
    }
    double lambda = TWO_WORD_BLOCK_BITS / bitsPerKey;
    return PoissonSums.expectation(
        lambda,
        load -> {
          double g = 0;
          for (int i = 0; i <= bitsPerWord; i++) {
            g += coefficient[i] * Math.pow(base[i], load);
          }
          g = Math.min(1.0, Math.max(0.0, g));
          return g * g;
        });
  }

  /**
   * The FPR of a two-word Bloom filter of {@code bytes} bytes over {@code keys} keys: {@link
   * #twoWordFpRate} combined with the collision rate of the 64-bit key hash ({@link
   * BloomMath#fingerprintFpRate}); 0 for no keys.
   *
   * @param keys keys added
   * @param bytes filter bytes
   * @param bitsPerWord {@code j} in {@code [2, 4]}
   * @return the modelled false-positive rate
   */
  public static double twoWordBloomFpRate(long keys, long bytes, int bitsPerWord) {
    if (keys <= 0) {
      return 0.0;
    }
    return BloomMath.independentProbabilitySum(
        twoWordFpRate(8.0 * bytes / keys, bitsPerWord),
        BloomMath.fingerprintFpRate((double) keys, 64));
  }

  /**
   * The bits per word {@code j} in {@code [2, 4]} whose {@link #twoWordFpRate} is lowest at {@code
   * bitsPerKey} (the smaller {@code j} on a tie, for the cheaper probe): 2 below about 7.6
   * bits/key, 3 up to about 11.9, 4 above.
   *
   * @param bitsPerKey {@code c > 0}
   * @return the best {@code j}
   */
  public static int twoWordBitsPerWord(double bitsPerKey) {
    int best = TWO_WORD_MIN_BITS_PER_WORD;
    double bestRate = twoWordFpRate(bitsPerKey, best);
    for (int j = best + 1; j <= TWO_WORD_MAX_BITS_PER_WORD; j++) {
      double rate = twoWordFpRate(bitsPerKey, j);
      if (rate < bestRate) {
        best = j;
        bestRate = rate;
      }
    }
    return best;
  }

  /**
   * The number of keys one two-word Bloom filter block holds, estimated from its zero bits: after
   * {@code L} keys a word was chosen {@code Bin(L, 2/8)} times, so the expected zero bits of the
   * block are {@code 512 · q^L} with {@code q = 3/4 + (63/64)^j / 4}; solving gives {@code ln(Z /
   * 512) / ln q}. A block with no zero bit counts as {@code Z = 1/2}.
   *
   * @param bitsSet set bits of the block, in {@code [0, 512]}
   * @param bitsPerWord {@code j} in {@code [2, 4]}
   * @return the estimated number of keys in the block
   */
  public static double twoWordBlockElementCount(int bitsSet, int bitsPerWord) {
    if (bitsSet < 0 || bitsSet > TWO_WORD_BLOCK_BITS) {
      throw new IllegalArgumentException("bits set must be in [0, 512], got " + bitsSet);
    }
    checkTwoWordBitsPerWord(bitsPerWord);
    if (bitsSet == 0) {
      return 0.0;
    }
    double zeros = bitsSet == TWO_WORD_BLOCK_BITS ? 0.5 : TWO_WORD_BLOCK_BITS - bitsSet;
    double q = 0.75 + 0.25 * Math.pow(63.0 / 64.0, bitsPerWord);
    return Math.log(zeros / TWO_WORD_BLOCK_BITS) / Math.log(q);
  }

  private static void checkTwoWordBitsPerWord(int bitsPerWord) {
    if (bitsPerWord < TWO_WORD_MIN_BITS_PER_WORD || bitsPerWord > TWO_WORD_MAX_BITS_PER_WORD) {
      throw new IllegalArgumentException(
          "two-word Bloom bits per word must be in [2, 4], got " + bitsPerWord);
    }
  }
}
