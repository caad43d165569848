package dev.sieve.math;

/**
 * The false-positive models of every Sieve filter, in one place. Filters and reports call these; no
 * formula is re-derived elsewhere.
 *
 * <h2>Notation</h2>
 *
 * {@code n} keys, {@code m} bits, {@code b = m / n} bits per key, {@code k} probes per key, {@code
 * f} the false-positive rate (FPR).
 *
 * <h2>The information floor</h2>
 *
 * A structure that answers "maybe" for an absent key with probability {@code f} must spend at least
 * {@code log2(1/f)} bits per key (Carter et al. 1978): each stored key must rule out all but a
 * fraction {@code f} of the key universe. A standard Bloom filter at its optimal {@code k} spends
 * {@code log2(1/f) / ln 2 = 1.4427 · log2(1/f)} bits per key, 44% over the floor, by construction
 * ({@link #overheadOverFloor}).
 */
public final class BloomMath {
  private BloomMath() {}

  /** {@code ln 2}. */
  public static final double LN2 = Math.log(2.0);

  /** The cache-line size RocksDB's FastLocalBloom blocks on, in bits. */
  public static final int CACHE_LINE_BITS = 512;

  /**
   * The false-positive rate of a standard Bloom filter: {@code (1 - e^(-k/b))^k}.
   *
   * <p>Derivation: one probe leaves a given bit 0 with probability {@code 1 - 1/m}; after all
   * {@code kn} probes of {@code n} keys, {@code (1 - 1/m)^(kn) ≈ e^(-kn/m) = e^(-k/b)}. An absent
   * key is a false positive when all its {@code k} probes hit set bits, each with probability
   * {@code 1 - e^(-k/b)}, treated as independent. This is RocksDB's {@code
   * BloomMath::StandardFpRate} (util/bloom_impl.h). Worked: {@code b=10, k=7 → 0.82%}; {@code b=16,
   * k=11 → 0.046%}.
   *
   * @param bitsPerKey {@code b > 0}
   * @param numProbes {@code k ≥ 1}
   * @return the false-positive rate
   */
  public static double standardFpRate(double bitsPerKey, int numProbes) {
    return Math.pow(1.0 - Math.exp(-numProbes / bitsPerKey), numProbes);
  }

  /**
   * RocksDB's model of a cache-local ("blocked") Bloom filter whose {@code k} probes all fall in
   * one block of {@code cacheLineBits} bits.
   *
   * <p>Derivation: keys land in blocks independently, so the number per block is Poisson with mean
   * {@code λ = cacheLineBits / b} and standard deviation {@code √λ}. A crowded block has a much
   * worse local rate than the average, and since the rate is convex in the load, the blocked filter
   * is worse than a standard one of the same size. RocksDB approximates the Poisson average by the
   * mean of {@link #standardFpRate} at one standard deviation above and below the mean load: {@code
   * (S(L/(λ+√λ), k) + S(L/(λ-√λ), k)) / 2} with {@code L = cacheLineBits} (util/bloom_impl.h,
   * {@code CacheLocalFpRate}). Worked: {@code b=10, k=6, L=512 → 0.95%} against the standard 0.84%.
   *
   * @param bitsPerKey bits per key, {@code b}
   * @param numProbes probes per key, {@code k ≥ 1}
   * @param cacheLineBits bits per block (512 for a 64-byte cache line)
   * @return {@code 1.0} for {@code bitsPerKey <= 0}, as RocksDB does
   */
  public static double cacheLocalFpRate(double bitsPerKey, int numProbes, int cacheLineBits) {
    if (bitsPerKey <= 0.0) {
      return 1.0;
    }
    double keysPerLine = cacheLineBits / bitsPerKey;
    double stddev = Math.sqrt(keysPerLine);
    double crowded = standardFpRate(cacheLineBits / (keysPerLine + stddev), numProbes);
    double uncrowded = standardFpRate(cacheLineBits / (keysPerLine - stddev), numProbes);
    return (crowded + uncrowded) / 2;
  }

  /**
   * The probability that a new item collides with at least one of {@code numKeys} stored {@code
   * fingerprintBits}-bit fingerprints: {@code 1 - (1 - 2^-r)^n ≈ 1 - e^(-n·2^-r)}.
   *
   * <p>For a tiny base estimate {@code x = n·2^-r} it returns {@code x - x²/2} (the first two terms
   * of the series, exact enough and free of rounding next to 1), otherwise {@code 1 - e^(-x)}, as
   * RocksDB's {@code FingerprintFpRate} does. A Bloom filter that hashes keys to 64 bits first pays
   * this on top of its own rate ({@link #independentProbabilitySum}).
   *
   * @param numKeys stored fingerprints, {@code n}
   * @param fingerprintBits bits per fingerprint, {@code r}
   * @return the collision probability
   */
  public static double fingerprintFpRate(double numKeys, int fingerprintBits) {
    double base = numKeys * Math.pow(0.5, fingerprintBits);
    if (base > 0.0001) {
      return -Math.expm1(-base);
    }
    return base - base * base * 0.5;
  }

  /**
   * The probability that at least one of two independent events happens: {@code p + q - pq},
   * written so that tiny rates keep their precision.
   *
   * @param rate1 the first probability
   * @param rate2 the second probability
   * @return the probability of either
   */
  public static double independentProbabilitySum(double rate1, double rate2) {
    return rate1 + rate2 - rate1 * rate2;
  }

  /**
   * The FPR RocksDB estimates for a FastLocalBloom filter of {@code bytes} data bytes over {@code
   * keys} keys: the cache-local rate at 512-bit lines combined with the collision rate of the
   * {@code hashBits}-bit key hash ({@code FastLocalBloomImpl::EstimatedFpRate}).
   *
   * @param keys keys added
   * @param bytes data bytes, trailer excluded
   * @param numProbes probes per key, {@code k ≥ 1}
   * @param hashBits bits of the key hash (64)
   * @return the modelled false-positive rate
   */
  public static double fastLocalBloomFpRate(long keys, long bytes, int numProbes, int hashBits) {
    if (keys <= 0) {
      return 0.0;
    }
    return independentProbabilitySum(
        cacheLocalFpRate(8.0 * bytes / keys, numProbes, CACHE_LINE_BITS),
        fingerprintFpRate(keys, hashBits));
  }

  /**
   * The FPR of a standard Bloom filter with {@code m} bits, {@code n} keys and {@code k} probes,
   * including the collision rate of the 64-bit key hash both filters start from.
   *
   * @param keys keys added
   * @param bits filter bits, {@code m}
   * @param numProbes probes per key, {@code k ≥ 1}
   * @return the modelled false-positive rate
   */
  public static double standardBloomFpRate(long keys, long bits, int numProbes) {
    if (keys <= 0) {
      return 0.0;
    }
    return independentProbabilitySum(
        standardFpRate((double) bits / keys, numProbes), fingerprintFpRate(keys, 64));
  }

  /**
   * The probe count that minimizes {@link #standardFpRate} at {@code b} bits per key: {@code k = b
   * · ln 2}, rounded to the better of its two neighbouring integers, at least 1.
   *
   * <p>Derivation: with {@code p = e^(-k/b)} the log of the rate is {@code k·ln(1-p) = -b·ln(p)
   * ·ln(1-p)}, symmetric in {@code p ↔ 1-p}, so its minimum is at {@code p = 1/2}: half the bits
   * are set, {@code k = b · ln 2}.
   *
   * @param bitsPerKey bits per key, {@code b}
   * @return the best integer probe count
   */
  public static int optimalNumProbes(double bitsPerKey) {
    double real = bitsPerKey * LN2;
    int lo = Math.max(1, (int) Math.floor(real));
    int hi = lo + 1;
    return standardFpRate(bitsPerKey, hi) < standardFpRate(bitsPerKey, lo) ? hi : lo;
  }

  /**
   * The number of distinct keys a standard Bloom filter holds, estimated from its set bits
   * (Swamidass and Baldi, "Mathematical correction for fingerprint similarity measures to improve
   * chemical retrieval", J. Chem. Inf. Model. 2007): {@code n ≈ ln(1 - X/m) / (k · ln(1 - 1/m))},
   * which is {@code -(m/k) · ln(1 - X/m)} for large {@code m}.
   *
   * <p>Derivation: each probe sets one of the {@code m} bits uniformly, so after {@code n} keys a
   * bit is still 0 with probability {@code (1 - 1/m)^(kn)}; setting the expected zero bits {@code
   * m(1 - 1/m)^(kn)} equal to the observed {@code m - X} and solving for {@code n} gives the
   * estimate. It counts distinct keys (a repeated key sets no new bit), which is why a union of a
   * filter with itself keeps its estimate. Its standard error (delta method, with the variance of
   * the number of zero bits {@code m·e^(-2λ)·(e^λ - 1 - λ)}, {@code λ = kn/m}) is about {@code
   * sqrt(m·(e^λ - 1 - λ)) / k}: at {@code b = 10, k = 7}, {@code 0.25·sqrt(n)}, 0.08% of {@code n}
   * at {@code n = 10^5}.
   *
   * <p>A saturated filter ({@code X = m}, every bit set) would give infinity; it is counted as
   * {@code X = m - 1/2}, the largest finite estimate (any number of keys fits a saturated filter).
   *
   * @param bitsSet {@code X}, in {@code [0, m]}
   * @param numBits {@code m ≥ 1}
   * @param numProbes {@code k ≥ 1}
   * @return the estimated number of distinct keys
   */
  public static double standardBloomElementCount(long bitsSet, long numBits, int numProbes) {
    if (numBits < 1 || numProbes < 1 || bitsSet < 0 || bitsSet > numBits) {
      throw new IllegalArgumentException(
          "need 0 <= bits set <= bits, bits >= 1, probes >= 1; got "
              + bitsSet
              + ", "
              + numBits
              + ", "
              + numProbes);
    }
    if (bitsSet == 0) {
      return 0.0;
    }
    double zeros = bitsSet == numBits ? 0.5 : (double) (numBits - bitsSet);
    return Math.log(zeros / numBits) / (numProbes * Math.log1p(-1.0 / numBits));
  }

  /**
   * The number of keys one block of a cache-local (blocked) Bloom filter holds, estimated from its
   * set bits: {@link #standardBloomElementCount} with {@code m = blockBits}, since every probe of a
   * key that lands in the block sets one of the block's {@code blockBits} bits uniformly (RocksDB's
   * FastLocalBloom takes each probe's bit from the top 9 bits of a remultiplied 32-bit hash). A
   * saturated block counts as {@code blockBits - 1/2} bits set: finite, and an over-full block
   * holds more keys than any estimate can see.
   *
   * @param bitsSet set bits in the block
   * @param blockBits bits per block
   * @param numProbes probes per key, {@code k ≥ 1}
   * @return the estimated number of keys in the block
   */
  public static double blockedBloomBlockElementCount(int bitsSet, int blockBits, int numProbes) {
    return standardBloomElementCount(bitsSet, blockBits, numProbes);
  }

  /**
   * {@return the fraction of bits a standard Bloom filter leaves 0 after its keys: {@code
   * e^(-k/b)}}
   *
   * @param bitsPerKey bits per key, {@code b}
   * @param numProbes probes per key, {@code k ≥ 1}
   */
  public static double expectedFractionOfZeroBits(double bitsPerKey, int numProbes) {
    return Math.exp(-numProbes / bitsPerKey);
  }

  /**
   * The bits per key a standard Bloom filter needs for rate {@code f} at the optimal real {@code
   * k}: {@code log2(1/f) / ln 2}.
   *
   * @param fpRate the target rate {@code f}, in (0, 1)
   * @return bits per key
   */
  public static double standardBitsPerKeyForFpRate(double fpRate) {
    return informationFloorBitsPerKey(fpRate) / LN2;
  }

  /**
   * {@return the information-theoretic floor: {@code log2(1/f)} bits per key for rate {@code f}}
   *
   * @param fpRate the rate {@code f}
   */
  public static double informationFloorBitsPerKey(double fpRate) {
    return -Math.log(fpRate) / LN2;
  }

  /**
   * How many times the floor a structure spends: {@code bitsPerKey / log2(1/f)}. A standard Bloom
   * filter at optimal {@code k} gives {@code 1/ln 2 = 1.4427}.
   *
   * @param bitsPerKey bits per key, {@code b}
   * @param fpRate the structure's false-positive rate {@code f}
   * @return {@code NaN} where the floor is 0 or undefined ({@code f ≥ 1} or {@code f ≤ 0})
   */
  public static double overheadOverFloor(double bitsPerKey, double fpRate) {
    if (!(fpRate > 0.0 && fpRate < 1.0)) {
      return Double.NaN;
    }
    return bitsPerKey / informationFloorBitsPerKey(fpRate);
  }

  // ================================================================ Ribbon (branch ribbon)

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
   * r = c − p}. The hash-collision rate is not included ({@link #fingerprintFpRate} adds it).
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
    double c = Math.floor(informationFloorBitsPerKey(fpRate)) + 0.0; // -0.0 at f = 1 → 0.0
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
   * rate is not included ({@link #fingerprintFpRate} adds it).
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

  // ================================================================ end Ribbon

  // ==================================================================================
  // Xor, Binary Fuse and Cuckoo filters (dev.sieve.xor, dev.sieve.cuckoo; branch family)
  // ==================================================================================

  /**
   * The false-positive rate of a filter that stores one {@code r}-bit fingerprint per query
   * comparison and answers "maybe" when an absent key's fingerprint equals the xor of its slots
   * (Xor and Binary Fuse filters): {@code 2^-r}.
   *
   * <p>Derivation: for an absent key, the xor of its {@code k} slots is a value fixed by the other
   * keys, independent of the absent key's own fingerprint, which is uniform over {@code 2^r}
   * values. They match with probability {@code 2^-r}: 0.39% at {@code r = 8}, 0.0015% at {@code r =
   * 16}. (No value is reserved, so there is no {@code 1/(2^r - 1)} refinement here.)
   *
   * @param fingerprintBits bits per fingerprint, {@code r}
   * @return the false-positive rate
   */
  public static double xorFingerprintFpRate(int fingerprintBits) {
    return Math.pow(0.5, fingerprintBits);
  }

  /**
   * The modelled FPR of an Xor or Binary Fuse filter over {@code keys} distinct 64-bit key hashes
   * with {@code r}-bit fingerprints: {@link #xorFingerprintFpRate} combined with the collision rate
   * of the 64-bit key hash ({@link #fingerprintFpRate} at 64 bits), as for the Bloom filters.
   *
   * @param keys distinct keys
   * @param fingerprintBits bits per fingerprint, {@code r}
   * @return the modelled false-positive rate
   */
  public static double xorFilterFpRate(long keys, int fingerprintBits) {
    if (keys <= 0) {
      return 0.0;
    }
    return independentProbabilitySum(
        xorFingerprintFpRate(fingerprintBits), fingerprintFpRate(keys, 64));
  }

  /**
   * Bits per key of a fingerprint table: {@code slots · r / n} ({@code 0} for no keys). For an Xor
   * filter {@code slots ≈ 1.23 n + 32}, for a Binary Fuse filter {@code slots ≈ }{@link
   * #binaryFuseSizeFactor}{@code · n}, for a Cuckoo filter {@code slots = 4 · buckets}.
   *
   * @param slots slots in the table
   * @param fingerprintBits bits per fingerprint, {@code r}
   * @param keys keys held, {@code n}
   * @return bits per key
   */
  public static double fingerprintTableBitsPerKey(long slots, int fingerprintBits, long keys) {
    return keys <= 0 ? 0.0 : (double) slots * fingerprintBits / keys;
  }

  /**
   * The Xor filter's slot count for {@code n} keys (Graf and Lemire 2019): {@code floor(1.23 n) +
   * 32}. A random 3-hypergraph with {@code m} vertices and {@code n} edges is peelable with high
   * probability when {@code m/n > 1.222} (the 2-core threshold), hence 1.23; the additive 32 keeps
   * small sets peelable. Space: {@code 1.23 · r} bits per key for large {@code n}, 1.23 times the
   * floor {@code log2(1/2^-r) = r}.
   *
   * @param keys keys, {@code n}
   * @return the slot count
   */
  public static long xorFilterSlots(long keys) {
    return (long) Math.floor(1.23 * keys) + 32;
  }

  /**
   * The Binary Fuse filter's size factor {@code slots / n} before rounding to whole segments (Graf
   * and Lemire 2022, section 4): for 3-wise {@code max(1.125, 0.875 + 0.25 · ln(10^6) / ln n)}, for
   * 4-wise {@code max(1.075, 0.77 + 0.305 · ln(600000) / ln n)}. The floors 1.125 and 1.075 are the
   * peeling thresholds of the spatially coupled ("fuse") hypergraphs plus a margin; the second term
   * adds room where {@code n} is small and the coupling has not taken hold. Worked: 3-wise at
   * {@code n = 10^7} gives 1.125, so 8-bit fingerprints cost 9.0 bits per key.
   *
   * @param arity 3 or 4
   * @param keys {@code n ≥ 2}
   * @return the size factor
   */
  public static double binaryFuseSizeFactor(int arity, long keys) {
    double lnN = Math.log((double) keys);
    if (arity == 3) {
      return Math.max(1.125, 0.875 + 0.25 * Math.log(1e6) / lnN);
    }
    if (arity == 4) {
      return Math.max(1.075, 0.77 + 0.305 * Math.log(600_000.0) / lnN);
    }
    throw new IllegalArgumentException("binary fuse arity must be 3 or 4, got " + arity);
  }

  /**
   * The Binary Fuse filter's segment length for {@code n} keys (Graf and Lemire 2022): a power of
   * two, {@code 2^floor(ln n / ln 3.33 + 2.25)} for 3-wise and {@code 2^floor(ln n / ln 2.91 -
   * 0.5)} for 4-wise, at most {@code 2^18} and at least 4. Segments much shorter than this fail to
   * peel; much longer ones lose the coupling that lets the size factor drop below the Xor filter's
   * 1.23.
   *
   * @param arity 3 or 4
   * @param keys keys, {@code n}
   * @return the segment length
   */
  public static int binaryFuseSegmentLength(int arity, long keys) {
    if (keys <= 1) {
      return 4;
    }
    double lnN = Math.log((double) keys);
    double log2;
    if (arity == 3) {
      log2 = Math.floor(lnN / Math.log(3.33) + 2.25);
    } else if (arity == 4) {
      log2 = Math.floor(lnN / Math.log(2.91) - 0.5);
    } else {
      throw new IllegalArgumentException("binary fuse arity must be 3 or 4, got " + arity);
    }
    return 1 << (int) Math.max(2, Math.min(18, log2));
  }

  /**
   * The false-positive rate of a Cuckoo filter (Fan et al. 2014) with {@code f}-bit fingerprints,
   * {@code b} slots per bucket and load {@code α} (the fraction of slots in use): {@code 1 - (1 -
   * 1/(2^f - 1))^(2bα) ≈ 2bα / (2^f - 1)}.
   *
   * <p>Derivation: a query compares the absent key's fingerprint with the occupied slots of its two
   * buckets, {@code 2bα} of them on average; fingerprint value 0 marks an empty slot, so
   * fingerprints are uniform over the {@code 2^f - 1} nonzero values and each comparison matches
   * with probability {@code 1/(2^f - 1)}. Worked: {@code f = 12, b = 4, α = 0.95 → 0.19%}.
   *
   * @param fingerprintBits bits per fingerprint, {@code f}
   * @param slotsPerBucket slots per bucket, {@code b}
   * @param load the fraction of slots in use, {@code α}
   * @return the false-positive rate
   */
  public static double cuckooFpRate(int fingerprintBits, int slotsPerBucket, double load) {
    double perSlot = 1.0 / ((1L << fingerprintBits) - 1);
    return -Math.expm1(2.0 * slotsPerBucket * load * Math.log1p(-perSlot));
  }

  /**
   * The modelled FPR of a Cuckoo filter holding {@code keys} fingerprints in {@code slots} slots:
   * {@link #cuckooFpRate} at load {@code keys / slots}, combined with the 64-bit key hash's
   * collision rate.
   *
   * @param keys fingerprints held
   * @param slots slots in the table
   * @param fingerprintBits bits per fingerprint
   * @param slotsPerBucket slots per bucket
   * @return the modelled false-positive rate
   */
  public static double cuckooFilterFpRate(
      long keys, long slots, int fingerprintBits, int slotsPerBucket) {
    if (keys <= 0 || slots <= 0) {
      return 0.0;
    }
    return independentProbabilitySum(
        cuckooFpRate(fingerprintBits, slotsPerBucket, (double) keys / slots),
        fingerprintFpRate(keys, 64));
  }

  // ======================= end of the Xor, Binary Fuse and Cuckoo block =======================

  // ---- rocksdb interop (branch rocksdb): the legacy (format_version < 5) Bloom model ----

  /**
   * RocksDB's model of its legacy cache-local Bloom filter (format_version 2..4, {@code
   * LegacyLocalityBloomImpl<false>::EstimatedFpRate}, util/bloom_impl.h): the cache-local rate at
   * 512-bit lines plus {@code 0.1 / (0.75·b + 22)}, an empirical correction for the probes that all
   * derive from the same 32 hash bits as the line choice, combined with the collision rate of the
   * 32-bit key hash ({@link #fingerprintFpRate} at 32 bits). Worked: 10 bits/key, 6 probes gives
   * about 0.95% + 0.34% ≈ 1.3% before the hash collisions.
   *
   * @param numProbes probes per key, {@code k ≥ 1}
   * @param keys number of (distinct-hash) keys added, {@code > 0}, else the rate is 0
   * @param dataBytes data bytes, trailer excluded
   * @return the modelled false-positive rate
   */
  public static double legacyLocalityBloomFpRate(long keys, long dataBytes, int numProbes) {
    if (keys <= 0) {
      return 0.0;
    }
    double bitsPerKey = 8.0 * dataBytes / keys;
    double filterRate =
        cacheLocalFpRate(bitsPerKey, numProbes, CACHE_LINE_BITS) + 0.1 / (bitsPerKey * 0.75 + 22);
    return independentProbabilitySum(filterRate, fingerprintFpRate(keys, 32));
  }

  // ---- end rocksdb interop ----

  // ---- bench: the exact Poisson model of a blocked Bloom filter (used by sieve-bench's report)

  /**
   * The false-positive rate of a blocked Bloom filter with {@code blockBits}-bit blocks, averaged
   * exactly over the Poisson distribution of keys per block, where {@link #cacheLocalFpRate} uses
   * RocksDB's two-point (mean ± one standard deviation) approximation.
   *
   * <p>Derivation: keys per block are Poisson with mean {@code λ = blockBits / b}. A block holding
   * {@code j} keys has each of its bits still 0 with probability {@code (1 - 1/B)^(jk)}, so an
   * absent key whose {@code k} probes fall in it matches with probability {@code (1 - (1 -
   * 1/B)^(jk))^k}; the absent key's block is a uniform block, so the rate is {@code Σ_j Poisson(j;
   * λ) · (1 - (1 - 1/B)^(jk))^k}. Probes are treated as independent and uniform within the block
   * (RocksDB's probes are distinct-ish, not exactly independent). Worked: {@code b=10, k=6, B=512 →
   * 0.93%} against the two-point model's 0.95%.
   *
   * @param bitsPerKey {@code b > 0}
   * @param numProbes {@code k ≥ 1}
   * @param blockBits {@code B ≥ 1}
   * @return the false-positive rate
   */
  public static double poissonBlockedFpRate(double bitsPerKey, int numProbes, int blockBits) {
    if (!(bitsPerKey > 0.0) || numProbes < 1 || blockBits < 1) {
      throw new IllegalArgumentException(
          "need bitsPerKey > 0, numProbes >= 1, blockBits >= 1; got "
              + bitsPerKey
              + ", "
              + numProbes
              + ", "
              + blockBits);
    }
    double lambda = blockBits / bitsPerKey;
    double logZeroPerProbe = Math.log1p(-1.0 / blockBits);
    return poissonExpectation(
        lambda, j -> Math.pow(-Math.expm1(j * numProbes * logZeroPerProbe), numProbes));
  }

  /**
   * {@code E[g(J)]} for {@code J ~ Poisson(λ)}, the sum the blocked models above and below share,
   * in a bounded number of steps for every {@code λ}.
   *
   * <p>Only the terms within {@code 12√λ + 20} of {@code λ} are summed: the Poisson tails beyond
   * hold less than {@code e^-72} of the mass, and since every {@code g} here is a probability that
   * grows with the load, the terms below the window weigh less than their share of the mass against
   * the sum. The first term's pmf is computed directly in log space ({@link #logPoissonPmf},
   * Stirling's series with Loader's deviance), the later ones by the recurrence {@code ln p(j) = ln
   * p(j−1) + ln(λ/j)}, which is what the models summed from {@code j = 0} before; below {@code λ ≈
   * 180} the window starts at 0 and the sum is the same.
   *
   * <p>Where the window holds more than {@code 24 · 32} terms ({@code λ ≥ 1024}) it is sampled
   * every {@code h = ⌊√λ / 8⌋} terms, each sample weighted {@code h}, with its pmf from {@link
   * #logPoissonPmf}: the summand is smooth on the scale of the standard deviation {@code √λ}, and
   * by the Poisson summation formula a step-{@code h} sum of a function of width {@code σ} differs
   * from the step-1 sum by about {@code e^(-2π²σ²/h²) = e^-1263}, far below rounding. That bounds
   * the work at about 200 evaluations of {@code g}. Where {@code λ > 2^50} (bits per key below
   * {@code 2^-41} of a block) the sum is {@code g(λ)}: every term of the window is saturated to 1
   * in double precision for these models. The result is clamped to {@code [0, 1]}.
   *
   * @param lambda the Poisson mean, {@code ≥ 0} or {@code +∞}
   * @param g the per-load value, a probability non-decreasing in the load
   */
  static double poissonExpectation(double lambda, java.util.function.DoubleUnaryOperator g) {
    if (Double.isNaN(lambda) || lambda < 0) {
      throw new IllegalArgumentException("Poisson mean must be >= 0, got " + lambda);
    }
    if (lambda > 0x1p50) {
      return clampProbability(g.applyAsDouble(lambda));
    }
    double sigma = Math.sqrt(lambda);
    double reach = 12 * sigma + 20;
    long first = (long) Math.max(0.0, Math.floor(lambda - reach));
    long last = (long) Math.ceil(lambda + reach);
    double sum = 0.0;
    if (sigma < 32) {
      double logPoisson = logPoissonPmf(first, lambda);
      for (long j = first; j <= last; j++) {
        if (j > first) {
          logPoisson += Math.log(lambda / j);
        }
        sum += Math.exp(logPoisson) * g.applyAsDouble(j);
      }
    } else {
      long step = (long) Math.floor(sigma / 8);
      for (long j = first; j <= last; j += step) {
        sum += Math.exp(logPoissonPmf(j, lambda)) * g.applyAsDouble(j);
      }
      sum *= step;
    }
    return clampProbability(sum);
  }

  private static double clampProbability(double p) {
    return Math.max(0.0, Math.min(1.0, p));
  }

  /**
   * {@code ln(e^-λ λ^j / j!)}, accurate to about {@code 1e-13} absolute for every {@code j ≥ 0} and
   * {@code λ ≥ 0}: exact sums of logarithms below {@code j = 16}; above, Stirling's series {@code
   * ln j! = j ln j − j + ½ ln(2πj) + 1/(12j) − 1/(360j³) + 1/(1260j⁵) − 1/(1680j⁷)} with the large
   * terms gathered into the deviance {@code j ln(j/λ) + λ − j} (C. Loader, "Fast and Accurate
   * Computation of Binomial Probabilities", 2000), which is evaluated by its series in {@code v =
   * (j − λ)/(j + λ)} near the mean so that no two large numbers cancel.
   */
  static double logPoissonPmf(long j, double lambda) {
    if (lambda == 0) {
      return j == 0 ? 0.0 : Double.NEGATIVE_INFINITY;
    }
    if (j < 16) {
      double logFactorial = 0;
      for (int i = 2; i <= j; i++) {
        logFactorial += Math.log(i);
      }
      return -lambda + j * Math.log(lambda) - logFactorial;
    }
    double x = j;
    double inv = 1.0 / x;
    double inv2 = inv * inv;
    double stirlingTail =
        inv * (1.0 / 12 - inv2 * (1.0 / 360 - inv2 * (1.0 / 1260 - inv2 * (1.0 / 1680))));
    return -poissonDeviance(x, lambda) - 0.5 * Math.log(2 * Math.PI * x) - stirlingTail;
  }

  /** {@code x ln(x/μ) + μ − x ≥ 0}, by its series in {@code v = (x − μ)/(x + μ)} where small. */
  private static double poissonDeviance(double x, double mu) {
    double diff = x - mu;
    double sum = x + mu;
    if (Math.abs(diff) < 0.1 * sum) {
      double v = diff / sum;
      double v2 = v * v;
      double term = 2 * x * v;
      double total = diff * v;
      for (int k = 1; k < 40; k++) {
        term *= v2;
        double next = total + term / (2 * k + 1);
        if (next == total) {
          break;
        }
        total = next;
      }
      return total;
    }
    return x * Math.log(x / mu) + mu - x;
  }

  // ---------------------------------------------------------------- Parquet's split-block Bloom

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
   * little against eight probes anywhere in the block ({@link #poissonBlockedFpRate} with {@code B
   * = 256, k = 8}), because two values can never share a bit by landing in different words; the
   * block of 32 bytes costs more than RocksDB's 64-byte line (more spread in the load per block).
   * Worked: at 10 bits/value, 1.26% (a standard Bloom filter at k = 8: 0.85%; RocksDB's 512-bit
   * blocked Bloom at 6 probes: 0.95%); at 16 bits/value, 0.132%.
   *
   * @param bitsPerKey {@code b > 0}: bits of filter per distinct value
   */
  public static double splitBlockFpRate(double bitsPerKey) {
    if (!(bitsPerKey > 0.0) || Double.isInfinite(bitsPerKey)) {
      throw new IllegalArgumentException("need finite bitsPerKey > 0; got " + bitsPerKey);
    }
    double lambda = SPLIT_BLOCK_BITS / bitsPerKey;
    double logZero = Math.log(31.0 / 32.0);
    return poissonExpectation(lambda, j -> Math.pow(-Math.expm1(j * logZero), 8));
  }

  /**
   * The FPR of a split-block Bloom filter of {@code bytes} bytes over {@code distinctValues}
   * distinct values: {@link #splitBlockFpRate} combined with the collision rate of the 64-bit value
   * hash (XXH64), {@link #fingerprintFpRate}; 0 for no values.
   */
  public static double splitBlockBloomFpRate(long distinctValues, long bytes) {
    if (distinctValues <= 0) {
      return 0.0;
    }
    return independentProbabilitySum(
        splitBlockFpRate(8.0 * bytes / distinctValues), fingerprintFpRate(distinctValues, 64));
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

  // ---- end bench

  // ---------------------------------------------------------------- RocksDB's Bloom settings

  /**
   * RocksDB's conversion of a bits/key setting to thousandths of a bit ({@code
   * BloomLikeFilterPolicy}): {@code (int) (bits · 1000 + 0.500001)}, the nudge making three-decimal
   * settings exact on every platform. The caller range-checks {@code bitsPerKey}.
   *
   * @param bitsPerKey bits per key
   * @return thousandths of a bit per key
   */
  public static int rocksDbMillibitsPerKey(double bitsPerKey) {
    return (int) (bitsPerKey * 1000.0 + 0.500001);
  }

  /**
   * RocksDB's FastLocalBloom probe count for a setting in thousandths of a bit per key ({@code
   * FastLocalBloomImpl::ChooseNumProbes}): the most accurate count measured for each range, up to
   * 24 probes. The Bloom filter and the Ribbon filter's bloom-equivalent sizing both use it.
   *
   * @param millibitsPerKey thousandths of a bit per key
   * @return the probe count, 1 to 24
   */
  public static int fastLocalBloomNumProbes(int millibitsPerKey) {
    if (millibitsPerKey <= 2080) {
      return 1;
    } else if (millibitsPerKey <= 3580) {
      return 2;
    } else if (millibitsPerKey <= 5100) {
      return 3;
    } else if (millibitsPerKey <= 6640) {
      return 4;
    } else if (millibitsPerKey <= 8300) {
      return 5;
    } else if (millibitsPerKey <= 10070) {
      return 6;
    } else if (millibitsPerKey <= 11720) {
      return 7;
    } else if (millibitsPerKey <= 14001) {
      return 8;
    } else if (millibitsPerKey <= 16050) {
      return 9;
    } else if (millibitsPerKey <= 18300) {
      return 10;
    } else if (millibitsPerKey <= 22001) {
      return 11;
    } else if (millibitsPerKey <= 25501) {
      return 12;
    } else if (millibitsPerKey > 50000) {
      return 24;
    } else {
      return (millibitsPerKey - 1) / 2000 - 1;
    }
  }

  // ---------------------------------------------------------------- growable (scalable) Bloom

  /** The most probes {@link #blockedBloomFpRateWithProbeCollisions} models (its work is k²). */
  public static final int MAX_MODEL_PROBES = 1024;

  /**
   * The false-positive rate of a blocked Bloom filter with {@code blockBits}-bit blocks, {@code b}
   * bits per key and {@code k} probes per key placed uniformly inside the key's block, counting the
   * collisions of a key's own probes: the keys per block are Poisson with mean {@code λ = B/b}; a
   * block of {@code j} keys has each bit set with probability {@code s_j = 1 − (1 − 1/B)^(jk)}; a
   * query's {@code k} probes cover {@code D} distinct bits, {@code P(D = d)} from the occupancy
   * recursion over {@code k} uniform draws, and all are set with probability about {@code s_j^d}.
   * So {@code FPR = Σ_j Pois(j; λ) Σ_d P(D = d) · s_j^d}.
   *
   * <p>{@link #cacheLocalFpRate} (RocksDB's two-point rule) and {@link #poissonBlockedFpRate}
   * (which treats the {@code k} probes as {@code k} distinct bits) both underestimate the rate
   * where {@code k} is large: a query with two probes on one bit tests one bit fewer, and at {@code
   * k = 13} that happens to about one query in six. Measured on FastLocalBloom (2·10^5 keys,
   * RocksDB's sizing for the rate): at 15.4 bits/key and 9 probes 0.1115% (this model 0.1109%,
   * cache-local 0.1000%); at 21.5 bits/key and 11 probes 0.01275% (0.01292%, 0.00999%); at 28.1
   * bits/key and 13 probes 0.00165% (0.00175%, 0.00100%). The growable filter sizes its stages with
   * it ({@code ScalableBloomFilter}), because the sum of its stages' rates is a promise.
   */
  public static double blockedBloomFpRateWithProbeCollisions(
      double bitsPerKey, int numProbes, int blockBits) {
    if (!(bitsPerKey > 0.0) || numProbes < 1 || blockBits < 1) {
      throw new IllegalArgumentException(
          "need bitsPerKey > 0, numProbes >= 1, blockBits >= 1; got "
              + bitsPerKey
              + ", "
              + numProbes
              + ", "
              + blockBits);
    }
    if (numProbes > MAX_MODEL_PROBES) {
      throw new IllegalArgumentException(
          "this model takes at most " + MAX_MODEL_PROBES + " probes; got " + numProbes);
    }
    double[] distinct = new double[numProbes + 1];
    distinct[0] = 1.0;
    for (int draw = 0; draw < numProbes; draw++) {
      for (int d = Math.min(draw + 1, numProbes); d >= 0; d--) {
        double stay = distinct[d] * d / blockBits;
        double arrive = d > 0 ? distinct[d - 1] * (blockBits - (d - 1)) / (double) blockBits : 0;
        distinct[d] = stay + arrive;
      }
    }
    double lambda = blockBits / bitsPerKey;
    double logZeroPerProbe = Math.log1p(-1.0 / blockBits);
    return poissonExpectation(
        lambda,
        j -> {
          double set = -Math.expm1(j * numProbes * logZeroPerProbe);
          double all = 0;
          double power = 1;
          for (int d = 0; d <= numProbes; d++) {
            all += distinct[d] * power;
            power *= set;
          }
          return all;
        });
  }

  /**
   * The false-positive rate stage {@code i} of a scalable Bloom filter is sized for: {@code f · (1
   * − r) · r^i}, so the rates of all stages, however many are ever opened, sum to at most {@code f}
   * (a geometric series: {@code f · (1 − r) · Σ r^i = f}). Computed as the product {@code f · (1 −
   * r) · r · r · …} ({@code i} factors of {@code r}), so every platform gets the same double.
   *
   * <p>Almeida, Baquero, Preguiça, Hutchison, "Scalable Bloom Filters" (IPL 101(6), 2007), section
   * 4: their {@code P0 · r^i} with {@code P0 = f · (1 − r)}.
   *
   * @param fpRate the requested rate of the whole chain, {@code f} in (0, 1)
   * @param tighteningRatio {@code r} in (0, 1)
   * @param stage {@code i ≥ 0}
   */
  public static double scalableStageFpRate(double fpRate, double tighteningRatio, int stage) {
    if (!(fpRate > 0 && fpRate < 1) || !(tighteningRatio > 0 && tighteningRatio < 1) || stage < 0) {
      throw new IllegalArgumentException(
          "need fpRate and tighteningRatio in (0, 1) and stage >= 0; got "
              + fpRate
              + ", "
              + tighteningRatio
              + ", "
              + stage);
    }
    double p = fpRate * (1.0 - tighteningRatio);
    for (int i = 0; i < stage; i++) {
      p *= tighteningRatio;
    }
    return p;
  }

  /**
   * The bound on the false-positive rate of a scalable Bloom filter with {@code stages} stages,
   * each at most at its {@link #scalableStageFpRate}: {@code 1 − Π(1 − f_i) ≤ Σ f_i = f · (1 − r^m)
   * < f} (an absent key is a false positive when any stage answers "maybe").
   */
  public static double scalableChainFpRateBound(double fpRate, double tighteningRatio, int stages) {
    double notFp = 1.0;
    for (int i = 0; i < stages; i++) {
      notFp *= 1.0 - scalableStageFpRate(fpRate, tighteningRatio, i);
    }
    return 1.0 - notFp;
  }

  /**
   * The key capacity of stage {@code i} of a scalable Bloom filter: {@code c_0 = n0}, {@code
   * c_{i+1} = ceil(c_i · s)} (exact IEEE arithmetic, so every platform and every reader derives the
   * same sequence), saturating at {@code Long.MAX_VALUE / 2}. With {@code s ≥ 1.25} every stage is
   * larger than the one before. The capacity of stages {@code 0..m−1} together is about {@code n0 ·
   * (s^m − 1) / (s − 1)}, so {@code N} keys open about {@code log_s(N (s − 1) / n0)} stages.
   */
  public static long scalableStageCapacity(long initialCapacity, double growthFactor, int stage) {
    if (initialCapacity < 1 || !(growthFactor > 1) || stage < 0) {
      throw new IllegalArgumentException(
          "need initialCapacity >= 1, growthFactor > 1, stage >= 0; got "
              + initialCapacity
              + ", "
              + growthFactor
              + ", "
              + stage);
    }
    long c = initialCapacity;
    for (int i = 0; i < stage; i++) {
      double next = Math.ceil(c * growthFactor);
      c = next >= Long.MAX_VALUE / 2 ? Long.MAX_VALUE / 2 : (long) next;
    }
    return c;
  }

  /**
   * The memory of a scalable Bloom filter over that of a single filter sized right for its key
   * count, just after stage {@code m} opened (the worst moment): the chain then holds about {@code
   * N = n0 (s^m − 1)/(s − 1)} keys in {@code Σ_{i≤m} c_i · b(f_i)} bits, against {@code N · b(f)},
   * where {@code b(p) ≈ log2(1/p) / ln 2} bits per key (a Bloom filter at its optimal probe count).
   * For large {@code m} this tends to {@code s · b(f_m) / b(f)} with {@code log2(1/f_m) = log2(1/f)
   * + log2(1/(1 − r)) + m · log2(1/r)}: the growth factor times the tightening tax of the newest
   * stage, a tax that grows by {@code log2(1/r)/ln 2} bits per key per stage.
   */
  public static double scalableWorstMemoryRatio(
      double fpRate, double growthFactor, double tighteningRatio, int newestStage) {
    double chainBits = 0;
    double keysBefore = 0;
    for (int i = 0; i <= newestStage; i++) {
      double capacity = Math.pow(growthFactor, i);
      double bits =
          capacity * standardBitsPerKeyForFpRate(scalableStageFpRate(fpRate, tighteningRatio, i));
      chainBits += bits;
      if (i < newestStage) {
        keysBefore += capacity;
      }
    }
    double keys = Math.max(1.0, keysBefore);
    return chainBits / (keys * standardBitsPerKeyForFpRate(fpRate));
  }
}
