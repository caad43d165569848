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
 * <p>Any other version is refused, naming it.
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
   * Reads a payload, onto the heap or ({@code wrap}) in place: the filter then reads {@code in}'s
   * bytes, which must not change.
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
    if (version != VERSION) {
      throw new SieveFormatException(
          1,
          "Grafite payload version "
              + (version & 0xFF)
              + " is not supported (this reader reads "
              + VERSION
              + ")");
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
    if (r < 1 || r > GrafiteCodes.MAX_CODE_RANGE) {
      throw new SieveFormatException(24, "code range " + r + " is outside [1, 2^62]");
    }
    if (maxLen < 1 || maxLen > GrafiteCodes.MAX_CODE_RANGE) {
      throw new SieveFormatException(32, "max range length " + maxLen + " is outside [1, 2^62]");
    }
    int least = GrafiteCodes.blockShiftFor(maxLen);
    if (k < least || k > 62) {
      throw new SieveFormatException(
          2, "block shift " + k + " is outside [ceil(log2 " + maxLen + ") = " + least + ", 62]");
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
    if (l != EliasFanoCodec.lowBitsFor(m, r)) {
      throw new SieveFormatException(
          3, "low bits " + l + " is not floor(log2(r/m)) = " + EliasFanoCodec.lowBitsFor(m, r));
    }
    long words = EliasFanoCodec.dataWords(m, r, l);
    if (words < 0 || HEADER_BYTES + 8 * words != len) {
      throw new SieveFormatException(
          HEADER_BYTES,
          "the data is "
              + (len - HEADER_BYTES)
              + " bytes, the header says "
              + (words < 0 ? "more than 2^34" : Long.toString(8 * words)));
    }
    ByteBuffer data = b.duplicate().position(HEADER_BYTES).slice();
    EliasFano ef = EliasFanoCodec.read(data, m, r, l, !wrap, HEADER_BYTES);
    return new GrafiteFilter(ef, numKeys, r, maxLen, k, seed, KeyScheme.XXPH3);
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

    /** Reads the payload in place. */
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
