package dev.sieve.internal;

import dev.sieve.Filter;
import dev.sieve.SieveFormatException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.WritableByteChannel;

/**
 * A filter type's payload form: how its payload is written and read inside the Sieve container,
 * validated once, for {@code byte[]}, buffers and (past one buffer's 2 GiB) mapped segments. Each
 * family keeps its form package-private beside its filter class and registers it with {@link
 * PayloadForms} when the class initializes; the container ({@code dev.sieve.format}) reaches every
 * type's form through {@link PayloadForms#form(Class)}, by the class the registry ({@code
 * dev.sieve.registry.FilterType}) names for the header's type id, and nothing else (the sharded
 * type's form is the container's own nesting, {@code format.ShardedCodec}). Not API: this package
 * is not exported.
 *
 * @param <F> the filter class
 */
public abstract class PayloadForm<F extends Filter> {
  private final Class<F> filterClass;

  /** The container header's payload-length field, where a too-large payload is reported. */
  private static final int PAYLOAD_LENGTH_OFFSET = 24;

  protected PayloadForm(Class<F> filterClass) {
    this.filterClass = filterClass;
  }

  public final Class<F> filterClass() {
    return filterClass;
  }

  /** The filter's own serialized form, the container's payload. */
  public abstract byte[] payload(F filter);

  /** The payload's length in bytes; formats that can exceed one array override it. */
  public long payloadLength(F filter) {
    return payload(filter).length;
  }

  /**
   * Writes the payload to {@code out}. The default writes {@link #payload}; formats that can exceed
   * one array override it to stream in chunks.
   */
  public void writePayload(F filter, WritableByteChannel out) throws IOException {
    ChannelWrites.writeFully(out, ByteBuffer.wrap(payload(filter)));
  }

  /** The first type parameter recorded in the header (e.g. probes, fingerprint bits). */
  public abstract int parameterA(F filter);

  /** The second type parameter recorded in the header (e.g. arity, slots per bucket; or 0). */
  public abstract int parameterB(F filter);

  /**
   * Reads a payload into a filter on the heap.
   *
   * @param numKeys the header's key count, for formats that do not store it
   * @throws SieveFormatException with an offset relative to the payload's first byte
   */
  public abstract F read(byte[] payload, long numKeys);

  /**
   * Reads a payload held in {@code payload}'s remaining bytes. The default copies it and calls
   * {@link #read(byte[], long)}; formats that can be queried in place override it to wrap the
   * buffer without copying.
   */
  public F wrap(ByteBuffer payload, long numKeys) {
    byte[] copy = new byte[payload.remaining()];
    payload.duplicate().get(copy);
    return read(copy, numKeys);
  }

  /** Whether {@link #wrap} reads the buffer in place. */
  public boolean zeroCopy() {
    return false;
  }

  /**
   * Maps a payload larger than one buffer ({@code payloadLength > Integer.MAX_VALUE - 8}) from
   * {@code channel} at {@code payloadOffset}, in segments of {@code 2^segmentShift} bytes. The
   * payload's checksum has been verified (or skipped) by the caller. Formats limited to one Java
   * array refuse.
   */
  public F mapLarge(
      FileChannel channel, long payloadOffset, long payloadLength, int segmentShift, long numKeys)
      throws IOException {
    throw new SieveFormatException(
        PAYLOAD_LENGTH_OFFSET,
        "a "
            + filterClass.getSimpleName()
            + " payload of "
            + payloadLength
            + " bytes exceeds the largest this type supports (one Java array)");
  }
}
