package dev.sieve.math;

/**
 * The models of the growable (scalable) Bloom filter ({@code dev.sieve.bloom.ScalableBloomFilter}):
 * how its stages are sized, what rate the whole chain keeps, and what the growth costs in memory.
 *
 * <h2>The idea</h2>
 *
 * A scalable Bloom filter needs no key count up front: when its newest stage has taken its capacity
 * it opens a larger one, {@code s} times the last ({@link #scalableStageCapacity}), and an absent
 * key is a false positive when any stage answers "maybe". So that the rates of all stages, however
 * many open, sum to at most the requested {@code f}, stage {@code i} is sized for the rate {@code f
 * · (1 − r) · r^i} ({@link #scalableStageFpRate}, {@link #scalableChainFpRateBound}). The rate is a
 * promise here, not an estimate, so each stage is sized with a blocked Bloom model that does not
 * underestimate at the large probe counts the tight stages need: {@link
 * #blockedBloomFpRateWithProbeCollisions} counts the collisions of a key's own probes, which
 * RocksDB's two-point rule ({@link BloomMath#cacheLocalFpRate}) and the plain Poisson average
 * ({@link BloomMath#poissonBlockedFpRate}) leave out. The price of not knowing the key count is the
 * memory just after a stage opened, against one filter sized right ({@link
 * #scalableWorstMemoryRatio}).
 *
 * <p>References: P. S. Almeida, C. Baquero, N. Preguiça, D. Hutchison, "Scalable Bloom Filters",
 * Information Processing Letters 101(6), 2007; RocksDB util/bloom_impl.h for the stages.
 */
public final class GrowthMath {
  private GrowthMath() {}

  /** The most probes {@link #blockedBloomFpRateWithProbeCollisions} models (its work is k²). */
  static final int MAX_MODEL_PROBES = 1024;

  /**
   * The false-positive rate of a blocked Bloom filter with {@code blockBits}-bit blocks, {@code b}
   * bits per key and {@code k} probes per key placed uniformly inside the key's block, counting the
   * collisions of a key's own probes: the keys per block are Poisson with mean {@code λ = B/b}; a
   * block of {@code j} keys has each bit set with probability {@code s_j = 1 − (1 − 1/B)^(jk)}; a
   * query's {@code k} probes cover {@code D} distinct bits, {@code P(D = d)} from the occupancy
   * recursion over {@code k} uniform draws, and all are set with probability about {@code s_j^d}.
   * So {@code FPR = Σ_j Pois(j; λ) Σ_d P(D = d) · s_j^d}.
   *
   * <p>{@link BloomMath#cacheLocalFpRate} (RocksDB's two-point rule) and {@link
   * BloomMath#poissonBlockedFpRate} (which treats the {@code k} probes as {@code k} distinct bits)
   * both underestimate the rate where {@code k} is large: a query with two probes on one bit tests
   * one bit fewer, and at {@code k = 13} that happens to about one query in six. Measured on
   * FastLocalBloom (2·10^5 keys, RocksDB's sizing for the rate): at 15.4 bits/key and 9 probes
   * 0.1115% (this model 0.1109%, cache-local 0.1000%); at 21.5 bits/key and 11 probes 0.01275%
   * (0.01292%, 0.00999%); at 28.1 bits/key and 13 probes 0.00165% (0.00175%, 0.00100%). The
   * growable filter sizes its stages with it ({@code ScalableBloomFilter}), because the sum of its
   * stages' rates is a promise.
   */
  public static double blockedBloomFpRateWithProbeCollisions(
      double bitsPerKey, int numProbes, int blockBits) {
    PoissonSums.checkBlockShape(bitsPerKey, numProbes, blockBits);
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
    return PoissonSums.expectation(
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
    long cap = Long.MAX_VALUE / 2;
    long c = initialCapacity;
    for (int i = 0; i < stage; i++) {
      double next = Math.ceil(c * growthFactor);
      c = next >= cap ? cap : (long) next;
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
          capacity
              * BloomMath.standardBitsPerKeyForFpRate(
                  scalableStageFpRate(fpRate, tighteningRatio, i));
      chainBits += bits;
      if (i < newestStage) {
        keysBefore += capacity;
      }
    }
    double keys = Math.max(1.0, keysBefore);
    return chainBits / (keys * BloomMath.standardBitsPerKeyForFpRate(fpRate));
  }
}
