package dev.sieve.interop;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.sieve.SieveFormatException;

/**
 * Fuzz target for {@link CassandraBloomFilter#readFrom(byte[], CassandraBloomFilter.Layout)}: a
 * typed error with a non-negative offset, or a filter that writes the same bytes back in both
 * layouts and answers as the bit-by-bit model ({@link CassandraBloomInteropTest.Naive}) over the
 * same bits.
 */
class CassandraFormFuzzTest {

  @FuzzTest(maxDuration = "30s")
  void fuzz(byte[] data) {
    CassandraBloomFilter f;
    try {
      f = CassandraBloomFilter.readFrom(data);
    } catch (SieveFormatException e) {
      assertTrue(e.offset() >= 0, e.getMessage());
      return;
    }
    assertArrayEquals(data, f.toByteArray());
    byte[] legacy = f.toByteArray(CassandraBloomFilter.Layout.LEGACY);
    CassandraBloomFilter back =
        CassandraBloomFilter.readFrom(legacy, CassandraBloomFilter.Layout.LEGACY);
    assertEquals(f, back);
    CassandraBloomInteropTest.Naive model =
        new CassandraBloomInteropTest.Naive(f.numProbes(), f.sizeInBits() / 64);
    System.arraycopy(data, 8, model.bits, 0, model.bits.length);
    for (int i = 0; i < 16; i++) {
      byte[] key = {(byte) i, (byte) data.length, (byte) (data.length >>> 8), (byte) 0x90};
      assertEquals(model.isPresent(key), f.mayContain(key));
    }
    byte[] key = {42, (byte) 0xc3};
    f.put(key);
    assertTrue(f.mayContain(key));
  }
}
