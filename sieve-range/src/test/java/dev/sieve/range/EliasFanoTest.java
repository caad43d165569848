package dev.sieve.range;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.SplittableRandom;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * The Elias–Fano layout against a sorted set: the lined layout with stored samples ({@link
 * EliasFano}), on the heap and read in place from heap and direct buffers, answers every successor
 * as the set does.
 */
class EliasFanoTest {

  private static EliasFano wrapped(EliasFano ef, boolean direct) {
    ByteBuffer out = ByteBuffer.allocate(8 * ef.dataWords).order(ByteOrder.LITTLE_ENDIAN);
    ef.writeTo(out);
    byte[] bytes = out.array();
    ByteBuffer in =
        direct ? ByteBuffer.allocateDirect(bytes.length).put(bytes).flip() : ByteBuffer.wrap(bytes);
    return EliasFanoCodec.read(in, ef.n, ef.universe, ef.lowBits, false, 0);
  }

  /**
   * Successor against a sorted set, over dense and sparse universes, clustered values (buckets of
   * many values, spanning words and lines) and every select path; heap and wrapped.
   */
  @Test
  void successorMatchesTreeSetOnTheHeapAndWrapped() {
    SplittableRandom rnd = new SplittableRandom(7);
    for (int round = 0; round < 60; round++) {
      int n = round == 0 ? 0 : rnd.nextInt(1, 3000);
      long universe =
          1 + (round % 3 == 0 ? rnd.nextLong(1, 4L * Math.max(n, 1)) : rnd.nextLong(1, 1L << 62));
      if (universe < n) {
        universe = n;
      }
      TreeSet<Long> set = new TreeSet<>();
      if (round % 5 == 4) { // clusters: runs of consecutive values, big buckets
        while (set.size() < n) {
          long c = rnd.nextLong(universe);
          for (int j = 0; j < 600 && set.size() < n && c + j < universe; j++) {
            set.add(c + j);
          }
        }
      }
      while (set.size() < n) {
        set.add(rnd.nextLong(universe));
      }
      long[] v = set.stream().mapToLong(Long::longValue).toArray();
      EliasFano ef = EliasFanoCodec.encode(v.clone(), v.length, universe);
      assertArrayEquals(v, ef.decodeAll());
      EliasFano[] all = {ef, wrapped(ef, false), wrapped(ef, true)};
      for (EliasFano e : all) {
        assertArrayEquals(v, e.decodeAll());
        assertEquals(n == 0 ? -1 : v[0], e.first);
        assertEquals(n == 0 ? -1 : v[n - 1], e.last);
      }
      for (int q = 0; q < 2000; q++) {
        long x =
            q % 4 == 0 && n > 0 ? v[rnd.nextInt(n)] + rnd.nextInt(-1, 2) : rnd.nextLong(universe);
        if (x < 0) {
          x = 0;
        }
        Long want = set.ceiling(x);
        long expected = want == null || x >= universe ? -1 : want;
        for (EliasFano e : all) {
          assertEquals(expected, e.successor(x), "x=" + x);
        }
      }
    }
  }

  /** The size: Elias–Fano bits plus the line headers and samples, all counted. */
  @Test
  void sizeCountsTheIndex() {
    long[] v = new SplittableRandom(5).longs(100_000, 0, 1L << 40).sorted().distinct().toArray();
    EliasFano ef = EliasFanoCodec.encode(v, v.length, 1L << 40);
    double perKey = (double) ef.sizeInBits() / v.length;
    double plain = (double) ((long) v.length * ef.lowBits + ef.highLength) / v.length;
    // the index: a header word per 7 words of upper bits, 32 bits per 256 zeros
    double index = ef.highLength / 7.0 / v.length + 32.0 * ef.zeros / 256 / v.length;
    assertEquals(plain + index, perKey, 0.01, "bits per value");
  }

  private static int naiveSelect(long x, int k) {
    long y = x;
    for (int j = 0; j < k; j++) {
      y &= y - 1;
    }
    return Long.numberOfTrailingZeros(y);
  }

  /** The broadword select against clearing bits one by one, over sparse, dense and random words. */
  @Test
  void selectInWord() {
    SplittableRandom rnd = new SplittableRandom(3);
    for (int i = 0; i < 30_000; i++) {
      long x =
          switch (i % 3) {
            case 0 -> rnd.nextLong();
            case 1 -> rnd.nextLong() & rnd.nextLong() & rnd.nextLong(); // sparse
            default -> rnd.nextLong() | rnd.nextLong() | rnd.nextLong(); // dense
          };
      int c = Long.bitCount(x);
      for (int k = 0; k < c; k++) {
        assertEquals(naiveSelect(x, k), EliasFano.select(x, k), Long.toHexString(x) + " k=" + k);
      }
    }
    assertEquals(63, EliasFano.select(Long.MIN_VALUE, 0));
    assertEquals(63, EliasFano.select(-1L, 63));
    assertEquals(0, EliasFano.select(-1L, 0));
  }
}
