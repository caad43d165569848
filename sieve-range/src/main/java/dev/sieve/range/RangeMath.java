package dev.sieve.range;

/**
 * The false-positive bounds of the range filters ({@code dev.sieve.range}).
 *
 * <h2>Grafite</h2>
 *
 * Grafite (Costa, Ferragina, Vinciguerra, SIGMOD 2024) hashes each of its {@code n} keys with a
 * locality-preserving hash {@code h(x) = (q(⌊x/L⌋) + x mod L) mod r}: keys in one block of {@code
 * L} consecutive values keep their distances, the blocks land at independent random offsets {@code
 * q(·)} in {@code [0, r)}. A range {@code [lo, hi]} of length {@code ℓ ≤ L} meets at most two
 * blocks and becomes at most two (after the wrap mod {@code r}, at most four) hash intervals of
 * total length {@code ℓ}; the filter answers "maybe" when a stored code lies in one. For an empty
 * range, a key {@code y} in another block than the range's has a code uniform on {@code [0, r)}, in
 * the intervals with probability {@code ℓ/r}; a key in one of the range's own blocks misses that
 * block's interval (the offsets inside a block are kept, and {@code y}'s is outside the range) and
 * meets the other block's with probability at most {@code ℓ/r}. A union bound over the {@code n}
 * keys: {@code FPP ≤ n·ℓ/r} ({@link #grafiteFpBound(long, long, double)}), for every range,
 * whatever its relation to the keys (the randomness is {@code q}'s, not the workload's: correlated
 * or adversarial ranges get the same bound). With {@code r = n·L/ε} this is {@code ℓ·ε/L}.
 *
 * <p>The sorted codes are stored in Elias–Fano: {@code n·(2 + ⌈log2(r/n)⌉)} bits, so at {@code B}
 * bits per key {@code r/n = 2^(B−2)} and {@code FPP ≤ ℓ/2^(B−2)} ({@link #grafiteFpBound(long,
 * double)}), optimal up to the additive 2 bits against the lower bound {@code log2(ℓ/ε)} of any
 * range filter.
 */
public final class RangeMath {
  private RangeMath() {}

  /**
   * Grafite's bound at {@code bitsPerKey} bits per key, {@code min(1, ℓ / 2^(B−2))}.
   *
   * @param rangeLength {@code ℓ}, the number of values in the range ({@code hi − lo + 1}), at least
   *     1
   * @param bitsPerKey {@code B}
   * @return the bound on the false-positive probability of one empty range of that length
   * @throws IllegalArgumentException if {@code rangeLength < 1} or {@code bitsPerKey} is not finite
   */
  public static double grafiteFpBound(long rangeLength, double bitsPerKey) {
    if (rangeLength < 1 || !Double.isFinite(bitsPerKey)) {
      throw new IllegalArgumentException(
          "rangeLength " + rangeLength + " must be >= 1 and bitsPerKey " + bitsPerKey + " finite");
    }
    return Math.min(1.0, rangeLength / Math.pow(2.0, bitsPerKey - 2));
  }

  /**
   * Grafite's bound for a filter of {@code n} keys over the code range {@code r}: {@code min(1,
   * n·ℓ/r)}.
   *
   * @param rangeLength {@code ℓ}, at least 1
   * @param numKeys {@code n}, the distinct keys
   * @param codeRange {@code r}, positive
   * @return the bound
   * @throws IllegalArgumentException if an argument is out of range
   */
  public static double grafiteFpBound(long rangeLength, long numKeys, double codeRange) {
    if (rangeLength < 1 || numKeys < 0 || !(codeRange > 0)) {
      throw new IllegalArgumentException(
          "rangeLength " + rangeLength + ", numKeys " + numKeys + ", codeRange " + codeRange);
    }
    return Math.min(1.0, (double) numKeys * rangeLength / codeRange);
  }

  /**
   * Grafite's code range for {@code n} keys, ranges up to {@code L} and the rate {@code ε} at that
   * length: {@code r = ⌈n·L/ε⌉}.
   *
   * @param numKeys {@code n}
   * @param maxRangeLength {@code L}
   * @param fpRate {@code ε} in (0, 1)
   * @return {@code r}, as a double (it may exceed a {@code long})
   */
  public static double grafiteCodeRange(long numKeys, long maxRangeLength, double fpRate) {
    return Math.ceil((double) Math.max(1, numKeys) * maxRangeLength / fpRate);
  }
}
