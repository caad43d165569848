package dev.sieve.bloom;

import static dev.sieve.bloom.StandardBloomFilter.HEADER_BYTES;
import static dev.sieve.bloom.StandardBloomFilter.MAX_BITS;
import static dev.sieve.bloom.StandardBloomFilter.MAX_PROBES;

import dev.sieve.SieveFormatException;
import dev.sieve.internal.BloomWords;
import dev.sieve.internal.ChannelReads;
import dev.sieve.internal.PayloadForm;
import dev.sieve.internal.base.Checks;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;

/**
 * The serialized form of {@link StandardBloomFilter}, the payload the Sieve container wraps: a
 * 16-byte little-endian header (the number of bits, 8 bytes; the number of probes, 1 byte; 7 zero
 * bytes), then the {@code ceil(m / 64)} data words, little-endian. Reading ({@link #read}, a copy)
 * and wrapping ({@link #wrap}, in place) check the header once, here.
 */
final class StandardBloomForm {

  private StandardBloomForm() {}

  /** The form's bytes (see {@link StandardBloomFilter#toByteArray}). */
  static byte[] toBytes(StandardBloomFilter filter) {
    long numBits = filter.sizeInBits();
    long numWords = (numBits + 63) >>> 6;
    if (HEADER_BYTES + numWords * Long.BYTES > Integer.MAX_VALUE - 8) {
      throw new IllegalStateException(
          "a filter of " + numBits + " bits does not fit one byte[]; write it in segments");
    }
    byte[] out = filter.data().toBytes(HEADER_BYTES, 0);
    ByteBuffer.wrap(out)
        .order(ByteOrder.LITTLE_ENDIAN)
        .putLong(numBits)
        .put((byte) filter.numProbes());
    return out;
  }

  /** The filter of the form's bytes, copied (see {@link StandardBloomFilter#fromByteArray}). */
  static StandardBloomFilter read(byte[] bytes, long numKeys) {
    Checks.count("number of keys", numKeys, Long.MAX_VALUE);
    ByteBuffer in = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
    long numWords = checkHeader(in);
    BloomWords data =
        BloomWords.copyOf(bytes, HEADER_BYTES, (int) (numWords * Long.BYTES), numKeys);
    return new StandardBloomFilter(data, in.getLong(0), in.get(8));
  }

  /** The filter of the form in a buffer, read in place (see {@link StandardBloomFilter#wrap}). */
  static StandardBloomFilter wrap(ByteBuffer bytes, long numKeys) {
    Checks.count("number of keys", numKeys, Long.MAX_VALUE);
    ByteBuffer in = bytes.slice().order(ByteOrder.LITTLE_ENDIAN);
    long numWords = checkHeader(in);
    long bits = in.getLong(0);
    int probes = in.get(8);
    in.position(HEADER_BYTES);
    return new StandardBloomFilter(BloomWords.wrap(in.slice(), numWords, numKeys), bits, probes);
  }

  /**
   * Maps the form of {@code length} bytes at {@code offset} of {@code channel}, its data in
   * segments of {@code 2^segmentShift} bytes, for forms over one buffer; the header is checked as
   * {@link #wrap} checks it.
   *
   * @throws SieveFormatException with file offsets
   */
  static StandardBloomFilter map(
      FileChannel channel, long offset, long length, int segmentShift, long numKeys)
      throws IOException {
    ByteBuffer header;
    long numWords;
    try {
      header =
          ChannelReads.readSmall(channel, offset, (int) Math.min(length, HEADER_BYTES))
              .order(ByteOrder.LITTLE_ENDIAN);
      numWords = checkHeader(header, length);
    } catch (SieveFormatException e) {
      throw new SieveFormatException(offset + e.offset(), e.getMessage(), e);
    }
    return wrapData(
        ChannelReads.mapSegments(
            channel, offset + HEADER_BYTES, numWords * Long.BYTES, segmentShift),
        segmentShift,
        header.getLong(0),
        header.get(8),
        numKeys);
  }

  /** The filter of data words over buffers of {@code 2^segmentShift} bytes, read in place. */
  static StandardBloomFilter wrapData(
      ByteBuffer[] segments, int segmentShift, long numBits, int numProbes, long numKeys) {
    checkShape(numBits, numProbes);
    return new StandardBloomFilter(
        BloomWords.wrap(segments, segmentShift, (numBits + 63) >>> 6, numKeys), numBits, numProbes);
  }

  /** Validates the header of the form in {@code in} (from index 0); returns the number of words. */
  private static long checkHeader(ByteBuffer in) {
    return checkHeader(in, in.remaining());
  }

  /**
   * Validates the header at index 0 of {@code in} of a form of {@code length} bytes; returns the
   * number of words.
   */
  private static long checkHeader(ByteBuffer in, long length) {
    if (length < HEADER_BYTES) {
      throw new SieveFormatException(
          0, "standard Bloom form of " + length + " bytes is shorter than its 16-byte header");
    }
    long bits = in.getLong(0);
    if (bits < 1 || bits > MAX_BITS) {
      throw new SieveFormatException(
          0, "number of bits " + bits + " outside [1, " + MAX_BITS + "]");
    }
    int probes = in.get(8);
    if (probes < 1 || probes > MAX_PROBES) {
      throw new SieveFormatException(
          8, "number of probes " + probes + " outside [1, " + MAX_PROBES + "]");
    }
    for (int i = 9; i < HEADER_BYTES; i++) {
      if (in.get(i) != 0) {
        throw new SieveFormatException(i, "reserved header byte is not zero");
      }
    }
    long numWords = (bits + 63) >>> 6;
    long expected = HEADER_BYTES + numWords * Long.BYTES;
    if (length != expected) {
      throw new SieveFormatException(
          HEADER_BYTES,
          "data of "
              + (length - HEADER_BYTES)
              + " bytes, expected "
              + (expected - HEADER_BYTES)
              + " for "
              + bits
              + " bits");
    }
    return numWords;
  }

  /** Refuses a shape outside the limits with an {@link IllegalArgumentException}. */
  static void checkShape(long numBits, int numProbes) {
    if (numBits < 1 || numBits > MAX_BITS) {
      throw new IllegalArgumentException(
          "number of bits must be in [1, " + MAX_BITS + "], got " + numBits);
    }
    if (numProbes < 1 || numProbes > MAX_PROBES) {
      throw new IllegalArgumentException(
          "number of probes must be in [1, " + MAX_PROBES + "], got " + numProbes);
    }
  }

  /** An empty filter of a checked shape. */
  static StandardBloomFilter empty(long numBits, int numProbes) {
    return new StandardBloomFilter(
        BloomWords.onHeap(new long[(int) ((numBits + 63) >>> 6)], 0), numBits, numProbes);
  }

  /**
   * The container's payload form (type id 2): this form; parameter A the probes, B 0. Read in
   * place, past 2 GiB in segments ({@link #map}). Registered by {@link BloomFamily}.
   */
  static PayloadForm<StandardBloomFilter> payloadForm() {
    return PayloadForm.inPlace(
        StandardBloomFilter.class,
        StandardBloomForm::toBytes,
        StandardBloomFilter::numProbes,
        f -> 0,
        StandardBloomForm::read,
        StandardBloomForm::wrap,
        null,
        null,
        StandardBloomForm::map);
  }
}
