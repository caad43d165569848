package dev.sieve.interop;

import static dev.sieve.interop.CassandraBloomFilter.MAX_PROBES;
import static dev.sieve.interop.CassandraBloomFilter.MAX_WORDS;

import dev.sieve.SieveFormatException;
import dev.sieve.internal.PayloadForm;
import dev.sieve.interop.CassandraBloomFilter.Layout;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * Cassandra's {@code Filter.db} bytes for {@link CassandraBloomFilter}: what {@code
 * BloomFilterSerializer} and {@code OffHeapBitSet.serialize} write. The hash count {@code k} (4
 * bytes big-endian), the number of 64-bit words (4 bytes big-endian), then the words: in {@link
 * Layout#CURRENT} each word's little-endian bytes (the bit set's bytes in order), in {@link
 * Layout#LEGACY} each word as a big-endian {@code long}. Reading checks {@code k} against {@link
 * CassandraBloomFilter#MAX_PROBES}, the word count against {@link CassandraBloomFilter#MAX_WORDS}
 * and against the bytes present, before anything is allocated.
 */
final class CassandraBloomForm {
  /** The length of the header before the bits. */
  static final int HEADER_BYTES = 8;

  private CassandraBloomForm() {}

  /** Reads the form; {@code numKeys < 0} estimates the key count from the bits. */
  static CassandraBloomFilter read(ByteBuffer bytes, Layout layout, long numKeys) {
    ByteBuffer in = bytes.slice(); // big-endian
    long length = in.remaining();
    if (length < HEADER_BYTES) {
      throw new SieveFormatException(
          0, "Cassandra Bloom filter of " + length + " bytes is shorter than its 8-byte header");
    }
    int k = in.getInt();
    if (k < 1 || k > MAX_PROBES) {
      throw new SieveFormatException(0, "hash count " + k + " outside [1, " + MAX_PROBES + "]");
    }
    int count = in.getInt();
    if (count < 1 || count > MAX_WORDS) {
      throw new SieveFormatException(4, "word count " + count + " outside [1, " + MAX_WORDS + "]");
    }
    long expected = HEADER_BYTES + (long) count * Long.BYTES;
    if (length != expected) {
      throw new SieveFormatException(
          4, "word count " + count + " needs " + expected + " bytes, the filter has " + length);
    }
    long[] words;
    if (layout == Layout.LEGACY) {
      words = ForeignBloomFilter.readWordsBigEndian(in, count);
    } else {
      words = new long[count];
      in.order(ByteOrder.LITTLE_ENDIAN).asLongBuffer().get(words);
    }
    long n = numKeys >= 0 ? numKeys : ForeignBloomFilter.estimateKeys(words, k);
    return new CassandraBloomFilter(words, k, layout, n);
  }

  /** The bytes of a filter of {@code words} with {@code k} hash functions, in {@code layout}. */
  static byte[] toBytes(long[] words, int k, Layout layout) {
    ByteBuffer out = ByteBuffer.allocate(HEADER_BYTES + words.length * Long.BYTES);
    out.putInt(k).putInt(words.length);
    if (layout == Layout.LEGACY) {
      for (long w : words) {
        out.putLong(w);
      }
    } else {
      out.order(ByteOrder.LITTLE_ENDIAN);
      for (long w : words) {
        out.putLong(w);
      }
    }
    return out.array();
  }

  /**
   * The container's payload form: the {@code Filter.db} bytes in the current layout (a legacy
   * filter comes back in the current layout; its bits and answers are the same); parameter A the
   * hash functions, B the payload's layout code (always {@link Layout#CURRENT}'s 0). Registered by
   * {@link InteropFamily}.
   */
  static final class Payload extends PayloadForm<CassandraBloomFilter> {
    Payload() {
      super(CassandraBloomFilter.class);
    }

    @Override
    public byte[] payload(CassandraBloomFilter f) {
      return f.toByteArray(Layout.CURRENT);
    }

    @Override
    public int parameterA(CassandraBloomFilter f) {
      return f.numProbes;
    }

    @Override
    public int parameterB(CassandraBloomFilter f) {
      return Layout.CURRENT.code();
    }

    @Override
    public CassandraBloomFilter read(byte[] payload, long numKeys) {
      return CassandraBloomForm.read(ByteBuffer.wrap(payload), Layout.CURRENT, numKeys);
    }
  }
}
