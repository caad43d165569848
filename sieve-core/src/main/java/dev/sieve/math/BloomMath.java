package dev.sieve.math;

/**
 * The false-positive models of the Bloom filters, and the measures every family shares. Filters and
 * reports call these; no formula is re-derived elsewhere. The other families' models are in {@link
 * RibbonMath} (Standard and Bumped Ribbon), {@link FingerprintMath} (Xor, Binary Fuse, Cuckoo) and
 * {@link GrowthMath} (the scalable chain of Bloom stages).
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
 *
 * <h2>What is here</h2>
 *
 * <ul>
 *   <li>Shared by every family: the collision rate of the key hash ({@link #fingerprintFpRate}),
 *       the combination of two independent rates ({@link #independentProbabilitySum}) and the floor
 *       ({@link #informationFloorBitsPerKey}, {@link #overheadOverFloor}).
 *   <li>The standard Bloom filter: its rate {@code (1 - e^(-k/b))^k}, the optimal probe count, and
 *       the key count estimated from the set bits (Swamidass and Baldi 2007).
 *   <li>The blocked ("cache-local") Bloom filter, whose probes stay in one block: RocksDB's
 *       two-point model ({@link #cacheLocalFpRate}) and the exact Poisson average over the keys per
 *       block ({@link #poissonBlockedFpRate}); RocksDB's FastLocalBloom settings (its legacy
 *       format_version &lt; 5 model is sieve-rocksdb's, beside that filter). The model that also
 *       counts the collisions of a key's own probes, by which the growable filter sizes its stages,
 *       is {@link GrowthMath#blockedBloomFpRateWithProbeCollisions}.
 * </ul>
 *
 * Parquet's split-block Bloom filter (one bit in each of a block's eight 32-bit words, and
 * Parquet's sizing rule) has its models in {@link SplitBlockMath}, Sieve's two-word blocked Bloom
 * filter in {@link TwoWordMath}.
 *
 * <p>References: RocksDB util/bloom_impl.h ({@code BloomMath}, {@code FastLocalBloomImpl}, {@code
 * LegacyLocalityBloomImpl}) and table/block_based/filter_policy.cc; Putze, Sanders, Singler,
 * "Cache-, Hash- and Space-Efficient Bloom Filters" (2007).
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
        fingerprintFpRate((double) keys, hashBits));
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
        standardFpRate((double) bits / keys, numProbes), fingerprintFpRate((double) keys, 64));
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

  // ---------------------------------------------------------------- exact Poisson averages

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
    PoissonSums.checkBlockShape(bitsPerKey, numProbes, blockBits);
    double lambda = blockBits / bitsPerKey;
    double logZeroPerProbe = Math.log1p(-1.0 / blockBits);
    return PoissonSums.expectation(
        lambda, j -> Math.pow(-Math.expm1(j * numProbes * logZeroPerProbe), numProbes));
  }
}
