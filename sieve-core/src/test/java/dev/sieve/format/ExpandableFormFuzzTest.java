package dev.sieve.format;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.sieve.SieveFormatException;
import dev.sieve.expand.ExpandableFilter;
import dev.sieve.expand.ExpandableSegmentedReads;
import java.nio.ByteBuffer;

/**
 * Fuzz target for the expandable filter's own form (read through {@link Forms}): a typed error or a
 * filter that re-serializes to the same bytes, answers queries as its wrapped reading does, and
 * keeps a key added to (and the keys of itself merged into) a copy. The same bytes read through the
 * segmented reader (the path of a file mapped past 2 GiB, here on the heap in segments of 8 B to
 * 256 B, the shift taken from the input) get the same verdict: the same filter with the same
 * answers, or a {@link SieveFormatException}.
 */
class ExpandableFormFuzzTest {

  @FuzzTest(maxDuration = "30s")
  void fuzz(byte[] data) {
    ExpandableFilter filter =
        FuzzSupport.readOrNull(() -> Forms.read(ExpandableFilter.class, data));
    int shift = 3 + (data.length == 0 ? 0 : (data[data.length - 1] & 0xFF) % 6);
    ExpandableFilter segmented =
        FuzzSupport.readOrNull(() -> ExpandableSegmentedReads.read(data, shift));
    if (filter == null) {
      assertNull(segmented, "the segmented reader accepted what the heap read refused");
      return;
    }
    assertNotNull(segmented, "the segmented reader refused what the heap read accepted");
    assertEquals(filter, segmented);
    FuzzSupport.assertSameAnswers(filter, segmented, data);
    assertArrayEquals(data, Forms.toBytes(filter));
    ExpandableFilter wrapped = Forms.wrap(ExpandableFilter.class, ByteBuffer.wrap(data));
    assertEquals(filter, wrapped);
    FuzzSupport.assertSameAnswers(filter, wrapped, data);
    ExpandableFilter copy = filter.copy();
    long key = data.length * 0x9E3779B97F4A7C15L;
    try {
      copy.add(key);
    } catch (IllegalStateException full) {
      return; // at the largest size, or saturated: the filter says so
    }
    assertTrue(copy.mayContain(key));
    assertTrue(copy.remove(key));
  }
}
