package dev.sieve.format;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sieve.Filter;
import dev.sieve.Mix64KeyFilter;
import dev.sieve.SieveFormatException;
import dev.sieve.bloom.BlockedBloomFilter;
import dev.sieve.cuckoo.CuckooFilter;
import dev.sieve.hash.KeyHash;
import dev.sieve.math.BloomMath;
import dev.sieve.xor.Xor8Filter;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** The fast long-key hash ({@link KeyHash#mix64}) and the filters and containers built on it. */
class Mix64KeyFilterTest {

  /** {@code SplittableRandom(seed).nextLong()} is the same mixer over {@code seed + gamma}. */
  @Test
  void mix64IsSplittableRandomsMixer() {
    SplittableRandom keys = new SplittableRandom(11);
    for (int i = 0; i < 10_000; i++) {
      long key = i < 100 ? i - 50 : keys.nextLong();
      assertEquals(new SplittableRandom(key).nextLong(), KeyHash.mix64(key), "key " + key);
    }
    assertNotEquals(0, KeyHash.mix64(0), "no fixed point at 0");
  }

  @ParameterizedTest
  @EnumSource(FilterType.class)
  void everyTypeHoldsItsKeysAndRoundTripsThroughTheContainer(FilterType type) throws IOException {
    long[] keys = new long[3000];
    for (int i = 0; i < keys.length; i++) {
      keys[i] = i; // sequential: low-entropy keys are where a weak mixer would show
    }
    Mix64KeyFilter<Filter> filter = Mix64KeyFilter.of(buildMixed(type, keys));
    for (long key : keys) {
      assertTrue(filter.mayContain(key), type + " lost key " + key);
    }
    long[] bits = new long[(keys.length + 63) / 64];
    assertEquals(keys.length, filter.mayContainBatch(keys, 0, keys.length, bits));

    byte[] bytes = SieveFormat.toBytes(filter);
    int flags = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN).getInt(12);
    assertEquals(SieveFormat.FLAG_MIX64_LONG_KEYS, flags);
    ByteArrayOutputStream streamed = new ByteArrayOutputStream();
    SieveFormat.write(filter, streamed);
    assertEquals(java.util.List.of(), diff(bytes, streamed.toByteArray()));

    for (Filter back :
        new Filter[] {
          SieveFormat.read(bytes),
          SieveFormat.read(new ByteArrayInputStream(bytes)),
          SieveFormat.wrap(ByteBuffer.wrap(bytes)),
          SieveFormat.read(bytes, Mix64KeyFilter.class)
        }) {
      assertInstanceOf(Mix64KeyFilter.class, back);
      SplittableRandom random = new SplittableRandom(5);
      for (int i = 0; i < 2000; i++) {
        long key = i < keys.length ? keys[i] : random.nextLong();
        assertEquals(filter.mayContain(key), back.mayContain(key), type + " key " + key);
      }
    }
    // read as the class inside, its XXPH3 queries would miss the keys: refused, naming why
    Class<? extends Filter> innerClass = filter.filter().getClass();
    SieveFormatException e =
        assertThrows(SieveFormatException.class, () -> SieveFormat.read(bytes, innerClass));
    assertTrue(e.getMessage().contains("mix64"), e.getMessage());
  }

  @Test
  void unknownFlagsAreRefused() {
    byte[] bytes =
        SieveFormat.toBytes(BlockedBloomFilter.builder().bitsPerKey(10).build(new long[] {1, 2}));
    for (int flags : new int[] {2, 3, 0x80000000, 0x100}) {
      byte[] changed = TestFilters.withInt(bytes, 12, flags);
      SieveFormatException e =
          assertThrows(SieveFormatException.class, () -> SieveFormat.read(changed));
      assertEquals(12, e.offset());
      assertTrue(e.getMessage().contains("unknown flags"), e.getMessage());
    }
  }

  @Test
  void byteKeysAndAddsToStaticFiltersAreRefused() {
    Mix64KeyFilter<Xor8Filter> xor = Mix64KeyFilter.build(Xor8Filter.builder(), new long[] {1, 2});
    assertThrows(UnsupportedOperationException.class, () -> xor.mayContain(new byte[] {1}));
    assertThrows(UnsupportedOperationException.class, () -> xor.mayContain(ByteBuffer.allocate(1)));
    assertThrows(UnsupportedOperationException.class, () -> xor.add(3));
    assertThrows(IllegalArgumentException.class, () -> Mix64KeyFilter.of(xor));
    Mix64KeyFilter<BlockedBloomFilter> bloom =
        Mix64KeyFilter.of(BlockedBloomFilter.create(100, 10));
    assertTrue(bloom.add(7));
    assertTrue(bloom.mayContain(7));
    assertTrue(bloom.filter().mayContainHash(KeyHash.mix64(7)));
  }

  /**
   * Sequential keys through mix64 give the blocked Bloom filter its modelled FPR: over 200,000
   * absent keys the count stays within 5 standard deviations of the model's binomial mean (a false
   * alarm has probability below 10^-6).
   */
  @Test
  void sequentialKeysKeepTheModelledFalsePositiveRate() {
    int n = 100_000;
    long[] keys = new long[n];
    for (int i = 0; i < n; i++) {
      keys[i] = i;
    }
    Mix64KeyFilter<BlockedBloomFilter> f =
        Mix64KeyFilter.build(BlockedBloomFilter.builder().bitsPerKey(10), keys);
    int trials = 200_000;
    int hits = 0;
    for (int i = 0; i < trials; i++) {
      hits += f.mayContain(n + i) ? 1 : 0;
    }
    double p = f.modelledFpRate();
    double sd = Math.sqrt(trials * p * (1 - p));
    assertTrue(
        Math.abs(hits - trials * p) < 5 * sd,
        "FPR " + (double) hits / trials + " vs model " + p + " (" + BloomMath.class + ")");
  }

  private static Filter buildMixed(FilterType type, long[] keys) {
    if (type == FilterType.CUCKOO) {
      CuckooFilter cuckoo = CuckooFilter.create(4L * keys.length + 16, 12);
      for (long key : keys) {
        cuckoo.addHash(KeyHash.mix64(key));
      }
      return cuckoo;
    }
    long[] hashes = new long[keys.length];
    KeyHash.mix64(keys, 0, keys.length, hashes, 0);
    // the types' test builders hash long keys with XXPH3; reuse them by handing over the
    // mixed values as pre-computed hashes through a builder of the same settings
    return TestFilters.buildFromHashes(type, hashes);
  }

  private static java.util.List<Integer> diff(byte[] a, byte[] b) {
    java.util.List<Integer> out = new java.util.ArrayList<>();
    for (int i = 0; i < Math.max(a.length, b.length); i++) {
      if (i >= a.length || i >= b.length || a[i] != b[i]) {
        out.add(i);
      }
    }
    return out;
  }
}
