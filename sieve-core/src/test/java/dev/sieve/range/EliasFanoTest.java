package dev.sieve.range;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

class EliasFanoTest {

  /** Successor against a sorted set, over dense and sparse universes and every select path. */
  @Test
  void successorMatchesTreeSet() {
    SplittableRandom rnd = new SplittableRandom(7);
    for (int round = 0; round < 60; round++) {
      int n = round == 0 ? 0 : rnd.nextInt(1, 3000);
      long universe =
          1 + (round % 3 == 0 ? rnd.nextLong(1, 4L * Math.max(n, 1)) : rnd.nextLong(1, 1L << 62));
      if (universe < n) {
        universe = n;
      }
      TreeSet<Long> set = new TreeSet<>();
      while (set.size() < n) {
        set.add(rnd.nextLong(universe));
      }
      long[] v = set.stream().mapToLong(Long::longValue).toArray();
      EliasFano ef = EliasFano.encode(v.clone(), v.length, universe);
      assertArrayEquals(v, ef.decodeAll());
      assertEquals(-1, ef.firstNotIncreasing());
      for (int q = 0; q < 2000; q++) {
        long x =
            q % 4 == 0 && n > 0 ? v[rnd.nextInt(n)] + rnd.nextInt(-1, 2) : rnd.nextLong(universe);
        if (x < 0) {
          x = 0;
        }
        Long want = set.ceiling(x);
        assertEquals(want == null || x >= universe ? -1 : want, ef.successor(x), "x=" + x);
      }
    }
  }

  @Test
  void selectInWord() {
    SplittableRandom rnd = new SplittableRandom(3);
    for (int i = 0; i < 10_000; i++) {
      long x = rnd.nextLong();
      int c = Long.bitCount(x);
      if (c == 0) {
        continue;
      }
      int k = rnd.nextInt(c);
      long y = x;
      for (int j = 0; j < k; j++) {
        y &= y - 1;
      }
      assertEquals(Long.numberOfTrailingZeros(y), EliasFano.select(x, k));
    }
    assertEquals(0, Arrays.stream(new long[0]).count());
  }
}
