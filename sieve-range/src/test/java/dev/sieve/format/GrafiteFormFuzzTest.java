package dev.sieve.format;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.sieve.KeyScheme;
import dev.sieve.range.GrafiteFilter;
import java.nio.ByteBuffer;
import java.util.SplittableRandom;

/**
 * Fuzz target for the GrafiteFilter payload form (read through {@link Forms}): a typed error, or a
 * filter that re-serializes to the same bytes and answers points and ranges (short, long, at 0 and
 * at 2^64 − 1), one by one and in a batch, as its in-place readings do (heap and direct buffers,
 * read without a copy), without an unchecked exception.
 */
class GrafiteFormFuzzTest {

  @FuzzTest(maxDuration = "30s")
  void fuzz(byte[] data) {
    GrafiteFilter filter = FuzzSupport.readOrNull(() -> Forms.read(GrafiteFilter.class, data));
    if (filter == null) {
      return;
    }
    // a bare payload records no scheme (the container does): range queries need the keys' own
    filter = filter.withKeyScheme(KeyScheme.IDENTITY);
    byte[] again = Forms.toBytes(filter);
    assertArrayEquals(data, again);
    GrafiteFilter wrapped =
        Forms.wrap(GrafiteFilter.class, ByteBuffer.wrap(data)).withKeyScheme(KeyScheme.IDENTITY);
    assertEquals(filter, wrapped);
    assertTrue(wrapped.isWrapped());
    GrafiteFilter direct =
        Forms.wrap(GrafiteFilter.class, ByteBuffer.allocateDirect(again.length).put(again).flip())
            .withKeyScheme(KeyScheme.IDENTITY);
    assertTrue(direct.isWrapped());
    assertEquals(filter, direct);
    FuzzSupport.assertSameAnswers(filter, wrapped, data);
    FuzzSupport.assertSameAnswers(filter, direct, data);
    SplittableRandom rnd = new SplittableRandom(data.length);
    long[] lo = new long[64];
    long[] hi = new long[64];
    for (int i = 0; i < 64; i++) {
      long a = i < 2 ? -1L * i : rnd.nextLong();
      long len = i % 3 == 0 ? rnd.nextLong(1, 1L << 12) : 1L << rnd.nextInt(63);
      long b = Long.compareUnsigned(-1L - a, len - 1) >= 0 ? a + len - 1 : -1L;
      lo[i] = a;
      hi[i] = b;
      boolean expected = filter.mayContainRange(a, b);
      assertEquals(expected, wrapped.mayContainRange(a, b));
      assertEquals(expected, direct.mayContainRange(a, b));
    }
    long[] bits = new long[1];
    long[] directBits = new long[1];
    filter.mayContainRanges(lo, hi, 0, 64, bits);
    direct.mayContainRanges(lo, hi, 0, 64, directBits);
    for (int i = 0; i < 64; i++) {
      assertEquals(filter.mayContainRange(lo[i], hi[i]), (bits[0] >>> i & 1) != 0, "batch " + i);
    }
    assertEquals(bits[0], directBits[0]);
  }
}
