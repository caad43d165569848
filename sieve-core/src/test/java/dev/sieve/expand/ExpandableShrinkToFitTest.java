package dev.sieve.expand;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sieve.format.SieveFormat;
import java.nio.ByteBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@link ExpandableFilter#shrinkToFit()} after removes: a filter of {@code n} keys (grown from the
 * smallest table, or sized for them) loses the first half or 90% of its keys, then is re-fitted.
 * Then: no false negative for any remaining key; the key count unchanged; the modelled rate at most
 * {@code f / 1.125}; the measured false positives over {@value #QUERIES} absent keys under the
 * 99.9% Chernoff bound ({@link ExpandableGrowthTest#upper}) at {@code f}; fewer bits than {@link
 * ExpandableFilter#compact()} alone leaves, and where a bound is given at most that many times
 * those of a right-sized {@link dev.sieve.bloom.BlockedBloomFilter} at {@code f} (none at 5%, where
 * the slots' 3 bits of metadata alone cost more, nor for a grown filter that kept a tenth of its
 * keys: the void copies of removed keys stay and keep a share of the rate); the load at most
 * {@value ExpandableMath#MAX_LOAD}; and the filter still adds past its new size within the rate,
 * removes every remaining key, and round-trips through the container.
 */
class ExpandableShrinkToFitTest {
  static final int QUERIES = 200_000;

  @ParameterizedTest
  @CsvSource({
    "0.01, 200000, false, 2, 1.5",
    "0.01, 200000, false, 10, 0",
    "0.001, 200000, false, 2, 1.5",
    "0.01, 200000, true, 2, 1.5",
    "0.001, 200000, true, 10, 1.5",
    "0.05, 100000, false, 3, 0",
  })
  void reFitsToTheMemoryOfAFilterBuiltForTheRemainingKeys(
      double f, int n, boolean sized, int keepOneIn, double bound) {
    ExpandableFilter filter =
        sized
            ? ExpandableFilter.builder().fpRate(f).expectedKeys(n).create()
            : ExpandableFilter.builder().fpRate(f).create();
    for (long i = 0; i < n; i++) {
      filter.addHash(ExpandableGrowthTest.keyHash(i));
    }
    long kept = 0;
    for (long i = 0; i < n; i++) {
      if (i % keepOneIn != 0) {
        assertTrue(filter.removeHash(ExpandableGrowthTest.keyHash(i)));
      } else {
        kept++;
      }
    }
    ExpandableFilter compacted = filter.copy();
    compacted.compact();
    double bloom = ExpandableMemoryTest.bloomBitsPerKey(f);

    assertTrue(filter.shrinkToFit(), filter.toString());
    assertEquals(kept, filter.numKeys());
    for (long i = 0; i < n; i += keepOneIn) {
      assertTrue(filter.mayContainHash(ExpandableGrowthTest.keyHash(i)), "false negative " + i);
    }
    double modelled = filter.modelledFpRate();
    assertTrue(modelled <= f / 1.125, modelled + " past f / 1.125");
    long fp = 0;
    for (long q = 0; q < QUERIES; q++) {
      if (filter.mayContainHash(ExpandableGrowthTest.absentHash(q))) {
        fp++;
      }
    }
    assertTrue(fp <= ExpandableGrowthTest.upper(QUERIES, f), fp + " false positives");
    assertTrue(fp <= ExpandableGrowthTest.upper(QUERIES, modelled), fp + " above " + modelled);
    assertTrue(filter.load() <= ExpandableMath.MAX_LOAD, filter.toString());
    // the sized length, or a bit or two more where the oldest entries keep much of the rate
    assertTrue(filter.fingerprintBits() <= ExpandableMath.sizedBits(f) + 2, filter.toString());
    double bitsPerKey = (double) filter.sizeInBits() / kept;
    double compactBitsPerKey = (double) compacted.sizeInBits() / kept;
    System.out.printf(
        "f=%s n=%d sized=%s kept 1/%d: compact %.2f, shrinkToFit %.2f bits/key (bbf %.2f: %.2fx),"
            + " modelled %.5f measured %.5f%n",
        f,
        n,
        sized,
        keepOneIn,
        compactBitsPerKey,
        bitsPerKey,
        bloom,
        bitsPerKey / bloom,
        modelled,
        (double) fp / QUERIES);
    if (bound > 0) {
      assertTrue(bitsPerKey <= bound * bloom, bitsPerKey + " bits/key against " + bloom);
    }
    assertTrue(bitsPerKey < compactBitsPerKey, "smaller than compact() alone");
    assertFalse(filter.shrinkToFit(), "fitted already: no smaller table");

    // still a working filter: adds past the re-fitted size grow it within the rate, removes
    for (long i = n; i < 3L * n; i++) {
      filter.addHash(ExpandableGrowthTest.keyHash(i));
    }
    assertTrue(filter.doublings() >= 1, filter.toString());
    assertTrue(filter.modelledFpRate() <= f, filter.toString());
    for (long i = n; i < 3L * n; i++) {
      assertTrue(filter.mayContainHash(ExpandableGrowthTest.keyHash(i)));
    }
    ExpandableFilter read = (ExpandableFilter) SieveFormat.read(SieveFormat.toBytes(filter));
    assertEquals(filter, read);
    for (long i = 0; i < n; i += keepOneIn) {
      assertTrue(read.mayContainHash(ExpandableGrowthTest.keyHash(i)), "read: " + i);
      assertTrue(filter.removeHash(ExpandableGrowthTest.keyHash(i)), "remove " + i);
    }
    assertEquals(2L * n, filter.numKeys());
  }

  /** A filter past its rate (two merged at f) has no rate to spend: only the compact is done. */
  @Test
  void aFilterPastTheRateIsOnlyCompacted() {
    double f = 0.01;
    ExpandableFilter a = ExpandableFilter.builder().fpRate(f).create();
    ExpandableFilter b = ExpandableFilter.builder().fpRate(f).create();
    for (long i = 0; i < 100_000; i++) {
      a.addHash(ExpandableGrowthTest.keyHash(i));
      b.addHash(ExpandableGrowthTest.keyHash(i + 100_000));
    }
    a.union(b);
    for (long i = 0; i < 20_000; i++) {
      assertTrue(a.removeHash(ExpandableGrowthTest.keyHash(i)));
    }
    double rate = a.modelledFpRate();
    assertTrue(rate > f / 1.125, "the merged entries left: " + rate);
    ExpandableFilter compacted = a.copy();
    compacted.compact();
    assertFalse(a.shrinkToFit());
    assertEquals(compacted, a, "the compact alone");
    assertEquals(rate, a.modelledFpRate(), 1e-15);
    for (long i = 20_000; i < 200_000; i++) {
      assertTrue(a.mayContainHash(ExpandableGrowthTest.keyHash(i)));
    }
  }

  /** Equal keys beyond the bound on copies stay present through the cells that merge them. */
  @Test
  void repeatedKeysStayPresentAndRemovable() {
    ExpandableFilter filter = ExpandableFilter.builder().fpRate(0.01).create();
    for (long i = 0; i < 50_000; i++) {
      filter.addHash(ExpandableGrowthTest.keyHash(i % 1_000));
    }
    for (long i = 0; i < 40_000; i++) {
      filter.removeHash(ExpandableGrowthTest.keyHash(i % 1_000));
    }
    filter.shrinkToFit();
    assertEquals(10_000, filter.numKeys());
    for (long k = 0; k < 1_000; k++) {
      assertTrue(filter.mayContainHash(ExpandableGrowthTest.keyHash(k)), "key " + k);
    }
    for (long i = 0; i < 10_000; i++) {
      assertTrue(filter.removeHash(ExpandableGrowthTest.keyHash(i % 1_000)));
    }
    assertEquals(0, filter.numKeys());
  }

  @Test
  void aWrappedFilterIsReadOnly() {
    ExpandableFilter filter = ExpandableFilter.builder().expectedKeys(1_000).create();
    filter.addHash(1);
    ExpandableFilter wrapped =
        (ExpandableFilter) SieveFormat.wrap(ByteBuffer.wrap(SieveFormat.toBytes(filter)));
    assertThrows(UnsupportedOperationException.class, wrapped::shrinkToFit);
  }
}
