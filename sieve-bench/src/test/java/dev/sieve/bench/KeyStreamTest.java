package dev.sieve.bench;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class KeyStreamTest {

  private static long[] all(KeyStream s) {
    long[] keys = new long[(int) s.size()];
    s.fill(0, keys, keys.length);
    return keys;
  }

  @Test
  void keysAreDistinctDeterministicAndSeeded() {
    KeyStream s = KeyStream.of(200_000, 7);
    long[] keys = all(s);
    assertEquals(keys.length, Arrays.stream(keys).distinct().count());
    assertArrayEquals(keys, all(KeyStream.of(200_000, 7)));
    assertFalse(Arrays.equals(keys, all(KeyStream.of(200_000, 8))));
    // random-looking: about half of the top bits set, not a counter
    long top = Arrays.stream(keys).filter(k -> k < 0).count();
    assertTrue(Math.abs(top - keys.length / 2) < keys.length / 50, "top bits set: " + top);
    assertNotEquals(keys[1] - keys[0], keys[2] - keys[1]);
  }

  @Test
  void presentQueriesAreKeysAndAbsentQueriesAreNot() {
    KeyStream s = KeyStream.of(50_000, 3);
    Set<Long> keys = new HashSet<>();
    for (long k : all(s)) {
      keys.add(k);
    }
    long[] present = s.presentQueries(100_000);
    for (long k : present) {
      assertTrue(keys.contains(k));
    }
    // drawn over the whole key set, not a prefix of it
    assertTrue(Arrays.stream(present).distinct().count() > 40_000);
    long[] absent = s.absentQueries(100_000);
    for (long k : absent) {
      assertFalse(keys.contains(k));
    }
    assertEquals(absent.length, Arrays.stream(absent).distinct().count());
    assertArrayEquals(present, s.presentQueries(100_000));
    assertArrayEquals(absent, s.absentQueries(100_000));
  }

  @Test
  void chunksCoverEveryKeyInOrder() {
    KeyStream s = KeyStream.of(10_007, 11);
    List<Long> seen = new ArrayList<>();
    List<Integer> counts = new ArrayList<>();
    s.forEachChunk(
        1000,
        (chunk, count) -> {
          counts.add(count);
          for (int i = 0; i < count; i++) {
            seen.add(chunk[i]);
          }
        });
    long[] expected = all(s);
    assertEquals(expected.length, seen.size());
    for (int i = 0; i < expected.length; i++) {
      assertEquals(expected[i], seen.get(i));
    }
    assertEquals(11, counts.size());
    assertEquals(7, counts.get(10));
  }

  @Test
  void refusesBadSizes() {
    assertThrows(IllegalArgumentException.class, () -> KeyStream.of(0, 1));
    assertThrows(IllegalArgumentException.class, () -> KeyStream.of(KeyStream.MAX_KEYS + 1, 1));
    assertThrows(
        IllegalArgumentException.class, () -> KeyStream.of(5, 1).forEachChunk(0, (k, c) -> {}));
  }
}
