package dev.sieve.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.fastfilter.bloom.BlockedBloom;
import org.junit.jupiter.api.Test;

/**
 * The streamed rows are the filters their in-cache rows build: a Sieve filter filled key by key
 * from the stream equals the one its {@link Structures} row builds from the same keys in an array,
 * and FastFilter's resized BlockedBloom equals its own {@code construct} below the size wrap.
 */
class StreamedStructuresTest {
  private static final int N = 30_000;

  private static long[] all(KeyStream s) {
    long[] keys = new long[(int) s.size()];
    s.fill(0, keys, keys.length);
    return keys;
  }

  @Test
  void sieveRowsAreTheFiltersTheirQueryRowsBuild() {
    KeyStream stream = KeyStream.of(N, 5);
    long[] keys = all(stream);
    for (String name : StreamedStructures.names()) {
      if (!name.startsWith("sieve-")) {
        continue;
      }
      for (double b : new double[] {10, 7.5}) {
        SieveFilterMembership streamed =
            (SieveFilterMembership) StreamedStructures.byName(name).build(stream, b);
        SieveFilterMembership built =
            (SieveFilterMembership) Structures.byName(name).build(keys, b);
        assertEquals(built.filter(), streamed.filter(), name + " at " + b);
        assertEquals(built.mode(), streamed.mode(), name);
      }
    }
  }

  @Test
  void fastFilterResizedIsItsOwnConstructBelowTheWrap() {
    KeyStream stream = KeyStream.of(N, 9);
    BlockedBloom streamed = StreamedStructures.fastFilter(stream, 10);
    Membership built = Structures.byName("fastfilter-blocked-bloom").build(all(stream), 10);
    assertEquals(built.sizeInBits(), streamed.getBitCount());
    long[] absent = stream.absentQueries(100_000);
    int hits = 0;
    for (long k : absent) {
      assertEquals(built.mayContain(k), streamed.mayContain(k));
      hits += streamed.mayContain(k) ? 1 : 0;
    }
    assertTrue(hits > 0 && hits < absent.length / 20, "false positives " + hits);
    for (long k : stream.presentQueries(10_000)) {
      assertTrue(streamed.mayContain(k));
    }
  }

  @Test
  void fastFilterPastTheWrapHasItsFullSize() {
    // 300 million keys at 10 bits/key are 3e9 bits: past 2^31, where FastFilter's own sizing wraps
    long n = 300_000_000L;
    long bits = n * 10;
    assertTrue(bits > Integer.MAX_VALUE);
    assertEquals((bits / 64 + 17) * 64, StreamedStructures.emptyFastFilter(n, 10).getBitCount());
  }

  @Test
  void everyRowFindsEveryKeyAndUnknownNamesAreRefused() {
    KeyStream stream = KeyStream.of(N, 13);
    long[] present = stream.presentQueries(4096);
    for (String name : StreamedStructures.names()) {
      Membership m = StreamedStructures.byName(name).build(stream, 10);
      int hits = m.mayContainBatch(present, 0, present.length);
      if (name.startsWith("raw-read")) {
        assertEquals(RawRandomRead.blockedBloomWords(N, 10) * 64, m.sizeInBits());
      } else {
        assertEquals(present.length, hits, name);
      }
    }
    assertThrows(IllegalArgumentException.class, () -> StreamedStructures.byName("guava-bloom"));
  }
}
