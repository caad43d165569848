package dev.sieve.cuckoo;

import static dev.sieve.cuckoo.CuckooKernel.SLOTS_PER_BUCKET;

import dev.sieve.SieveFormatException;
import dev.sieve.internal.PayloadForm;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * The Cuckoo filter's serialized form; the container's payload for {@link CuckooFilter} ({@link
 * Payload}).
 *
 * <p>Little-endian: byte 0 the type tag {@code 0x31}, byte 1 the fingerprint bits (4 to 16), byte 2
 * the slots per bucket (4), byte 3 the payload version, bytes 4-7 the number of buckets, bytes 8-15
 * the number of stored fingerprints, then {@code ceil(buckets · 4f / 64)} 64-bit words of
 * bit-packed buckets (bits past the last bucket are 0; {@link CuckooKernel} has the packing). Not
 * checksummed.
 *
 * <p>The version, {@value #VERSION}, fixes the addressing: bucket and fingerprint come from the
 * {@linkplain CuckooKernel#remix remixed} key hash. Any other version is refused, since its bytes
 * would be read with an addressing they were not written by.
 *
 * <p>{@link #check} validates a form once, before any filter sees it: every header field, the
 * length, the zero padding and that the stored fingerprint count matches the nonzero slots. Every
 * error is a {@link SieveFormatException} with the offset of the bad field.
 */
final class CuckooForm {

  /** The version this code writes and reads. */
  static final int VERSION = 1;

  static final int TYPE_TAG = 0x31;
  static final int HEADER_BYTES = 16;

  private CuckooForm() {}

  /**
   * The form of a filter: its header, then its bucket words from {@code words}, or from {@code
   * wrapped} (little-endian, from its position) when {@code words} is null.
   */
  static byte[] write(
      int fingerprintBits, int numBuckets, long numKeys, long[] words, ByteBuffer wrapped) {
    ByteBuffer out =
        ByteBuffer.allocate(
                HEADER_BYTES + CuckooKernel.wordsFor(numBuckets, fingerprintBits) * Long.BYTES)
            .order(ByteOrder.LITTLE_ENDIAN);
    out.put((byte) TYPE_TAG).put((byte) fingerprintBits).put((byte) SLOTS_PER_BUCKET);
    out.put((byte) VERSION);
    out.putInt(numBuckets).putLong(numKeys);
    if (words != null) {
      for (long w : words) {
        out.putLong(w);
      }
    } else {
      out.put(wrapped.duplicate());
    }
    return out.array();
  }

  /**
   * Reads a form onto the heap: a mutable filter.
   *
   * @throws SieveFormatException if the bytes are truncated, too long or inconsistent
   */
  static CuckooFilter read(byte[] bytes) {
    Checked form = check(ByteBuffer.wrap(bytes));
    return new CuckooFilter(
        words(form.data, form.data.remaining() / Long.BYTES),
        null,
        form.buckets,
        form.bits,
        form.numKeys);
  }

  /**
   * Reads the form from {@code bytes}' position to its limit, in place: the buckets are not copied,
   * and queries read the buffer (heap, direct or memory-mapped). The checks are those of {@link
   * #read} (including the pass that counts the occupied slots), with offsets relative to the
   * position. The buffer's position and limit may change afterwards; its bytes must not while the
   * filter is in use. The filter is read-only; {@link CuckooFilter#copy()} gives a mutable one.
   *
   * @throws SieveFormatException if the bytes are truncated, too long or inconsistent
   */
  static CuckooFilter wrap(ByteBuffer bytes) {
    Checked form = check(bytes);
    return new CuckooFilter(null, form.data, form.buckets, form.bits, form.numKeys);
  }

  /** {@return the first {@code count} little-endian words of {@code data}, on the heap} */
  static long[] words(ByteBuffer data, int count) {
    long[] out = new long[count];
    data.duplicate().order(ByteOrder.LITTLE_ENDIAN).asLongBuffer().get(out);
    return out;
  }

  /** A validated form; {@code data} is a little-endian view of its bucket words. */
  record Checked(int bits, int buckets, long numKeys, ByteBuffer data) {}

  /**
   * The checks of {@link #read} and {@link #wrap}, on {@code bytes}' remaining bytes, in the order
   * of the fields: header, length, padding, fingerprint count.
   *
   * @throws SieveFormatException at the first field that is wrong
   */
  static Checked check(ByteBuffer bytes) {
    ByteBuffer in = bytes.slice().order(ByteOrder.LITTLE_ENDIAN);
    int size = in.remaining();
    if (size < HEADER_BYTES) {
      throw new SieveFormatException(
          size,
          "truncated cuckoo filter: the header needs " + HEADER_BYTES + " bytes, got " + size);
    }
    checkTag(in);
    int bits = fingerprintBits(in);
    checkVersion(in);
    long buckets = buckets(in);
    long numKeys = in.getLong(8);
    if (numKeys < 0 || numKeys > buckets * SLOTS_PER_BUCKET) {
      throw new SieveFormatException(
          8, "stored fingerprints " + numKeys + " outside [0, " + buckets * SLOTS_PER_BUCKET + "]");
    }
    ByteBuffer data = table(in, size, (int) buckets, bits);
    long occupied = CuckooKernel.countOccupied(data, (int) buckets, bits);
    if (occupied != numKeys) {
      throw new SieveFormatException(
          8, "header says " + numKeys + " stored fingerprints, the table holds " + occupied);
    }
    return new Checked(bits, (int) buckets, numKeys, data);
  }

  private static void checkTag(ByteBuffer in) {
    int tag = in.get(0) & 0xFF;
    if (tag != TYPE_TAG) {
      throw new SieveFormatException(
          0, "not a cuckoo filter: type tag 0x" + Integer.toHexString(tag) + ", expected 0x31");
    }
  }

  /** Byte 1, the fingerprint bits; byte 2, the slots per bucket, must be 4. */
  private static int fingerprintBits(ByteBuffer in) {
    int bits = in.get(1) & 0xFF;
    if (bits < CuckooBuild.MIN_FINGERPRINT_BITS || bits > CuckooBuild.MAX_FINGERPRINT_BITS) {
      throw new SieveFormatException(1, "fingerprint bits must be in [4, 16], got " + bits);
    }
    if ((in.get(2) & 0xFF) != SLOTS_PER_BUCKET) {
      throw new SieveFormatException(2, "slots per bucket must be 4, got " + (in.get(2) & 0xFF));
    }
    return bits;
  }

  private static void checkVersion(ByteBuffer in) {
    int version = in.get(3) & 0xFF;
    if (version != VERSION) {
      throw new SieveFormatException(
          3,
          "cuckoo payload version "
              + version
              + " is not supported (this reader reads "
              + VERSION
              + ")");
    }
  }

  private static long buckets(ByteBuffer in) {
    long buckets = in.getInt(4) & 0xFFFF_FFFFL;
    if (buckets < 1 || buckets > CuckooBuild.MAX_BUCKETS) {
      throw new SieveFormatException(
          4, "number of buckets must be in [1, " + CuckooBuild.MAX_BUCKETS + "], got " + buckets);
    }
    return buckets;
  }

  /** The bucket words after the header: the exact length, and zero bits past the last bucket. */
  private static ByteBuffer table(ByteBuffer in, int size, int buckets, int bits) {
    long numWords = CuckooKernel.wordsFor(buckets, bits);
    long expected = HEADER_BYTES + numWords * Long.BYTES;
    if (size != expected) {
      throw new SieveFormatException(
          Math.min(size, expected),
          "cuckoo filter of "
              + buckets
              + " buckets needs "
              + expected
              + " bytes, got "
              + size
              + (size < expected ? " (truncated)" : " (trailing bytes)"));
    }
    ByteBuffer data =
        in.slice(HEADER_BYTES, (int) numWords * Long.BYTES).order(ByteOrder.LITTLE_ENDIAN);
    int usedBits = (int) (((long) buckets * SLOTS_PER_BUCKET * bits) & 63);
    if (usedBits != 0 && (data.getLong((int) (numWords - 1) * Long.BYTES) >>> usedBits) != 0) {
      throw new SieveFormatException(
          expected - Long.BYTES, "nonzero bits past the last bucket in the final word");
    }
    return data;
  }

  /**
   * The container's payload form (type id 8): this form; parameter A the fingerprint bits, B the
   * slots per bucket. Read in place (a wrapped filter is read-only). Registered by {@link
   * CuckooFamily}.
   */
  static PayloadForm<CuckooFilter> payloadForm() {
    return PayloadForm.inPlace(
        CuckooFilter.class,
        CuckooFilter::toByteArray,
        CuckooFilter::fingerprintBits,
        f -> SLOTS_PER_BUCKET,
        (payload, numKeys) -> CuckooForm.read(payload),
        (payload, numKeys) -> CuckooForm.wrap(payload));
  }
}
