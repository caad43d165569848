package dev.sieve.interop;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.FuzzTest;
import com.google.common.hash.BloomFilter;
import com.google.common.hash.Funnels;
import dev.sieve.SieveFormatException;
import java.io.ByteArrayInputStream;
import java.io.IOException;

/**
 * Fuzz target for {@link GuavaBloomFilter#readFrom(byte[])}: a typed error with a non-negative
 * offset, or a filter that writes the same bytes back and answers as Guava's own {@code readFrom}
 * of the bytes (safe to call once ours has bounded the length).
 */
class GuavaFormFuzzTest {

  @FuzzTest(maxDuration = "30s")
  void fuzz(byte[] data) throws IOException {
    GuavaBloomFilter f;
    try {
      f = GuavaBloomFilter.readFrom(data);
    } catch (SieveFormatException e) {
      assertTrue(e.offset() >= 0, e.getMessage());
      return;
    }
    assertArrayEquals(data, f.toByteArray());
    BloomFilter<byte[]> guava =
        BloomFilter.readFrom(new ByteArrayInputStream(data), Funnels.byteArrayFunnel());
    for (int i = 0; i < 16; i++) {
      byte[] key = {(byte) i, (byte) data.length, (byte) (data.length >>> 8)};
      assertEquals(guava.mightContain(key), f.mayContain(key));
    }
    byte[] key = {42};
    f.put(key);
    assertTrue(f.mayContain(key));
  }
}
