package dev.sieve.xor;

import dev.sieve.Filter;
import dev.sieve.internal.SeededFinalizer;
import dev.sieve.math.BloomMath;
import java.nio.ByteBuffer;

/**
 * The cold half the four fingerprint filters share ({@link Xor8Filter}, {@link Xor16Filter}, {@link
 * BinaryFuse8Filter}, {@link BinaryFuse16Filter}): the shape (seed, key count, slots, segments,
 * arity), the serialized form ({@link XorFilterFormat}), equality, hashing and the figures, all
 * written over one slot accessor, {@link #slot(int)}. Each public class keeps its own fingerprint
 * array, its hot probe loops (heap and wrapped buffer, see its {@code mayContainHash}) and its
 * builder; nothing here runs on a query.
 */
abstract class FingerprintFilter implements Filter, SeededFinalizer {
  private final int formatType;
  private final int fingerprintBits;
  private final XorFilterFormat.Header shape;

  /** The fingerprints in a wrapped buffer, little-endian; {@code null} for a filter on the heap. */
  final ByteBuffer wrapped;

  FingerprintFilter(
      int formatType, int fingerprintBits, XorFilterFormat.Header shape, ByteBuffer wrapped) {
    this.formatType = formatType;
    this.fingerprintBits = fingerprintBits;
    this.shape = shape;
    this.wrapped = wrapped;
  }

  /** The shape of a filter built or read: its header's fields. */
  static XorFilterFormat.Header shape(
      int arity, long seed, int numKeys, int segmentLength, int segmentCount, int numSlots) {
    return new XorFilterFormat.Header(arity, seed, numKeys, segmentLength, segmentCount, numSlots);
  }

  /** Slot {@code i} as stored (a signed {@code byte} or {@code short} value), heap or wrapped. */
  abstract int slot(int i);

  /** {@return whether the filter reads its fingerprints in place from a buffer ({@code wrap})} */
  public final boolean isWrapped() {
    return wrapped != null;
  }

  /** The number of distinct key hashes the filter was built from. */
  @Override
  public final long numKeys() {
    return shape.numKeys();
  }

  @Override
  public final long sizeInBits() {
    return (long) shape.length() * fingerprintBits;
  }

  /**
   * {@code 2^-r} for {@code r}-bit fingerprints plus the 64-bit key hash's collision rate ({@link
   * BloomMath#xorFilterFpRate}).
   */
  @Override
  public final double modelledFpRate() {
    return BloomMath.xorFilterFpRate(shape.numKeys(), fingerprintBits);
  }

  /** {@return the seed of the construction attempt that succeeded} */
  public final long seed() {
    return shape.seed();
  }

  /** {@return the number of fingerprint slots} */
  public final int numSlots() {
    return shape.length();
  }

  /** The header fields, for the subclasses' copies. */
  final XorFilterFormat.Header shape() {
    return shape;
  }

  /** The fingerprints as a fresh heap array of bytes (8-bit filters). */
  final byte[] slots8() {
    byte[] out = new byte[shape.length()];
    for (int i = 0; i < out.length; i++) {
      out[i] = (byte) slot(i);
    }
    return out;
  }

  /** The fingerprints as a fresh heap array of shorts (16-bit filters). */
  final short[] slots16() {
    short[] out = new short[shape.length()];
    for (int i = 0; i < out.length; i++) {
      out[i] = (short) slot(i);
    }
    return out;
  }

  /**
   * The serialized form ({@link XorFilterFormat}: a 24-byte header, then the fingerprints,
   * little-endian), the payload of the Sieve container.
   */
  final byte[] toByteArray() {
    XorFilterFormat.Header h = shape;
    ByteBuffer out =
        XorFilterFormat.start(
            formatType,
            fingerprintBits,
            h.arity(),
            h.seed(),
            h.numKeys(),
            h.segmentLength(),
            h.segmentCount(),
            h.length());
    if (wrapped != null) {
      out.put(wrapped.duplicate());
    } else {
      for (int i = 0; i < h.length(); i++) {
        if (fingerprintBits == 8) {
          out.put((byte) slot(i));
        } else {
          out.putShort((short) slot(i));
        }
      }
    }
    return out.array();
  }

  /** Equal when the class, the shape and every fingerprint are equal. */
  @Override
  public final boolean equals(Object o) {
    if (o == null || o.getClass() != getClass()) {
      return false;
    }
    FingerprintFilter f = (FingerprintFilter) o;
    if (!f.shape.equals(shape)) {
      return false;
    }
    for (int i = 0; i < shape.length(); i++) {
      if (f.slot(i) != slot(i)) {
        return false;
      }
    }
    return true;
  }

  /** {@code Arrays.hashCode} of the fingerprints, mixed with the seed. */
  @Override
  public final int hashCode() {
    int h = 1;
    for (int i = 0; i < shape.length(); i++) {
      h = 31 * h + slot(i);
    }
    return h * 31 + Long.hashCode(shape.seed());
  }

  @Override
  public String toString() {
    return getClass().getSimpleName()
        + "{keys="
        + shape.numKeys()
        + ", arity="
        + shape.arity()
        + ", segments="
        + shape.segmentCount()
        + "x"
        + shape.segmentLength()
        + ", slots="
        + shape.length()
        + "}";
  }
}
