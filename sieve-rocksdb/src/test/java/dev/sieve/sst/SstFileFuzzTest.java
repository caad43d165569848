package dev.sieve.sst;

import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.sieve.SieveFormatException;
import java.util.Arrays;

/**
 * Fuzz target for the SST reader, {@link SstFile#parse(byte[])}: on any input it either refuses the
 * file with a {@link SieveFormatException} carrying a non-negative offset, or returns a file whose
 * properties and filter can be asked anything without another exception, and whose blocks {@link
 * SstVerifier} verifies or refuses the same way (decompressing compressed index blocks). The kept
 * corpus (src/test/resources/dev/sieve/sst/SstFileFuzzTestInputs/fuzz) starts from small tables
 * written by rocksdbjni: full Bloom and Ribbon filters, partitioned, legacy format versions, prefix
 * filters, each checksum type.
 */
class SstFileFuzzTest {

  @FuzzTest(maxDuration = "30s")
  void fuzz(byte[] data) {
    SstFile file;
    try {
      file = SstFile.parse(data);
    } catch (SieveFormatException e) {
      assertTrue(e.offset() >= 0, () -> "negative offset in " + e.getMessage());
      return;
    }
    file.formatVersion();
    file.checksumType();
    file.metaIndex();
    SstFilter filter;
    try {
      filter = file.filter();
    } catch (SieveFormatException e) {
      assertTrue(e.offset() >= 0, () -> "negative offset in " + e.getMessage());
      return;
    }
    if (filter == null) {
      return;
    }
    // keys derived from the input: every answer is a boolean, never an exception
    for (int i = 0; i < 8 && i <= data.length; i++) {
      byte[] key = Arrays.copyOfRange(data, 0, Math.min(data.length, i * 3));
      filter.mayContain(key);
      filter.mayContainHash(i * 0x9E3779B97F4A7C15L);
    }
    filter.modelledFpRate();
    // verifying every block (index blocks decompressed when compressed) refuses or counts
    try {
      SstVerifier.Result r =
          SstVerifier.verify(
              file,
              new SstFile.BlockReader(
                  (off, len) -> Arrays.copyOfRange(data, (int) off, (int) off + len),
                  file.footer()));
      assertTrue(r.blocks() > 0, "the metaindex at least");
    } catch (SieveFormatException e) {
      assertTrue(e.offset() >= 0, () -> "negative offset in " + e.getMessage());
    }
  }
}
