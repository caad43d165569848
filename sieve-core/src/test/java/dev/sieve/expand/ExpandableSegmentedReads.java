package dev.sieve.expand;

import java.nio.ByteBuffer;

/**
 * For the tests of other packages (the fuzz target {@code
 * dev.sieve.format.ExpandableFormFuzzTest}): the package-private read of a payload through the
 * segmented reader, the path of a file mapped past 2 GiB, on the heap.
 */
public final class ExpandableSegmentedReads {
  private ExpandableSegmentedReads() {}

  /**
   * {@return the filter the payload {@code data} gives when its table is cut into segments of
   * {@code 2^segmentShift} bytes} Throws what {@code ExpandableForm.map} throws.
   */
  public static ExpandableFilter read(byte[] data, int segmentShift) {
    return ExpandableForm.readSegmented(ByteBuffer.wrap(data), segmentShift);
  }
}
