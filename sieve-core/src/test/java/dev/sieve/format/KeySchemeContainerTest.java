package dev.sieve.format;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sieve.Filter;
import dev.sieve.KeyScheme;
import dev.sieve.KeySchemeException;
import dev.sieve.SieveFormatException;
import dev.sieve.bloom.BlockedBloomFilter;
import dev.sieve.bloom.SplitBlockBloomFilter;
import dev.sieve.cuckoo.CuckooFilter;
import dev.sieve.hash.KeyEncoder;
import dev.sieve.hash.KeyHash;
import dev.sieve.hash.ParquetHash;
import dev.sieve.math.BloomMath;
import dev.sieve.registry.FilterType;
import dev.sieve.xor.Xor8Filter;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The key schemes ({@link KeyScheme}): the fast long-key hashes ({@link KeyHash#mix64}, keys as
 * their own hashes) and Parquet's, the filters built with them, their containers (the flag of each
 * scheme; a filter read back carries its scheme and answers as the one written) and the errors for
 * keys a scheme does not define.
 */
class KeySchemeContainerTest {

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

  static boolean mixesItself(FilterType type) {
    return type.name().startsWith("XOR") || type.name().startsWith("BINARY_FUSE");
  }

  /** Every type with the long-key scheme FastLongKeyFilter gave it, with Parquet's and FAST. */
  static Stream<Arguments> typesAndSchemes() {
    List<Arguments> out = new ArrayList<>();
    for (FilterType type : TestTypes.builtIn()) {
      out.add(Arguments.of(type, mixesItself(type) ? KeyScheme.IDENTITY : KeyScheme.MIX64));
      if (mixesItself(type)) {
        out.add(Arguments.of(type, KeyScheme.MIX64));
      }
      out.add(Arguments.of(type, KeyScheme.PARQUET_XXH64));
      out.add(Arguments.of(type, KeyScheme.FAST)); // asked for on the types that keep XXPH3
    }
    return out.stream();
  }

  @ParameterizedTest
  @MethodSource("typesAndSchemes")
  void everyTypeHoldsItsKeysAndRoundTripsThroughTheContainer(FilterType type, KeyScheme scheme)
      throws IOException {
    long[] keys = new long[3000];
    for (int i = 0; i < keys.length; i++) {
      keys[i] = i; // sequential: low-entropy keys are where a weak mixer would show
    }
    Filter filter = build(type, scheme, keys);
    assertEquals(scheme, filter.keyScheme());
    for (long key : keys) {
      assertTrue(filter.mayContain(key), type + " lost key " + key);
      assertTrue(filter.mayContainHash(scheme.hash(key)), type + " hash of key " + key);
    }
    long[] bits = new long[(keys.length + 63) / 64];
    assertEquals(keys.length, filter.mayContainBatch(keys, 0, keys.length, bits));

    byte[] bytes = SieveFormat.toBytes(filter);
    int flags = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN).getInt(12);
    assertEquals(scheme.containerFlag(), flags);
    assertEquals(
        switch (scheme) {
          case MIX64 -> SieveFormat.FLAG_MIX64_LONG_KEYS;
          case IDENTITY -> SieveFormat.FLAG_IDENTITY_LONG_KEYS;
          case PARQUET_XXH64 -> SieveFormat.FLAG_PARQUET_XXH64_KEYS;
          case FAST -> SieveFormat.FLAG_FAST_KEYS;
          default -> 0;
        },
        flags);
    ByteArrayOutputStream streamed = new ByteArrayOutputStream();
    SieveFormat.write(filter, streamed);
    assertArrayEquals(bytes, streamed.toByteArray());

    for (Filter back :
        new Filter[] {
          SieveFormat.read(bytes),
          SieveFormat.read(new ByteArrayInputStream(bytes)),
          SieveFormat.wrap(ByteBuffer.wrap(bytes)),
          SieveFormat.read(bytes, filter.getClass()) // the class itself, no wrapper
        }) {
      assertSame(filter.getClass(), back.getClass(), type + " read back");
      assertEquals(scheme, back.keyScheme(), type + " read back");
      SplittableRandom random = new SplittableRandom(5);
      for (int i = 0; i < 2000; i++) {
        long key = i < keys.length ? keys[i] : random.nextLong();
        assertEquals(filter.mayContain(key), back.mayContain(key), type + " key " + key);
      }
      // written again, the same bytes (the flag included)
      assertArrayEquals(bytes, SieveFormat.toBytes(back), type + " rewritten");
    }
  }

  /** The default scheme writes flags 0 (the golden files check the bytes themselves). */
  @Test
  void theDefaultSchemeWritesNoFlag() {
    Filter f = BlockedBloomFilter.builder().bitsPerKey(10).build(new long[] {1, 2});
    assertEquals(KeyScheme.XXPH3, f.keyScheme());
    byte[] bytes = SieveFormat.toBytes(f);
    assertEquals(0, ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN).getInt(12));
    assertEquals(KeyScheme.XXPH3, SieveFormat.read(bytes).keyScheme());
  }

  @Test
  void unknownConflictingOrMisplacedFlagsAreRefused() {
    byte[] bytes =
        SieveFormat.toBytes(BlockedBloomFilter.builder().bitsPerKey(10).build(new long[] {1, 2}));
    for (int flags : new int[] {8, 0x80000000, 0x400, 3, 5, 6, 2, 0x104, 0x201, 0x10200}) {
      byte[] changed = TestFilters.withInt(bytes, 12, flags);
      SieveFormatException e =
          assertThrows(SieveFormatException.class, () -> SieveFormat.read(changed));
      assertEquals(12, e.offset());
      String expected =
          flags == 0x10200
              ? "long-keys flag"
              : flags == 3 || flags == 5 || flags == 6 || flags == 0x104 || flags == 0x201
                  ? "more than one"
                  : flags == 2 ? "mixes them itself" : "unknown";
      assertTrue(e.getMessage().contains(expected), flags + ": " + e.getMessage());
    }
    assertThrows(
        IllegalArgumentException.class,
        () -> BlockedBloomFilter.builder().keyScheme(KeyScheme.IDENTITY));
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
    Xor8Filter f = (Xor8Filter) Xor8Filter.builder().keyScheme(KeyScheme.IDENTITY).build(keys);
    assertEquals(KeyScheme.IDENTITY, f.keyScheme());
    for (long key : keys) {
      assertTrue(f.mayContain(key));
      assertTrue(f.mayContainHash(key));
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
  void keysTheSchemeDoesNotDefineAreErrorsNamingIt() {
    Filter xor = Xor8Filter.builder().keyScheme(KeyScheme.IDENTITY).build(new long[] {1, 2});
    BlockedBloomFilter bloom =
        (BlockedBloomFilter)
            BlockedBloomFilter.builder().expectedKeys(100).keyScheme(KeyScheme.MIX64).create();
    for (Filter f : new Filter[] {xor, bloom}) {
      List<Runnable> refused =
          List.of(
              () -> f.mayContain(new byte[] {1}),
              () -> f.mayContain(new byte[] {1}, 0, 1),
              () -> f.mayContain(ByteBuffer.allocate(1)),
              () -> f.mayContain("x"),
              () -> f.mayContainInt(1),
              () -> f.mayContainFloat(1f),
              () -> f.mayContainDouble(1d),
              () -> f.mayContain("x", KeyEncoder.UTF8),
              () -> f.mayContainBatch(new byte[][] {{1}}, 0, 1, new long[1]),
              () -> f.mayContainBatch(new CharSequence[] {"x"}, 0, 1, new long[1]),
              () -> f.keyed(KeyEncoder.UTF8).mayContain("x"));
      for (Runnable r : refused) {
        KeySchemeException e = assertThrows(KeySchemeException.class, r::run);
        assertTrue(e.getMessage().contains(f.keyScheme().name()), e.getMessage());
        assertTrue(e.getMessage().contains("long keys only"), e.getMessage());
      }
      // long keys, and typed Long keys through KeyEncoder.LONG, are the scheme's
      assertEquals(f.mayContain(1L), f.keyed(KeyEncoder.LONG).mayContain(1L));
    }
    assertThrows(KeySchemeException.class, () -> bloom.add("x"));
    assertThrows(KeySchemeException.class, () -> bloom.add(new byte[] {1}));
    assertThrows(KeySchemeException.class, () -> bloom.addInt(1));
    assertTrue(bloom.add(7));
    assertTrue(bloom.mayContain(7));
    assertTrue(bloom.mayContainHash(KeyHash.mix64(7)));
    assertTrue(bloom.keyed(KeyEncoder.LONG).mayContain(7L));
    assertThrows(
        KeySchemeException.class,
        () -> BlockedBloomFilter.builder().keyScheme(KeyScheme.MIX64).build(new byte[][] {{1}}));
  }

  @Test
  void unionRefusesTwoSchemesAndCopyKeepsTheScheme() {
    BlockedBloomFilter mixed =
        (BlockedBloomFilter)
            BlockedBloomFilter.builder().expectedKeys(100).keyScheme(KeyScheme.MIX64).create();
    BlockedBloomFilter plain = BlockedBloomFilter.builder().expectedKeys(100).create();
    mixed.add(5);
    KeySchemeException e = assertThrows(KeySchemeException.class, () -> plain.union(mixed));
    assertTrue(e.getMessage().contains("MIX64") && e.getMessage().contains("XXPH3"));
    BlockedBloomFilter copy = mixed.copy();
    assertEquals(KeyScheme.MIX64, copy.keyScheme());
    assertTrue(copy.mayContain(5));
    assertEquals(mixed, copy);
    // the same (empty) bits under two schemes answer differently: not equal
    assertNotEquals(
        BlockedBloomFilter.builder().expectedKeys(100).create(),
        BlockedBloomFilter.builder().expectedKeys(100).keyScheme(KeyScheme.MIX64).create());
    copy.union(mixed); // the same scheme: fine

    SplitBlockBloomFilter parquet = SplitBlockBloomFilter.fromParquetBitset(new byte[64]);
    SplitBlockBloomFilter sieve = SplitBlockBloomFilter.withNumBytes(64);
    assertThrows(KeySchemeException.class, () -> parquet.union(sieve));
    assertThrows(KeySchemeException.class, () -> sieve.union(parquet));
    assertEquals(KeyScheme.PARQUET_XXH64, parquet.copy().keyScheme());
    parquet.add(42L);
    assertTrue(parquet.mayContainHash(ParquetHash.ofLong(42)));
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
    Filter f = BlockedBloomFilter.builder().bitsPerKey(10).keyScheme(KeyScheme.MIX64).build(keys);
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

  private static Filter build(FilterType type, KeyScheme scheme, long[] keys) {
    if (type == FilterType.CUCKOO) {
      CuckooFilter cuckoo =
          (CuckooFilter)
              CuckooFilter.builder()
                  .fingerprintBits(12)
                  .expectedKeys(4L * keys.length + 16)
                  .keyScheme(scheme)
                  .create();
      for (long key : keys) {
        cuckoo.add(key);
      }
      return cuckoo;
    }
    return TestFilters.builder(type).keyScheme(scheme).build(keys);
  }
}
