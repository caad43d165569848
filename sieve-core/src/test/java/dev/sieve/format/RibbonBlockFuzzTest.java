package dev.sieve.format;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.sieve.ribbon.Standard128RibbonFilter;

/**
 * Fuzz target for the raw RocksDB Standard128Ribbon filter-block reader, {@link
 * Standard128RibbonFilter#fromRocksDbFilterBlock(byte[])}: a typed error or a filter that
 * re-serializes to the same block and answers queries without failing.
 */
class RibbonBlockFuzzTest {

  @FuzzTest(maxDuration = "30s")
  void fuzz(byte[] data) {
    Standard128RibbonFilter filter =
        FuzzSupport.readOrNull(() -> Standard128RibbonFilter.fromRocksDbFilterBlock(data));
    if (filter == null) {
      return;
    }
    assertArrayEquals(data, filter.toRocksDbFilterBlock());
    FuzzSupport.assertSameAnswers(filter, filter, data);
  }
}
