package dev.sieve.internal;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * A read-only view of little-endian {@code long}s stored in one or more {@link ByteBuffer}s (heap,
 * direct or memory-mapped), without copying: the storage of filters wrapped zero-copy. Every
 * segment but the last holds exactly {@code 2^segmentShift} bytes, so a word index splits into a
 * segment and an offset with a shift and a mask, and the whole can exceed one buffer's 2 GiB.
 */
public final class LongSegments {
  /** The segment size used when splitting a file: 1 GiB. */
  public static final int DEFAULT_SEGMENT_SHIFT = 30;

  private final ByteBuffer[] segments;
  private final int wordShift;
  private final long wordMask;
  private final long numWords;

  private LongSegments(ByteBuffer[] segments, int segmentShift, long numWords) {
    this.segments = segments;
    this.wordShift = segmentShift - 3;
    this.wordMask = (1L << wordShift) - 1;
    this.numWords = numWords;
  }

  /**
   * A view of {@code numWords} longs starting at each buffer's position.
   *
   * @param segments buffers of exactly {@code 2^segmentShift} remaining bytes each, except the
   *     last, which holds the rest; they are duplicated, so later position changes by the caller do
   *     not matter, but the bytes must not change while the view is used
   * @throws IllegalArgumentException if the segment sizes do not add up
   */
  public static LongSegments of(ByteBuffer[] segments, int segmentShift, long numWords) {
    if (segmentShift < 6 || segmentShift > 30) {
      throw new IllegalArgumentException("segment shift must be in [6, 30], got " + segmentShift);
    }
    long segmentBytes = 1L << segmentShift;
    long needed = numWords * Long.BYTES;
    long expectedSegments = Math.max(1, (needed + segmentBytes - 1) / segmentBytes);
    if (segments.length != expectedSegments) {
      throw new IllegalArgumentException(
          numWords
              + " words need "
              + expectedSegments
              + " segments of "
              + segmentBytes
              + " bytes, got "
              + segments.length);
    }
    ByteBuffer[] views = new ByteBuffer[segments.length];
    for (int i = 0; i < segments.length; i++) {
      long want =
          i < segments.length - 1 ? segmentBytes : needed - segmentBytes * (segments.length - 1);
      if (segments[i].remaining() < want) {
        throw new IllegalArgumentException(
            "segment " + i + " has " + segments[i].remaining() + " bytes, needs " + want);
      }
      views[i] = segments[i].slice().order(ByteOrder.LITTLE_ENDIAN);
    }
    return new LongSegments(views, segmentShift, numWords);
  }

  /** A view of one buffer's remaining bytes, {@code numWords} longs from its position. */
  public static LongSegments of(ByteBuffer buffer, long numWords) {
    if ((long) buffer.remaining() < numWords * Long.BYTES) {
      throw new IllegalArgumentException(
          "buffer has " + buffer.remaining() + " bytes, needs " + numWords * Long.BYTES);
    }
    return new LongSegments(
        new ByteBuffer[] {buffer.slice().order(ByteOrder.LITTLE_ENDIAN)}, 31 + 3, numWords);
  }

  /** Word {@code index} (0 to {@link #numWords()} - 1). */
  public long get(long index) {
    return segments[(int) (index >>> wordShift)].getLong((int) ((index & wordMask) << 3));
  }

  public long numWords() {
    return numWords;
  }

  /** Copies all words onto the heap (for export); at most {@code Integer.MAX_VALUE - 8} words. */
  public long[] toArray() {
    if (numWords > Integer.MAX_VALUE - 8) {
      throw new IllegalStateException(numWords + " words do not fit one long[]");
    }
    long[] out = new long[(int) numWords];
    for (int i = 0; i < out.length; i++) {
      out[i] = get(i);
    }
    return out;
  }
}
