package dev.sieve.bloom;

import java.util.Arrays;

/**
 * The stages of a {@link ScalableBloomFilter} as one immutable snapshot, oldest first, and the
 * query over them, static, newest stage first.
 *
 * <h2>The query</h2>
 *
 * A present key is in one stage, stage {@code i} with probability about {@code c_i / N}: the
 * newest, largest stages hold most keys (at {@code s = 2} the newest and the one before hold about
 * three quarters), so asking the newest first finds a present key after about two stages on
 * average, against {@code m} oldest-first. An absent key is asked of every stage in either order
 * (it stops early only on a false positive); newest first also issues the likely cache misses of
 * the large stages first, so the small stages, in cache, are tested while those loads are in
 * flight. Each stage is asked by its own lookup ({@link BlockedBloomFilter#mayContainHash}); the
 * forms measured against it are below. A lookup per stage is the price of the chain: grown from a
 * guess of 10^3 to 10^8 keys it has 17 stages, and the growth section of the report measures its
 * lookups against a blocked Bloom filter sized right for the keys.
 *
 * <p>{@link #loopMayContain} asks each stage's own lookup in turn. Two other forms were measured
 * and give the same answers; they live on as an experiment in sieve-bench ({@code
 * dev.sieve.bench.ScalableQueryForms}, {@code GrowthQueryBenchmark}'s {@code queryForm}): two-pass
 * (first the word of the key's first probe in every stage, so the misses of all stages are in
 * flight at once, then the other probes of the stages whose first probe was set) and branch-free
 * (every probe of every stage ANDed). Measured at 10^8 keys (17 stages), each interleaved round by
 * round with a blocked Bloom filter sized right for the keys, the loop was the fastest of the
 * three, for absent and present keys; in cache all three cost about the same: a lookup per stage is
 * the price of the chain (README, "Filters that grow").
 */
final class ScalableBloomChain {
  final ScalableBloomStage[] stages;

  ScalableBloomChain(ScalableBloomStage[] stages) {
    this.stages = stages;
  }

  /** This chain with {@code next} opened after its newest stage. */
  ScalableBloomChain with(ScalableBloomStage next) {
    int m = stages.length;
    ScalableBloomStage[] longer = Arrays.copyOf(stages, m + 1);
    longer[m] = next;
    return new ScalableBloomChain(longer);
  }

  /** The sum of the stages' key counts. */
  long numKeys() {
    long n = 0;
    for (ScalableBloomStage s : stages) {
      n += s.keys();
    }
    return n;
  }

  /** The data bits of all stages. */
  long sizeInBits() {
    long bits = 0;
    for (ScalableBloomStage s : stages) {
      bits += s.filter.sizeInBits();
    }
    return bits;
  }

  /** {@code 1 − Π(1 − p_i)} over the stages' modelled rates {@code p_i}. */
  double modelledFpRate() {
    double notFp = 1.0;
    for (ScalableBloomStage s : stages) {
      notFp *= 1.0 - s.modelledFpRate();
    }
    return 1.0 - notFp;
  }

  /** The stages, each with its key count read once now, sharing their bits. */
  ScalableBloomStage[] frozen() {
    ScalableBloomStage[] out = new ScalableBloomStage[stages.length];
    for (int i = 0; i < stages.length; i++) {
      out[i] = stages[i].frozen();
    }
    return out;
  }

  /** Independent heap copies of the stages. */
  ScalableBloomStage[] copied() {
    ScalableBloomStage[] out = new ScalableBloomStage[stages.length];
    for (int i = 0; i < stages.length; i++) {
      out[i] = stages[i].copy();
    }
    return out;
  }

  // ---------------------------------------------------------------- query

  /** Each stage's own lookup, newest first; any chain, heap or wrapped. */
  static boolean loopMayContain(ScalableBloomChain c, long hash64) {
    ScalableBloomStage[] stages = c.stages;
    for (int i = stages.length - 1; i >= 0; i--) {
      if (stages[i].filter.mayContainHash(hash64)) {
        return true;
      }
    }
    return false;
  }
}
