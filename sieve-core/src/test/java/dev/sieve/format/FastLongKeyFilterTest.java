package dev.sieve.format;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sieve.FastLongKeyFilter;
import dev.sieve.Filter;
import dev.sieve.SieveFormatException;
import dev.sieve.bloom.BlockedBloomFilter;
import dev.sieve.cuckoo.CuckooFilter;
import dev.sieve.hash.KeyHash;
import dev.sieve.hash.LongKeyHash;
import dev.sieve.math.BloomMath;
import dev.sieve.registry.FilterType;
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

/**
 * The fast long-key hashes ({@link KeyHash#mix64}, keys as their own hashes) and the filters and
 * containers built on them.
 */
class FastLongKeyFilterTest {

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
    FastLongKeyFilter<Filter> filter = FastLongKeyFilter.of(buildMixed(type, keys));
    for (long key : keys) {
      assertTrue(filter.mayContain(key), type + " lost key " + key);
    }
    long[] bits = new long[(keys.length + 63) / 64];
    assertEquals(keys.length, filter.mayContainBatch(keys, 0, keys.length, bits));

    byte[] bytes = SieveFormat.toBytes(filter);
    int flags = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN).getInt(12);
    boolean mixesItself = type.name().startsWith("XOR") || type.name().startsWith("BINARY_FUSE");
    assertEquals(mixesItself ? LongKeyHash.IDENTITY : LongKeyHash.MIX64, filter.keyHash());
    assertEquals(
        mixesItself ? SieveFormat.FLAG_IDENTITY_LONG_KEYS : SieveFormat.FLAG_MIX64_LONG_KEYS,
        flags);
    ByteArrayOutputStream streamed = new ByteArrayOutputStream();
    SieveFormat.write(filter, streamed);
    assertEquals(java.util.List.of(), diff(bytes, streamed.toByteArray()));

    for (Filter back :
        new Filter[] {
          SieveFormat.read(bytes),
          SieveFormat.read(new ByteArrayInputStream(bytes)),
          SieveFormat.wrap(ByteBuffer.wrap(bytes)),
          SieveFormat.read(bytes, FastLongKeyFilter.class)
        }) {
      assertInstanceOf(FastLongKeyFilter.class, back);
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
    assertTrue(e.getMessage().contains(filter.keyHash().name()), e.getMessage());
  }

  @Test
  void unknownConflictingOrMisplacedFlagsAreRefused() {
    byte[] bytes =
        SieveFormat.toBytes(BlockedBloomFilter.builder().bitsPerKey(10).build(new long[] {1, 2}));
    for (int flags : new int[] {4, 0x80000000, 0x100, 3, 2}) {
      byte[] changed = TestFilters.withInt(bytes, 12, flags);
      SieveFormatException e =
          assertThrows(SieveFormatException.class, () -> SieveFormat.read(changed));
      assertEquals(12, e.offset());
      String expected = flags == 3 ? "both set" : flags == 2 ? "mixes them itself" : "unknown";
      assertTrue(e.getMessage().contains(expected), flags + ": " + e.getMessage());
    }
    assertThrows(
        IllegalArgumentException.class,
        () ->
            FastLongKeyFilter.of(
                BlockedBloomFilter.createWithBitsPerKey(10, 10), LongKeyHash.IDENTITY));
  }

  /**
   * Keys as their own hashes in an Xor8 filter: sequential keys 0..n-1 (where an unmixed filter
   * would fail) build, hold every key and keep the 2^-8 rate: over 400,000 absent sequential keys
   * the count stays within 5 standard deviations of the binomial mean.
   */
  @Test
  void sequentialKeysAsTheirOwnHashesInAnXorFilter() {
    int n = 200_000;
    long[] keys = new long[n];
    for (int i = 0; i < n; i++) {
      keys[i] = i;
    }
    FastLongKeyFilter<Xor8Filter> f = FastLongKeyFilter.build(Xor8Filter.builder(), keys);
    assertEquals(LongKeyHash.IDENTITY, f.keyHash());
    for (long key : keys) {
      assertTrue(f.mayContain(key));
    }
    int trials = 400_000;
    int hits = 0;
    for (int i = 0; i < trials; i++) {
      hits += f.mayContain(n + i) ? 1 : 0;
    }
    double p = 1.0 / 256;
    double sd = Math.sqrt(trials * p * (1 - p));
    assertTrue(Math.abs(hits - trials * p) < 5 * sd, "FPR " + (double) hits / trials);
  }

  @Test
  void byteKeysAndAddsToStaticFiltersAreRefused() {
    FastLongKeyFilter<Xor8Filter> xor =
        FastLongKeyFilter.build(Xor8Filter.builder(), new long[] {1, 2});
    assertThrows(UnsupportedOperationException.class, () -> xor.mayContain(new byte[] {1}));
    assertThrows(UnsupportedOperationException.class, () -> xor.mayContain(ByteBuffer.allocate(1)));
    assertThrows(UnsupportedOperationException.class, () -> xor.add(3));
    assertThrows(IllegalArgumentException.class, () -> FastLongKeyFilter.of(xor));
    FastLongKeyFilter<BlockedBloomFilter> bloom =
        FastLongKeyFilter.of(BlockedBloomFilter.createWithBitsPerKey(100, 10));
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
    FastLongKeyFilter<BlockedBloomFilter> f =
        FastLongKeyFilter.build(BlockedBloomFilter.builder().bitsPerKey(10), keys);
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
    if (type.name().startsWith("XOR") || type.name().startsWith("BINARY_FUSE")) {
      return TestFilters.buildFromHashes(type, keys.clone()); // keys as their own hashes
    }
    if (type == FilterType.CUCKOO) {
      CuckooFilter cuckoo = CuckooFilter.createWithFingerprintBits(4L * keys.length + 16, 12);
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
