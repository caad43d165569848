package dev.sieve.range;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sieve.format.SieveFormat;
import java.nio.ByteBuffer;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;

/**
 * The range contract for both range filters: over arbitrary key sets (repeats, n = 1, keys at 0, at
 * 2^64 − 1 and at block boundaries) and arbitrary ranges (points, ranges at both ends of the order,
 * ranges around each key, ranges longer than {@code L}), a range that holds a key is never reported
 * empty, and a container round trip (bytes and in-place) answers the same.
 */
class RangeFilterPropertyTest {

  @Provide
  Arbitrary<Long> keys() {
    return Arbitraries.oneOf(
        Arbitraries.longs(),
        Arbitraries.longs().between(0, 1L << 16),
        Arbitraries.longs().between(-(1L << 16), -1L),
        Arbitraries.of(
            0L, -1L, 1L, -2L, Long.MIN_VALUE, Long.MAX_VALUE, 1023L, 1024L, 65535L, 65536L),
        Arbitraries.integers().between(1, 62).map(s -> 1L << s),
        Arbitraries.integers().between(1, 62).map(s -> (1L << s) - 1));
  }

  @Provide
  Arbitrary<List<Long>> keyLists() {
    return keys().list().ofMinSize(1).ofMaxSize(60);
  }

  @Provide
  Arbitrary<List<Long>> endLists() {
    return keys().list().ofMaxSize(30);
  }

  @Provide
  Arbitrary<Long> lengths() {
    return Arbitraries.oneOf(
        Arbitraries.longs().between(1, 2048),
        Arbitraries.integers().between(0, 63).map(s -> 1L << s),
        Arbitraries.longs());
  }

  static boolean holds(List<Long> keys, long lo, long hi) {
    for (long k : keys) {
      if (Long.compareUnsigned(k, lo) >= 0 && Long.compareUnsigned(k, hi) <= 0) {
        return true;
      }
    }
    return false;
  }

  @Property(tries = 300)
  void noFalseNegative(
      @ForAll("keyLists") List<Long> keys,
      @ForAll("endLists") List<Long> ends,
      @ForAll("lengths") long length,
      @ForAll @IntRange(min = 0, max = 20) int lShift,
      @ForAll long seed) {
    long[] k = keys.stream().mapToLong(Long::longValue).toArray();
    long maxLen = 1L << lShift;
    List<RangeFilter> filters =
        List.of(
            GrafiteFilter.builder().maxRangeLength(maxLen).fpRate(0.1).seed(seed).buildFromKeys(k),
            PrefixBloomRangeFilter.builder()
                .maxRangeLength(maxLen)
                .bitsPerKey(8)
                .seed(seed)
                .buildFromKeys(k));
    for (RangeFilter f : filters) {
      for (RangeFilter g : List.of(f, roundTrip(f, false), roundTrip(f, true))) {
        for (long key : k) {
          assertTrue(g.mayContainPoint(key));
          assertTrue(g.mayContainRange(key, key));
          long lo = Long.compareUnsigned(key, length - 1) >= 0 ? key - (length - 1) : 0;
          assertTrue(g.mayContainRange(lo, key), f + " [" + lo + ", " + key + "]");
          long hi = Long.compareUnsigned(-1L - key, length - 1) >= 0 ? key + (length - 1) : -1L;
          assertTrue(g.mayContainRange(key, hi), f + " [" + key + ", " + hi + "]");
          long mid = Long.compareUnsigned(key, length >>> 1) >= 0 ? key - (length >>> 1) : 0;
          long midHi = Long.compareUnsigned(-1L - mid, length - 1) >= 0 ? mid + length - 1 : -1L;
          assertTrue(g.mayContainRange(mid, midHi));
        }
        for (long a : ends) {
          long b = Long.compareUnsigned(-1L - a, length - 1) >= 0 ? a + length - 1 : -1L;
          boolean answer = g.mayContainRange(a, b);
          if (holds(keys, a, b)) {
            assertTrue(answer, f + " [" + a + ", " + b + "]");
          }
          if (g != f) {
            assertEquals(f.mayContainRange(a, b), answer);
          }
        }
        assertTrue(g.mayContainRange(0, -1L));
      }
    }
  }

  static RangeFilter roundTrip(RangeFilter f, boolean inPlace) {
    byte[] bytes = SieveFormat.toBytes((dev.sieve.Filter) f);
    if (inPlace) {
      ByteBuffer direct = ByteBuffer.allocateDirect(bytes.length);
      direct.put(bytes).flip();
      return (RangeFilter) SieveFormat.wrap(direct);
    }
    return (RangeFilter) SieveFormat.read(bytes);
  }
}
