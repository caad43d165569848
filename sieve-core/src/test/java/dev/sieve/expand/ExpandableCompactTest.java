package dev.sieve.expand;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sieve.format.SieveFormat;
import java.nio.ByteBuffer;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@link ExpandableFilter#compact()} after removes: a filter holding {@code n} keys (sized for
 * them, or grown from the smallest table) loses half or 90% of them and is compacted. Then: no
 * false negative for any remaining key; the modelled rate unchanged and at most {@code f}; the
 * measured false-positive count over {@value #QUERIES} absent keys under the 99.9% Chernoff bound
 * ({@link ExpandableGrowthTest#upper}) at {@code f} and at the modelled rate; bits per remaining
 * key, for a sized filter, at most 1.5 times those of a right-sized {@link
 * dev.sieve.bloom.BlockedBloomFilter} at the same modelled rate (a grown one keeps the wider slots
 * of its growth: printed); the load at most {@value ExpandableMath#MAX_LOAD} and more than half of
 * it (one more halving would not fit); and the filter still adds, removes and round-trips.
 */
class ExpandableCompactTest {
  static final int QUERIES = 200_000;

  @ParameterizedTest
  @CsvSource({
    "0.01, 200000, true, 2",
    "0.01, 200000, true, 10",
    "0.001, 200000, true, 2",
    "0.001, 200000, true, 10",
    "0.01, 200000, false, 2",
    "0.01, 200000, false, 10",
  })
  void compactReturnsMemoryAndKeepsEveryKeyAndTheRate(
      double f, int n, boolean sized, int keepOneIn) {
    ExpandableFilter filter =
        sized
            ? ExpandableFilter.builder().fpRate(f).expectedKeys(n).create()
            : ExpandableFilter.builder().fpRate(f).create();
    for (long i = 0; i < n; i++) {
      filter.addHash(ExpandableGrowthTest.keyHash(i));
    }
    long before = filter.sizeInBits();
    long kept = 0;
    for (long i = 0; i < n; i++) {
      if (i % keepOneIn != 0) {
        assertTrue(filter.removeHash(ExpandableGrowthTest.keyHash(i)));
      } else {
        kept++;
      }
    }
    assertEquals(before, filter.sizeInBits(), "removes alone return nothing");
    double modelled = filter.modelledFpRate();
    long entries = filter.entries();
    int halvings = filter.compact();
    assertTrue(halvings >= 1, "halvings " + halvings);
    assertEquals(entries, filter.entries());
    assertEquals(modelled, filter.modelledFpRate(), 1e-15, "the rate is the entries' own");
    assertTrue(filter.load() <= ExpandableMath.MAX_LOAD);
    assertTrue(
        filter.slots == ExpandableMath.slots(ExpandableMath.MIN_LOG_SLOTS, 0)
            || 2 * filter.entries() > ExpandableMath.maxEntries(filter.slots),
        "one more halving would have fit: " + filter);
    assertEquals(0, filter.compact(), "compacted already");
    for (long i = 0; i < n; i += keepOneIn) {
      assertTrue(filter.mayContainHash(ExpandableGrowthTest.keyHash(i)), "false negative " + i);
    }
    long fp = 0;
    for (long q = 0; q < QUERIES; q++) {
      if (filter.mayContainHash(ExpandableGrowthTest.absentHash(q))) {
        fp++;
      }
    }
    assertTrue(modelled <= f);
    assertTrue(fp <= ExpandableGrowthTest.upper(QUERIES, f), fp + " false positives");
    assertTrue(fp <= ExpandableGrowthTest.upper(QUERIES, modelled), fp + " above " + modelled);
    double bitsPerKey = (double) filter.sizeInBits() / kept;
    double bloom = ExpandableMemoryTest.bloomBitsPerKey(modelled);
    System.out.printf(
        "f=%s n=%d sized=%s kept 1/%d: %d halvings, %.2f -> %.2f bits/key (bbf %.2f, %.2fx),"
            + " modelled %.5f measured %.5f%n",
        f,
        n,
        sized,
        keepOneIn,
        halvings,
        (double) before / kept,
        bitsPerKey,
        bloom,
        bitsPerKey / bloom,
        modelled,
        (double) fp / QUERIES);
    // the halved table is at least half full: at most twice the memory of a full one
    assertTrue(
        bitsPerKey
            <= ExpandableMath.bitsPerKey(filter.width, ExpandableMath.MAX_LOAD / 2)
                * filter.entries()
                / kept);
    if (sized) {
      // a filter grown from the smallest table keeps its growth's wider slots (the class comment)
      assertTrue(bitsPerKey <= 1.5 * bloom, bitsPerKey + " bits/key against " + bloom);
    }
    // still a working filter: adds past the halved size double it again, removes, the form
    for (long i = n; i < n + n / 4; i++) {
      filter.addHash(ExpandableGrowthTest.keyHash(i));
    }
    assertTrue(filter.modelledFpRate() <= f);
    for (long i = n; i < n + n / 4; i++) {
      assertTrue(filter.mayContainHash(ExpandableGrowthTest.keyHash(i)));
    }
    assertTrue(filter.removeHash(ExpandableGrowthTest.keyHash(0)));
    ExpandableFilter read = (ExpandableFilter) SieveFormat.read(SieveFormat.toBytes(filter));
    assertEquals(filter, read);
    for (long i = keepOneIn; i < n; i += keepOneIn) {
      assertTrue(read.mayContainHash(ExpandableGrowthTest.keyHash(i)));
    }
  }

  /**
   * Grown to 2^16 slots at 1%, the first generations' 9-bit fingerprints ran out: void copies of an
   * entry in other runs than its key's stay after the key's remove, and the compacted table keeps
   * what stays (a few slots).
   */
  @ParameterizedTest
  @CsvSource({"0.01"})
  void compactingAnEmptiedFilterKeepsOnlyTheVoidCopies(double f) {
    ExpandableFilter filter = ExpandableFilter.builder().fpRate(f).create();
    int n = 50_000;
    for (long i = 0; i < n; i++) {
      filter.addHash(ExpandableGrowthTest.keyHash(i));
    }
    for (long i = 0; i < n - 20; i++) {
      assertTrue(filter.removeHash(ExpandableGrowthTest.keyHash(i)));
    }
    filter.compact();
    assertTrue(filter.log <= 8, filter.toString());
    for (long i = n - 20; i < n; i++) {
      assertTrue(filter.mayContainHash(ExpandableGrowthTest.keyHash(i)));
      assertTrue(filter.removeHash(ExpandableGrowthTest.keyHash(i)));
    }
    filter.compact();
    assertTrue(filter.log <= 7, filter.toString());
    assertTrue(filter.load() <= ExpandableMath.MAX_LOAD);
    assertTrue(filter.modelledFpRate() <= f);
  }

  @ParameterizedTest
  @CsvSource({"1000"})
  void aWrappedFilterIsReadOnly(int n) {
    ExpandableFilter filter = ExpandableFilter.builder().expectedKeys(n).create();
    for (long i = 0; i < n; i++) {
      filter.addHash(ExpandableGrowthTest.keyHash(i));
    }
    ExpandableFilter wrapped =
        (ExpandableFilter) SieveFormat.wrap(ByteBuffer.wrap(SieveFormat.toBytes(filter)));
    assertThrows(UnsupportedOperationException.class, wrapped::compact);
    assertFalse(wrapped.isWrapped() && wrapped.copy().isWrapped());
    assertEquals(0, filter.compact(), "full: nothing to halve");
  }
}
