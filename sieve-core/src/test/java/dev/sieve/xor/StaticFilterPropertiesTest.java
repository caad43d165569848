package dev.sieve.xor;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sieve.Filter;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.EdgeCasesMode;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.statistics.Statistics;

/**
 * No false negatives, ever: every key a static filter was built from is reported present, for
 * arbitrary key sets with duplicates, for every configuration, before and after serialization.
 */
class StaticFilterPropertiesTest {

  /** Small arbitrary multisets: values from a narrow range, so duplicates are frequent. */
  @Property(tries = 300)
  void noFalseNegativesOnSmallMultisets(
      @ForAll("cases") StaticFilterCase kind, @ForAll("multisets") List<Long> keys) {
    long[] hashes = keys.stream().mapToLong(Long::longValue).toArray();
    long[] before = hashes.clone();
    Filter f = kind.build(hashes);
    assertArrayEquals(before, hashes, "the public build must not modify its input");
    for (long h : hashes) {
      assertTrue(f.mayContainHash(h), () -> kind + " lost key " + h);
    }
    assertEquals(Arrays.stream(hashes).distinct().count(), f.numKeys(), "distinct key count");
    Filter copy = kind.fromBytes(kind.toBytes(f));
    assertEquals(f, copy, "serialization round trip");
    for (long h : hashes) {
      assertTrue(copy.mayContainHash(h), () -> kind + " lost key " + h + " after round trip");
    }
  }

  /** The static filter configurations, from the registry ({@link StaticFilterCase#all()}). */
  @Provide
  Arbitrary<StaticFilterCase> cases() {
    return Arbitraries.of(StaticFilterCase.all());
  }

  @Provide
  Arbitrary<List<Long>> multisets() {
    return Arbitraries.oneOf(
            Arbitraries.longs().between(-20, 20),
            Arbitraries.longs(),
            Arbitraries.longs().between(0, 1000))
        .list()
        .ofMaxSize(300);
  }

  /**
   * Key sets of any size from 0 to 10^6, drawn log-uniformly, with a duplicate fraction: jqwik
   * chooses size, seed and the fraction of repeated keys; the keys are derived from them.
   */
  @Property(tries = 12, edgeCases = EdgeCasesMode.FIRST)
  void noFalseNegativesAtAnySize(
      @ForAll("cases") StaticFilterCase kind,
      @ForAll @IntRange(min = 0, max = 20) int log2Size,
      @ForAll @IntRange(min = 0, max = 1_000_000) int sizeSalt,
      @ForAll long seed,
      @ForAll @IntRange(min = 0, max = 50) int duplicatePercent) {
    int n =
        log2Size == 0
            ? 0
            : Math.min(1_000_000, (1 << (log2Size - 1)) + sizeSalt % (1 << (log2Size - 1)));
    SplittableRandom r = new SplittableRandom(seed);
    long[] hashes = new long[n];
    for (int i = 0; i < n; i++) {
      hashes[i] = i > 0 && r.nextInt(100) < duplicatePercent ? hashes[r.nextInt(i)] : r.nextLong();
    }
    Filter f = kind.build(hashes);
    for (long h : hashes) {
      if (!f.mayContainHash(h)) {
        throw new AssertionError(kind + " lost key " + h + " of " + n);
      }
    }
    assertTrue(f.numKeys() <= n);
    Statistics.label("size").collect(n == 0 ? "0" : "2^" + (63 - Long.numberOfLeadingZeros(n)));
  }

  /** The same key set in any order and with any repetition gives the same bytes. */
  @Property(tries = 60)
  void deterministicForTheKeySet(
      @ForAll("cases") StaticFilterCase kind,
      @ForAll @IntRange(min = 1, max = 3000) int n,
      @ForAll long seed) {
    long[] keys = Keys.random(n, seed);
    long[] shuffledWithRepeats = new long[2 * n];
    SplittableRandom r = new SplittableRandom(~seed);
    for (int i = 0; i < shuffledWithRepeats.length; i++) {
      shuffledWithRepeats[i] = i < n ? keys[n - 1 - i] : keys[r.nextInt(n)];
    }
    assertArrayEquals(
        kind.toBytes(kind.build(keys)), kind.toBytes(kind.build(shuffledWithRepeats)));
  }
}
