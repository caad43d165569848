package dev.sieve.format;

import static dev.sieve.format.SieveFormat.CHECKSUM_BYTES;
import static dev.sieve.format.SieveFormat.FLAGS_OFFSET;
import static dev.sieve.format.SieveFormat.HEADER_BYTES;
import static dev.sieve.format.SieveFormat.KEYS_OFFSET;
import static dev.sieve.format.SieveFormat.MAX_ARRAY_PAYLOAD;
import static dev.sieve.format.SieveFormat.PARAM_A_OFFSET;
import static dev.sieve.format.SieveFormat.PARAM_B_OFFSET;
import static dev.sieve.format.SieveFormat.PAYLOAD_LENGTH_OFFSET;
import static dev.sieve.format.SieveFormat.SIZE_OFFSET;
import static dev.sieve.format.SieveFormat.TYPE_OFFSET;

import dev.sieve.Filter;
import dev.sieve.KeyFilter;
import dev.sieve.KeyScheme;
import dev.sieve.SieveFormatException;
import dev.sieve.internal.PayloadForm;
import dev.sieve.internal.Schemes;
import dev.sieve.registry.FilterType;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.function.Supplier;

/**
 * Reads a container from a {@code byte[]}, a stream or a buffer: header, length and payload
 * checksum checked before anything is decoded, then the type's payload decoded and checked against
 * the header. The reading half of {@link SieveFormat}; {@link MappedSieveFile} maps files and
 * shares {@link #checkAgainstHeader} and {@link #withFlags}.
 *
 * <p>Each read takes {@code filterOnly}: {@code null} for a read that returns any {@link KeyFilter}
 * (the typed reads, which then check the class), otherwise the typed read a caller of an untyped
 * read, which returns a {@link Filter}, is sent to for a container of another system's filter (a
 * {@link KeyFilter} alone), refused at the header's type field before any payload is read.
 */
final class ContainerReader {
  /** The first chunk a stream read allocates; chunks double as data arrives. */
  private static final int FIRST_CHUNK = 1 << 16;

  private ContainerReader() {}

  /** {@link SieveFormat#read(byte[])}. */
  static KeyFilter read(byte[] bytes, String filterOnly) {
    ContainerHeader header = ContainerHeader.read(ByteBuffer.wrap(bytes), bytes.length);
    TypeForms.requirePresent(header.type());
    requireFilter(header.type(), filterOnly);
    header.checkTotal(bytes.length);
    ByteBuffer payload = ByteBuffer.wrap(bytes, HEADER_BYTES, (int) header.payloadLength());
    checkPayloadHead(header, payload.slice());
    verifyPayload(header, payload.slice(), storedPayloadCrc(ByteBuffer.wrap(bytes), header));
    byte[] copy =
        Arrays.copyOfRange(bytes, HEADER_BYTES, HEADER_BYTES + (int) header.payloadLength());
    return decode(header, () -> TypeForms.of(header.type()).read(copy, header.numKeys()));
  }

  /** {@link SieveFormat#read(InputStream)}. */
  static KeyFilter read(InputStream in, String filterOnly) throws IOException {
    byte[] head = in.readNBytes(HEADER_BYTES);
    ContainerHeader header = ContainerHeader.read(ByteBuffer.wrap(head), Long.MAX_VALUE);
    TypeForms.requirePresent(header.type());
    requireFilter(header.type(), filterOnly);
    if (header.payloadLength() > MAX_ARRAY_PAYLOAD) {
      throw new SieveFormatException(
          PAYLOAD_LENGTH_OFFSET,
          "payload length "
              + header.payloadLength()
              + " exceeds what a stream read holds ("
              + MAX_ARRAY_PAYLOAD
              + " bytes); map the file instead");
    }
    int length = (int) header.payloadLength();
    byte[] payload = readBounded(in, length, header);
    byte[] crc = in.readNBytes(CHECKSUM_BYTES);
    if (crc.length < CHECKSUM_BYTES) {
      throw new SieveFormatException(
          HEADER_BYTES + (long) length + crc.length,
          "stream ends inside the payload checksum (truncated)");
    }
    int stored = ByteBuffer.wrap(crc).order(ByteOrder.LITTLE_ENDIAN).getInt();
    verifyPayload(header, ByteBuffer.wrap(payload), stored);
    return decode(header, () -> TypeForms.of(header.type()).read(payload, header.numKeys()));
  }

  /**
   * Reads {@code length} bytes in chunks that grow as data arrives, never trusting the length; the
   * payload's own header is checked against {@code header} as soon as its bytes are in.
   */
  private static byte[] readBounded(InputStream in, int length, ContainerHeader header)
      throws IOException {
    byte[] buf = new byte[Math.min(length, FIRST_CHUNK)];
    int filled = 0;
    int head = Math.min(length, PAYLOAD_HEAD_BYTES);
    boolean checked = false;
    while (filled < length) {
      if (filled == buf.length) {
        buf = Arrays.copyOf(buf, (int) Math.min(length, 2L * buf.length));
      }
      int n = in.read(buf, filled, buf.length - filled);
      if (n < 0) {
        throw new SieveFormatException(
            HEADER_BYTES + (long) filled,
            "stream ends after "
                + filled
                + " of the "
                + length
                + " payload bytes the header claims (truncated)");
      }
      filled += n;
      if (!checked && filled >= head) {
        checkPayloadHead(header, ByteBuffer.wrap(buf, 0, head).slice());
        checked = true;
      }
    }
    return buf;
  }

  /** {@link SieveFormat#wrap(ByteBuffer, boolean)}. */
  static KeyFilter wrap(ByteBuffer buffer, boolean verifyChecksum, String filterOnly) {
    ByteBuffer in = buffer.slice().order(ByteOrder.LITTLE_ENDIAN);
    int size = in.remaining();
    ContainerHeader header = ContainerHeader.read(in, size);
    TypeForms.requirePresent(header.type());
    requireFilter(header.type(), filterOnly);
    header.checkTotal(size);
    ByteBuffer payload = in.duplicate().position(HEADER_BYTES);
    payload.limit(HEADER_BYTES + (int) header.payloadLength());
    payload = payload.slice();
    checkPayloadHead(header, payload.duplicate());
    if (verifyChecksum) {
      verifyPayload(header, payload.duplicate(), storedPayloadCrc(in, header));
    }
    ByteBuffer view = payload;
    return decode(header, () -> TypeForms.of(header.type()).wrap(view, header.numKeys()));
  }

  private static int storedPayloadCrc(ByteBuffer container, ContainerHeader header) {
    return container
        .duplicate()
        .order(ByteOrder.LITTLE_ENDIAN)
        .getInt(HEADER_BYTES + (int) header.payloadLength());
  }

  private static void verifyPayload(ContainerHeader header, ByteBuffer payload, int stored) {
    Crc32c.check(HEADER_BYTES + header.payloadLength(), Crc32c.of(payload), stored);
  }

  /**
   * Refuses, for an untyped read ({@code filterOnly} naming its typed counterpart), a container
   * whose type's filters are not {@link Filter}s: another system's filter, tested by keys its owner
   * hashes, has no Sieve key hash to offer, and is read by a typed read as a {@link KeyFilter}.
   *
   * @throws SieveFormatException at the type field, naming the type and the read that takes it
   */
  static void requireFilter(FilterType type, String filterOnly) {
    if (filterOnly == null) {
      return;
    }
    Class<? extends KeyFilter> cls = TypeForms.of(type).filterClass();
    if (!Filter.class.isAssignableFrom(cls)) {
      throw new SieveFormatException(
          TYPE_OFFSET,
          "the container holds a "
              + type.cliName()
              + " filter, another system's filter ("
              + cls.getSimpleName()
              + ", hashed by its owner): a KeyFilter, not a Filter; read it with "
              + filterOnly
              + ", giving "
              + cls.getSimpleName()
              + ".class or KeyFilter.class");
    }
  }

  /** Decodes the payload, turning the type reader's payload-relative offsets into file offsets. */
  private static KeyFilter decode(ContainerHeader header, Supplier<KeyFilter> reader) {
    KeyFilter f;
    try {
      f = reader.get();
    } catch (SieveFormatException e) {
      throw new SieveFormatException(
          HEADER_BYTES + e.offset(), "in the " + header.type() + " payload, " + e.getMessage(), e);
    } catch (IllegalArgumentException | IllegalStateException e) {
      throw new SieveFormatException(
          HEADER_BYTES, header.type() + " payload rejected: " + e.getMessage(), e);
    }
    checkAgainstHeader(header, f);
    return withFlags(header, f);
  }

  /**
   * The filter carrying the key scheme the header's flags record (none: the default, also for a
   * form whose reader gives another scheme, as the Parquet bitset's does); a filter that is not a
   * {@link Filter} carries none, and its container must record none.
   */
  static KeyFilter withFlags(ContainerHeader header, KeyFilter read) {
    int schemeFlags = header.flags() & ~SieveFormat.FLAG_LONG_KEYS;
    if (!(read instanceof Filter f)) {
      // another system's filter: its type id says how its owner hashes keys; it carries no scheme
      if (schemeFlags != KeyScheme.XXPH3.containerFlag()) {
        throw new SieveFormatException(
            FLAGS_OFFSET,
            "flags 0x"
                + Integer.toHexString(header.flags())
                + " hold key-scheme bits, and a "
                + header.type().cliName()
                + " filter carries no key scheme (its owner hashes its keys)");
      }
      return read;
    }
    for (KeyScheme scheme : KeyScheme.values()) {
      if (schemeFlags == scheme.containerFlag()) {
        try {
          return Schemes.apply(f, scheme);
        } catch (IllegalArgumentException e) {
          throw new SieveFormatException(FLAGS_OFFSET, e.getMessage(), e);
        }
      }
    }
    throw new SieveFormatException(
        FLAGS_OFFSET, "flags 0x" + Integer.toHexString(header.flags()) + " name no key scheme");
  }

  /** The payload bytes a form's {@link PayloadForm#headerFields} is given, at most. */
  private static final int PAYLOAD_HEAD_BYTES = 64;

  /**
   * Compares the header's parameters and key count with those the payload's own header records
   * ({@link PayloadForm#headerFields}), before any pass over the payload. A payload whose own
   * header is invalid is left to its decoding, which reads that header first and names what is
   * wrong.
   *
   * @param payload the payload's bytes from its first (at least its first 64, or all of it)
   */
  static void checkPayloadHead(ContainerHeader header, ByteBuffer payload) {
    ByteBuffer head = payload.duplicate();
    head.limit(head.position() + Math.min(head.remaining(), PAYLOAD_HEAD_BYTES));
    PayloadForm.HeaderFields p;
    try {
      p =
          TypeForms.of(header.type())
              .headerFields(head.slice().order(ByteOrder.LITTLE_ENDIAN), header.payloadLength());
    } catch (SieveFormatException e) {
      return;
    }
    if (p != null) {
      checkFields(header, p.parameterA(), p.parameterB(), p.sizeInBits(), p.numKeys());
    }
  }

  private static void checkFields(
      ContainerHeader header, int a, int b, long sizeInBits, long numKeys) {
    if (a != header.parameterA()) {
      throw new SieveFormatException(
          PARAM_A_OFFSET, "header parameter A " + header.parameterA() + ", payload says " + a);
    }
    if (b != header.parameterB()) {
      throw new SieveFormatException(
          PARAM_B_OFFSET, "header parameter B " + header.parameterB() + ", payload says " + b);
    }
    if (sizeInBits != header.sizeInBits()) {
      throw new SieveFormatException(
          SIZE_OFFSET, "header size " + header.sizeInBits() + " bits, payload holds " + sizeInBits);
    }
    if (numKeys != header.numKeys()) {
      throw new SieveFormatException(
          KEYS_OFFSET, "header key count " + header.numKeys() + ", payload holds " + numKeys);
    }
  }

  /** Checks that the decoded filter has the header's parameters, size and key count. */
  static void checkAgainstHeader(ContainerHeader header, KeyFilter f) {
    PayloadForm<KeyFilter> codec = TypeForms.of(header.type());
    checkFields(header, codec.parameterA(f), codec.parameterB(f), f.sizeInBits(), f.numKeys());
  }

  /** The filter as {@code expected}, or the exception naming what the container holds. */
  static <F extends KeyFilter> F as(KeyFilter f, Class<F> expected) {
    if (!expected.isInstance(f)) {
      throw new SieveFormatException(
          TYPE_OFFSET,
          "the container holds a "
              + f.getClass().getSimpleName()
              + ", expected "
              + expected.getSimpleName());
    }
    return expected.cast(f);
  }
}
