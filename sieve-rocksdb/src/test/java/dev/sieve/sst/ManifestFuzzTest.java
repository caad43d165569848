package dev.sieve.sst;

import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.sieve.SieveFormatException;

/**
 * Fuzz target for the MANIFEST reader, {@link Manifest#parse}: on any input (truncated, corrupted,
 * with huge record or field lengths) it either refuses the log with a {@link SieveFormatException}
 * carrying a non-negative offset, or returns a replayed version whose files can be listed — never
 * another exception, an OutOfMemoryError or a hang. The kept corpus
 * (src/test/resources/dev/sieve/sst/ManifestFuzzTestInputs/fuzz) starts from MANIFESTs written by
 * rocksdbjni (three column families, files on L0–L3, a dropped column family) and from crafted logs
 * with records spanning blocks and recyclable headers.
 */
class ManifestFuzzTest {

  @FuzzTest(maxDuration = "30s")
  void fuzz(byte[] data) {
    // Mutated logs rarely pass the records' CRC32C; so inputs whose first byte is odd are framed
    // here, with valid checksums, into log records split at each 0xFF 0xFE pair, and the
    // VersionEdit decoder and the replay get the fuzzer's bytes
    byte[] log = data;
    if (data.length > 0 && (data[0] & 1) == 1) {
      ManifestTest.Log framed = new ManifestTest.Log(data[0] < 0, 7);
      int start = 1;
      for (int i = 1; i + 1 < data.length; i++) {
        if (data[i] == (byte) 0xFF && data[i + 1] == (byte) 0xFE) {
          framed.add(java.util.Arrays.copyOfRange(data, start, i));
          start = i + 2;
        }
      }
      framed.add(java.util.Arrays.copyOfRange(data, Math.min(start, data.length), data.length));
      log = framed.bytes();
    }
    Manifest m;
    try {
      m = Manifest.parse("MANIFEST-000001", log);
    } catch (SieveFormatException e) {
      assertTrue(e.offset() >= 0, () -> "negative offset in " + e.getMessage());
      return;
    }
    for (Manifest.LiveFile f : m.liveFiles()) {
      assertTrue(m.columnFamilies().containsKey(f.columnFamily()), "file of a dropped family");
      assertTrue(f.level() >= 0 && f.level() <= 1000, "level");
      f.fileName();
      f.smallestUserKey();
      f.largestUserKey();
    }
  }
}
