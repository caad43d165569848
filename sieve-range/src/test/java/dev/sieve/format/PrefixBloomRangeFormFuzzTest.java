package dev.sieve.format;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.sieve.KeyScheme;
import dev.sieve.range.PrefixBloomRangeFilter;
import java.nio.ByteBuffer;
import java.util.SplittableRandom;

/**
 * Fuzz target for the PrefixBloomRangeFilter payload form (read through {@link Forms}): a typed
 * error, or a filter that re-serializes to the same bytes and answers points and ranges (short,
 * long, at 0 and at 2^64 − 1) as its in-place reading does, without an unchecked exception.
 */
class PrefixBloomRangeFormFuzzTest {

  @FuzzTest(maxDuration = "30s")
  void fuzz(byte[] data) {
    PrefixBloomRangeFilter filter =
        FuzzSupport.readOrNull(() -> Forms.read(PrefixBloomRangeFilter.class, data));
    if (filter == null) {
      return;
    }
    // a bare payload records no scheme (the container does): range queries need the keys' own
    filter = filter.withKeyScheme(KeyScheme.IDENTITY);
    assertArrayEquals(data, Forms.toBytes(filter));
    PrefixBloomRangeFilter wrapped =
        Forms.wrap(PrefixBloomRangeFilter.class, ByteBuffer.wrap(data))
            .withKeyScheme(KeyScheme.IDENTITY);
    assertEquals(filter, wrapped);
    FuzzSupport.assertSameAnswers(filter, wrapped, data);
    SplittableRandom rnd = new SplittableRandom(data.length);
    for (int i = 0; i < 64; i++) {
      long lo = i < 2 ? -1L * i : rnd.nextLong();
      long len = i % 3 == 0 ? rnd.nextLong(1, 1L << 12) : 1L << rnd.nextInt(63);
      long hi = Long.compareUnsigned(-1L - lo, len - 1) >= 0 ? lo + len - 1 : -1L;
      assertEquals(filter.mayContainRange(lo, hi), wrapped.mayContainRange(lo, hi));
    }
  }
}
