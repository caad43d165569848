package dev.sieve.format;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.sieve.bloom.SplitBlockBloomFilter;
import java.nio.ByteBuffer;

/**
 * Fuzz target for {@link SplitBlockBloomFilter#fromParquetBitset(byte[], long)} and {@link
 * SplitBlockBloomFilter#wrapParquetBitset(ByteBuffer, long)}: a typed error or a filter both
 * readers agree on, that re-serializes to the same bytes and keeps an added value.
 */
class SplitBlockBloomFormFuzzTest {

  @FuzzTest(maxDuration = "30s")
  void fuzz(byte[] data) {
    SplitBlockBloomFilter heap =
        FuzzSupport.readOrNull(() -> SplitBlockBloomFilter.fromParquetBitset(data, 0));
    ByteBuffer direct = ByteBuffer.allocateDirect(data.length).put(data).flip();
    SplitBlockBloomFilter wrapped =
        FuzzSupport.readOrNull(() -> SplitBlockBloomFilter.wrapParquetBitset(direct, 0));
    assertEquals(heap == null, wrapped == null, "copying and wrapping readers disagree");
    if (heap == null) {
      return;
    }
    assertArrayEquals(data, heap.toParquetBitset());
    assertArrayEquals(data, wrapped.toParquetBitset());
    FuzzSupport.assertSameAnswers(heap, wrapped, data);
    long value = data.length * 0x9E3779B97F4A7C15L;
    heap.add(value); // a Parquet bitset's filter hashes as Parquet does
    assertTrue(heap.mayContainHash(dev.sieve.hash.ParquetHash.ofLong(value)));
    assertTrue(heap.mayContain(value));
    assertTrue(heap.approximateElementCount() >= 0);
  }
}
