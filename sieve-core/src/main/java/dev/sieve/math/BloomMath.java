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
   */
  public static double independentProbabilitySum(double rate1, double rate2) {
    return rate1 + rate2 - rate1 * rate2;
  }

  /**
   * The FPR RocksDB estimates for a FastLocalBloom filter of {@code bytes} data bytes over {@code
   * keys} keys: the cache-local rate at 512-bit lines combined with the collision rate of the
   * {@code hashBits}-bit key hash ({@code FastLocalBloomImpl::EstimatedFpRate}).
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
   */
  public static int optimalNumProbes(double bitsPerKey) {
    double real = bitsPerKey * LN2;
    int lo = Math.max(1, (int) Math.floor(real));
    int hi = lo + 1;
    return standardFpRate(bitsPerKey, hi) < standardFpRate(bitsPerKey, lo) ? hi : lo;
  }

  /** The fraction of bits a standard Bloom filter leaves 0 after its keys: {@code e^(-k/b)}. */
  public static double expectedFractionOfZeroBits(double bitsPerKey, int numProbes) {
    return Math.exp(-numProbes / bitsPerKey);
  }

  /**
   * The bits per key a standard Bloom filter needs for rate {@code f} at the optimal real {@code
   * k}: {@code log2(1/f) / ln 2}.
   */
  public static double standardBitsPerKeyForFpRate(double fpRate) {
    return informationFloorBitsPerKey(fpRate) / LN2;
  }

  /** The information-theoretic floor: {@code log2(1/f)} bits per key for rate {@code f}. */
  public static double informationFloorBitsPerKey(double fpRate) {
    return -Math.log(fpRate) / LN2;
  }

  /**
   * How many times the floor a structure spends: {@code bitsPerKey / log2(1/f)}. A standard Bloom
   * filter at optimal {@code k} gives {@code 1/ln 2 = 1.4427}.
   *
   * @return {@code NaN} where the floor is 0 or undefined ({@code f ≥ 1} or {@code f ≤ 0})
   */
  public static double overheadOverFloor(double bitsPerKey, double fpRate) {
    if (!(fpRate > 0.0 && fpRate < 1.0)) {
      return Double.NaN;
    }
    return bitsPerKey / informationFloorBitsPerKey(fpRate);
  }

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
    int last = (int) Math.ceil(lambda + 12 * Math.sqrt(lambda) + 20);
    double logPoisson = -lambda; // log of Poisson(0; λ)
    double sum = 0.0;
    for (int j = 0; j <= last; j++) {
      if (j > 0) {
        logPoisson += Math.log(lambda / j);
      }
      double setFraction = -Math.expm1((double) j * numProbes * logZeroPerProbe);
      sum += Math.exp(logPoisson) * Math.pow(setFraction, numProbes);
    }
    return sum;
  }
  // ---- end bench
}
