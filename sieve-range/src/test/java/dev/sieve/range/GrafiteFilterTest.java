package dev.sieve.range;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sieve.KeyScheme;
import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

class GrafiteFilterTest {

  private static boolean truth(TreeSet<Long> unsigned, long lo, long hi) {
    // the set holds keys flipped to signed order (x ^ MIN), so unsigned ranges are signed ones
    Long c = unsigned.ceiling(lo ^ Long.MIN_VALUE);
    return c != null && c <= (hi ^ Long.MIN_VALUE);
  }

  @Test
  void noFalseNegativeAgainstBruteForce() {
    SplittableRandom rnd = new SplittableRandom(11);
    for (int round = 0; round < 40; round++) {
      int n = 1 + rnd.nextInt(round < 10 ? 5 : 2000);
      long spread = round % 2 == 0 ? 1L << 20 : -1L;
      long base = round % 4 == 1 ? -1L - (1L << 20) : 0; // near 2^64 − 1
      long[] keys = new long[n];
      TreeSet<Long> set = new TreeSet<>();
      for (int i = 0; i < n; i++) {
        keys[i] = base + (spread == -1L ? rnd.nextLong() : rnd.nextLong(spread));
        if (i > 0 && rnd.nextInt(5) == 0) {
          keys[i] = keys[i - 1]; // duplicates
        }
        set.add(keys[i] ^ Long.MIN_VALUE);
      }
      long maxLen = 1L << rnd.nextInt(0, 16);
      GrafiteFilter f =
          GrafiteFilter.builder()
              .maxRangeLength(maxLen)
              .fpRate(0.05)
              .seed(round)
              .buildFromKeys(keys);
      assertEquals(set.size(), f.numKeys());
      for (int q = 0; q < 3000; q++) {
        long k = keys[rnd.nextInt(n)];
        long len = 1 + rnd.nextLong(q % 3 == 0 ? 1L << 24 : 2 * maxLen);
        long lo = k - rnd.nextLong(len);
        long hi = lo + len - 1;
        if (Long.compareUnsigned(lo, hi) > 0) { // wrapped past 0 or 2^64 − 1: clamp
          lo = Long.compareUnsigned(lo, k) > 0 ? 0 : lo;
          hi = Long.compareUnsigned(hi, k) < 0 ? -1L : hi;
        }
        assertTrue(f.mayContainRange(lo, hi), "key " + k + " in [" + lo + ", " + hi + "]");
        assertTrue(f.mayContainPoint(k));
        // an arbitrary range: never "empty" when it holds a key
        long a = base + rnd.nextLong(spread == -1L ? Long.MAX_VALUE : spread);
        long b = a + rnd.nextLong(4 * maxLen);
        if (Long.compareUnsigned(a, b) <= 0 && truth(set, a, b)) {
          assertTrue(f.mayContainRange(a, b));
        }
      }
      assertTrue(f.mayContainRange(0, -1L));
    }
  }

  @Test
  void extremesAndErrors() {
    long[] keys = {0, -1L, 1L << 10, (1L << 10) - 1};
    GrafiteFilter f = GrafiteFilter.builder().maxRangeLength(1024).buildFromKeys(keys);
    assertTrue(f.mayContainRange(0, 0));
    assertTrue(f.mayContainRange(-1L, -1L));
    assertTrue(f.mayContainRange(-5L, -1L));
    assertTrue(f.mayContainRange(1000, 1023));
    assertTrue(f.mayContainRange(1024, 1024));
    assertTrue(f.mayContainPoint(-1L));
    assertTrue(f.mayContain(-1L)); // IDENTITY: the key itself
    assertEquals(KeyScheme.IDENTITY, f.keyScheme());
    assertThrows(IllegalArgumentException.class, () -> f.mayContainRange(5, 4));
    assertThrows(IllegalArgumentException.class, () -> f.mayContainRange(-1L, 0));
    GrafiteFilter empty = GrafiteFilter.builder().buildFromKeys(new long[0]);
    assertFalse(empty.mayContainRange(0, -1L));
    assertEquals(0, empty.numKeys());
    GrafiteFilter one = GrafiteFilter.builder().buildFromKeys(new long[] {42});
    assertTrue(one.mayContainRange(42, 42));
    assertTrue(one.mayContainRange(0, 42));
    assertTrue(one.mayContainRange(42, -1L));
  }

  @Test
  void byteKeysThroughPrefixes() {
    byte[][] keys = {"apple".getBytes(), "banana".getBytes(), "cherry-pie-long".getBytes()};
    GrafiteFilter f = GrafiteFilter.builder().maxRangeLength(1L << 40).buildFromByteKeys(keys);
    assertTrue(f.mayContainRange("a".getBytes(), "b".getBytes()));
    assertTrue(f.mayContainRange("banana".getBytes(), "banana".getBytes()));
    assertTrue(f.mayContainRange("cherry-pie-a".getBytes(), "cherry-pie-z".getBytes()));
    assertThrows(
        IllegalArgumentException.class, () -> f.mayContainRange("b".getBytes(), "a".getBytes()));
    byte[] lo = {(byte) 0xFF, 1};
    byte[] hi = {(byte) 0xFF, 2};
    assertTrue(RangeFilter.prefixKey(lo, 0, 2) < 0); // unsigned order: 0xFF.. is large
    assertEquals(0x6170_706C_6500_0000L, RangeFilter.prefixKey("apple".getBytes(), 0, 5));
    assertTrue(
        Long.compareUnsigned(RangeFilter.prefixKey(lo, 0, 2), RangeFilter.prefixKey(hi, 0, 2)) < 0);
  }

  @Test
  void batchMatchesSingles() {
    SplittableRandom rnd = new SplittableRandom(5);
    long[] keys = rnd.longs(500, 0, 1L << 24).toArray();
    GrafiteFilter f = GrafiteFilter.builder().maxRangeLength(64).fpRate(0.2).buildFromKeys(keys);
    long[] lo = rnd.longs(200, 0, 1L << 24).toArray();
    long[] hi = Arrays.stream(lo).map(x -> x + 50).toArray();
    long[] bits = new long[4];
    boolean[] b = f.mayContainRanges(lo, hi);
    int count = f.mayContainRanges(lo, hi, 0, 200, bits);
    int c2 = 0;
    for (int i = 0; i < 200; i++) {
      assertEquals(f.mayContainRange(lo[i], hi[i]), b[i]);
      assertEquals(b[i], (bits[i >>> 6] >>> i & 1) != 0);
      c2 += b[i] ? 1 : 0;
    }
    assertEquals(c2, count);
    assertTrue(c2 > 0 && c2 < 200);
  }

  @Test
  void bitsPerKeyFollowsTheBound() {
    long[] keys = new SplittableRandom(1).longs(100_000).toArray();
    GrafiteFilter f =
        GrafiteFilter.builder().bitsPerKey(16).maxRangeLength(1024).buildFromKeys(keys);
    // EF: 2 + log2(r/n) = 16 bits per key, plus the line headers and select samples (0.3 + 0.13)
    assertTrue(f.bitsPerKey() >= 16.3 && f.bitsPerKey() < 16.5, f.toString());
    // in memory also the select index: 32 bits per 32 zeros of the upper bits, about 1 bit per key
    assertEquals(
        f.sizeInBits() + 32 * ((f.codes.zeros + 31) / 32), f.memoryBits(), "the select index");
    double memoryPerKey = (double) f.memoryBits() / f.numKeys();
    assertTrue(memoryPerKey >= 17.3 && memoryPerKey < 17.5, "memory bits per key " + memoryPerKey);
    assertEquals(RangeMath.grafiteFpBound(1024, 16), f.fpBound(1024), 1e-3);
  }

  /**
   * A batch of ranges allocates nothing per call in the steady state (the group's arrays are a
   * per-thread scratch): after a warm-up, 500 calls of 1,000 ranges, heap and wrapped, allocate
   * less than 1 KiB in all, where one array per call would be at least 8 KiB.
   */
  @Test
  void batchOfRangesAllocatesNothingPerCall() {
    java.lang.management.ThreadMXBean bean =
        java.lang.management.ManagementFactory.getThreadMXBean();
    org.junit.jupiter.api.Assumptions.assumeTrue(
        bean instanceof com.sun.management.ThreadMXBean
            && ((com.sun.management.ThreadMXBean) bean).isThreadAllocatedMemorySupported(),
        "this JVM does not measure per-thread allocation");
    com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) bean;
    threads.setThreadAllocatedMemoryEnabled(true);
    SplittableRandom rnd = new SplittableRandom(8);
    long[] keys = rnd.longs(5000).toArray();
    GrafiteFilter heap = GrafiteFilter.builder().maxRangeLength(64).buildFromKeys(keys);
    byte[] payload = GrafiteForm.write(heap);
    GrafiteFilter wrapped =
        GrafiteForm.read(java.nio.ByteBuffer.wrap(payload), true).withKeyScheme(KeyScheme.IDENTITY);
    long[] lo = new long[5000];
    long[] hi = new long[5000];
    for (int i = 0; i < lo.length; i++) {
      lo[i] = i % 2 == 0 ? rnd.nextLong() : keys[i] - rnd.nextInt(64);
      hi[i] = lo[i] + rnd.nextInt(64);
      if (Long.compareUnsigned(hi[i], lo[i]) < 0) {
        hi[i] = -1L;
      }
    }
    long[] bits = new long[16];
    long sink = 0;
    for (int round = 0; round < 2; round++) {
      long before = threads.getThreadAllocatedBytes(Thread.currentThread().getId());
      for (int call = 0; call < 500; call++) {
        int off = (call * 7) % 4000;
        sink += heap.mayContainRanges(lo, hi, off, 1000, bits);
        sink += wrapped.mayContainRanges(lo, hi, off, 1000, bits);
      }
      long allocated = threads.getThreadAllocatedBytes(Thread.currentThread().getId()) - before;
      if (round == 1) { // round 0 warms up (class loading, the per-thread scratch)
        assertTrue(allocated < 1024, "500 batches of ranges allocated " + allocated + " bytes");
      }
    }
    assertTrue(sink > 0);
  }
}
