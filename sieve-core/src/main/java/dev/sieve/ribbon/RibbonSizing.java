package dev.sieve.ribbon;

import dev.sieve.math.BloomMath;

/**
 * RocksDB's sizing rules for Standard128Ribbon, as {@code Standard128RibbonBitsBuilder} applies
 * them (table/block_based/filter_policy.cc, util/ribbon_config.cc, util/ribbon_impl.h). Every
 * function here reproduces RocksDB's arithmetic step for step, so that a filter sized here has the
 * length RocksDB gives it.
 *
 * <h2>From bits/key to a one-in-FP rate</h2>
 *
 * A Ribbon policy is configured like a Bloom policy, by a "bloom-equivalent" bits/key {@code b}:
 * RocksDB sanitizes it ({@link #sanitizeBitsPerKey}), turns it into thousandths ({@code millibits =
 * (int) (b · 1000 + 0.500001)}), and asks for the FPR a FastLocalBloom filter of that size would
 * have: {@code oneInFp = 1 / cacheLocalFpRate(b, chooseNumProbes(millibits), 512)} ({@link
 * #oneInFpRateForBloomBitsPerKey}). At {@code b = 10} that is one in 104.9 (0.95%).
 *
 * <h2>From keys to slots: the banding-configuration table</h2>
 *
 * Banding succeeds with high probability only if there are a few percent more slots {@code m} than
 * keys {@code n}. RocksDB measured, for 128-bit coefficient rows, how many keys fit in {@code 2^k}
 * slots with a 1-in-20 chance of failure per seed ({@code kOneIn20}); for {@code k ≥ 17} the
 * overhead {@code m/n} grows by 0.0038 per doubling. {@link #numSlotsForKeys} inverts that table by
 * interpolation and rounds up to whole 128-slot blocks (at least two): e.g. 1000 keys → 1024 slots,
 * 10^5 keys → 104,192 slots (4.2% overhead), 10^6 keys → 1,054,720 slots (5.5%).
 *
 * <h2>From slots to bytes: fractional result bits</h2>
 *
 * Each result column ("bit" of the fingerprint) halves the FPR; {@code oneInFp} is rarely a power
 * of two, so RocksDB gives the first {@code upperStartBlock} blocks {@code c} columns and the rest
 * {@code c + 1}, with {@code 2^c ≤ oneInFp < 2^(c+1)} and the split chosen so that the averaged
 * rate is {@code 1/oneInFp} ({@link #bytesForOneInFpRate}). The split is rounded to a whole block
 * by a bias taken from the first key's hash, so that on average neither direction is favoured.
 *
 * <h2>Limits and the Bloom fallback</h2>
 *
 * Above {@link #MAX_RIBBON_ENTRIES} keys, RocksDB builds FastLocalBloom instead; it also does so
 * for small filters (fewer than 1024 slots) when the Bloom filter would be smaller, and when all
 * 256 seeds fail to solve. That choice is the policy's, made in {@code
 * dev.sieve.policy.FilterPolicy}; this class only sizes Ribbon.
 */
public final class RibbonSizing {
  private RibbonSizing() {}

  /** RocksDB's {@code kMaxRibbonEntries}: more keys than this build a FastLocalBloom filter. */
  public static final int MAX_RIBBON_ENTRIES = 950_000_000;

  /** Slots per block: the coefficient-row width {@code r = 128}. */
  public static final int SLOTS_PER_BLOCK = 128;

  /** Bytes per segment: one 128-bit column of one block. */
  public static final int SEGMENT_BYTES = 16;

  /** The most result columns (the result row is 32 bits wide). */
  static final int MAX_COLUMNS = 32;

  /** Below this many slots RocksDB compares the Ribbon size with the Bloom size. */
  public static final int BLOOM_COMPARISON_SLOTS = 1024;

  /** RocksDB's largest number of blocks, stored in 24 bits of the trailer. */
  static final int MAX_BLOCKS = (1 << 24) - 1;

  /**
   * RocksDB's measured {@code kKnownToAddByPow2} table for {@code kOneIn20}, 128-bit rows, no
   * smash: how many keys fit in {@code 2^i} slots with a 1-in-20 failure chance per seed (0 =
   * unsupported, fewer than 256 slots).
   */
  private static final double[] KNOWN_TO_ADD_BY_POW2 = {
    0, 0, 0, 0, 0, 0, 0, 0, 248.851, 499.532, 1001.26, 2003.97, 4005.59, 8000.39, 15966.6, 31828.1,
    63447.3, 126506,
  };

  /** RocksDB's growth of the overhead factor per doubling of the slots, for 128-bit rows. */
  private static final double FACTOR_PER_POW2 = 0.0038;

  /** RocksDB's {@code 1 / ln 2}, as its source writes it (ten digits). */
  private static final double LOG2_E_ROCKSDB = 1.4426950409;

  // ---------------------------------------------------------------- bits/key → one-in-FP

  /**
   * RocksDB's {@code BloomLikeFilterPolicy} sanitization of a bits/key setting: below 0.5 means "no
   * filter" (rejected here), [0.5, 1) becomes 1, 100 and above (and infinity) become 100.
   *
   * @param bitsPerKey the configured bits per key
   * @return the sanitized bits per key, in [1, 100]
   * @throws IllegalArgumentException for NaN (RocksDB maps it to 100; Sieve refuses it as a
   *     mistake) or below 0.5 (RocksDB builds no filter there)
   */
  public static double sanitizeBitsPerKey(double bitsPerKey) {
    if (Double.isNaN(bitsPerKey)) {
      throw new IllegalArgumentException("bloom-equivalent bits per key is NaN");
    }
    if (bitsPerKey < 0.5) {
      throw new IllegalArgumentException(
          "bloom-equivalent bits per key must be at least 0.5 (RocksDB builds no filter below),"
              + " got "
              + bitsPerKey);
    }
    if (bitsPerKey < 1.0) {
      return 1.0;
    }
    return Math.min(bitsPerKey, 100.0);
  }

  /**
   * {@return RocksDB's millibits/key for a sanitized bits/key ({@code (int) (b · 1000 +
   * 0.500001)})}
   *
   * @param sanitizedBitsPerKey bits per key from {@link #sanitizeBitsPerKey}
   */
  public static int millibitsPerKey(double sanitizedBitsPerKey) {
    return BloomMath.rocksDbMillibitsPerKey(sanitizedBitsPerKey);
  }

  /**
   * RocksDB's {@code desired_one_in_fp_rate_} for a sanitized bloom-equivalent bits/key: the
   * inverse of the FastLocalBloom model rate at that size and RocksDB's probe count.
   *
   * @param sanitizedBitsPerKey bits per key from {@link #sanitizeBitsPerKey}
   * @return {@code 1 / FPR}
   */
  public static double oneInFpRateForBloomBitsPerKey(double sanitizedBitsPerKey) {
    int millibits = millibitsPerKey(sanitizedBitsPerKey);
    return 1.0
        / BloomMath.cacheLocalFpRate(
            sanitizedBitsPerKey,
            BloomMath.fastLocalBloomNumProbes(millibits),
            BloomMath.CACHE_LINE_BITS);
  }

  // ---------------------------------------------------------------- keys → slots

  private static double finalKnownFactor() {
    int last = KNOWN_TO_ADD_BY_POW2.length - 1;
    return (double) (1 << last) / KNOWN_TO_ADD_BY_POW2[last];
  }

  private static double factorForLarge(double log2NumSlots) {
    double base = finalKnownFactor() - (KNOWN_TO_ADD_BY_POW2.length - 1) * FACTOR_PER_POW2;
    return base + log2NumSlots * FACTOR_PER_POW2;
  }

  private static double numToAddForPow2(int log2NumSlots) {
    if (log2NumSlots < KNOWN_TO_ADD_BY_POW2.length) {
      return KNOWN_TO_ADD_BY_POW2[log2NumSlots];
    }
    return (double) (1L << log2NumSlots) / factorForLarge(log2NumSlots);
  }

  /**
   * RocksDB's {@code BandingConfigHelper1::GetNumSlots} for {@code kOneIn20}, 128-bit rows: the
   * slots for {@code numKeys} keys before rounding to blocks, interpolated in the table between the
   * neighbouring powers of two.
   */
  static long tableNumSlots(int numKeys) {
    if (numKeys == 0) {
      return 0;
    }
    double log2NumToAdd = Math.log(numKeys) * LOG2_E_ROCKSDB;
    int approxLog2Slots = (int) (log2NumToAdd + 0.5);
    double lowerNumToAdd = numToAddForPow2(approxLog2Slots);
    double upperNumToAdd;
    if (approxLog2Slots == 0 || lowerNumToAdd == 0) {
      return 2 * SLOTS_PER_BLOCK;
    } else if (numKeys < lowerNumToAdd) {
      upperNumToAdd = lowerNumToAdd;
      --approxLog2Slots;
      lowerNumToAdd = numToAddForPow2(approxLog2Slots);
    } else {
      upperNumToAdd = numToAddForPow2(approxLog2Slots + 1);
    }
    double upperPortion = (numKeys - lowerNumToAdd) / (upperNumToAdd - lowerNumToAdd);
    double lowerNumSlots = (double) (1L << approxLog2Slots);
    return (long) (upperPortion * lowerNumSlots + lowerNumSlots + 0.999999999);
  }

  /**
   * The inverse of {@link #tableNumSlots}, RocksDB's {@code GetNumToAdd}: how many keys {@code
   * numSlots} slots hold at the 1-in-20 solve-failure target. Between two powers of two the known
   * counts are weighted by where {@code numSlots} lies; beyond the table the large-size factor
   * divides the slots. RocksDB uses it to size filter partitions ({@code ApproximateNumEntries}).
   *
   * @param numSlots 0, or at least 256
   * @return the number of keys
   */
  public static int numKeysForSlots(int numSlots) {
    if (numSlots == 0) {
      return 0;
    }
    if (numSlots < 2 * SLOTS_PER_BLOCK) {
      throw new IllegalArgumentException(
          "number of slots must be 0 or at least 256, got " + numSlots);
    }
    double log2Slots = Math.log(numSlots) * LOG2_E_ROCKSDB;
    int floorLog2 = (int) log2Slots;
    if (floorLog2 + 1 < KNOWN_TO_ADD_BY_POW2.length) {
      double above = (double) numSlots / (1L << floorLog2) - 1.0;
      return (int)
          (above * KNOWN_TO_ADD_BY_POW2[floorLog2 + 1]
              + (1.0 - above) * KNOWN_TO_ADD_BY_POW2[floorLog2]);
    }
    return (int) (numSlots / factorForLarge(log2Slots));
  }

  /**
   * RocksDB's {@code RoundUpNumSlots}: up to a whole number of 128-slot blocks, and at least two
   * blocks (one start position cannot hold many keys with this hashing).
   *
   * @param numSlots a slot count
   * @return the rounded slot count
   */
  public static long roundUpNumSlots(long numSlots) {
    long corrected = (numSlots + SLOTS_PER_BLOCK - 1) / SLOTS_PER_BLOCK * SLOTS_PER_BLOCK;
    if (corrected == SLOTS_PER_BLOCK) {
      corrected += SLOTS_PER_BLOCK;
    }
    return corrected;
  }

  /**
   * The number of slots RocksDB gives {@code numKeys} keys ({@code NumEntriesToNumSlots}): the
   * table value rounded up to whole blocks, at least 256.
   *
   * @param numKeys 1 to {@link #MAX_RIBBON_ENTRIES}
   * @return the number of slots
   */
  public static int numSlotsForKeys(int numKeys) {
    if (numKeys < 1 || numKeys > MAX_RIBBON_ENTRIES) {
      throw new IllegalArgumentException(
          "number of keys for a Ribbon filter must be in [1, "
              + MAX_RIBBON_ENTRIES
              + "], got "
              + numKeys);
    }
    return (int) roundUpNumSlots(tableNumSlots(numKeys));
  }

  // ---------------------------------------------------------------- slots → bytes

  /**
   * RocksDB's {@code GetBytesForOneInFpRate}: the solution bytes for {@code numSlots} slots (a
   * multiple of 128, at least 256) and a target of one false positive in {@code oneInFpRate}
   * queries. With {@code c = floor(log2(oneInFp))} the first {@code upperStartBlock} blocks get
   * {@code c} columns and the rest {@code c + 1}, where {@code upperStartBlock =
   * floor((lowerPortion · numStarts + bias) / 128)}, {@code lowerPortion = (f − 2^-(c+1)) / (2^-c −
   * 2^-(c+1))} and {@code bias = (roundingBias32 + 0.5) / 2^32}. A rate at or beyond one in {@code
   * 2^32 − 1} gets the 32-column maximum; a rate of one in 1 or less (or NaN) one segment.
   *
   * @param numSlots slots, a multiple of 128 and at least 256
   * @param oneInFpRate the target {@code 1 / FPR}
   * @param roundingBias32 an unsigned 32-bit value; RocksDB passes the upper half of the first
   *     key's hash
   * @return the solution bytes, a multiple of 16
   */
  public static long bytesForOneInFpRate(int numSlots, double oneInFpRate, int roundingBias32) {
    checkSlots(numSlots);
    double fpRate = 1.0 / oneInFpRate;
    if (!(oneInFpRate > 1.0 && fpRate < 1.0)) {
      return SEGMENT_BYTES;
    }
    if (!(oneInFpRate <= 4294967295.0)) {
      return (long) numSlots * Integer.BYTES;
    }
    long rounded = (long) oneInFpRate;
    int lowerColumns = 63 - Long.numberOfLeadingZeros(rounded);
    double lowerColumnsFpRate = Math.pow(2.0, -lowerColumns);
    double upperColumnsFpRate = Math.pow(2.0, -(lowerColumns + 1));
    double lowerPortion = (fpRate - upperColumnsFpRate) / (lowerColumnsFpRate - upperColumnsFpRate);
    double roundingBias = (Integer.toUnsignedLong(roundingBias32) + 0.5) / 4294967296.0;
    long numStarts = (long) numSlots - SLOTS_PER_BLOCK + 1;
    long upperStartBlock = (long) ((lowerPortion * numStarts + roundingBias) / SLOTS_PER_BLOCK);
    long numBlocks = numSlots / SLOTS_PER_BLOCK;
    long numSegments = numBlocks * lowerColumns + (numBlocks - upperStartBlock);
    return numSegments * SEGMENT_BYTES;
  }

  private static void checkSlots(int numSlots) {
    if (numSlots < 2 * SLOTS_PER_BLOCK || numSlots % SLOTS_PER_BLOCK != 0) {
      throw new IllegalArgumentException(
          "number of slots must be a multiple of 128 and at least 256, got " + numSlots);
    }
  }
}
