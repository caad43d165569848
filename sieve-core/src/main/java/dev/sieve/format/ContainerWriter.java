package dev.sieve.format;

import static dev.sieve.format.SieveFormat.CHECKSUM_BYTES;
import static dev.sieve.format.SieveFormat.HEADER_BYTES;
import static dev.sieve.format.SieveFormat.MAX_ARRAY_PAYLOAD;

import dev.sieve.Filter;
import dev.sieve.KeyFilter;
import dev.sieve.internal.ChannelWrites;
import dev.sieve.registry.FilterType;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.WritableByteChannel;
import java.util.Objects;
import java.util.zip.CRC32C;

/**
 * Writes a container: header, the type's payload and the payload checksum, into one {@code byte[]}
 * or streamed to a channel. The writing half of {@link SieveFormat}.
 */
final class ContainerWriter {
  private ContainerWriter() {}

  /** {@link SieveFormat#toBytes(KeyFilter)}. */
  static byte[] toBytes(KeyFilter outer) {
    Objects.requireNonNull(outer, "filter");
    int flags = flagsOf(outer);
    FilterType type = FilterType.of(outer);
    KeyFilter filter = TypeForms.toWrite(type, outer);
    // header and payload from one moment, even while other threads add
    return TypeForms.of(type).holdStill(filter, still -> toBytes(type, still, flags));
  }

  private static byte[] toBytes(FilterType type, KeyFilter filter, int flags) {
    byte[] payload = TypeForms.of(type).payload(filter);
    if (payload.length > MAX_ARRAY_PAYLOAD) {
      throw new IllegalStateException(
          "a payload of " + payload.length + " bytes does not fit one byte[] container");
    }
    byte[] out = new byte[HEADER_BYTES + payload.length + CHECKSUM_BYTES];
    ContainerHeader.of(type, filter, flags, payload.length).write(ByteBuffer.wrap(out));
    System.arraycopy(payload, 0, out, HEADER_BYTES, payload.length);
    int crc = Crc32c.of(ByteBuffer.wrap(payload));
    ByteBuffer.wrap(out).order(ByteOrder.LITTLE_ENDIAN).putInt(HEADER_BYTES + payload.length, crc);
    return out;
  }

  /** {@link SieveFormat#write(KeyFilter, WritableByteChannel, boolean)}. */
  static void write(KeyFilter outer, WritableByteChannel out, boolean longKeys) throws IOException {
    Objects.requireNonNull(out, "out");
    int scheme = flagsOf(Objects.requireNonNull(outer, "filter"));
    if (longKeys && scheme != 0) {
      throw new IllegalArgumentException(
          "the long-keys flag goes with the default key scheme only; this filter's is "
              + ((Filter) outer).keyScheme());
    }
    int flags = longKeys ? scheme | SieveFormat.FLAG_LONG_KEYS : scheme;
    FilterType type = FilterType.of(outer);
    KeyFilter filter = TypeForms.toWrite(type, outer);
    // header and payload from one moment, even while other threads add
    TypeForms.of(type)
        .holdStill(
            filter,
            still -> {
              write(type, still, flags, out);
              return null;
            });
  }

  private static void write(FilterType type, KeyFilter filter, int flags, WritableByteChannel out)
      throws IOException {
    long payloadLength = TypeForms.of(type).payloadLength(filter);
    ByteBuffer header = ByteBuffer.allocate(HEADER_BYTES);
    ContainerHeader.of(type, filter, flags, payloadLength).write(header);
    ChannelWrites.writeFully(out, header.rewind());
    ChecksummingChannel payloadOut = new ChecksummingChannel(out);
    TypeForms.of(type).writePayload(filter, payloadOut);
    if (payloadOut.written != payloadLength) {
      throw new IllegalStateException(
          "wrote " + payloadOut.written + " payload bytes, announced " + payloadLength);
    }
    ChannelWrites.writeFully(out, ByteBuffer.wrap(checksumBytes((int) payloadOut.crc.getValue())));
  }

  /** Passes writes through to a channel, counting them and updating a CRC32C. */
  private static final class ChecksummingChannel implements WritableByteChannel {
    private final WritableByteChannel out;
    private final CRC32C crc = new CRC32C();
    private long written;

    ChecksummingChannel(WritableByteChannel out) {
      this.out = out;
    }

    @Override
    public int write(ByteBuffer src) throws IOException {
      ByteBuffer view = src.duplicate();
      int n = out.write(src);
      view.limit(view.position() + n);
      crc.update(view);
      written += n;
      return n;
    }

    @Override
    public boolean isOpen() {
      return out.isOpen();
    }

    @Override
    public void close() {
      // the caller owns the underlying channel
    }
  }

  private static byte[] checksumBytes(int crc) {
    return ByteBuffer.allocate(CHECKSUM_BYTES).order(ByteOrder.LITTLE_ENDIAN).putInt(crc).array();
  }

  /**
   * The container flags a filter is written with: its key scheme's (0 for the default), and 0 for a
   * filter that carries no key scheme (another system's filter, whose type id says how its owner
   * hashes keys).
   */
  private static int flagsOf(KeyFilter filter) {
    return filter instanceof Filter f ? f.keyScheme().containerFlag() : 0;
  }
}
