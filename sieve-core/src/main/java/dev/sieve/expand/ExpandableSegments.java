package dev.sieve.expand;

import dev.sieve.internal.ChannelWrites;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.WritableByteChannel;

/**
 * The slot words of an {@link ExpandableFilter} read in place from a buffer: one buffer (up to 2
 * GiB), or a table mapped past one buffer in segments of {@code 2^segmentShift} bytes each (the
 * last holds the rest). A word never straddles two segments (the segment size is a multiple of 8
 * bytes), so a 64-slot block, whose {@code 64 · width + 16} bits divide no power of two, may lie
 * across a segment boundary and is still read word by word: {@link ExpandableSlots#bits} joins the
 * two words of a field that straddles a word boundary, whichever segments they are in. The kernel
 * reads one buffer through {@link ExpandableSlots.Buffer} (no segment arithmetic: the common case
 * under 2 GiB keeps its probe) and several through {@link Reader}.
 */
final class ExpandableSegments {
  /** Buffers of little-endian words, from index 0 of each. */
  private final ByteBuffer[] segments;

  private final int segmentShift;
  private final long numWords;

  /**
   * The words of {@code segments}, from index 0 of each (their positions and limits are ignored).
   *
   * @param segments buffers of {@code 2^segmentShift} bytes each but the last, which holds the rest
   *     of the {@code numWords} words
   * @param segmentShift log2 of a segment's bytes, 3 to 31
   * @param numWords the words of the table, at most one heap array's
   */
  ExpandableSegments(ByteBuffer[] segments, int segmentShift, long numWords) {
    if (segmentShift < 3 || segmentShift > 31) {
      throw new IllegalArgumentException("segment shift must be in [3, 31], got " + segmentShift);
    }
    if (numWords > Integer.MAX_VALUE - 8) {
      throw new IllegalArgumentException(
          numWords + " words exceed the largest table, " + (Integer.MAX_VALUE - 8));
    }
    long segmentBytes = 1L << segmentShift;
    long bytes = numWords * Long.BYTES;
    long count = Math.max(1, (bytes + segmentBytes - 1) >>> segmentShift);
    if (segments.length != count) {
      throw new IllegalArgumentException(
          numWords + " words need " + count + " segments, got " + segments.length);
    }
    ByteBuffer[] views = new ByteBuffer[segments.length];
    for (int i = 0; i < segments.length; i++) {
      long want = i < segments.length - 1 ? segmentBytes : bytes - segmentBytes * i;
      if (segments[i].capacity() < want) {
        throw new IllegalArgumentException(
            "segment " + i + " has " + segments[i].capacity() + " bytes, needs " + want);
      }
      views[i] =
          segments[i].duplicate().clear().limit((int) want).slice().order(ByteOrder.LITTLE_ENDIAN);
    }
    this.segments = views;
    this.segmentShift = segmentShift;
    this.numWords = numWords;
  }

  /** One buffer's words (its capacity, from index 0). */
  static ExpandableSegments of(ByteBuffer one) {
    return new ExpandableSegments(new ByteBuffer[] {one}, 31, one.capacity() / Long.BYTES);
  }

  /** {@return the words as the kernel reads them: the one buffer's, or the segments'} */
  ExpandableSlots.Words words() {
    return segments.length == 1
        ? new ExpandableSlots.Buffer(segments[0])
        : new Reader(segments, segmentShift - 3);
  }

  /** {@return the words copied onto the heap} */
  long[] toArray() {
    long[] out = new long[(int) numWords];
    int at = 0;
    for (ByteBuffer s : segments) {
      int n = s.capacity() / Long.BYTES;
      s.duplicate().clear().order(ByteOrder.LITTLE_ENDIAN).asLongBuffer().get(out, at, n);
      at += n;
    }
    return out;
  }

  /** Copies the words' bytes into {@code out} (from its position; room for all of them). */
  void copyTo(ByteBuffer out) {
    for (ByteBuffer s : segments) {
      out.put(s.duplicate().clear());
    }
  }

  /** Writes the words' bytes to {@code out}, segment by segment, without copying them. */
  void writeTo(WritableByteChannel out) throws IOException {
    for (ByteBuffer s : segments) {
      ChannelWrites.writeFully(out, s.duplicate().clear());
    }
  }

  /**
   * The words of two or more segments: word {@code i} is in segment {@code i >>> wordShift}, at
   * byte {@code (i & mask) · 8}.
   */
  static final class Reader implements ExpandableSlots.Words {
    private final ByteBuffer[] segments;
    private final int wordShift;
    private final int wordMask;

    Reader(ByteBuffer[] segments, int wordShift) {
      this.segments = segments;
      this.wordShift = wordShift;
      this.wordMask = (int) ((1L << wordShift) - 1);
    }

    @Override
    public long word(int i) {
      return segments[i >>> wordShift].getLong((i & wordMask) << 3);
    }
  }
}
