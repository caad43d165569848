package dev.sieve.expand;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The rate and the memory of a {@link ExpandableFilter#union}, against the same keys added to one
 * filter (the left one, by adds). Filter {@code a} holds keys {@code [0, na)}, {@code b} keys
 * {@code [na, na + nb)}, each sized for its keys ({@code hint}) or grown from the smallest table.
 * Checked: no false negative; the modelled rate is the sum of both (each entry keeps its known hash
 * bits when the slot counts are a power of two apart) and the measured count is under the 99.9%
 * Chernoff bound at it; after more adds the rate grows by at most {@code SIZED_RESERVE · f} per
 * doubling; the memory at most 1.1 times the one filter's (printed with the rates).
 */
class ExpandableUnionTest {
  static final int QUERIES = 200_000;

  static ExpandableFilter filter(double f, boolean hint, long from, long to) {
    ExpandableFilter filter =
        hint
            ? ExpandableFilter.builder().fpRate(f).expectedKeys(to - from).create()
            : ExpandableFilter.builder().fpRate(f).create();
    for (long i = from; i < to; i++) {
      filter.addHash(ExpandableGrowthTest.keyHash(i));
    }
    return filter;
  }

  static long falsePositives(ExpandableFilter filter) {
    long fp = 0;
    for (long q = 0; q < QUERIES; q++) {
      if (filter.mayContainHash(ExpandableGrowthTest.absentHash(q))) {
        fp++;
      }
    }
    return fp;
  }

  @ParameterizedTest
  @CsvSource({
    "0.01, 500000, 500000, true",
    "0.01, 500000, 62500, true",
    "0.01, 400000, 400000, false",
    "0.001, 200000, 200000, true",
  })
  void unionAddsTheRatesAndKeepsTheMemoryOfOneFilter(double f, int na, int nb, boolean hint) {
    ExpandableFilter a = filter(f, hint, 0, na);
    ExpandableFilter b = filter(f, hint, na, (long) na + nb);
    double ma = a.modelledFpRate();
    double mb = b.modelledFpRate();
    ExpandableFilter one = a.copy();
    for (long i = na; i < (long) na + nb; i++) {
      one.addHash(ExpandableGrowthTest.keyHash(i));
    }
    a.union(b);
    assertEquals((long) na + nb, a.numKeys());
    for (long i = 0; i < (long) na + nb; i++) {
      assertTrue(a.mayContainHash(ExpandableGrowthTest.keyHash(i)), "false negative " + i);
    }
    double m = a.modelledFpRate();
    assertEquals(ma + mb, m, 1e-12, "aligned: every entry keeps its known bits");
    long fp = falsePositives(a);
    assertTrue(fp <= ExpandableGrowthTest.upper(QUERIES, m), fp + " above " + m);
    double ratio = (double) a.sizeInBits() / one.sizeInBits();
    System.out.printf(
        "f=%s %d + %d hint=%s: union %.2f bits/key, one filter %.2f (%.3fx); rates %.5f + %.5f"
            + " = %.5f (one filter %.5f), measured %.5f%n",
        f,
        na,
        nb,
        hint,
        (double) a.sizeInBits() / (na + nb),
        (double) one.sizeInBits() / (na + nb),
        ratio,
        ma,
        mb,
        m,
        one.modelledFpRate(),
        (double) fp / QUERIES);
    assertTrue(ratio <= 1.1, "memory " + ratio + "x one filter");
    // more adds: at most SIZED_RESERVE · f more per doubling, and slots of sane width
    int doublings = a.doublings();
    int width = a.width;
    for (long i = (long) na + nb; i < 3L * (na + nb); i++) {
      a.addHash(ExpandableGrowthTest.keyHash(i));
    }
    int more = a.doublings() - doublings;
    assertTrue(more >= 1);
    assertTrue(
        a.modelledFpRate() <= Math.max(m, f) + more * ExpandableMath.SIZED_RESERVE * f + 1e-12,
        a.modelledFpRate() + " after " + more + " doublings from " + m);
    assertTrue(a.width <= width + 2 * more, a.width + " bits from " + width);
  }
}
