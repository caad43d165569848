package dev.sieve.interop;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.sieve.SieveFormatException;
import org.apache.datasketches.filters.bloomfilter.BloomFilter;
import org.apache.datasketches.memory.Memory;

/**
 * Fuzz target for {@link DataSketchesBloomFilter#readFrom(byte[])}: a typed error with a
 * non-negative offset, or a filter that answers as DataSketches' own {@code heapify} of the bytes
 * and writes what DataSketches writes for them.
 */
class DataSketchesFormFuzzTest {

  @FuzzTest(maxDuration = "30s")
  void fuzz(byte[] data) {
    DataSketchesBloomFilter f;
    try {
      f = DataSketchesBloomFilter.readFrom(data);
    } catch (SieveFormatException e) {
      assertTrue(e.offset() >= 0, e.getMessage());
      return;
    }
    if (!DataSketchesOracle.runs()) {
      return; // the owner cannot run here (DataSketchesOracle): Sieve's reader alone was checked
    }
    BloomFilter ds = BloomFilter.heapify(Memory.wrap(data));
    assertArrayEquals(ds.toByteArray(), f.toByteArray());
    for (int i = 0; i < 16; i++) {
      byte[] key = {(byte) i, (byte) data.length, (byte) (data.length >>> 8)};
      assertEquals(ds.query(key), f.mayContain(key));
      assertEquals(ds.query(i * 31L + data.length), f.mayContain(i * 31L + data.length));
    }
    f.put(77L);
    assertTrue(f.mayContain(77L));
  }
}
