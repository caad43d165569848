package dev.sieve.cuckoo;

import static dev.sieve.cuckoo.CuckooFilter.DESIGN_LOAD;
import static dev.sieve.cuckoo.CuckooFilter.MAX_BUCKETS;
import static dev.sieve.cuckoo.CuckooFilter.MAX_FINGERPRINT_BITS;
import static dev.sieve.cuckoo.CuckooFilter.MIN_BUCKETS;
import static dev.sieve.cuckoo.CuckooFilter.MIN_FINGERPRINT_BITS;
import static dev.sieve.cuckoo.CuckooFilter.SLACK_BUCKETS_PER_SQRT_KEY;
import static dev.sieve.cuckoo.CuckooFilter.SLOTS_PER_BUCKET;

import dev.sieve.internal.Checks;
import dev.sieve.math.FingerprintMath;

/**
 * The sizing, the checks and the build steps of {@link CuckooFilter} and its builder; the public
 * class and its {@link CuckooFilterBuilder} hold the API (and its documentation) and delegate here.
 */
final class CuckooBuild {
  private CuckooBuild() {}

  /** {@code CuckooFilter.bucketsFor}. */
  static int bucketsFor(long expectedKeys) {
    Checks.count(
        "expected keys",
        expectedKeys,
        (long) ((double) MAX_BUCKETS * SLOTS_PER_BUCKET * DESIGN_LOAD));
    double buckets =
        Math.ceil(
            expectedKeys / (SLOTS_PER_BUCKET * DESIGN_LOAD)
                + SLACK_BUCKETS_PER_SQRT_KEY * Math.sqrt((double) expectedKeys));
    return (int) Math.max(MIN_BUCKETS, Math.min(MAX_BUCKETS, buckets));
  }

  /** {@code CuckooFilter.fingerprintBitsForFpRate}. */
  static int fingerprintBitsForFpRate(double fpRate) {
    Checks.fpRate(fpRate);
    for (int f = MIN_FINGERPRINT_BITS; f <= MAX_FINGERPRINT_BITS; f++) {
      if (FingerprintMath.cuckooFpRate(f, SLOTS_PER_BUCKET, DESIGN_LOAD) <= fpRate) {
        return f;
      }
    }
    throw new IllegalArgumentException(
        "a cuckoo filter reaches at best "
            + FingerprintMath.cuckooFpRate(MAX_FINGERPRINT_BITS, SLOTS_PER_BUCKET, DESIGN_LOAD)
            + " (16-bit fingerprints at load 0.95), above the requested "
            + fpRate);
  }

  /** {@code CuckooFilter.withBuckets}: an empty filter of exactly {@code numBuckets} buckets. */
  static CuckooFilter withBuckets(int numBuckets, int fingerprintBits) {
    checkFingerprintBits(fingerprintBits);
    Checks.count("number of buckets", numBuckets, MAX_BUCKETS);
    if (numBuckets < 1) {
      throw new IllegalArgumentException("number of buckets must be at least 1, got 0");
    }
    return new CuckooFilter(
        new long[CuckooKernel.wordsFor(numBuckets, fingerprintBits)],
        null,
        numBuckets,
        fingerprintBits,
        0);
  }

  /** Refuses a fingerprint width outside [4, 16]. */
  static void checkFingerprintBits(int fingerprintBits) {
    if (fingerprintBits < MIN_FINGERPRINT_BITS || fingerprintBits > MAX_FINGERPRINT_BITS) {
      throw new IllegalArgumentException(
          "fingerprint bits must be in ["
              + MIN_FINGERPRINT_BITS
              + ", "
              + MAX_FINGERPRINT_BITS
              + "], got "
              + fingerprintBits);
    }
  }

  /**
   * The builder's build from hashes: each distinct hash stored once, in a table sized for {@code
   * count} keys, grown by one bucket in eight and started again on the rare set that does not fit.
   */
  static CuckooFilter build(long[] hashes, int count, int fingerprintBits) {
    long buckets = bucketsFor(count);
    while (true) {
      CuckooFilter f = withBuckets((int) buckets, fingerprintBits);
      int i = 0;
      while (i < count && (f.addHashIfAbsent(hashes[i]) || f.failedAdds() == 0)) {
        i++;
      }
      if (i == count) {
        return f;
      }
      if (buckets >= MAX_BUCKETS) {
        throw new IllegalArgumentException(
            count + " keys do not fit in the largest table, " + MAX_BUCKETS + " buckets");
      }
      buckets = Math.min(MAX_BUCKETS, buckets + Math.max(1, buckets / 8));
    }
  }
}
