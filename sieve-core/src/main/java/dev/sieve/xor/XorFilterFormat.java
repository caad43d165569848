package dev.sieve.xor;

import dev.sieve.SieveFormatException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * The serialized form shared by the Xor and Binary Fuse filters, little-endian:
 *
 * <pre>
 * offset  size  field
 *      0     1  type tag: 0x11 Xor8, 0x12 Xor16, 0x21 BinaryFuse8, 0x22 BinaryFuse16
 *      1     1  fingerprint bits: 8 or 16
 *      2     1  arity (slots per key): 3, or 4 for a 4-wise Binary Fuse filter
 *      3     1  reserved, 0
 *      4     8  seed of the successful construction attempt
 *     12     4  number of distinct keys n
 *     16     4  segment length (Xor: block length); 0 for an empty filter
 *     20     4  segment count (Xor: always 1); 0 for an empty filter
 *     24        (segmentCount + arity - 1) · segmentLength fingerprints of 1 or 2 bytes
 * </pre>
 *
 * A reader checks every field and the total length against the input before it allocates anything,
 * so a corrupt header gives a {@link SieveFormatException} naming the offset and never an {@code
 * OutOfMemoryError}. This form is not checksummed: a flipped fingerprint byte is not detected (it
 * can cause false negatives for the keys of that slot).
 */
final class XorFilterFormat {
  private XorFilterFormat() {}

  static final int HEADER_BYTES = 24;
  static final int XOR8 = 0x11;
  static final int XOR16 = 0x12;
  static final int FUSE8 = 0x21;
  static final int FUSE16 = 0x22;

  /** A validated header. */
  record Header(
      int arity, long seed, int numKeys, int segmentLength, int segmentCount, int length) {}

  /** A buffer of the right size with the header written; the caller appends the fingerprints. */
  static ByteBuffer start(
      int type,
      int fingerprintBits,
      int arity,
      long seed,
      int numKeys,
      int segmentLength,
      int segmentCount,
      int length) {
    ByteBuffer out =
        ByteBuffer.allocate(HEADER_BYTES + length * (fingerprintBits / 8))
            .order(ByteOrder.LITTLE_ENDIAN);
    out.put((byte) type).put((byte) fingerprintBits).put((byte) arity).put((byte) 0);
    out.putLong(seed).putInt(numKeys).putInt(segmentLength).putInt(segmentCount);
    return out;
  }

  /**
   * Reads and validates the header of {@code bytes} for filter type {@code type}.
   *
   * @param fuse whether the type is a Binary Fuse filter (arity 3 or 4, power-of-two segments)
   */
  static Header read(byte[] bytes, int type, int fingerprintBits, boolean fuse, String name) {
    return read(ByteBuffer.wrap(bytes), type, fingerprintBits, fuse, name);
  }

  /**
   * Reads and validates the form in {@code bytes} from its position to its limit (offsets in
   * exceptions are relative to the position); the shared check of {@code fromByteArray} and {@code
   * wrap}. The buffer's position, limit and order are not changed.
   */
  static Header read(ByteBuffer bytes, int type, int fingerprintBits, boolean fuse, String name) {
    ByteBuffer in = bytes.slice().order(ByteOrder.LITTLE_ENDIAN);
    int size = in.remaining();
    if (size < HEADER_BYTES) {
      throw new SieveFormatException(
          size, "truncated " + name + ": the header needs " + HEADER_BYTES + " bytes, got " + size);
    }
    int tag = in.get(0) & 0xFF;
    if (tag != type) {
      throw new SieveFormatException(
          0,
          "not a "
              + name
              + ": type tag 0x"
              + Integer.toHexString(tag)
              + ", expected 0x"
              + Integer.toHexString(type));
    }
    int bits = in.get(1) & 0xFF;
    if (bits != fingerprintBits) {
      throw new SieveFormatException(
          1, name + " fingerprint bits must be " + fingerprintBits + ", got " + bits);
    }
    int arity = in.get(2) & 0xFF;
    if (fuse ? arity != 3 && arity != 4 : arity != 3) {
      throw new SieveFormatException(
          2, name + " arity must be " + (fuse ? "3 or 4" : "3") + ", got " + arity);
    }
    if (in.get(3) != 0) {
      throw new SieveFormatException(3, "reserved byte must be 0, got " + (in.get(3) & 0xFF));
    }
    long seed = in.getLong(4);
    long numKeys = in.getInt(12) & 0xFFFF_FFFFL;
    long segmentLength = in.getInt(16) & 0xFFFF_FFFFL;
    long segmentCount = in.getInt(20) & 0xFFFF_FFFFL;
    long length;
    if (numKeys == 0) {
      if (segmentLength != 0 || segmentCount != 0) {
        throw new SieveFormatException(
            16, "an empty " + name + " must have segment length and count 0");
      }
      length = 0;
    } else {
      if (fuse
          ? Long.bitCount(segmentLength) != 1
              || segmentLength < 4
              || segmentLength > FuseLayout.MAX_SEGMENT_LENGTH
          : segmentLength < 1) {
        throw new SieveFormatException(
            16,
            name
                + " segment length "
                + segmentLength
                + (fuse ? " is not a power of two in [4, 2^18]" : " must be at least 1"));
      }
      if (fuse ? segmentCount < 1 : segmentCount != 1) {
        throw new SieveFormatException(
            20,
            name
                + " segment count must be "
                + (fuse ? "at least 1" : "1")
                + ", got "
                + segmentCount);
      }
      length = (segmentCount + arity - 1) * segmentLength; // both below 2^32: no overflow
      if (length > XorConstruction.MAX_SLOTS) {
        throw new SieveFormatException(
            16, name + " of " + length + " slots exceeds the limit " + XorConstruction.MAX_SLOTS);
      }
      if (numKeys > length) {
        throw new SieveFormatException(
            12, name + " claims " + numKeys + " keys in only " + length + " slots");
      }
    }
    long expected = HEADER_BYTES + length * (fingerprintBits / 8);
    if (size != expected) {
      throw new SieveFormatException(
          Math.min(size, expected),
          name
              + " of "
              + length
              + " slots needs "
              + expected
              + " bytes, got "
              + size
              + (size < expected ? " (truncated)" : " (trailing bytes)"));
    }
    return new Header(
        arity, seed, (int) numKeys, (int) segmentLength, (int) segmentCount, (int) length);
  }

  /**
   * The fingerprints of a form {@link #read} validated, as a little-endian view of {@code bytes}
   * (no copy; later position changes by the caller do not matter).
   */
  static ByteBuffer fingerprintView(ByteBuffer bytes, Header h, int fingerprintBits) {
    return bytes
        .slice(bytes.position() + HEADER_BYTES, h.length() * (fingerprintBits / 8))
        .order(ByteOrder.LITTLE_ENDIAN);
  }
}
