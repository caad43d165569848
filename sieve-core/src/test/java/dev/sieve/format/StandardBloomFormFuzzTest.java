package dev.sieve.format;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.sieve.bloom.StandardBloomFilter;
import java.nio.ByteBuffer;

/**
 * Fuzz target for the standard Bloom filter's own form (read through {@link Forms}) and {@link
 * StandardBloomFilter#wrap(ByteBuffer, long)}: a typed error or a filter both readers agree on,
 * that re-serializes to the same bytes and keeps an added key.
 */
class StandardBloomFormFuzzTest {

  @FuzzTest(maxDuration = "30s")
  void fuzz(byte[] data) {
    StandardBloomFilter heap =
        FuzzSupport.readOrNull(() -> Forms.read(StandardBloomFilter.class, data, 0));
    ByteBuffer direct = ByteBuffer.allocateDirect(data.length).put(data).flip();
    StandardBloomFilter wrapped =
        FuzzSupport.readOrNull(() -> Forms.wrap(StandardBloomFilter.class, direct, 0));
    assertEquals(heap == null, wrapped == null, "copying and wrapping readers disagree");
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
