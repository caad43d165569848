package dev.sieve.cuckoo;

import static dev.sieve.cuckoo.CuckooFilter.DESIGN_LOAD;
import static dev.sieve.cuckoo.CuckooFilter.SLOTS_PER_BUCKET;

import dev.sieve.KeyScheme;
import dev.sieve.internal.LongKeyBlocks;
import dev.sieve.internal.base.Checks;
import dev.sieve.math.FingerprintMath;

/**
 * The sizing, the checks and the build steps of {@link CuckooFilter} and its builder; the public
 * class and its {@link CuckooFilterBuilder} hold the API (and its documentation) and delegate here.
 */
final class CuckooBuild {
  /** The smallest and largest fingerprint widths. */
  static final int MIN_FINGERPRINT_BITS = 4;

  static final int MAX_FINGERPRINT_BITS = 16;

  /** The fewest buckets {@link #bucketsFor} gives (see {@link CuckooFilter}'s sizing). */
  static final int MIN_BUCKETS = 16;

  /** The extra buckets per square root of the expected keys {@link #bucketsFor} adds. */
  static final double SLACK_BUCKETS_PER_SQRT_KEY = 1.5;

  /** The most buckets one filter has. */
  static final int MAX_BUCKETS = 1 << 30;

  private CuckooBuild() {}

  /**
   * The buckets {@link CuckooFilter#createWithFingerprintBits} gives {@code expectedKeys} keys:
   * {@code max(}{@value #MIN_BUCKETS}{@code , ceil(expectedKeys / (4 · 0.95) + 1.5 ·
   * sqrt(expectedKeys)))}, at most {@link #MAX_BUCKETS} (near that limit the margin shrinks to
   * fit).
   */
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

  /**
   * {@return the fingerprint width for an FPR of at most {@code fpRate} at the design load} The
   * narrowest fingerprint in [4, 16] bits with {@link FingerprintMath#cuckooFpRate}{@code (f, 4,
   * 0.95) ≤ fpRate}.
   *
   * @throws IllegalArgumentException if even 16-bit fingerprints give a higher rate (below about
   *     0.0116%), or {@code fpRate} is not in (0, 1)
   */
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

  /** An empty filter of exactly {@code numBuckets} buckets, at most {@link #MAX_BUCKETS}. */
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
   * The table is the one {@link CuckooFilter#addHashIfAbsent} of each hash in turn gives ({@link
   * CuckooBulkAdd}), filled with plain writes before the filter is made.
   */
  static CuckooFilter build(long[] hashes, int count, int fingerprintBits) {
    return build(hashes, count, null, fingerprintBits);
  }

  /**
   * {@link #build(long[], int, int)} of the keys' hashes by {@code scheme}, hashed a block at a
   * time ({@link LongKeyBlocks}) as they are added.
   */
  static CuckooFilter buildFromKeys(long[] keys, KeyScheme scheme, int fingerprintBits) {
    return build(keys, keys.length, scheme, fingerprintBits);
  }

  /** The build from hashes, or from keys hashed by {@code scheme} where it is not null. */
  private static CuckooFilter build(
      long[] source, int count, KeyScheme scheme, int fingerprintBits) {
    checkFingerprintBits(fingerprintBits);
    long buckets = bucketsFor(count);
    long[] scratch = scheme == null ? null : LongKeyBlocks.scratch(count);
    while (true) {
      int numBuckets = (int) buckets; // at least MIN_BUCKETS, at most MAX_BUCKETS
      long[] words = new long[CuckooKernel.wordsFor(numBuckets, fingerprintBits)];
      CuckooBulkAdd adds = new CuckooBulkAdd(words, numBuckets, fingerprintBits);
      boolean fits = true;
      if (scheme == null) {
        fits = adds.add(source, count);
      } else {
        for (int off = 0; fits && off < count; off += scratch.length) {
          int len = Math.min(scratch.length, count - off);
          scheme.hash(source, off, len, scratch, 0);
          fits = adds.add(scratch, len);
        }
      }
      if (fits) {
        return new CuckooFilter(words, null, numBuckets, fingerprintBits, adds.stored());
      }
      if (buckets >= MAX_BUCKETS) {
        throw new IllegalArgumentException(
            count + " keys do not fit in the largest table, " + MAX_BUCKETS + " buckets");
      }
      buckets = Math.min(MAX_BUCKETS, buckets + Math.max(1, buckets / 8));
    }
  }
}
