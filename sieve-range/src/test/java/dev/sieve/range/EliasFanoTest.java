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
      assertArrayEquals(v, EliasFanoCodec.decodeAll(ef));
      EliasFano[] all = {ef, wrapped(ef, false), wrapped(ef, true)};
      for (EliasFano e : all) {
        assertArrayEquals(v, EliasFanoCodec.decodeAll(e));
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

  /** The smallest value at least {@code x} by binary search over the sorted values, or -1. */
  private static long reference(long[] v, long x) {
    int i = java.util.Arrays.binarySearch(v, x);
    int at = i >= 0 ? i : -i - 1;
    return at < v.length ? v[at] : -1;
  }

  /**
   * Every successor of small universes, exhaustively, against a binary search over the sorted
   * values: dense sets (no low bits), one value (at 0, at {@code u − 1}), both ends, long runs of
   * empty buckets (the zero sought many words past the select index's entry, across line
   * boundaries), buckets of hundreds of values (ones between an entry's zero and the next) and
   * random sets; heap and wrapped.
   */
  @Test
  void everySuccessorOfSmallUniversesMatchesABinarySearch() {
    SplittableRandom rnd = new SplittableRandom(11);
    for (int round = 0; round < 40; round++) {
      long universe = 1 + rnd.nextInt(round < 8 ? 70 : 6000);
      java.util.TreeSet<Long> set = new java.util.TreeSet<>();
      switch (round % 6) {
        case 0 -> set.add(round % 12 == 0 ? 0L : universe - 1); // one value
        case 1 -> { // dense: every other value or more
          for (long x = 0; x < universe; x++) {
            if (rnd.nextInt(4) != 0) {
              set.add(x);
            }
          }
        }
        case 2 -> { // the two ends and a few values in between: long runs of empty buckets
          set.add(0L);
          set.add(universe - 1);
          for (int j = 0; j < 3; j++) {
            set.add(rnd.nextLong(universe));
          }
        }
        case 3 -> { // a few big buckets: runs of consecutive values
          for (int c = 0; c < 3; c++) {
            long from = rnd.nextLong(universe);
            for (long x = from; x < Math.min(universe, from + 400); x++) {
              set.add(x);
            }
          }
          set.add(universe - 1);
        }
        default -> {
          int n = 1 + rnd.nextInt((int) Math.min(universe, 500));
          while (set.size() < n) {
            set.add(rnd.nextLong(universe));
          }
        }
      }
      long[] v = set.stream().mapToLong(Long::longValue).toArray();
      EliasFano ef = EliasFanoCodec.encode(v.clone(), v.length, universe);
      for (EliasFano e : new EliasFano[] {ef, wrapped(ef, false), wrapped(ef, true)}) {
        for (long x = 0; x <= universe; x++) {
          long want = x >= universe ? -1 : reference(v, x);
          assertEquals(want, e.successor(x), "round " + round + " u=" + universe + " x=" + x);
        }
      }
    }
  }

  /**
   * The select index: entry {@code s} counts the values before zero {@code 32·s} of the upper bits
   * (the values whose high part is at most {@code 32·s}: zero {@code h} closes bucket {@code h}),
   * on the heap and wrapped; it costs 32 bits per 32 zeros, held in memory, not stored.
   */
  @Test
  void selectIndexCountsTheValuesBeforeEachStepZero() {
    SplittableRandom rnd = new SplittableRandom(13);
    for (int round = 0; round < 20; round++) {
      int n = 1 + rnd.nextInt(5000);
      long universe = n + rnd.nextLong(round % 2 == 0 ? 3L * n : 1L << 40);
      long[] v = rnd.longs(n, 0, universe).sorted().distinct().toArray();
      EliasFano ef = EliasFanoCodec.encode(v.clone(), v.length, universe);
      long entries = (ef.zeros + 31) / 32;
      for (EliasFano e : new EliasFano[] {ef, wrapped(ef, false), wrapped(ef, true)}) {
        assertEquals(32 * entries, e.indexBits());
        int at = 0;
        for (int s = 0; s < entries; s++) {
          long high = 32L * s;
          while (at < v.length && (v[at] >>> ef.lowBits) <= high) {
            at++;
          }
          assertEquals(at, e.stepRank(s), "entry " + s);
        }
      }
      assertEquals(
          ef.sizeInBits(),
          64L * (ef.lowWords + EliasFano.LINE_WORDS * ef.lines + (ef.samples + 1) / 2));
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
