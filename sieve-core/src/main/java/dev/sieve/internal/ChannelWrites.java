package dev.sieve.internal;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.WritableByteChannel;
import java.util.function.LongUnaryOperator;

/** Writing to channels: the one write-all loop and the chunked writer of filter data words. */
public final class ChannelWrites {
  private static final int CHUNK_BYTES = 1 << 16;

  private ChannelWrites() {}

  /** Writes all remaining bytes of {@code buf} to {@code out}. */
  public static void writeFully(WritableByteChannel out, ByteBuffer buf) throws IOException {
    while (buf.hasRemaining()) {
      out.write(buf);
    }
  }

  /**
   * Writes {@code count} words, {@code word.applyAsLong(i)} for {@code i = 0 .. count - 1}, as
   * little-endian longs in 64 KiB chunks, then {@code trailer}: a filter block of any size without
   * an in-memory copy.
   */
  public static void writeWords(
      WritableByteChannel out, long count, LongUnaryOperator word, byte[] trailer)
      throws IOException {
    ByteBuffer buf = ByteBuffer.allocate(CHUNK_BYTES).order(ByteOrder.LITTLE_ENDIAN);
    for (long i = 0; i < count; i++) {
      if (!buf.hasRemaining()) {
        writeFully(out, buf.flip());
        buf.clear();
      }
      buf.putLong(word.applyAsLong(i));
    }
    writeFully(out, buf.flip());
    writeFully(out, ByteBuffer.wrap(trailer));
  }
}
