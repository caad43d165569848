package dev.sieve.internal;

import dev.sieve.KeyFilter;
import dev.sieve.SieveFormatException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.WritableByteChannel;
import java.util.Objects;
import java.util.function.Function;
import java.util.function.ToIntFunction;
import java.util.function.ToLongFunction;

/**
 * A filter type's payload form: how its payload is written and read inside the Sieve container,
 * validated once, for {@code byte[]}, buffers and (past one buffer's 2 GiB) mapped segments. Each
 * family keeps its form package-private beside its filter class and hands it to the registry in its
 * {@link FilterFamily} row; the container ({@code dev.sieve.format}) reaches every type's form
 * through {@link Families#form(FamilyType)}, by the header's type id, and nothing else (the sharded
 * type's form, the container's own nesting, is the shard family's). Not API: this package is not
 * exported.
 *
 * <p>Every family's form is read in place and binds the same six things (the payload, the two
 * header parameters, the heap read, the in-place wrap, and for the formats that pass 2 GiB the
 * length, the streamed write and the segment map): {@link #inPlace} makes one from them, so a
 * family names its form's parts instead of subclassing.
 *
 * @param <F> the filter class
 */
public abstract class PayloadForm<F extends KeyFilter> {
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

  /**
   * An action on a filter that holds still while it runs ({@link #holdStill}).
   *
   * @param <F> the filter type
   * @param <R> the result
   * @param <X> what the action may throw
   */
  @FunctionalInterface
  public interface HeldAction<F, R, X extends Exception> {
    /**
     * Runs on the filter held still.
     *
     * @param still the filter, or a view of it, that no other thread changes during the call
     * @return the result
     * @throws X what the action throws
     */
    R apply(F still) throws X;
  }

  /**
   * Runs {@code action} on {@code filter} held still: the container writer takes the header (key
   * count, parameters, size, payload length) and the payload from what the action is given, so they
   * describe one moment even while other threads add. The default passes the filter itself (a type
   * whose filters are immutable, or whose concurrent adds only set bits of a table of fixed size,
   * so that a write that overlaps them still reads back with every earlier key); a type whose
   * writers move entries or resize under a lock overrides it to hold the lock's read side for the
   * call and pass a view that reads without taking it again.
   *
   * @param filter the filter to write
   * @param action what to do with it
   * @param <R> the result
   * @param <X> what the action may throw
   * @return the action's result
   * @throws X what the action throws
   */
  public <R, X extends Exception> R holdStill(F filter, HeldAction<? super F, R, X> action)
      throws X {
    return action.apply(filter);
  }

  /** The first type parameter recorded in the header (e.g. probes, fingerprint bits). */
  public abstract int parameterA(F filter);

  /** The second type parameter recorded in the header (e.g. arity, slots per bucket; or 0). */
  public abstract int parameterB(F filter);

  /**
   * The container header's parameters, size and key count as the payload's own header records them,
   * read from its first bytes alone, so that the container reader compares them with its header
   * before any pass over the payload (its checksum, its decoding): a header that disagrees with a
   * large payload is refused at once, not after the table is decoded. The default reads nothing
   * ({@code null}: the fields are compared after decoding only).
   *
   * @param head the payload's first bytes, little-endian (up to 64; fewer if the payload is
   *     shorter)
   * @param payloadLength the payload's length in bytes
   * @return the fields, or {@code null} where the form cannot tell them from its header
   * @throws SieveFormatException with a payload offset if the payload's header is itself invalid
   */
  public HeaderFields headerFields(ByteBuffer head, long payloadLength) {
    return null;
  }

  /**
   * The container header's fields that a payload's own header records ({@link #headerFields}).
   *
   * @param parameterA the first type parameter
   * @param parameterB the second type parameter
   * @param sizeInBits the size in bits
   * @param numKeys the key count
   */
  public record HeaderFields(int parameterA, int parameterB, long sizeInBits, long numKeys) {}

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

  /**
   * Reads a payload, given the header's key count (for the formats that do not store it).
   *
   * @param <S> the payload's holder: {@code byte[]} or {@code ByteBuffer}
   * @param <F> the filter class
   */
  @FunctionalInterface
  public interface Reader<S, F> {
    /** {@return the filter read from {@code payload}} */
    F read(S payload, long numKeys);
  }

  /**
   * Writes a payload to a channel, for the formats whose payload can pass one array.
   *
   * @param <F> the filter class
   */
  @FunctionalInterface
  public interface Writer<F> {
    /** Writes {@code filter}'s payload to {@code out}. */
    void write(F filter, WritableByteChannel out) throws IOException;
  }

  /**
   * Maps a payload larger than one buffer ({@link PayloadForm#mapLarge}).
   *
   * @param <F> the filter class
   */
  @FunctionalInterface
  public interface Mapper<F> {
    /** {@return the filter mapped from {@code channel}, in segments of 2^segmentShift bytes} */
    F map(
        FileChannel channel, long payloadOffset, long payloadLength, int segmentShift, long numKeys)
        throws IOException;
  }

  /**
   * A form read in place, limited to one Java array: {@link #payloadLength} and {@link
   * #writePayload} go through {@code payload}, and {@link #mapLarge} refuses.
   *
   * @param <F> the filter class
   * @param filterClass the filter class
   * @param payload the filter's payload bytes
   * @param parameterA the header's first parameter
   * @param parameterB the header's second parameter
   * @param read the heap read
   * @param wrap the in-place read of a buffer's remaining bytes
   * @return the form
   */
  public static <F extends KeyFilter> PayloadForm<F> inPlace(
      Class<F> filterClass,
      Function<F, byte[]> payload,
      ToIntFunction<F> parameterA,
      ToIntFunction<F> parameterB,
      Reader<byte[], F> read,
      Reader<ByteBuffer, F> wrap) {
    return new InPlace<>(
        filterClass, payload, parameterA, parameterB, read, wrap, null, null, null);
  }

  /**
   * A form read in place whose payload can pass one buffer (2 GiB): as {@link #inPlace(Class,
   * Function, ToIntFunction, ToIntFunction, Reader, Reader)}, with its segment map and, where the
   * payload can also pass one array, its length and its streamed write.
   *
   * @param <F> the filter class
   * @param filterClass the filter class
   * @param payload the filter's payload bytes (for a payload within one array)
   * @param parameterA the header's first parameter
   * @param parameterB the header's second parameter
   * @param read the heap read
   * @param wrap the in-place read of a buffer's remaining bytes
   * @param length the payload's length in bytes, or {@code null}: {@code payload}'s length
   * @param write the streamed write, or {@code null}: {@code payload}'s bytes written
   * @param map the segment map past one buffer
   * @return the form
   */
  public static <F extends KeyFilter> PayloadForm<F> inPlace(
      Class<F> filterClass,
      Function<F, byte[]> payload,
      ToIntFunction<F> parameterA,
      ToIntFunction<F> parameterB,
      Reader<byte[], F> read,
      Reader<ByteBuffer, F> wrap,
      ToLongFunction<F> length,
      Writer<F> write,
      Mapper<F> map) {
    return new InPlace<>(
        filterClass,
        payload,
        parameterA,
        parameterB,
        read,
        wrap,
        length,
        write,
        Objects.requireNonNull(map, "map"));
  }

  /** {@link #inPlace}'s form: each method calls the part given for it. */
  private static final class InPlace<F extends KeyFilter> extends PayloadForm<F> {
    private final Function<F, byte[]> payload;
    private final ToIntFunction<F> parameterA;
    private final ToIntFunction<F> parameterB;
    private final Reader<byte[], F> read;
    private final Reader<ByteBuffer, F> wrap;
    private final ToLongFunction<F> length; // null: payload's length
    private final Writer<F> write; // null: payload's bytes written
    private final Mapper<F> map;

    InPlace(
        Class<F> filterClass,
        Function<F, byte[]> payload,
        ToIntFunction<F> parameterA,
        ToIntFunction<F> parameterB,
        Reader<byte[], F> read,
        Reader<ByteBuffer, F> wrap,
        ToLongFunction<F> length,
        Writer<F> write,
        Mapper<F> map) {
      super(Objects.requireNonNull(filterClass, "filterClass"));
      this.payload = Objects.requireNonNull(payload, "payload");
      this.parameterA = Objects.requireNonNull(parameterA, "parameterA");
      this.parameterB = Objects.requireNonNull(parameterB, "parameterB");
      this.read = Objects.requireNonNull(read, "read");
      this.wrap = Objects.requireNonNull(wrap, "wrap");
      this.length = length;
      this.write = write;
      this.map = map;
    }

    @Override
    public byte[] payload(F filter) {
      return payload.apply(filter);
    }

    @Override
    public long payloadLength(F filter) {
      return length == null ? super.payloadLength(filter) : length.applyAsLong(filter);
    }

    @Override
    public void writePayload(F filter, WritableByteChannel out) throws IOException {
      if (write == null) {
        super.writePayload(filter, out);
      } else {
        write.write(filter, out);
      }
    }

    @Override
    public int parameterA(F filter) {
      return parameterA.applyAsInt(filter);
    }

    @Override
    public int parameterB(F filter) {
      return parameterB.applyAsInt(filter);
    }

    @Override
    public F read(byte[] payload, long numKeys) {
      return read.read(payload, numKeys);
    }

    @Override
    public F wrap(ByteBuffer payload, long numKeys) {
      return wrap.read(payload, numKeys);
    }

    @Override
    public boolean zeroCopy() {
      return true;
    }

    @Override
    public F mapLarge(
        FileChannel channel, long payloadOffset, long payloadLength, int segmentShift, long numKeys)
        throws IOException {
      return map == null
          ? super.mapLarge(channel, payloadOffset, payloadLength, segmentShift, numKeys)
          : map.map(channel, payloadOffset, payloadLength, segmentShift, numKeys);
    }
  }
}
