package dev.sieve.math;

/**
 * The false-positive and size models of the fingerprint filters: Xor and Binary Fuse ({@code
 * dev.sieve.xor}) and Cuckoo ({@code dev.sieve.cuckoo}).
 *
 * <h2>The idea</h2>
 *
 * Each of these stores one {@code r}-bit fingerprint per slot and answers "maybe" when an absent
 * key's fingerprint equals what its slots hold: the xor of its three or four slots (Xor, Binary
 * Fuse), or one of the occupied slots of its two buckets (Cuckoo). The rate is set by the
 * fingerprint width alone, {@code 2^-r} for the xor filters ({@link #xorFingerprintFpRate}) and
 * about {@code 2bα / (2^r - 1)} for a Cuckoo filter at load {@code α} ({@link #cuckooFpRate}); the
 * space is {@code r} bits times the slots per key, {@code slots · r / n}. The slots per key come
 * from the peeling threshold of the random hypergraph the construction must peel: 1.23 for the Xor
 * filter ({@link #xorFilterSlots}), 1.075 to 1.125 plus a small-set margin for the spatially
 * coupled Binary Fuse layout ({@link #binaryFuseSizeFactor}, {@link #binaryFuseSegmentLength}), and
 * the inverse of the load a Cuckoo table reaches before its kicks fail (about 0.95 at 4 slots per
 * bucket). The {@code …FilterFpRate} forms add the collision rate of the 64-bit key hash ({@link
 * BloomMath#fingerprintFpRate}), as for the Bloom filters.
 *
 * <p>References: T. M. Graf and D. Lemire, "Xor Filters: Faster and Smaller Than Bloom and Cuckoo
 * Filters" (2019) and "Binary Fuse Filters: Fast and Smaller Than Xor Filters" (2022); B. Fan, D.
 * G. Andersen, M. Kaminsky, M. D. Mitzenmacher, "Cuckoo Filter: Practically Better Than Bloom"
 * (CoNEXT 2014).
 */
public final class FingerprintMath {
  private FingerprintMath() {}

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
   * of the 64-bit key hash ({@link BloomMath#fingerprintFpRate} at 64 bits), as for the Bloom
   * filters.
   *
   * @param keys distinct keys
   * @param fingerprintBits bits per fingerprint, {@code r}
   * @return the modelled false-positive rate
   */
  public static double xorFilterFpRate(long keys, int fingerprintBits) {
    if (keys <= 0) {
      return 0.0;
    }
    return BloomMath.independentProbabilitySum(
        xorFingerprintFpRate(fingerprintBits), BloomMath.fingerprintFpRate((double) keys, 64));
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
    return BloomMath.independentProbabilitySum(
        cuckooFpRate(fingerprintBits, slotsPerBucket, (double) keys / slots),
        BloomMath.fingerprintFpRate((double) keys, 64));
  }
}
