package dev.sieve.range;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sieve.Filter;
import dev.sieve.KeyScheme;
import dev.sieve.KeySchemeException;
import dev.sieve.format.SieveFormat;
import dev.sieve.registry.FilterType;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The range filters built through the builder every filter shares ({@code build(long[])}) hold the
 * keys themselves: every range around a key is answered "maybe", point queries keep every key, and
 * so does the filter saved and read back; a filter built over key hashes refuses range queries.
 */
class RangeBuilderKeysTest {
  private static final int N = 100_000;

  /** Keys away from both ends of the unsigned order, so that {@code [k − 3, k + 3]} never wraps. */
  private static long[] keys(long seed) {
    SplittableRandom rnd = new SplittableRandom(seed);
    long[] keys = new long[N];
    for (int i = 0; i < N; i++) {
      keys[i] = (rnd.nextLong() >>> 1) + 8;
    }
    return keys;
  }

  private static int rangesReportedEmpty(RangeFilter f, long[] keys) {
    int empty = 0;
    for (long k : keys) {
      if (!f.mayContainRange(k - 3, k + 3)) {
        empty++;
      }
    }
    return empty;
  }

  private static void assertHoldsEveryKey(Filter f, long[] keys, String what) {
    assertEquals(0, rangesReportedEmpty((RangeFilter) f, keys), what + ": ranges around keys");
    int missed = 0;
    for (long k : keys) {
      if (!f.mayContain(k) || !((RangeFilter) f).mayContainPoint(k)) {
        missed++;
      }
    }
    assertEquals(0, missed, what + ": point queries");
  }

  @Test
  void grafiteBuiltThroughTheGenericBuildAnswersRangesOverItsKeys() {
    long[] keys = keys(1);
    GrafiteFilter f = GrafiteFilter.builder().bitsPerKey(16).build(keys);
    assertHoldsEveryKey(f, keys, "grafite");
    assertEquals(KeyScheme.IDENTITY, f.keyScheme());
    assertEquals(GrafiteFilter.builder().bitsPerKey(16).buildFromKeys(keys), f);
  }

  @Test
  void prefixBloomBuiltThroughTheGenericBuildAnswersRangesOverItsKeys() {
    long[] keys = keys(2);
    PrefixBloomRangeFilter f = PrefixBloomRangeFilter.builder().bitsPerKey(16).build(keys);
    assertHoldsEveryKey(f, keys, "prefix bloom");
    assertEquals(KeyScheme.IDENTITY, f.keyScheme());
  }

  /**
   * A range builder accepts {@link KeyScheme#IDENTITY} set explicitly, as its registry type's trait
   * says it may, and the filter keeps every key under it.
   */
  @Test
  void theBuildersTakeKeysAsTheirOwnHashesAsTheirTypesSay() {
    long[] keys = keys(5);
    for (FilterType t : List.of(FilterType.GRAFITE, FilterType.PREFIX_BLOOM_RANGE)) {
      assertTrue(t.isIdentitySafe(), t.name());
      Filter f = t.builder().keyScheme(KeyScheme.IDENTITY).build(keys);
      assertEquals(KeyScheme.IDENTITY, f.keyScheme(), t.name());
      int missed = 0;
      for (long k : keys) {
        if (!f.mayContain(k)) {
          missed++;
        }
      }
      assertEquals(0, missed, t.name());
    }
  }

  @Test
  void rangeFiltersSavedAndReadBackAnswerRangesOverTheirKeys(@TempDir Path dir) throws IOException {
    long[] keys = keys(3);
    Filter[] built = {
      GrafiteFilter.builder().bitsPerKey(16).build(keys),
      PrefixBloomRangeFilter.builder().bitsPerKey(16).build(keys)
    };
    for (Filter f : built) {
      String name = f.getClass().getSimpleName();
      Path file = dir.resolve(name + ".sieve");
      SieveFormat.write(f, file);
      Filter read = SieveFormat.read(java.nio.file.Files.readAllBytes(file));
      assertHoldsEveryKey(read, keys, name + " read");
      assertEquals(KeyScheme.IDENTITY, read.keyScheme(), name);
      Filter mapped = SieveFormat.map(file);
      assertHoldsEveryKey(mapped, keys, name + " mapped");
    }
  }

  @Test
  void aFilterOverKeyHashesRefusesRangeQueriesAndKeepsPointQueries() {
    long[] keys = keys(4);
    Filter[] hashed = {
      GrafiteFilter.builder().bitsPerKey(16).keyScheme(KeyScheme.XXPH3).build(keys),
      PrefixBloomRangeFilter.builder().bitsPerKey(16).keyScheme(KeyScheme.XXPH3).build(keys)
    };
    for (Filter f : hashed) {
      RangeFilter r = (RangeFilter) f;
      long k = keys[0];
      KeySchemeException e =
          assertThrows(KeySchemeException.class, () -> r.mayContainRange(k - 3, k + 3));
      assertTrue(e.getMessage().contains("XXPH3"), e.getMessage());
      assertTrue(e.getMessage().contains("buildFromKeys"), e.getMessage());
      assertThrows(KeySchemeException.class, () -> r.mayContainPoint(k));
      assertThrows(
          KeySchemeException.class,
          () -> r.mayContainRanges(new long[] {k - 3}, new long[] {k + 3}, 0, 1, new long[1]));
      assertThrows(
          KeySchemeException.class, () -> r.mayContainRange(new byte[] {1}, new byte[] {2}));
      for (long key : keys) {
        assertTrue(f.mayContain(key), "point query of a hashed key");
      }
    }
  }

  @Test
  void byteKeysThroughTheGenericBuildGiveAPointFilterThatRefusesRanges() {
    byte[][] keys = {{1, 2}, {3}};
    Filter[] hashed = {
      GrafiteFilter.builder().build(keys), PrefixBloomRangeFilter.builder().build(keys)
    };
    for (Filter f : hashed) {
      assertEquals(KeyScheme.XXPH3, f.keyScheme());
      assertTrue(f.mayContain(keys[0]) && f.mayContain(keys[1]));
      KeySchemeException e =
          assertThrows(
              KeySchemeException.class,
              () -> ((RangeFilter) f).mayContainRange(new byte[] {1}, new byte[] {3}));
      assertTrue(e.getMessage().contains("buildFromByteKeys"), e.getMessage());
    }
    GrafiteFilter f = GrafiteFilter.builder().buildFromByteKeys(keys);
    assertTrue(f.mayContainRange(new byte[] {1}, new byte[] {1, 3}));
    assertEquals(2, f.numKeys());
  }
}
