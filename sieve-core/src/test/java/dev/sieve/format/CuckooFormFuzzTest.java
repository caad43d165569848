package dev.sieve.format;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.sieve.cuckoo.CuckooFilter;

/**
 * Fuzz target for the Cuckoo filter's own form (read through {@link Forms}): a typed error or a
 * filter that re-serializes to the same bytes, answers queries and keeps a key added to a copy.
 */
class CuckooFormFuzzTest {

  @FuzzTest(maxDuration = "30s")
  void fuzz(byte[] data) {
    CuckooFilter filter = FuzzSupport.readOrNull(() -> Forms.read(CuckooFilter.class, data));
    if (filter == null) {
      return;
    }
    assertArrayEquals(data, Forms.toBytes(filter));
    FuzzSupport.assertSameAnswers(filter, filter, data);
    CuckooFilter copy = filter.copy();
    long key = data.length * 0x9E3779B97F4A7C15L;
    if (copy.addHash(dev.sieve.hash.KeyHash.hash64(key))) {
      assertTrue(copy.mayContain(key));
    }
  }
}
