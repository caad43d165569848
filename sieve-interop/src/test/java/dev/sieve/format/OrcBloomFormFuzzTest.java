package dev.sieve.format;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.sieve.KeyScheme;
import dev.sieve.interop.OrcBloomFilter;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * Fuzz target for the ORC Bloom filter's own form (read through {@link Forms}, copying and
 * wrapping) and for {@link OrcBloomFilter#fromUtf8Bitset} over the same bytes past the 8-byte
 * header: a typed error or a filter that re-serializes to the same bytes and keeps an added key.
 */
class OrcBloomFormFuzzTest {

  @FuzzTest(maxDuration = "30s")
  void fuzz(byte[] data) {
    OrcBloomFilter heap = FuzzSupport.readOrNull(() -> Forms.read(OrcBloomFilter.class, data, 0));
    ByteBuffer direct = ByteBuffer.allocateDirect(data.length).put(data).flip();
    OrcBloomFilter wrapped =
        FuzzSupport.readOrNull(() -> Forms.wrap(OrcBloomFilter.class, direct, 0));
    assertEquals(heap == null, wrapped == null, "copying and wrapping readers disagree");
    if (data.length >= 4) {
      int probes = ByteBuffer.wrap(data).order(ByteOrder.LITTLE_ENDIAN).getInt(0);
      byte[] bits = java.util.Arrays.copyOfRange(data, Math.min(8, data.length), data.length);
      OrcBloomFilter orc =
          FuzzSupport.readOrNull(() -> OrcBloomFilter.fromUtf8Bitset(bits, probes, 0));
      if (orc != null) {
        assertArrayEquals(bits, orc.utf8Bitset());
        assertEquals(KeyScheme.ORC_MURMUR3, orc.keyScheme());
        orc.add("key" + data.length);
        assertTrue(orc.mayContain("key" + data.length));
      }
    }
    if (heap == null) {
      return;
    }
    assertArrayEquals(data, Forms.toBytes(heap));
    assertArrayEquals(data, Forms.toBytes(wrapped));
    FuzzSupport.assertSameAnswers(heap, wrapped, data);
    long key = data.length * 0x9E3779B97F4A7C15L;
    heap.add(key);
    assertTrue(heap.mayContain(key));
  }
}
