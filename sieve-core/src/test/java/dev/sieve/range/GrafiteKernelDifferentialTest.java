package dev.sieve.range;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sieve.KeyScheme;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The query kernels against a sorted-array model, answer for answer. The model holds the sorted
 * distinct codes and answers exactly "is a stored code in the range's code intervals" (one interval
 * per block the range meets, split where it wraps past {@code r}) by binary search. Every kernel
 * must give exactly that answer, not merely never a false negative:
 *
 * <ul>
 *   <li>the current kernel (lined Elias–Fano, one successor per block piece, wrap-around from the
 *       first and last codes), on the heap and wrapped in place, one range at a time and batched;
 *   <li>the same kernel over a filter read from a version-1 payload (the least block shift);
 *   <li>the version-1 kernel ({@link EliasFanoV1}, its query as it was: up to four successor
 *       searches), kept here as the reference it replaced.
 * </ul>
 *
 * Key sets: uniform, clustered, near {@code 2^64 − 1}; ranges: uniform, just after a key, holding a
 * key, across block boundaries, long (many blocks), at the ends of the key space; code ranges small
 * enough that intervals wrap past {@code r} often.
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
        if (interval(GrafiteFilter.blockOffset(bLo + j, seed, r) + offLo, offHi - offLo + 1)) {
          return true;
        }
      }
      return false;
    }
  }

  private static Model model(long[] keys, int k, long seed, long r) {
    long[] c =
        Arrays.stream(keys)
            .map(x -> GrafiteFilter.code(x, k, seed, r))
            .sorted()
            .distinct()
            .toArray();
    return new Model(c, r, k, seed);
  }

  /** The version-1 query, as it was before payload version 2, over the version-1 layout. */
  private static boolean oldKernel(EliasFanoV1 ef, Model m, long lo, long hi) {
    if (ef.n == 0) {
      return false;
    }
    int k = m.k;
    long bLo = lo >>> k;
    long span = (hi >>> k) - bLo;
    if (Long.compareUnsigned(span, GrafiteFilter.MAX_BLOCKS) >= 0) {
      return true;
    }
    long mask = k == 0 ? 0 : (1L << k) - 1;
    for (long j = 0; j <= span; j++) {
      long offLo = j == 0 ? lo & mask : 0;
      long offHi = j == span ? hi & mask : mask;
      long start = GrafiteFilter.blockOffset(bLo + j, m.seed, m.r) + offLo;
      long len = offHi - offLo + 1;
      if (len >= m.r) {
        return true;
      }
      long s = start < m.r ? start : start % m.r;
      long e = s + len - 1;
      boolean any = e < m.r ? ef.anyIn(s, e) : ef.anyIn(s, m.r - 1) || ef.anyIn(0, e - m.r);
      if (any) {
        return true;
      }
    }
    return false;
  }

  /**
   * A version-1 payload of the keys (the least block shift, the plain layout), as it was written.
   */
  private static byte[] versionOnePayload(long[] distinctKeys, long maxLen, long r, long seed) {
    int k = GrafiteFilter.blockShiftFor(maxLen);
    Model m = model(distinctKeys, k, seed, r);
    EliasFanoV1 ef = EliasFanoV1.encode(m.codes.clone(), m.codes.length, r);
    ByteBuffer out =
        ByteBuffer.allocate(48 + 8 * (ef.low.length + ef.high.length))
            .order(ByteOrder.LITTLE_ENDIAN);
    out.put((byte) 0x47).put((byte) 1).put((byte) k).put((byte) ef.lowBits).putInt(0);
    out.putLong(distinctKeys.length).putLong(ef.n).putLong(r).putLong(maxLen).putLong(seed);
    for (long w : ef.low) {
      out.putLong(w);
    }
    for (long w : ef.high) {
      out.putLong(w);
    }
    return out.array();
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
      byte[] v1 = versionOnePayload(keys, maxLen, r, seed);
      GrafiteFilter fromV1 =
          GrafiteForm.read(ByteBuffer.wrap(v1)).withKeyScheme(KeyScheme.IDENTITY);
      Model then = model(keys, GrafiteFilter.blockShiftFor(maxLen), seed, r);
      EliasFanoV1 oldEf = EliasFanoV1.encode(then.codes.clone(), then.codes.length, r);
      assertEquals(then.k, fromV1.blockShift);

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
        boolean old = then.query(lo[q], hi[q]);
        assertEquals(old, fromV1.mayContainRange(lo[q], hi[q]), what + " version-1 payload");
        assertEquals(old, oldKernel(oldEf, then, lo[q], hi[q]), what + " version-1 kernel");
        modelHits += want ? 1 : 0;
        long s = GrafiteFilter.code(lo[q], built.blockShift, seed, r);
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

  /** The blocks are 2^8 times L where the code range allows, never shorter than L nor than r. */
  @Test
  void blockShiftRule() {
    assertEquals(18, GrafiteFilter.blockShiftFor(1024, 1L << 40));
    assertEquals(12, GrafiteFilter.blockShiftFor(1000, 5000)); // ⌊log2 5000⌋
    assertEquals(10, GrafiteFilter.blockShiftFor(1024, 100)); // r < L: L's own shift
    assertEquals(62, GrafiteFilter.blockShiftFor(1L << 60, 1L << 62));
    assertEquals(8, GrafiteFilter.blockShiftFor(1, 1L << 30));
  }
}
