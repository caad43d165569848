package dev.sieve.internal;

import dev.sieve.SieveFormatException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;

/** Positional reads and read-only mappings of a {@link FileChannel}, the container's and forms'. */
public final class ChannelReads {
  private ChannelReads() {}

  /**
   * Maps {@code length} bytes of {@code channel} from {@code offset} as read-only buffers of
   * exactly {@code 2^segmentShift} bytes each, the last holding the rest.
   */
  public static ByteBuffer[] mapSegments(
      FileChannel channel, long offset, long length, int segmentShift) throws IOException {
    long size = 1L << segmentShift;
    int count = (int) Math.max(1, (length + size - 1) >>> segmentShift);
    ByteBuffer[] out = new ByteBuffer[count];
    for (int i = 0; i < count; i++) {
      long from = (long) i << segmentShift;
      long n = Math.min(size, length - from);
      out[i] = channel.map(FileChannel.MapMode.READ_ONLY, offset + from, n);
    }
    return out;
  }

  /** Reads {@code length} (small) bytes of {@code channel} at {@code offset} onto the heap. */
  public static ByteBuffer readSmall(FileChannel channel, long offset, int length)
      throws IOException {
    ByteBuffer out = ByteBuffer.allocate(length);
    while (out.hasRemaining()) {
      if (channel.read(out, offset + out.position()) < 0) {
        throw new SieveFormatException(offset + out.position(), "file ends early");
      }
    }
    return out.flip();
  }
}
