package dev.sieve.range;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sieve.KeyScheme;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The query kernels against a sorted-array model, answer for answer. The model holds the sorted
 * distinct codes and answers exactly "is a stored code in the range's code intervals" (one interval
 * per block the range meets, split where it wraps past {@code r}) by binary search. Every kernel
 * must give exactly that answer, not merely never a false negative: the kernel (lined Elias–Fano,
 * one successor per block piece, wrap-around from the first and last codes), on the heap and
 * wrapped in place, one range at a time and batched.
 *
 * <p>Key sets: uniform, clustered, near {@code 2^64 − 1}; ranges: uniform, just after a key,
 * holding a key, across block boundaries, long (many blocks), at the ends of the key space; code
 * ranges small enough that intervals wrap past {@code r} often.
 */
class GrafiteKernelDifferentialTest {

  /** The model: sorted distinct codes, exact interval emptiness. */
  private record Model(long[] codes, long r, int k, long seed) {
    boolean anyIn(long s, long e) {
      int i = Arrays.binarySearch(codes, s);
      int at = i >= 0 ? i : -i - 1;
      return at < codes.length && codes[at] <= e;
    }

    boolean interval(long start, long len) {
      if (len >= r) {
        return codes.length > 0;
      }
      long s = Long.remainderUnsigned(start, r);
      long e = s + len - 1;
      return e < r ? anyIn(s, e) : anyIn(s, r - 1) || anyIn(0, e - r);
    }

    boolean query(long lo, long hi) {
      if (codes.length == 0) {
        return false;
      }
      long bLo = lo >>> k;
      long span = (hi >>> k) - bLo;
      if (Long.compareUnsigned(span, GrafiteFilter.MAX_BLOCKS) >= 0) {
        return true;
      }
      long mask = k == 0 ? 0 : (1L << k) - 1;
      for (long j = 0; j <= span; j++) {
        long offLo = j == 0 ? lo & mask : 0;
        long offHi = j == span ? hi & mask : mask;
        if (interval(GrafiteCodes.blockOffset(bLo + j, seed, r) + offLo, offHi - offLo + 1)) {
          return true;
        }
      }
      return false;
    }
  }

  private static Model model(long[] keys, int k, long seed, long r) {
    long[] c =
        Arrays.stream(keys)
            .map(x -> GrafiteCodes.code(x, k, seed, r))
            .sorted()
            .distinct()
            .toArray();
    return new Model(c, r, k, seed);
  }

  private static long[] keys(SplittableRandom rnd, int round) {
    int n = 1 + rnd.nextInt(round % 7 == 0 ? 8 : 3000);
    long[] keys = new long[n];
    for (int i = 0; i < n; i++) {
      keys[i] =
          switch (round % 3) {
            case 0 -> rnd.nextLong();
            case 1 -> (rnd.nextLong(64) << 24) + rnd.nextLong(1 << 12); // clusters
            default -> -1L - rnd.nextLong(1L << 22); // near 2^64 − 1
          };
    }
    return Arrays.stream(keys).sorted().distinct().toArray();
  }

  @Test
  void everyKernelAnswersAsTheSortedModel() {
    SplittableRandom rnd = new SplittableRandom(2025);
    int queries = 0;
    int positives = 0;
    int wraps = 0;
    for (int round = 0; round < 45; round++) {
      long[] keys = keys(rnd, round);
      long maxLen = 1L << rnd.nextInt(0, 14);
      long seed = rnd.nextLong();
      GrafiteFilterBuilder b = GrafiteFilter.builder().maxRangeLength(maxLen).seed(seed);
      if (round % 4 == 3) {
        b.bitsPerKey(3 + rnd.nextInt(3)); // a small code range: intervals wrap often
      } else {
        b.fpRate(0.001 + rnd.nextDouble() * 0.3);
      }
      GrafiteFilter built = b.buildFromKeys(keys);
      long r = built.codeRange();
      Model now = model(keys, built.blockShift, seed, r);
      assertEquals(now.codes.length, built.codes.n);
      byte[] payload = GrafiteForm.write(built);
      GrafiteFilter wrapped =
          GrafiteForm.read(ByteBuffer.allocateDirect(payload.length).put(payload).flip(), true)
              .withKeyScheme(KeyScheme.IDENTITY); // a bare payload records no scheme
      assertTrue(wrapped.isWrapped());

      int count = 4000;
      long[] lo = new long[count];
      long[] hi = new long[count];
      for (int q = 0; q < count; q++) {
        long key = keys[rnd.nextInt(keys.length)];
        long len =
            switch (q % 5) {
              case 0 -> 1;
              case 1 -> 1 + rnd.nextLong(maxLen);
              case 2 -> 1 + rnd.nextLong(2 * maxLen);
              case 3 -> 1 + rnd.nextLong(1L << rnd.nextInt(1, 40));
              default -> 1 + rnd.nextLong(64);
            };
        long a =
            switch (q % 6) {
              case 0 -> rnd.nextLong();
              case 1 -> key + 1 + rnd.nextInt(16); // just after a key
              case 2 -> key - rnd.nextLong(len); // holding the key
              case 3 -> ((key >>> built.blockShift) + 1 << built.blockShift) - rnd.nextInt(8);
              case 4 -> q % 12 == 4 ? 0 : -len;
              default -> key + rnd.nextLong(-(1L << 20), 1L << 20);
            };
        long z = a + len - 1;
        if (Long.compareUnsigned(a, z) > 0) {
          z = -1L;
        }
        lo[q] = a;
        hi[q] = z;
      }
      long[] bits = new long[(count + 63) / 64];
      long[] wrappedBits = new long[bits.length];
      int hits = built.mayContainRanges(lo, hi, 0, count, bits);
      wrapped.mayContainRanges(lo, hi, 0, count, wrappedBits);
      int modelHits = 0;
      for (int q = 0; q < count; q++) {
        boolean want = now.query(lo[q], hi[q]);
        String what = "round " + round + " range [" + lo[q] + ", " + hi[q] + "]";
        assertEquals(want, built.mayContainRange(lo[q], hi[q]), what);
        assertEquals(want, wrapped.mayContainRange(lo[q], hi[q]), what + " wrapped");
        assertEquals(want, (bits[q >>> 6] >>> q & 1) != 0, what + " batch");
        assertEquals(want, (wrappedBits[q >>> 6] >>> q & 1) != 0, what + " wrapped batch");
        modelHits += want ? 1 : 0;
        long s = GrafiteCodes.code(lo[q], built.blockShift, seed, r);
        if ((lo[q] >>> built.blockShift) == (hi[q] >>> built.blockShift)
            && s + (hi[q] - lo[q]) >= r) {
          wraps++;
        }
      }
      assertEquals(modelHits, hits);
      queries += count;
      positives += modelHits;
    }
    // the workload exercised both answers and the wrap-around path
    assertTrue(positives > queries / 10 && positives < queries * 9 / 10, positives + "/" + queries);
    assertTrue(wraps > 100, "wrapping intervals: " + wraps);
  }

  /**
   * Edge filters and edge ranges against the model, single, wrapped and batched: the empty filter,
   * one key (at 0, at {@code 2^64 − 1}, at {@code 2^63}, anywhere), the two ends of the key space;
   * points ({@code lo = hi}) at and beside each key, the whole key space, ranges from 0 and to
   * {@code 2^64 − 1}, ranges ending just before and starting just after a key.
   */
  @Test
  void edgeFiltersAndRangesAnswerAsTheModel() {
    SplittableRandom rnd = new SplittableRandom(99);
    long[][] sets = {
      {}, {0L}, {-1L}, {Long.MIN_VALUE}, {rnd.nextLong()}, {0L, -1L}, {1L, -2L, Long.MAX_VALUE}
    };
    for (long[] keys : sets) {
      for (long maxLen : new long[] {1, 16, 1024}) {
        for (double bits : new double[] {3, 16}) {
          long seed = rnd.nextLong();
          GrafiteFilter built =
              GrafiteFilter.builder()
                  .maxRangeLength(maxLen)
                  .bitsPerKey(bits)
                  .seed(seed)
                  .buildFromKeys(keys);
          Model model = model(keys, built.blockShift, seed, built.codeRange());
          byte[] payload = GrafiteForm.write(built);
          GrafiteFilter wrapped =
              GrafiteForm.read(ByteBuffer.allocateDirect(payload.length).put(payload).flip(), true)
                  .withKeyScheme(KeyScheme.IDENTITY);
          java.util.List<long[]> ranges = new java.util.ArrayList<>();
          ranges.add(new long[] {0, 0});
          ranges.add(new long[] {-1L, -1L});
          ranges.add(new long[] {0, -1L});
          ranges.add(new long[] {0, maxLen - 1});
          ranges.add(new long[] {-maxLen, -1L});
          for (long k : keys) {
            for (long d = -2; d <= 2; d++) {
              ranges.add(new long[] {k + d, k + d});
            }
            ranges.add(new long[] {0, k});
            ranges.add(new long[] {k, -1L});
            if (k != 0) {
              ranges.add(new long[] {Math.max(0, k - maxLen) == 0 ? 0 : k - maxLen, k - 1});
            }
            if (k != -1L) {
              long hi = k + maxLen;
              ranges.add(new long[] {k + 1, Long.compareUnsigned(hi, k) < 0 ? -1L : hi});
            }
          }
          int count = ranges.size();
          long[] lo = new long[count];
          long[] hi = new long[count];
          for (int q = 0; q < count; q++) {
            long a = ranges.get(q)[0];
            long b = ranges.get(q)[1];
            lo[q] = Long.compareUnsigned(a, b) <= 0 ? a : b;
            hi[q] = Long.compareUnsigned(a, b) <= 0 ? b : a;
          }
          long[] bits0 = new long[(count + 63) / 64];
          long[] bits1 = new long[bits0.length];
          built.mayContainRanges(lo, hi, 0, count, bits0);
          wrapped.mayContainRanges(lo, hi, 0, count, bits1);
          for (int q = 0; q < count; q++) {
            boolean want = model.query(lo[q], hi[q]);
            String what = keys.length + " keys, range [" + lo[q] + ", " + hi[q] + "]";
            assertEquals(want, built.mayContainRange(lo[q], hi[q]), what);
            assertEquals(want, wrapped.mayContainRange(lo[q], hi[q]), what + " wrapped");
            assertEquals(want, (bits0[q >>> 6] >>> q & 1) != 0, what + " batch");
            assertEquals(want, (bits1[q >>> 6] >>> q & 1) != 0, what + " wrapped batch");
            if (lo[q] == hi[q]) {
              assertEquals(want, built.mayContainPoint(lo[q]), what + " point");
            }
          }
          for (long k : keys) {
            assertTrue(built.mayContainRange(k, k) && wrapped.mayContainRange(k, k));
          }
          if (keys.length == 0) {
            assertEquals(0, built.mayContainRanges(lo, hi, 0, count, bits0));
          }
        }
      }
    }
  }

  /** The blocks are 2^8 times L where the code range allows, never shorter than L nor than r. */
  @Test
  void blockShiftRule() {
    assertEquals(18, GrafiteCodes.blockShiftFor(1024, 1L << 40));
    assertEquals(12, GrafiteCodes.blockShiftFor(1000, 5000)); // ⌊log2 5000⌋
    assertEquals(10, GrafiteCodes.blockShiftFor(1024, 100)); // r < L: L's own shift
    assertEquals(62, GrafiteCodes.blockShiftFor(1L << 60, 1L << 62));
    assertEquals(8, GrafiteCodes.blockShiftFor(1, 1L << 30));
  }
}
