package dev.sieve.format;

import dev.sieve.Filter;
import dev.sieve.SieveFormatException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.WritableByteChannel;

/**
 * How one filter type's payload is written and read inside the Sieve container. A new filter type
 * joins the container by adding one {@link FilterType} constant with its codec; nothing else in the
 * container changes.
 *
 * @param <F> the filter class
 */
abstract class PayloadCodec<F extends Filter> {
  private final Class<F> filterClass;

  PayloadCodec(Class<F> filterClass) {
    this.filterClass = filterClass;
  }

  final Class<F> filterClass() {
    return filterClass;
  }

  /** The filter's own serialized form, the container's payload. */
  abstract byte[] payload(F filter);

  /** The payload's length in bytes; formats that can exceed one array override it. */
  long payloadLength(F filter) {
    return payload(filter).length;
  }

  /**
   * Writes the payload to {@code out}. The default writes {@link #payload}; formats that can exceed
   * one array override it to stream in chunks.
   */
  void writePayload(F filter, WritableByteChannel out) throws IOException {
    dev.sieve.internal.ChannelWrites.writeFully(out, ByteBuffer.wrap(payload(filter)));
  }

  /** The first type parameter recorded in the header (e.g. probes, fingerprint bits). */
  abstract int parameterA(F filter);

  /** The second type parameter recorded in the header (e.g. arity, slots per bucket; or 0). */
  abstract int parameterB(F filter);

  /**
   * Reads a payload into a filter on the heap.
   *
   * @param numKeys the header's key count, for formats that do not store it
   * @throws SieveFormatException with an offset relative to the payload's first byte
   */
  abstract F read(byte[] payload, long numKeys);

  /**
   * Reads a payload held in {@code payload}'s remaining bytes. The default copies it and calls
   * {@link #read(byte[], long)}; formats that can be queried in place override it to wrap the
   * buffer without copying.
   */
  F wrap(ByteBuffer payload, long numKeys) {
    byte[] copy = new byte[payload.remaining()];
    payload.duplicate().get(copy);
    return read(copy, numKeys);
  }

  /** Whether {@link #wrap} reads the buffer in place. */
  boolean zeroCopy() {
    return false;
  }

  /**
   * Maps a payload larger than one buffer ({@code payloadLength > Integer.MAX_VALUE - 8}) from
   * {@code channel} at {@code payloadOffset}, in segments of {@code 2^segmentShift} bytes. The
   * payload's checksum has been verified (or skipped) by the caller. Formats limited to one Java
   * array refuse.
   */
  F mapLarge(
      FileChannel channel, long payloadOffset, long payloadLength, int segmentShift, long numKeys)
      throws IOException {
    throw new SieveFormatException(
        SieveFormat.PAYLOAD_LENGTH_OFFSET,
        "a "
            + filterClass.getSimpleName()
            + " payload of "
            + payloadLength
            + " bytes exceeds the largest this type supports (one Java array)");
  }

  /**
   * Maps {@code length} bytes of {@code channel} from {@code offset} as read-only buffers of
   * exactly {@code 2^segmentShift} bytes each, the last holding the rest.
   */
  static ByteBuffer[] mapSegments(FileChannel channel, long offset, long length, int segmentShift)
      throws IOException {
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
  static ByteBuffer readSmall(FileChannel channel, long offset, int length) throws IOException {
    ByteBuffer out = ByteBuffer.allocate(length);
    while (out.hasRemaining()) {
      if (channel.read(out, offset + out.position()) < 0) {
        throw new SieveFormatException(offset + out.position(), "file ends early");
      }
    }
    return out.flip();
  }
}
