package dev.sieve.format;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sieve.Filter;
import dev.sieve.KeyScheme;
import dev.sieve.bloom.ScalableBloomFilter;
import dev.sieve.bloom.ScalableBloomRawForm;
import dev.sieve.ribbon.BumpedRibbonFilter;
import dev.sieve.ribbon.BumpedRibbonRawForm;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * The scalable Bloom and Bumped Ribbon filters have a public payload form of their own ({@code
 * toByteArray}, {@code fromByteArray}, {@code wrap}) which, unlike the container, records no key
 * scheme. Their readers take the scheme as an argument, so a filter built under its default scheme
 * ({@link KeyScheme#FAST}) and read back with that scheme finds every key: no reader guesses a
 * scheme and hashes the keys another way.
 */
class RawFormSchemeTest {

  private static long[] keys() {
    long[] keys = new long[20_000];
    for (int i = 0; i < keys.length; i++) {
      keys[i] = i * 0x9E3779B97F4A7C15L + 17;
    }
    return keys;
  }

  private static void assertAllFound(Filter f, long[] keys, String what) {
    for (long k : keys) {
      assertTrue(f.mayContain(k), what + ": false negative for " + k);
    }
  }

  @Test
  void aDefaultScalableBloomReadBackWithItsSchemeFindsEveryKey() {
    long[] keys = keys();
    ScalableBloomFilter f = ScalableBloomFilter.builder().build(keys);
    assertEquals(KeyScheme.FAST, f.keyScheme());
    byte[] bytes = ScalableBloomRawForm.bytes(f);
    List<Function<byte[], Filter>> readers =
        List.of(
            b -> ScalableBloomRawForm.read(b, f.keyScheme()),
            b -> ScalableBloomRawForm.wrap(ByteBuffer.wrap(b), f.keyScheme()));
    for (Function<byte[], Filter> r : readers) {
      Filter back = r.apply(bytes);
      assertEquals(KeyScheme.FAST, back.keyScheme());
      assertAllFound(back, keys, "scalable-bloom");
    }
  }

  @Test
  void aDefaultBumpedRibbonReadBackWithItsSchemeFindsEveryKey() {
    long[] keys = keys();
    BumpedRibbonFilter f = BumpedRibbonFilter.builder().build(keys);
    assertEquals(KeyScheme.FAST, f.keyScheme());
    byte[] bytes = BumpedRibbonRawForm.bytes(f);
    List<Function<byte[], Filter>> readers =
        List.of(
            b -> BumpedRibbonRawForm.read(b, f.keyScheme()),
            b -> BumpedRibbonRawForm.wrap(ByteBuffer.wrap(b), f.keyScheme()));
    for (Function<byte[], Filter> r : readers) {
      Filter back = r.apply(bytes);
      assertEquals(KeyScheme.FAST, back.keyScheme());
      assertAllFound(back, keys, "bumped-ribbon");
    }
  }
}
