package dev.sieve.interop;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sieve.SieveFormatException;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;
import org.apache.spark.util.sketch.BloomFilter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@link SparkBloomFilter} against spark-sketch 4.2.0, V1 and V2: reads answer as Spark for 10^5
 * present and 10^5 absent keys (binary, string and long), writes are byte-identical to Spark's
 * {@code writeTo} and read back by Spark's {@code readFrom}; crafted headers give typed errors.
 */
class SparkBloomInteropTest {

  static final int PROBES = 100_000;

  static byte[] bytes(BloomFilter f) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    f.writeTo(out);
    return out.toByteArray();
  }

  @ParameterizedTest
  @CsvSource({
    "V1, 1000, 9585, 0",
    "V2, 1000, 9585, 0",
    "V1, 40000, 300000, 0",
    "V2, 40000, 300000, 0",
    "V2, 20000, 100003, 12345",
    "V2, 100000, 729844, -7",
    "V1, 100000, 480000, 0",
  })
  void readsAndWritesAsSpark(String v, int n, long bits, int seed) throws IOException {
    SparkBloomFilter.Version version = SparkBloomFilter.Version.valueOf(v);
    BloomFilter spark = BloomFilter.create(BloomFilter.Version.valueOf(v), n, bits, seed);
    SparkBloomFilter mine = SparkBloomFilter.create(version, n, bits, seed);
    SplittableRandom random = new SplittableRandom(n + bits + seed);
    byte[][] keys = new byte[n][];
    long[] longs = new long[n];
    for (int i = 0; i < n; i++) {
      keys[i] = new byte[random.nextInt(0, 30)];
      random.nextBytes(keys[i]);
      longs[i] = random.nextLong();
      if (i % 3 == 0) {
        spark.putLong(longs[i]);
        mine.put(longs[i]);
      } else if (i % 3 == 1) {
        spark.putBinary(keys[i]);
        mine.put(keys[i]);
      } else {
        String s = "s" + i + "\u00e9";
        spark.putString(s);
        mine.put(s);
      }
    }
    byte[] sparkBytes = bytes(spark);
    assertArrayEquals(sparkBytes, mine.toByteArray(), "the writer's bytes are Spark's");
    SparkBloomFilter read = SparkBloomFilter.readFrom(sparkBytes);
    assertEquals(version, read.version());
    assertEquals(seed, read.seed());
    BloomFilter back = BloomFilter.readFrom(new ByteArrayInputStream(mine.toByteArray()));
    assertEquals(spark, back);
    int positives = 0;
    for (int i = 0; i < PROBES; i++) {
      int j = i % n;
      if (j % 3 == 0) {
        assertTrue(read.mayContain(longs[j]));
      } else if (j % 3 == 1) {
        assertTrue(read.mayContain(keys[j]));
      } else {
        assertTrue(read.mayContain("s" + j + "\u00e9"));
      }
      long absentLong = random.nextLong();
      assertEquals(spark.mightContainLong(absentLong), read.mayContain(absentLong));
      byte[] absent = new byte[random.nextInt(6, 30)];
      random.nextBytes(absent);
      boolean a = read.mayContain(absent);
      assertEquals(spark.mightContainBinary(absent), a);
      String text = "t" + i;
      assertEquals(spark.mightContainString(text), read.mayContain(text));
      assertEquals(spark.mightContain(i), read.mayContainInt(i)); // integral types widen to long
      positives += a ? 1 : 0;
    }
    assertEquals(spark.expectedFpp(), read.expectedFpRate(), 1e-12);
    assertTrue(positives < PROBES / 4, "rate " + positives);
  }

  @Test
  void createSizesAsSpark() throws IOException {
    for (long n : new long[] {1, 10, 1000, 123457}) {
      for (double fpp : new double[] {0.5, 0.03, 0.001}) {
        assertArrayEquals(
            bytes(BloomFilter.create(n, fpp)), SparkBloomFilter.create(n, fpp).toByteArray());
      }
    }
    // bloom_filter_agg's sizing: 10^7 items at the default caps (4M items, 64 Mi bits)
    long bits = SparkBloomFilter.optimalNumOfBits(10_000_000L, 4_000_000L, 67_108_864L);
    assertEquals(BloomFilter.optimalNumOfBits(10_000_000L, 4_000_000L, 67_108_864L), bits);
  }

  @Test
  void craftedHeadersAreTypedErrors() {
    // Spark's readFrom allocates the word count before reading: this 16-byte input asks 16 GiB
    byte[] hostile =
        ByteBuffer.allocate(16).putInt(2).putInt(3).putInt(0).putInt(0x7ffffff0).array();
    assertMessage(hostile, "number of words 2147483632 needs");
    assertMessage(ByteBuffer.allocate(12).putInt(1).putInt(3).putInt(-1).array(), "words -1");
    assertMessage(ByteBuffer.allocate(12).putInt(1).putInt(3).putInt(0).array(), "words 0");
    assertMessage(ByteBuffer.allocate(12).putInt(3).putInt(3).putInt(1).array(), "version 3");
    assertMessage(ByteBuffer.allocate(12).putInt(1).putInt(0).putInt(1).array(), "functions 0");
    assertMessage(ByteBuffer.allocate(12).putInt(1).putInt(-5).putInt(1).array(), "functions -5");
    assertMessage(ByteBuffer.allocate(12).putInt(2).putInt(1).putInt(1).array(), "shorter");
    for (int len = 0; len < 12; len++) {
      byte[] b = new byte[len];
      assertThrows(SieveFormatException.class, () -> SparkBloomFilter.readFrom(b));
    }
    byte[] ok = SparkBloomFilter.create(100, 0.1).toByteArray();
    assertMessage(java.util.Arrays.copyOf(ok, ok.length + 1), "the filter has");
    assertThrows(
        IllegalArgumentException.class,
        () -> SparkBloomFilter.create(SparkBloomFilter.Version.V1, 10, 100, 3));
    assertThrows(IllegalArgumentException.class, () -> SparkBloomFilter.create(0, 0.1));
  }

  private static void assertMessage(byte[] bytes, String part) {
    SieveFormatException e =
        assertThrows(SieveFormatException.class, () -> SparkBloomFilter.readFrom(bytes));
    assertTrue(e.getMessage().contains(part), e.getMessage());
  }

  @Test
  void utf8OfStrings() {
    SparkBloomFilter f = SparkBloomFilter.create(100, 0.01);
    f.put("caf\u00e9");
    assertTrue(f.mayContain("caf\u00e9".getBytes(StandardCharsets.UTF_8)));
  }
}
