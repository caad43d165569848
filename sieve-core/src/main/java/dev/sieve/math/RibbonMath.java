package dev.sieve.math;

/**
 * The false-positive and size models of the Ribbon filters ({@code dev.sieve.ribbon}: RocksDB's
 * Standard128Ribbon and the Bumped Ribbon).
 *
 * <h2>The idea</h2>
 *
 * A Ribbon filter stores the solution of a banded linear system over GF(2): a key's hash picks a
 * start row and a band of coefficients, and the parity of the solution rows the band selects must
 * equal the key's {@code r}-bit fingerprint. For an absent key that parity is a value it does not
 * constrain, so each of its {@code r} result columns matches by chance with probability 1/2 and the
 * rate is {@code 2^-r}: the space per key is the floor {@code log2(1/f)} ({@link
 * BloomMath#informationFloorBitsPerKey}) times the slots per key, which the banding needs a few
 * percent above 1. RocksDB's interleaved layout gives some blocks one result column more than the
 * others, so {@code r} may be fractional ({@link #ribbonFpRate}, {@link #interleavedRibbonFpRate},
 * {@link #ribbonResultBitsForFpRate}). The Bumped Ribbon fills the band to about one key per slot
 * and moves the keys that cannot be placed on to a next layer, so its rate is a sum over the layers
 * ({@link #bumpedRibbonFpRate}) and its size is the slots of all layers plus a small threshold per
 * block ({@link #bumpedRibbonBitsPerKey}).
 *
 * <p>None of these includes the collision rate of the 64-bit key hash; the filters add {@link
 * BloomMath#fingerprintFpRate}.
 *
 * <p>References: P. C. Dillinger and S. Walzer, "Ribbon filter: practically smaller than Bloom and
 * Xor", arXiv:2103.02515 (2021); P. C. Dillinger, L. Hübschle-Schneider, P. Sanders, S. Walzer,
 * "Fast Succinct Retrieval and Approximate Membership Using Ribbon" (SEA 2022), for bumping;
 * RocksDB util/ribbon_alg.h and util/ribbon_impl.h.
 */
public final class RibbonMath {
  private RibbonMath() {}

  /**
   * The false-positive rate of a Ribbon filter checking {@code r} result bits: {@code 2^-r}, and
   * for a fractional {@code r = c + φ} (some start positions checking {@code c} bits, the others
   * {@code c + 1}) the linear interpolation {@code (1-φ)·2^-c + φ·2^-(c+1)}.
   *
   * <p>Derivation: an absent key's recomputed fingerprint is a parity of solution bits it does not
   * constrain, so each of its result columns matches by chance with probability 1/2, independently;
   * with {@code c} columns the rate is {@code 2^-c}. RocksDB's interleaved layout mixes {@code c}
   * and {@code c + 1} columns by block, so the rate is the start-weighted average of the two, which
   * is linear (not exponential) in the fraction {@code φ}: fractional bits cost a little over the
   * floor (up to about 1.5%, util/ribbon_alg.h). Worked: {@code r = 6.78 → 0.95%}, {@code r = 7 →
   * 0.78%}.
   *
   * @param resultBits {@code r ≥ 0}
   * @return the false-positive rate
   */
  public static double ribbonFpRate(double resultBits) {
    if (!(resultBits >= 0.0)) {
      throw new IllegalArgumentException("result bits must be >= 0, got " + resultBits);
    }
    double lower = Math.floor(resultBits);
    double frac = resultBits - lower;
    double lowerRate = Math.pow(0.5, lower);
    return (1.0 - frac) * lowerRate + frac * lowerRate * 0.5;
  }

  /**
   * RocksDB's {@code SerializableInterleavedSolution::ExpectedFpRate} for a Standard128Ribbon
   * layout of {@code numBlocks} 128-slot blocks, {@code upperNumColumns} result columns from block
   * {@code upperStartBlock} on and one fewer before: with {@code p = upperStartBlock · 128 /
   * numStarts} the fraction of start positions in the narrower blocks ({@code numStarts = 128 ·
   * numBlocks − 127}), {@code p · 2^-(c-1) + (1 - p) · 2^-c}, i.e. {@link #ribbonFpRate} at {@code
   * r = c − p}. The hash-collision rate is not included ({@link BloomMath#fingerprintFpRate} adds
   * it).
   *
   * @param numBlocks 128-slot blocks
   * @param upperNumColumns result columns of the wider blocks
   * @param upperStartBlock the first wider block
   * @return 0 for zero blocks (the empty filter reports every key absent)
   */
  public static double interleavedRibbonFpRate(
      long numBlocks, int upperNumColumns, long upperStartBlock) {
    if (numBlocks <= 0) {
      return 0.0;
    }
    double numStarts = numBlocks * 128.0 - 127.0;
    double lowerPortion = upperStartBlock * 128.0 / numStarts;
    return lowerPortion * Math.pow(0.5, upperNumColumns - 1)
        + (1.0 - lowerPortion) * Math.pow(0.5, upperNumColumns);
  }

  /**
   * The fractional result bits a Ribbon filter needs for rate {@code f}: the inverse of {@link
   * #ribbonFpRate}, {@code c + φ} with {@code 2^-(c+1) < f ≤ 2^-c} and {@code φ = (2^-c − f) /
   * 2^-(c+1)}. At least the floor {@code log2(1/f)}, and at most about 0.086 bits above it.
   *
   * @param fpRate the target rate {@code f}, in (0, 1)
   * @return result bits per key
   */
  public static double ribbonResultBitsForFpRate(double fpRate) {
    if (!(fpRate > 0.0 && fpRate <= 1.0)) {
      throw new IllegalArgumentException("false-positive rate must be in (0, 1], got " + fpRate);
    }
    double c =
        Math.floor(BloomMath.informationFloorBitsPerKey(fpRate)) + 0.0; // -0.0 at f = 1 → 0.0
    double lowerRate = Math.pow(0.5, c);
    if (fpRate >= lowerRate) {
      return c;
    }
    return c + (lowerRate - fpRate) / (lowerRate * 0.5);
  }

  /**
   * The false-positive rate of a Bumped Ribbon filter ({@code dev.sieve.ribbon.BumpedRibbonFilter})
   * from its layers: an absent key reaches layer 0, is bumped past layer {@code i} with probability
   * {@code bumped[i]} (the share of that layer's starts below their block's threshold) and
   * otherwise stops there and matches with probability {@code matched[i]} (the start-weighted
   * {@code 2^-columns} of the blocks it stops in, so {@code matched[i] ≤ 1 − bumped[i]}): {@code
   * Σ_i (Π_{j<i} bumped[j]) · matched[i]}. With {@code c} whole columns everywhere this is {@code
   * 2^-c · (1 − Π bumped)}, i.e. {@code 2^-c} when the last layer bumps nothing. The hash-collision
   * rate is not included ({@link BloomMath#fingerprintFpRate} adds it).
   */
  public static double bumpedRibbonFpRate(double[] bumped, double[] matched) {
    if (bumped.length != matched.length) {
      throw new IllegalArgumentException(
          "one bumped and one matched share per layer, got "
              + bumped.length
              + " and "
              + matched.length);
    }
    double reach = 1.0;
    double fpr = 0.0;
    for (int i = 0; i < bumped.length; i++) {
      fpr += reach * matched[i];
      reach *= bumped[i];
    }
    return fpr;
  }

  /**
   * The size model of a Bumped Ribbon filter: {@code slotsPerKey · (r + metadataBits / 128)} bits
   * per key, for {@code r} result bits per slot and {@code metadataBits} bits of bumping threshold
   * per 128-slot block (2 in Sieve's format), where {@code slotsPerKey} counts the slots of all
   * layers (1 plus the share of empty slots; 1.003-1.006 measured at 7 result bits). Divided by the
   * floor {@code log2(1/f)} at {@code f = 2^-r}, the overhead is {@code slotsPerKey · (1 +
   * metadataBits / (128 r)) − 1}.
   */
  public static double bumpedRibbonBitsPerKey(
      double resultBits, double slotsPerKey, int metadataBits) {
    return slotsPerKey * (resultBits + metadataBits / 128.0);
  }
}
