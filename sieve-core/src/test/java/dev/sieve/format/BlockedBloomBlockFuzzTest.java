package dev.sieve.format;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.sieve.bloom.BlockedBloomFilter;
import java.nio.ByteBuffer;

/**
 * Fuzz target for the raw RocksDB FastLocalBloom filter-block readers, {@link
 * BlockedBloomFilter#fromRocksDbFilterBlock(byte[])} and {@link
 * BlockedBloomFilter#wrapRocksDbFilterBlock(ByteBuffer, long)}: a typed error or a filter that both
 * readers agree on, re-serializes to the same block and keeps an added key.
 */
class BlockedBloomBlockFuzzTest {

  @FuzzTest(maxDuration = "30s")
  void fuzz(byte[] data) {
    BlockedBloomFilter heap =
        FuzzSupport.readOrNull(() -> BlockedBloomFilter.fromRocksDbFilterBlock(data));
    ByteBuffer direct = ByteBuffer.allocateDirect(data.length).put(data).flip();
    BlockedBloomFilter wrapped =
        FuzzSupport.readOrNull(() -> BlockedBloomFilter.wrapRocksDbFilterBlock(direct, 0));
    assertEquals(heap == null, wrapped == null, "copying and wrapping readers disagree");
    if (heap == null) {
      return;
    }
    // canonical except the empty filter: the trailer alone is read, the 0-byte block written
    byte[] expected = heap.numBlocks() == 0 ? new byte[0] : data;
    assertArrayEquals(expected, heap.toRocksDbFilterBlock());
    assertArrayEquals(expected, wrapped.toRocksDbFilterBlock());
    FuzzSupport.assertSameAnswers(heap, wrapped, data);
    if (heap.numBlocks() > 0) {
      long key = data.length * 0x9E3779B97F4A7C15L;
      heap.add(key);
      assertTrue(heap.mayContain(key));
    }
  }
}
