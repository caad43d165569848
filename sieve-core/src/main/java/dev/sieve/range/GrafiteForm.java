package dev.sieve.range;

import dev.sieve.KeyScheme;
import dev.sieve.SieveFormatException;
import dev.sieve.internal.PayloadForm;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * Grafite's serialized form, the container's payload for {@link GrafiteFilter} ({@link Payload}),
 * read onto the heap or wrapped in place.
 *
 * <p>Payload version {@value #VERSION}, little-endian: byte 0 the type tag {@code 0x47}, byte 1 the
 * version, byte 2 the block shift {@code k} ({@code ⌈log2 L⌉ ≤ k ≤ 62}), byte 3 the Elias–Fano low
 * bits {@code l}, bytes 4-7 reserved (0); bytes 8-15 the distinct keys {@code n}, 16-23 the stored
 * codes {@code m ≤ n}, 24-31 the code range {@code r}, 32-39 the max range length {@code L}, 40-47
 * the seed; then the data words of {@link EliasFano}: the packed low bits, the upper bits in lines
 * of a header word and seven data words, and the 32-bit select samples. Bits past the used ones are
 * 0.
 *
 * <p>Version 1 (before the lines and the stored samples: low bits then plain upper bits, {@code k =
 * ⌈log2 L⌉}) is still read, onto the heap, and written back as version 2 with its block shift.
 *
 * <p>{@link #read} checks every field against its limit before allocating, and the data against the
 * header in one pass (line headers and samples as the bits say, exactly {@code m} ones, the upper
 * bits ending in a zero, strictly increasing codes below {@code r}); every error is a {@link
 * SieveFormatException} naming the field's offset. A wrapped payload is checked the same way,
 * without a copy.
 */
final class GrafiteForm {
  static final int TYPE_TAG = 0x47;
  static final int VERSION = 2;
  static final int HEADER_BYTES = 48;

  private GrafiteForm() {}

  static byte[] write(GrafiteFilter f) {
    EliasFano ef = f.codes;
    ByteBuffer out =
        ByteBuffer.allocate(HEADER_BYTES + 8 * ef.dataWords).order(ByteOrder.LITTLE_ENDIAN);
    out.put((byte) TYPE_TAG).put((byte) VERSION).put((byte) f.blockShift).put((byte) ef.lowBits);
    out.putInt(0);
    out.putLong(f.numKeys).putLong(ef.n).putLong(f.codeRange).putLong(f.maxRangeLength);
    out.putLong(f.seed);
    ef.writeTo(out);
    return out.array();
  }

  /** Reads onto the heap. */
  static GrafiteFilter read(ByteBuffer in) {
    return read(in, false);
  }

  /**
   * Reads a payload, onto the heap or ({@code wrap}, version 2 only) in place: the filter then
   * reads {@code in}'s bytes, which must not change.
   */
  static GrafiteFilter read(ByteBuffer in, boolean wrap) {
    ByteBuffer b = in.slice().order(ByteOrder.LITTLE_ENDIAN);
    int len = b.remaining();
    if (len < HEADER_BYTES) {
      throw new SieveFormatException(
          len,
          "a Grafite payload of "
              + len
              + " bytes is shorter than its "
              + HEADER_BYTES
              + "-byte header");
    }
    if ((b.get(0) & 0xFF) != TYPE_TAG) {
      throw new SieveFormatException(0, "type tag " + (b.get(0) & 0xFF) + " is not 0x47");
    }
    int version = b.get(1);
    if (version != VERSION && version != 1) {
      throw new SieveFormatException(1, "version " + version + " is not 1 or " + VERSION);
    }
    int k = b.get(2);
    int l = b.get(3);
    if (b.getInt(4) != 0) {
      throw new SieveFormatException(4, "reserved bytes 4-7 are not 0");
    }
    long numKeys = b.getLong(8);
    long m = b.getLong(16);
    long r = b.getLong(24);
    long maxLen = b.getLong(32);
    long seed = b.getLong(40);
    if (r < 1 || r > GrafiteFilter.MAX_CODE_RANGE) {
      throw new SieveFormatException(24, "code range " + r + " is outside [1, 2^62]");
    }
    if (maxLen < 1 || maxLen > GrafiteFilter.MAX_CODE_RANGE) {
      throw new SieveFormatException(32, "max range length " + maxLen + " is outside [1, 2^62]");
    }
    int least = GrafiteFilter.blockShiftFor(maxLen);
    if (version == 1 ? k != least : k < least || k > 62) {
      throw new SieveFormatException(
          2,
          "block shift "
              + k
              + (version == 1 ? " is not " : " is outside [")
              + "ceil(log2 "
              + maxLen
              + ") = "
              + least
              + (version == 1 ? "" : ", 62]"));
    }
    // every stored code takes at least one bit of the upper bits: m is bounded by the length
    long maxCodes = 8L * (len - HEADER_BYTES);
    if (m < 0 || m > maxCodes || m > r) {
      throw new SieveFormatException(
          16, "stored codes " + m + " is outside [0, min(" + maxCodes + ", r = " + r + ")]");
    }
    if (numKeys < m || (m == 0) != (numKeys == 0)) {
      throw new SieveFormatException(
          8, "distinct keys " + numKeys + " is below the stored codes " + m + " or 0 alone");
    }
    if (l != EliasFano.lowBitsFor(m, r)) {
      throw new SieveFormatException(
          3, "low bits " + l + " is not floor(log2(r/m)) = " + EliasFano.lowBitsFor(m, r));
    }
    EliasFano ef;
    long versionOneBits = -1;
    if (version == 1) {
      ef = EliasFano.encode(readVersionOne(b, len, m, r, l), (int) m, r);
      versionOneBits = 8L * (len - HEADER_BYTES);
    } else {
      long words = EliasFano.dataWords(m, r, l);
      if (words < 0 || HEADER_BYTES + 8 * words != len) {
        throw new SieveFormatException(
            HEADER_BYTES,
            "the data is "
                + (len - HEADER_BYTES)
                + " bytes, the header says "
                + (words < 0 ? "more than 2^34" : Long.toString(8 * words)));
      }
      ByteBuffer data = b.duplicate().position(HEADER_BYTES).slice();
      ef = EliasFano.read(data, m, r, l, !wrap, HEADER_BYTES);
    }
    return new GrafiteFilter(ef, numKeys, r, maxLen, k, seed, KeyScheme.XXPH3, versionOneBits);
  }

  /** The codes of a version-1 payload (plain Elias–Fano arrays), checked. */
  private static long[] readVersionOne(ByteBuffer b, int len, long m, long r, int l) {
    long lowWords = EliasFanoV1.words(m * l);
    long highBits = EliasFanoV1.highLength(m, r, l);
    long highWords = EliasFanoV1.words(highBits);
    long expected = HEADER_BYTES + 8 * (lowWords + highWords);
    if (highWords > Integer.MAX_VALUE || expected != len) {
      throw new SieveFormatException(
          HEADER_BYTES,
          "the data is "
              + (len - HEADER_BYTES)
              + " bytes, the header says "
              + (expected - HEADER_BYTES));
    }
    long[] low = new long[(int) lowWords];
    long[] high = new long[(int) highWords];
    int p = HEADER_BYTES;
    for (int i = 0; i < low.length; i++, p += 8) {
      low[i] = b.getLong(p);
    }
    for (int i = 0; i < high.length; i++, p += 8) {
      high[i] = b.getLong(p);
    }
    checkPadding(low, m * l, HEADER_BYTES, "low bits");
    int highOffset = HEADER_BYTES + 8 * low.length;
    checkPadding(high, highBits, highOffset, "upper bits");
    long ones = 0;
    for (long w : high) {
      ones += Long.bitCount(w);
    }
    if (ones != m) {
      throw new SieveFormatException(highOffset, "upper bits hold " + ones + " codes, not " + m);
    }
    long last = highBits - 1;
    if ((high[(int) (last >>> 6)] & (1L << last)) != 0) {
      throw new SieveFormatException(highOffset + 8 * (last >>> 6), "upper bits end in a one");
    }
    EliasFanoV1 ef = new EliasFanoV1(m, r, l, low, high);
    long bad = ef.firstNotIncreasing();
    if (bad >= 0) {
      throw new SieveFormatException(
          HEADER_BYTES, "code " + bad + " is not above the one before it or not below r = " + r);
    }
    return ef.decodeAll();
  }

  private static void checkPadding(long[] words, long usedBits, int offset, String what) {
    if (words.length == 0) {
      return;
    }
    long rem = usedBits - 64L * (words.length - 1);
    if (rem < 64 && (words[words.length - 1] >>> rem) != 0) {
      throw new SieveFormatException(
          offset + 8L * (words.length - 1), what + ": bits past the last used one are not 0");
    }
  }

  /** The container's form of {@link GrafiteFilter}, type id 20. */
  static final class Payload extends PayloadForm<GrafiteFilter> {
    Payload() {
      super(GrafiteFilter.class);
    }

    @Override
    public byte[] payload(GrafiteFilter f) {
      return write(f);
    }

    /** Version 1 recorded the Elias–Fano words alone; a filter read from it is checked so. */
    @Override
    public long recordedSizeInBits(GrafiteFilter f) {
      return f.versionOneBits >= 0 ? f.versionOneBits : f.sizeInBits();
    }

    @Override
    public int parameterA(GrafiteFilter f) {
      return f.blockShift;
    }

    @Override
    public int parameterB(GrafiteFilter f) {
      return f.codes.lowBits;
    }

    @Override
    public GrafiteFilter read(byte[] payload, long numKeys) {
      return GrafiteForm.read(ByteBuffer.wrap(payload), false);
    }

    /** Reads a version-2 payload in place (version 1 is read onto the heap). */
    @Override
    public GrafiteFilter wrap(ByteBuffer payload, long numKeys) {
      return GrafiteForm.read(payload, true);
    }

    @Override
    public boolean zeroCopy() {
      return true;
    }
  }
}
