package dev.sieve.parquet;

import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.sieve.SieveFormatException;
import java.io.IOException;

/**
 * Fuzz target for {@link ParquetFile#parse(byte[])} and {@link ParquetFile#bloomFilter}: a whole
 * file of arbitrary bytes (the corpus: real files written by parquet-java, in {@code
 * ParquetFileFuzzTestInputs/fuzz/}) is read, and every column chunk's filter with it. Only a typed
 * {@link SieveFormatException} may come out; a filter that is read answers queries.
 */
class ParquetFileFuzzTest {

  @FuzzTest(maxDuration = "30s")
  void fuzz(byte[] data) throws IOException {
    ParquetFile pf;
    try {
      pf = ParquetFile.parse(data);
    } catch (SieveFormatException e) {
      assertTrue(e.offset() >= 0, e.getMessage());
      return;
    }
    for (ParquetFile.ColumnChunk c : pf.chunks()) {
      try {
        ParquetFile.BloomFilter bf = pf.bloomFilter(c);
        if (bf != null) {
          bf.filter().mayContain((long) data.length);
          assertTrue(bf.filter().sizeInBytes() >= 32);
        }
      } catch (SieveFormatException e) {
        assertTrue(e.offset() >= 0, e.getMessage());
      }
    }
  }
}
