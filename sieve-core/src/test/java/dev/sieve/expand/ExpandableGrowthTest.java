package dev.sieve.expand;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Growth from the smallest table to {@value #KEYS} keys with no hint, at 1% and 0.1%. At every
 * doubling checkpoint (just before a doubling, the table at its fullest, when the rate is highest
 * for that size; and just after it, when the memory per key is highest): no false negative among
 * the keys added (a sample at checkpoints, all at the end); the measured false-positive count over
 * {@value #QUERIES} absent keys below the 99.9% Chernoff upper bound of a binomial at the target
 * rate {@code f} and at the modelled rate; the modelled rate at most the policy's bound at most
 * {@code f}; the slot width and bits per key exactly as {@link ExpandableFilter}'s model says.
 */
class ExpandableGrowthTest {
  static final int KEYS = 1_000_000;
  static final int QUERIES = 200_000;
  static final double CONFIDENCE_MISS = 0.001;

  static long mix(long x) {
    x = (x ^ (x >>> 30)) * 0xBF58_476D_1CE4_E5B9L;
    x = (x ^ (x >>> 27)) * 0x94D0_49BB_1331_11EBL;
    return x ^ (x >>> 31);
  }

  static long keyHash(long i) {
    return mix(i * 0x9E37_79B9_7F4A_7C15L + 17);
  }

  static long absentHash(long i) {
    return mix(i * 0x9E37_79B9_7F4A_7C15L + 0x5555_0000_0000_0000L);
  }

  /**
   * The 99.9% upper bound of a binomial count with mean {@code μ = n · p}, from the Chernoff bound
   * {@code P(X >= (1 + δ)μ) <= exp(−δ²μ / (2 + δ))}: {@code δ = (L + sqrt(L² + 8μL)) / (2μ)},
   * {@code L = ln(1 / 0.001)}.
   */
  static long upper(long n, double p) {
    double mu = n * p;
    double l = Math.log(1 / CONFIDENCE_MISS);
    double delta = (l + Math.sqrt(l * l + 8 * mu * l)) / (2 * mu);
    return (long) Math.ceil((1 + delta) * mu);
  }

  @ParameterizedTest
  @ValueSource(doubles = {0.01, 0.001})
  void growsWithTheRateBelowTargetAtEveryCheckpoint(double f) {
    ExpandableFilter filter = ExpandableFilter.builder().fpRate(f).create();
    int base = ExpandableMath.baseFingerprintBits(f);
    System.out.printf(
        "f=%s F=%d bound=%.6f%n%8s %4s %5s %10s %10s %10s %8s %9s %9s %8s%n",
        f,
        base,
        ExpandableMath.MAX_LOAD
            * Math.scalb(ExpandableMath.wideningSum(ExpandableMath.MAX_DOUBLINGS), -base),
        "keys",
        "dbl",
        "slotb",
        "measured",
        "modelled",
        "upper99.9",
        "load",
        "bits/key",
        "afterDbl",
        "voidCopies");
    long queryOffset = 0;
    for (long i = 0; i < KEYS; i++) {
      if (filter.entries() == ExpandableMath.maxEntries(filter.slots)) {
        queryOffset = checkpoint(filter, f, base, i, queryOffset);
      }
      filter.addHash(keyHash(i));
    }
    checkpoint(filter, f, base, KEYS, queryOffset);
    for (long i = 0; i < KEYS; i++) {
      assertTrue(filter.mayContainHash(keyHash(i)), "false negative, key " + i);
    }
  }

  private static long checkpoint(ExpandableFilter filter, double f, int base, long n, long off) {
    int doublings = filter.doublings();
    assertTrue(filter.width >= filter.fingerprintBits() + 3);
    assertTrue(filter.fingerprintBits() <= base + ExpandableMath.widening(doublings));
    long fp = 0;
    for (long q = 0; q < QUERIES; q++) {
      if (filter.mayContainHash(absentHash(off + q))) {
        fp++;
      }
    }
    double modelled = filter.modelledFpRate();
    assertTrue(modelled <= f, "model " + modelled);
    long upperAtTarget = upper(QUERIES, f);
    assertTrue(fp <= upperAtTarget, n + " keys: " + fp + " > " + upperAtTarget);
    assertTrue(fp <= upper(QUERIES, modelled), n + " keys: " + fp + " above the model " + modelled);
    for (long i = 0; i < n; i += Math.max(1, n / 10_000)) {
      assertTrue(filter.mayContainHash(keyHash(i)), "false negative, key " + i);
    }
    // the table's bits; the next table allocated ahead is counted on top (ExpandableSpareTest),
    // once the allocator has delivered it
    while (filter.spare.requested() && filter.spare.ready() == null) {
      Thread.onSpinWait();
    }
    double bitsPerKey = (double) (filter.sizeInBits() - filter.spare.readyBits()) / n;
    long slots = filter.slots;
    assertEquals(
        ExpandableMath.bitsPerKey(filter.width, (double) n / slots), bitsPerKey, 1e-9 * bitsPerKey);
    // the slots void copies take beyond one per key: at most a fraction f of the table
    long extraCopies = filter.entries() - n;
    assertTrue(extraCopies >= 0 && extraCopies <= f * slots, extraCopies + " extra void copies");
    // the doubling: same keys, twice the slots, the next generation's width
    ExpandableFilter doubled = filter.copy();
    double after = Double.NaN;
    if (n < KEYS) {
      doubled.addHash(keyHash(n));
      assertEquals(filter.log + 1, doubled.log);
      // the budget's induction: one bit more at most, and never more than the fixed schedule
      assertTrue(doubled.fingerprintBits() <= filter.fingerprintBits() + 1, "widening");
      assertTrue(doubled.fingerprintBits() <= base + ExpandableMath.widening(doublings + 1));
      assertTrue(doubled.modelledFpRate() <= f);
      after = (double) doubled.sizeInBits() / (n + 1);
    }
    System.out.printf(
        "%8d %4d %5d %10.6f %10.6f %10.6f %8.4f %9.2f %9.2f %8d%n",
        n,
        doublings,
        filter.width,
        (double) fp / QUERIES,
        modelled,
        (double) upperAtTarget / QUERIES,
        filter.load(),
        bitsPerKey,
        after,
        extraCopies);
    return off + QUERIES;
  }
}
