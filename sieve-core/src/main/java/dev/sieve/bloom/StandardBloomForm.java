package dev.sieve.bloom;

import static dev.sieve.bloom.StandardBloomFilter.HEADER_BYTES;
import static dev.sieve.bloom.StandardBloomFilter.MAX_BITS;
import static dev.sieve.bloom.StandardBloomFilter.MAX_PROBES;

import dev.sieve.SieveFormatException;
import dev.sieve.internal.Checks;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

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

  /** The filter of data words over buffers (see {@link StandardBloomFilter#wrapData}). */
  static StandardBloomFilter wrapData(
      ByteBuffer[] segments, int segmentShift, long numBits, int numProbes, long numKeys) {
    checkShape(numBits, numProbes);
    return new StandardBloomFilter(
        BloomWords.wrap(segments, segmentShift, (numBits + 63) >>> 6, numKeys), numBits, numProbes);
  }

  /** Validates the header of the form in {@code in} (from index 0); returns the number of words. */
  private static long checkHeader(ByteBuffer in) {
    if (in.remaining() < HEADER_BYTES) {
      throw new SieveFormatException(
          0,
          "standard Bloom form of " + in.remaining() + " bytes is shorter than its 16-byte header");
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
    if (in.remaining() != expected) {
      throw new SieveFormatException(
          HEADER_BYTES,
          "data of "
              + (in.remaining() - HEADER_BYTES)
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
}
