package dev.sieve.bloom;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sieve.KeyScheme;
import dev.sieve.KeySchemeException;
import dev.sieve.MutableFilterBuilder;
import dev.sieve.SieveFormatException;
import dev.sieve.format.SieveFormat;
import dev.sieve.hash.KeyEncoder;
import dev.sieve.hash.KeyHash;
import dev.sieve.hash.ParquetHash;
import dev.sieve.hash.XxHash64;
import dev.sieve.math.SplitBlockMath;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

/**
 * {@link SplitBlockBloomFilter}: the layout against a transliteration of the parquet-format spec's
 * byte-level description, the sizing rules and their clamping, no false negatives on every path,
 * the FPR model, union, concurrency and refused input. (Byte-identity with parquet-java itself is
 * tested in sieve-parquet, which has parquet-column as a test dependency.)
 */
class SplitBlockBloomFilterTest {
  private static final int[] SALT = {
    0x47b6137b, 0x44974d91, 0x8824ad5b, 0xa2b7289d, 0x705495c7, 0x2df1424b, 0x9efc4947, 0x5c6bfb31
  };

  /** The spec's insert, over bytes and 32-bit words, written independently of the class. */
  private static void specInsert(byte[] bitset, long hash) {
    ByteBuffer words = ByteBuffer.wrap(bitset).order(ByteOrder.LITTLE_ENDIAN);
    long z = bitset.length / 32;
    long block = ((hash >>> 32) * z) >>> 32;
    int key = (int) hash;
    for (int i = 0; i < 8; i++) {
      int at = (int) (block * 32 + 4 * i);
      int bit = (key * SALT[i]) >>> 27;
      words.putInt(at, words.getInt(at) | (1 << bit));
    }
  }

  @Test
  void bitsAreWhereTheSpecPutsThem() {
    SplittableRandom random = new SplittableRandom(1);
    for (int bytes : new int[] {32, 64, 96, 1024, 32 * 1000, 1 << 16}) {
      SplitBlockBloomFilter filter = SplitBlockBloomFilter.withNumBytes(bytes);
      byte[] expected = new byte[bytes];
      for (int i = 0; i < 3 * bytes / 32; i++) {
        long h = random.nextLong();
        filter.addHash(h);
        specInsert(expected, h);
        assertTrue(filter.mayContainHash(h));
      }
      assertArrayEquals(
          expected,
          filter.withKeyScheme(KeyScheme.PARQUET_XXH64).toParquetBitset(),
          bytes + " bytes");
    }
  }

  @Test
  void parquetHashIsXxh64OfThePlainEncoding() {
    SplittableRandom random = new SplittableRandom(2);
    for (int i = 0; i < 10_000; i++) {
      long v = i < 10 ? i - 5 : random.nextLong();
      byte[] le8 = ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(v).array();
      byte[] le4 = ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putInt((int) v).array();
      assertEquals(XxHash64.hash(le8, 0), ParquetHash.ofLong(v));
      assertEquals(XxHash64.hash(le4, 0), ParquetHash.ofInt((int) v));
      assertEquals(ParquetHash.ofLong(v), ParquetHash.ofDouble(Double.longBitsToDouble(v)));
      assertEquals(ParquetHash.ofInt((int) v), ParquetHash.ofFloat(Float.intBitsToFloat((int) v)));
    }
    // XXH64 of the empty input, the xxHash reference value
    assertEquals(0xEF46DB3751D8E999L, ParquetHash.ofBinary(new byte[0]));
    assertEquals(
        ParquetHash.ofBinary("héllo".getBytes(StandardCharsets.UTF_8)),
        ParquetHash.ofString("héllo"));
    // the sign of zero and NaN payloads are kept, as parquet-java's ByteBuffer.putFloat keeps them
    assertFalse(ParquetHash.ofDouble(0.0) == ParquetHash.ofDouble(-0.0));
    assertFalse(ParquetHash.ofFloat(0.0f) == ParquetHash.ofFloat(-0.0f));
  }

  @Property(tries = 60)
  void noFalseNegativeOnAnyPath(
      @ForAll @IntRange(min = 0, max = 3000) int n,
      @ForAll @IntRange(min = 0, max = 4096) int requestedBytes,
      @ForAll long seed) {
    SplittableRandom random = new SplittableRandom(seed);
    long[] values = new long[n];
    for (int i = 0; i < n; i++) {
      values[i] = random.nextInt(4) == 0 ? i : random.nextLong(); // duplicates and small values
    }
    SplitBlockBloomFilter parquet =
        SplitBlockBloomFilter.builder()
            .numBytes(requestedBytes)
            .keyScheme(KeyScheme.PARQUET_XXH64)
            .create();
    for (long v : values) {
      parquet.add(v);
      parquet.add(Long.toString(v));
    }
    SplitBlockBloomFilter built = SplitBlockBloomFilter.builder().build(values);
    for (SplitBlockBloomFilter f :
        new SplitBlockBloomFilter[] {
          parquet,
          SplitBlockBloomFilter.fromParquetBitset(parquet.toParquetBitset()),
          SplitBlockBloomFilter.wrapParquetBitset(
              ByteBuffer.allocateDirect((int) parquet.sizeInBytes())
                  .put(parquet.toParquetBitset())
                  .flip(),
              0),
          SieveFormat.read(SieveFormat.toBytes(parquet), SplitBlockBloomFilter.class)
        }) {
      assertEquals(KeyScheme.PARQUET_XXH64, f.keyScheme());
      for (long v : values) {
        assertTrue(f.mayContain(v));
        assertTrue(f.mayContainHash(ParquetHash.ofLong(v)));
        assertTrue(f.mayContain(Long.toString(v)));
        assertTrue(f.keyed(KeyEncoder.UTF8).mayContain(Long.toString(v)));
      }
    }
    for (long v : values) {
      assertTrue(built.mayContain(v));
    }
  }

  /**
   * The two hashings differ: a Parquet-filled filter asked with Sieve's hash would miss values,
   * which is why the filter keeps its scheme and hashes every key by it.
   */
  @Test
  void sieveHashingAndParquetHashingAreDifferentKeys() {
    SplitBlockBloomFilter f =
        SplitBlockBloomFilter.builder()
            .expectedKeys(1000)
            .keyScheme(KeyScheme.PARQUET_XXH64)
            .create();
    for (long v = 0; v < 1000; v++) {
      f.add(v);
    }
    int sieveHits = 0;
    for (long v = 0; v < 1000; v++) {
      assertTrue(f.mayContain(v));
      assertTrue(f.mayContainHash(ParquetHash.ofLong(v)));
      sieveHits += f.mayContainHash(KeyHash.hash64(v)) ? 1 : 0;
    }
    assertTrue(sieveHits < 100, "Sieve's hash found " + sieveHits + " of 1000 Parquet values");
  }

  @Test
  void sizingFollowsParquetAndClamps() {
    // optimalNumOfBits: -8n/ln(1 - p^(1/8)), with parquet-java's rounding
    assertEquals(256, SplitBlockBloomFilter.parquetOptimalNumOfBits(0, 0.01));
    assertEquals(256, SplitBlockBloomFilter.parquetOptimalNumOfBits(1, 0.01));
    int bits = SplitBlockBloomFilter.parquetOptimalNumOfBits(1_000_000, 0.01);
    assertEquals(9_681_526, (int) SplitBlockMath.parquetSplitBlockBits(1_000_000, 0.01));
    assertTrue(Math.abs(bits - 9_681_526) <= 512, "bits " + bits);
    // the power-of-two rounding, the minimum and the maximum
    assertEquals(2 << 20, SplitBlockBloomFilter.parquetNumBytes(1_000_000, 0.01));
    assertEquals(32, SplitBlockBloomFilter.parquetNumBytes(0, 0.5));
    assertEquals(
        SplitBlockBloomFilter.MAX_BYTES,
        SplitBlockBloomFilter.parquetNumBytes(Long.MAX_VALUE / 16, 0.01));
    assertEquals(
        SplitBlockBloomFilter.MAX_BYTES, SplitBlockBloomFilter.parquetNumBytes(1L << 40, 1e-9));
    assertEquals(1 << 20, SplitBlockBloomFilter.parquetNumBytes(10_000_000, 0.01, 1 << 20));
    assertEquals(32, SplitBlockBloomFilter.parquetNumBytes(0, 1 << 20));
    assertEquals(64, SplitBlockBloomFilter.parquetNumBytes(33, 1 << 20));
    assertEquals(1024, SplitBlockBloomFilter.parquetNumBytes(1024, 1 << 20));
    assertEquals(
        SplitBlockBloomFilter.MAX_BYTES,
        SplitBlockBloomFilter.parquetNumBytes(Integer.MAX_VALUE, Integer.MAX_VALUE));
    assertEquals(
        SplitBlockBloomFilter.MAX_BYTES,
        SplitBlockBloomFilter.parquetNumBytes(Integer.MAX_VALUE, 7));
    // the builder
    assertEquals(64, SplitBlockBloomFilter.builder().numBytes(33).create().sizeInBytes());
    assertEquals(32, SplitBlockBloomFilter.builder().numBytes(0).create().sizeInBytes());
    assertEquals(
        1 << 20,
        SplitBlockBloomFilter.builder()
            .expectedKeys(10_000_000)
            .maxBytes(1 << 20)
            .create()
            .sizeInBytes());
    assertEquals(
        2 << 20, SplitBlockBloomFilter.builder().expectedKeys(1_000_000).create().sizeInBytes());
    assertEquals(
        4 << 20,
        SplitBlockBloomFilter.builder()
            .expectedKeys(1_000_000)
            .fpRate(0.0001)
            .create()
            .sizeInBytes());
  }

  @Test
  void badArgumentsAndInputAreRefused() {
    for (int b : new int[] {0, 16, 31, 33, 48, SplitBlockBloomFilter.MAX_BYTES + 32, -32}) {
      IllegalArgumentException e =
          assertThrows(IllegalArgumentException.class, () -> SplitBlockBloomFilter.withNumBytes(b));
      assertTrue(e.getMessage().contains(Integer.toString(b)), e.getMessage());
    }
    for (int len : new int[] {0, 1, 31, 33, 63}) {
      SieveFormatException e =
          assertThrows(
              SieveFormatException.class,
              () -> SplitBlockBloomFilter.fromParquetBitset(new byte[len]));
      assertTrue(e.getMessage().contains(len + " bytes"), e.getMessage());
      assertThrows(
          SieveFormatException.class,
          () -> SplitBlockBloomFilter.wrapParquetBitset(ByteBuffer.allocate(len), 0));
    }
    assertThrows(IllegalArgumentException.class, () -> SplitBlockBloomFilter.builder().fpRate(1));
    assertThrows(
        IllegalArgumentException.class, () -> SplitBlockBloomFilter.builder().expectedKeys(-1));
    assertThrows(
        IllegalArgumentException.class, () -> SplitBlockBloomFilter.builder().numBytes(-1));
    assertThrows(
        IllegalArgumentException.class,
        () -> SplitBlockBloomFilter.fromParquetBitset(new byte[32], -1));
    SplitBlockBloomFilter wrapped =
        SplitBlockBloomFilter.wrapParquetBitset(ByteBuffer.allocate(64), 0);
    assertThrows(UnsupportedOperationException.class, () -> wrapped.add(1L));
    assertThrows(
        IllegalArgumentException.class,
        () -> SplitBlockBloomFilter.withNumBytes(64).union(SplitBlockBloomFilter.withNumBytes(32)));
  }

  @Test
  void unionHoldsBothAndEstimatesTheCount() {
    SplitBlockBloomFilter a =
        SplitBlockBloomFilter.builder()
            .expectedKeys(20_000)
            .keyScheme(KeyScheme.PARQUET_XXH64)
            .create();
    SplitBlockBloomFilter b =
        SplitBlockBloomFilter.builder()
            .expectedKeys(20_000)
            .keyScheme(KeyScheme.PARQUET_XXH64)
            .create();
    for (int i = 0; i < 10_000; i++) {
      a.addInt(i);
      b.addInt(i + 5_000); // half shared
    }
    a.union(b);
    for (int i = 0; i < 15_000; i++) {
      assertTrue(a.mayContainInt(i));
      assertTrue(a.mayContainHash(ParquetHash.ofInt(i)));
    }
    // 15,000 distinct values, not 20,000
    assertEquals(15_000, a.numKeys(), 15_000 * 0.03);
    a.union(a.copy());
    assertEquals(15_000, a.numKeys(), 15_000 * 0.03);
  }

  @Test
  void concurrentAddsLoseNothing() throws Exception {
    SplitBlockBloomFilter f = SplitBlockBloomFilter.withNumBytes(4096); // crowded on purpose
    int threads = 4;
    int perThread = 50_000;
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      Future<?>[] done = new Future<?>[threads];
      for (int t = 0; t < threads; t++) {
        long base = (long) t * perThread;
        done[t] =
            pool.submit(
                () -> {
                  for (long v = base; v < base + perThread; v++) {
                    f.add(v);
                  }
                });
      }
      for (Future<?> d : done) {
        d.get();
      }
    } finally {
      pool.shutdown();
    }
    for (long v = 0; v < (long) threads * perThread; v++) {
      assertTrue(f.mayContain(v), "lost " + v);
    }
  }

  /**
   * The measured FPR against {@link SplitBlockMath#splitBlockFpRate}: 102,400 values, 2·10^6 absent
   * ones, at exactly 8, 10 and 16 bits per value. The bound is 4.42σ (two-sided 99.999%, binomial
   * sampling) plus 4% of the model for the model's own approximation (words treated as
   * independent).
   */
  @Test
  void fprMatchesTheModel() {
    int n = 102_400; // a multiple of 256, so every size is whole blocks
    int queries = 2_000_000;
    for (int bitsPerKey : new int[] {8, 10, 16}) {
      // Parquet's hash of the values, as the model was measured
      SplitBlockBloomFilter f =
          SplitBlockBloomFilter.fromParquetBitset(new byte[n * bitsPerKey / 8]);
      for (long v = 0; v < n; v++) {
        f.add(v);
      }
      long fp = 0;
      for (long v = n; v < n + queries; v++) {
        fp += f.mayContain(v) ? 1 : 0;
      }
      double measured = (double) fp / queries;
      double model = SplitBlockMath.splitBlockFpRate(bitsPerKey);
      double bound = 4.42 * Math.sqrt(model * (1 - model) / queries) + 0.04 * model;
      System.out.printf(
          "SBBF %d bits/value: measured %.4f%%, model %.4f%%%n",
          bitsPerKey, 100 * measured, 100 * model);
      assertEquals(model, measured, bound, bitsPerKey + " bits/value");
      // adds that changed the filter: all but the few values that were false positives already
      assertTrue(f.numKeys() <= n && f.numKeys() > 0.97 * n, "keys " + f.numKeys());
      // the value count estimated from the bits
      assertEquals(n, f.approximateElementCount(), n * 0.02);
    }
  }

  @Test
  void modelFigures() {
    assertEquals(0.012648, SplitBlockMath.splitBlockFpRate(10), 1e-6);
    assertEquals(0.0013156, SplitBlockMath.splitBlockFpRate(16), 1e-7);
    assertEquals(0.014627, SplitBlockMath.splitBlockFpRate(9.681526738735679), 1e-6);
    assertEquals(0.0, SplitBlockMath.splitBlockBloomFpRate(0, 32));
    assertEquals(0.0, SplitBlockMath.splitBlockElementCount(0));
    assertTrue(Double.isFinite(SplitBlockMath.splitBlockElementCount(256)));
    assertThrows(IllegalArgumentException.class, () -> SplitBlockMath.splitBlockFpRate(0));
    assertThrows(IllegalArgumentException.class, () -> SplitBlockMath.splitBlockElementCount(257));
  }

  @Test
  void createWithoutASizeUsesTheDefaultExpectedKeysAsEveryMutableBuilder() {
    SplitBlockBloomFilterBuilder b = SplitBlockBloomFilter.builder();
    assertEquals(MutableFilterBuilder.DEFAULT_EXPECTED_KEYS, b.expectedKeys());
    assertEquals(
        b.numBytesFor(MutableFilterBuilder.DEFAULT_EXPECTED_KEYS), b.create().sizeInBytes());
    assertEquals(
        SplitBlockBloomFilter.builder()
            .expectedKeys(MutableFilterBuilder.DEFAULT_EXPECTED_KEYS)
            .create()
            .sizeInBytes(),
        SplitBlockBloomFilter.builder().create().sizeInBytes());
    // a build from keys still sizes for the keys given, not the default
    long[] keys = new long[100_000];
    for (int i = 0; i < keys.length; i++) {
      keys[i] = i;
    }
    assertEquals(
        b.numBytesFor(keys.length), SplitBlockBloomFilter.builder().build(keys).sizeInBytes());
  }

  @Test
  void toParquetBitsetRefusesAFilterNotHashedAsParquetHashes() {
    long[] values = {-3, 0, 42, 1L << 40, Long.MAX_VALUE};
    for (KeyScheme scheme : new KeyScheme[] {KeyScheme.XXPH3, KeyScheme.MIX64}) {
      SplitBlockBloomFilter sieve =
          SplitBlockBloomFilter.builder().keyScheme(scheme).expectedKeys(100).create();
      for (long v : values) {
        sieve.add(v);
      }
      KeySchemeException e = assertThrows(KeySchemeException.class, sieve::toParquetBitset);
      assertTrue(e.getMessage().contains(scheme.toString()), e.getMessage());
      assertTrue(e.getMessage().contains("PARQUET_XXH64"), e.getMessage());
    }
    // the good path: a PARQUET_XXH64 filter's bitset, read back as Parquet's, holds the values
    SplitBlockBloomFilter parquet =
        SplitBlockBloomFilter.builder()
            .keyScheme(KeyScheme.PARQUET_XXH64)
            .expectedKeys(100)
            .create();
    for (long v : values) {
      parquet.add(v);
    }
    byte[] bitset = parquet.toParquetBitset();
    SplitBlockBloomFilter back = SplitBlockBloomFilter.fromParquetBitset(bitset);
    assertEquals(KeyScheme.PARQUET_XXH64, back.keyScheme());
    assertArrayEquals(bitset, back.toParquetBitset());
    for (long v : values) {
      assertTrue(back.mayContainHash(ParquetHash.ofLong(v)), Long.toString(v));
      assertTrue(back.mayContain(v));
    }
    // the same bits under an explicit re-label (hashes known to be Parquet's) are accepted
    SplitBlockBloomFilter raw = SplitBlockBloomFilter.withNumBytes(64);
    raw.addHash(ParquetHash.ofLong(42));
    assertThrows(KeySchemeException.class, raw::toParquetBitset);
    assertTrue(
        SplitBlockBloomFilter.fromParquetBitset(
                raw.withKeyScheme(KeyScheme.PARQUET_XXH64).toParquetBitset())
            .mayContain(42L));
  }
}
