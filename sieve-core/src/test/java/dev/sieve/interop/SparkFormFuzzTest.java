package dev.sieve.interop;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.sieve.SieveFormatException;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import org.apache.spark.util.sketch.BloomFilter;

/**
 * Fuzz target for {@link SparkBloomFilter#readFrom(byte[])}: a typed error with a non-negative
 * offset, or a filter that writes the same bytes back and answers as Spark's own {@code readFrom}
 * of the bytes (safe to call once ours has bounded the length).
 */
class SparkFormFuzzTest {

  @FuzzTest(maxDuration = "30s")
  void fuzz(byte[] data) throws IOException {
    SparkBloomFilter f;
    try {
      f = SparkBloomFilter.readFrom(data);
    } catch (SieveFormatException e) {
      assertTrue(e.offset() >= 0, e.getMessage());
      return;
    }
    assertArrayEquals(data, f.toByteArray());
    BloomFilter spark = BloomFilter.readFrom(new ByteArrayInputStream(data));
    for (int i = 0; i < 16; i++) {
      byte[] key = {(byte) i, (byte) data.length, (byte) (data.length >>> 8)};
      assertEquals(spark.mightContainBinary(key), f.mayContain(key));
      assertEquals(
          spark.mightContainLong(i * 31L + data.length), f.mayContain(i * 31L + data.length));
    }
    f.put(77L);
    assertTrue(f.mayContain(77L));
  }
}
