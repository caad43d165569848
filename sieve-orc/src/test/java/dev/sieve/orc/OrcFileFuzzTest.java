package dev.sieve.orc;

import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.sieve.SieveFormatException;
import java.io.IOException;

/**
 * Fuzz target for {@link OrcFile#of(byte[])} and {@link OrcFile#rowGroups}: a whole file of
 * arbitrary bytes (the corpus: small files written by orc-core, uncompressed and ZLIB, and their
 * halves, in {@code OrcFileFuzzTestInputs/fuzz/}) is read, and every stripe's index with it. Only a
 * typed {@link SieveFormatException} with a non-negative offset may come out; a filter that is read
 * answers queries and a query decision is made.
 */
class OrcFileFuzzTest {

  @FuzzTest(maxDuration = "30s")
  void fuzz(byte[] data) throws IOException {
    OrcFile file;
    try {
      file = OrcFile.of(data);
    } catch (SieveFormatException e) {
      assertTrue(e.offset() >= 0, e.getMessage());
      return;
    }
    for (int s = 0; s < file.stripes().size(); s++) {
      try {
        for (OrcFile.RowGroup g : file.rowGroups(s)) {
          if (g.filter() != null) {
            g.filter().mayContain((long) data.length);
            assertTrue(g.filter().sizeInBits() >= 64);
          }
          try {
            OrcQuery.answer(g, "7");
          } catch (IllegalArgumentException e) {
            // a column type Sieve does not query, or "7" is no value of it
          }
        }
      } catch (SieveFormatException e) {
        assertTrue(e.offset() >= 0, e.getMessage());
      }
    }
  }
}
