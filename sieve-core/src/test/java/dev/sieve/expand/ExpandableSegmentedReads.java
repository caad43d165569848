package dev.sieve.expand;

import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * For the tests of other packages (the fuzz target {@code
 * dev.sieve.format.ExpandableFormFuzzTest}): a payload read through the segmented reader, the path
 * of a file mapped past 2 GiB, on the heap.
 */
public final class ExpandableSegmentedReads {
  private ExpandableSegmentedReads() {}

  /**
   * {@return the filter the payload {@code data} gives when its table is cut into segments of
   * {@code 2^segmentShift} bytes} The same checks as {@code ExpandableForm.map}, the table read in
   * place through {@link ExpandableSegments} as a mapped file past 2 GiB is; small shifts put
   * blocks across segments. Throws what {@code ExpandableForm.map} throws, with payload offsets.
   */
  public static ExpandableFilter read(byte[] data, int segmentShift) {
    if (segmentShift < 3 || segmentShift > 30) {
      throw new IllegalArgumentException("segment shift must be in [3, 30], got " + segmentShift);
    }
    ByteBuffer p = ByteBuffer.wrap(data);
    int length = p.remaining();
    int headerBytes = ExpandableForm.HEADER_BYTES;
    ByteBuffer head = p.slice(0, Math.min(length, headerBytes));
    try {
      return ExpandableForm.segmented(
          head,
          length,
          segmentShift,
          bytes -> {
            long size = 1L << segmentShift;
            int count = (int) Math.max(1, (bytes + size - 1) >>> segmentShift);
            ByteBuffer[] out = new ByteBuffer[count];
            for (int i = 0; i < count; i++) {
              long from = (long) i << segmentShift;
              out[i] = p.slice((int) (headerBytes + from), (int) Math.min(size, bytes - from));
            }
            return out;
          });
    } catch (IOException e) {
      throw new AssertionError("no I/O on the heap", e);
    }
  }
}
