package dev.sieve.parquet;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.sieve.SieveFormatException;

/**
 * Fuzz target for {@link ThriftCompactReader}: skipping a struct of arbitrary bytes, and reading
 * them as a BloomFilterHeader, either succeed or throw a {@link SieveFormatException} with an
 * offset that is not negative; any other exception (an index error, a stack overflow, an
 * OutOfMemoryError) is a finding.
 */
class ThriftCompactFuzzTest {

  @FuzzTest(maxDuration = "30s")
  void fuzz(byte[] data) {
    try {
      new ThriftCompactReader(data, 0, data.length, 0).skipStruct();
    } catch (SieveFormatException e) {
      if (e.offset() < 0) {
        throw new AssertionError(e);
      }
    }
    try {
      BloomFilterHeader.read(new ThriftCompactReader(data, 0, data.length, 0));
    } catch (SieveFormatException e) {
      if (e.offset() < 0) {
        throw new AssertionError(e);
      }
    }
  }
}
