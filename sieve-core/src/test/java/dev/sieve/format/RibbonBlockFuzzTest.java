package dev.sieve.format;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.sieve.ribbon.Standard128RibbonFilter;
import java.nio.ByteBuffer;

/**
 * Fuzz target for the raw RocksDB Standard128Ribbon filter-block reader, {@link
 * Standard128RibbonFilter#fromRocksDbFilterBlock(byte[])} and {@link
 * Standard128RibbonFilter#wrapRocksDbFilterBlock(ByteBuffer, long)}: a typed error or a filter both
 * readers agree on and that re-serializes to the same block.
 */
class RibbonBlockFuzzTest {

  @FuzzTest(maxDuration = "30s")
  void fuzz(byte[] data) {
    Standard128RibbonFilter filter =
        FuzzSupport.readOrNull(() -> Standard128RibbonFilter.fromRocksDbFilterBlock(data));
    ByteBuffer direct = ByteBuffer.allocateDirect(data.length).put(data).flip();
    Standard128RibbonFilter wrapped =
        FuzzSupport.readOrNull(() -> Standard128RibbonFilter.wrapRocksDbFilterBlock(direct, 0));
    assertEquals(filter == null, wrapped == null, "copying and wrapping readers disagree");
    if (filter == null) {
      return;
    }
    assertArrayEquals(data, filter.toRocksDbFilterBlock());
    assertArrayEquals(data, wrapped.toRocksDbFilterBlock());
    FuzzSupport.assertSameAnswers(filter, wrapped, data);
  }
}
