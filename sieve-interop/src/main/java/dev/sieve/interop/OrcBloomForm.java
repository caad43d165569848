package dev.sieve.interop;

import static dev.sieve.interop.OrcBloomFilter.MAX_PROBES;
import static dev.sieve.interop.OrcBloomFilter.MAX_WORDS;

import dev.sieve.KeyScheme;
import dev.sieve.SieveFormatException;
import dev.sieve.internal.PayloadForm;
import dev.sieve.internal.base.Checks;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * The serialized form of {@link OrcBloomFilter}, the payload the Sieve container wraps, all
 * little-endian: the number of probes (ORC's {@code numHashFunctions}, 4 bytes), the number of
 * 64-bit words (4 bytes), then the words: the words are exactly the bytes of ORC's {@code
 * BloomFilter.utf8bitset} field ({@code BLOOM_FILTER_UTF8} streams).
 */
final class OrcBloomForm {
  static final int HEADER_BYTES = 8;

  private OrcBloomForm() {}

  static byte[] toBytes(OrcBloomFilter f) {
    long[] words = f.words();
    ByteBuffer out =
        ByteBuffer.allocate(HEADER_BYTES + words.length * Long.BYTES)
            .order(ByteOrder.LITTLE_ENDIAN);
    out.putInt(f.numHashFunctions()).putInt(words.length);
    out.asLongBuffer().put(words);
    return out.array();
  }

  /** Reads the form; the filter carries the default key scheme (the container applies its own). */
  static OrcBloomFilter read(byte[] bytes, long numKeys) {
    Checks.count("number of keys", numKeys, Long.MAX_VALUE);
    if (bytes.length < HEADER_BYTES) {
      throw new SieveFormatException(
          0, "ORC Bloom form of " + bytes.length + " bytes is shorter than its 8-byte header");
    }
    ByteBuffer in = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
    int probes = in.getInt(0);
    if (probes < 1 || probes > MAX_PROBES) {
      throw new SieveFormatException(
          0, "number of probes " + probes + " outside [1, " + MAX_PROBES + "]");
    }
    int numWords = in.getInt(4);
    if (numWords < 1 || numWords > MAX_WORDS) {
      throw new SieveFormatException(
          4, "number of words " + numWords + " outside [1, " + MAX_WORDS + "]");
    }
    long expected = HEADER_BYTES + (long) numWords * Long.BYTES;
    if (bytes.length != expected) {
      throw new SieveFormatException(
          HEADER_BYTES,
          "data of "
              + (bytes.length - HEADER_BYTES)
              + " bytes, expected "
              + (expected - HEADER_BYTES)
              + " for "
              + numWords
              + " words");
    }
    long[] words = new long[numWords];
    in.position(HEADER_BYTES);
    in.asLongBuffer().get(words);
    return new OrcBloomFilter(words, probes, numKeys, KeyScheme.XXPH3);
  }

  /**
   * The container's payload form (type id 18): this form; parameter A the probes, B 0. Registered
   * by {@link InteropFamily}.
   */
  static final class Payload extends PayloadForm<OrcBloomFilter> {
    Payload() {
      super(OrcBloomFilter.class);
    }

    @Override
    public byte[] payload(OrcBloomFilter f) {
      return toBytes(f);
    }

    @Override
    public int parameterA(OrcBloomFilter f) {
      return f.numHashFunctions();
    }

    @Override
    public int parameterB(OrcBloomFilter f) {
      return 0;
    }

    @Override
    public OrcBloomFilter read(byte[] payload, long numKeys) {
      return OrcBloomForm.read(payload, numKeys);
    }
  }
}
