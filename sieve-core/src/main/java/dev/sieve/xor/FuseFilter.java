package dev.sieve.xor;

import dev.sieve.KeyScheme;
import java.nio.ByteBuffer;

/**
 * What the two Binary Fuse filters add to {@link FingerprintFilter}: the segment layout's figures
 * (as fields for the subclasses' hot loops) and the arity check. The hot probe loops stay in {@link
 * BinaryFuse8Filter} and {@link BinaryFuse16Filter}.
 */
abstract class FuseFilter extends FingerprintFilter {
  // The layout's figures the subclasses' hot loops read (fields of this class, read as their own).
  /** Slots per key, 3 or 4. */
  final int arity;

  /** The segment length, a power of two (0 for an empty filter). */
  final int segmentLength;

  /** {@code segmentLength - 1}. */
  final int segmentLengthMask;

  /** {@code segmentCount · segmentLength}: the range of the first slot. */
  final long segmentCountLength;

  FuseFilter(
      int formatType,
      int fingerprintBits,
      XorFilterFormat.Header shape,
      ByteBuffer wrapped,
      KeyScheme keyScheme) {
    super(formatType, fingerprintBits, shape, wrapped, keyScheme);
    this.arity = shape.arity();
    this.segmentLength = shape.segmentLength();
    this.segmentLengthMask = segmentLength - 1;
    this.segmentCountLength = (long) shape.segmentCount() * segmentLength;
  }

  /**
   * Slots per key.
   *
   * @return 3 or 4
   */
  public final int arity() {
    return shape().arity();
  }

  /**
   * The segment length.
   *
   * @return a power of two (0 for an empty filter)
   */
  public final int segmentLength() {
    return shape().segmentLength();
  }

  /**
   * The number of start segments.
   *
   * @return the count (0 for an empty filter)
   */
  public final int segmentCount() {
    return shape().segmentCount();
  }

  /**
   * The number of slots the paper's sizing gives {@code keys} distinct keys, computed without
   * building anything (the table may grow if construction needs more than 8 seeds).
   *
   * @param arity 3 or 4
   * @param keys the number of distinct keys
   * @return the slots
   */
  public static long slotsFor(int arity, long keys) {
    checkArity(arity);
    return keys == 0 ? 0 : FuseLayout.forKeys(arity, keys, 0).length();
  }

  static int checkArity(int arity) {
    if (arity != 3 && arity != 4) {
      throw new IllegalArgumentException("binary fuse arity must be 3 or 4, got " + arity);
    }
    return arity;
  }

  /**
   * The Binary Fuse builders' arity setting on top of {@link FingerprintBuilder}'s.
   *
   * @param <F> the filter built
   * @param <B> the concrete builder
   */
  abstract static class Builder<F extends FuseFilter, B extends Builder<F, B>>
      extends FingerprintBuilder<F, B> {

    Builder(FingerprintFilter.Form<?, F> form) {
      super(form);
    }

    /**
     * Slots per key: 3 (default) or 4 (smaller, one more memory read per query).
     *
     * @return this builder
     */
    public B arity(int arity) {
      this.arity = checkArity(arity);
      return self();
    }
  }
}
