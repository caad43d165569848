package dev.sieve.math;

/**
 * The models of Parquet's split-block Bloom filter (SBBF, {@code
 * dev.sieve.bloom.SplitBlockBloomFilter}): every value picks one 256-bit block and sets one bit in
 * each of its eight 32-bit words. Its false-positive rate averaged exactly over the values per
 * block, Parquet's sizing rule, and the value count estimated from a block's set bits. The measures
 * every family shares are {@link BloomMath}'s.
 *
 * <p>References: apache/parquet-format BloomFilter.md; Putze, Sanders, Singler, "Cache-, Hash- and
 * Space-Efficient Bloom Filters" (2007).
 */
public final class SplitBlockMath {
  private SplitBlockMath() {}

  /** The bits of one split-block Bloom filter block: eight 32-bit words. */
  public static final int SPLIT_BLOCK_BITS = 256;

  /**
   * The false-positive rate of Parquet's split-block Bloom filter (SBBF) at {@code b} bits per
   * distinct value, averaged exactly over the Poisson distribution of values per block.
   *
   * <p>Derivation (Putze, Sanders, Singler, "Cache-, Hash- and Space-Efficient Bloom Filters",
   * 2007, section 3, the "split" variant of a blocked filter). Every value picks one 256-bit block
   * and sets exactly one bit in each of the block's eight 32-bit words. Values per block are
   * Poisson with mean {@code λ = 256 / b}. In a block holding {@code j} values, a given bit of a
   * word is still 0 with probability {@code (31/32)^j}, so an absent value whose block it is
   * matches its one bit in every word with probability {@code (1 - (31/32)^j)^8}, the eight words
   * treated as independent. The absent value's block is a uniform block, so the rate is {@code Σ_j
   * Poisson(j; λ) · (1 - (31/32)^j)^8}. Splitting the probes over words (one bit per word) costs a
   * little against eight probes anywhere in the block ({@link BloomMath#poissonBlockedFpRate} with
   * {@code B = 256, k = 8}), because two values can never share a bit by landing in different
   * words; the block of 32 bytes costs more than RocksDB's 64-byte line (more spread in the load
   * per block). Worked: at 10 bits/value, 1.26% (a standard Bloom filter at k = 8: 0.85%; RocksDB's
   * 512-bit blocked Bloom at 6 probes: 0.95%); at 16 bits/value, 0.132%.
   *
   * @param bitsPerKey {@code b > 0}: bits of filter per distinct value
   */
  public static double splitBlockFpRate(double bitsPerKey) {
    if (!(bitsPerKey > 0.0) || Double.isInfinite(bitsPerKey)) {
      throw new IllegalArgumentException("need finite bitsPerKey > 0; got " + bitsPerKey);
    }
    double lambda = SPLIT_BLOCK_BITS / bitsPerKey;
    double logZero = Math.log(31.0 / 32.0);
    return PoissonSums.expectation(lambda, j -> Math.pow(-Math.expm1(j * logZero), 8));
  }

  /**
   * The FPR of a split-block Bloom filter of {@code bytes} bytes over {@code distinctValues}
   * distinct values: {@link #splitBlockFpRate} combined with the collision rate of the 64-bit value
   * hash (XXH64), {@link BloomMath#fingerprintFpRate}; 0 for no values.
   */
  public static double splitBlockBloomFpRate(long distinctValues, long bytes) {
    if (distinctValues <= 0) {
      return 0.0;
    }
    return BloomMath.independentProbabilitySum(
        splitBlockFpRate(8.0 * bytes / distinctValues),
        BloomMath.fingerprintFpRate((double) distinctValues, 64));
  }

  /**
   * The number of bits Parquet's sizing rule gives {@code n} distinct values at target rate {@code
   * p}, before rounding: {@code m = -8n / ln(1 - p^(1/8))} (parquet-java {@code
   * BlockSplitBloomFilter.optimalNumOfBits}; parquet-format BloomFilter.md, "Sizing an SBBF").
   *
   * <p>Derivation: an unblocked filter with {@code k = 8} probes has rate {@code (1 -
   * e^(-8n/m))^8}; setting it to {@code p} and solving for {@code m} gives the rule. It ignores the
   * blocking, so a filter of exactly {@code m} bits has a higher rate than {@code p} ({@link
   * #splitBlockFpRate}: 1.46% at the 9.68 bits/value the rule gives for {@code p = 1%}); the
   * power-of-two rounding of the size that follows often, but not always, pays it back (a count
   * just under a power of two gets almost no slack).
   */
  public static double parquetSplitBlockBits(long n, double p) {
    return -8.0 * n / Math.log(1 - Math.pow(p, 1.0 / 8));
  }

  /**
   * The number of distinct values one split-block Bloom filter block holds, estimated from its set
   * bits: each value sets one bit in each of the eight 32-bit words, so a bit stays 0 with
   * probability {@code (31/32)^j} after {@code j} values and the expected zero bits are {@code 256
   * · (31/32)^j}; solving for {@code j} gives {@code ln(1 - X/256) / ln(31/32)}. A saturated block
   * counts as {@code X = 255.5}.
   *
   * @param bitsSet {@code X}, in {@code [0, 256]}
   */
  public static double splitBlockElementCount(int bitsSet) {
    if (bitsSet < 0 || bitsSet > SPLIT_BLOCK_BITS) {
      throw new IllegalArgumentException("bits set must be in [0, 256], got " + bitsSet);
    }
    if (bitsSet == 0) {
      return 0.0;
    }
    double zeros = bitsSet == SPLIT_BLOCK_BITS ? 0.5 : SPLIT_BLOCK_BITS - bitsSet;
    return Math.log(zeros / SPLIT_BLOCK_BITS) / Math.log(31.0 / 32.0);
  }
}
