package dev.sieve.xor;

import dev.sieve.Filter;
import dev.sieve.KeyScheme;
import dev.sieve.hash.KeyHash;
import dev.sieve.internal.PayloadForm;
import dev.sieve.math.FingerprintMath;
import java.nio.ByteBuffer;
import java.nio.ShortBuffer;
import java.util.function.Function;
import java.util.function.IntFunction;

/**
 * The cold half the four fingerprint filters share ({@link Xor8Filter}, {@link Xor16Filter}, {@link
 * BinaryFuse8Filter}, {@link BinaryFuse16Filter}): the shape (seed, key count, slots, segments,
 * arity), the serialized form ({@link XorFilterFormat}), equality, hashing and the figures, all
 * written over one slot accessor, {@link #slot(int)}. Each public class keeps its own fingerprint
 * array, its hot probe loops (heap and wrapped buffer, see its {@code mayContainHash}) and its
 * builder; nothing here runs on a query.
 *
 * <p>That hot half is one piece of code at two widths, so the four public classes are generated:
 * {@code sieve-core/src/template/dev/sieve/xor/XorFilter.java.template} and {@code
 * BinaryFuseFilter.java.template} are rendered per width by the test-scope generator {@code
 * dev.sieve.xor.FilterSources}, the output is checked in, and {@code GeneratedSourcesTest} fails
 * while a class differs from what its template gives. Edit the templates, not the four classes.
 */
abstract class FingerprintFilter implements Filter {
  private final int formatType;
  private final int fingerprintBits;
  private final XorFilterFormat.Header shape;
  private final KeyScheme keyScheme;

  /** The fingerprints in a wrapped buffer, little-endian; {@code null} for a filter on the heap. */
  final ByteBuffer wrapped;

  // The header fields the subclasses' hot loops read, copied out of the shape: a final field of
  // this class is read exactly as one of the subclass (one load from the same object, no call).
  /** The number of fingerprint slots (0 for an empty filter). */
  final int numSlots;

  /** The seed of the construction attempt that succeeded, remixed into every key hash. */
  final long seed;

  FingerprintFilter(
      int formatType,
      int fingerprintBits,
      XorFilterFormat.Header shape,
      ByteBuffer wrapped,
      KeyScheme keyScheme) {
    this.keyScheme = keyScheme;
    this.formatType = formatType;
    this.fingerprintBits = fingerprintBits;
    this.shape = shape;
    this.wrapped = wrapped;
    this.numSlots = shape.length();
    this.seed = shape.seed();
  }

  /** The shape of a filter built or read: its header's fields. */
  static XorFilterFormat.Header shape(
      int arity, long seed, int numKeys, int segmentLength, int segmentCount, int numSlots) {
    return new XorFilterFormat.Header(arity, seed, numKeys, segmentLength, segmentCount, numSlots);
  }

  @Override
  public final KeyScheme keyScheme() {
    return keyScheme;
  }

  // the scheme read from its field, not through two calls: a fresh JVM interprets its first
  // lookups, where a call level costs about as much as the probe's arithmetic
  @Override
  public final boolean mayContain(long key) {
    KeyScheme s = keyScheme;
    return mayContainHash(
        s == KeyScheme.FAST || s == KeyScheme.MIX64
            ? KeyHash.mix64(key)
            : s == KeyScheme.XXPH3 ? KeyHash.hash64(key) : s.hash(key));
  }

  /** {@return the bits per fingerprint, 8 or 16} */
  final int fingerprintBits() {
    return fingerprintBits;
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

  /** {@code 2^-r} plus the key hash's collisions ({@link FingerprintMath#xorFilterFpRate}). */
  @Override
  public final double modelledFpRate() {
    return FingerprintMath.xorFilterFpRate(shape.numKeys(), fingerprintBits);
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

  /** The serialized form ({@link XorFilterFormat}), the payload of the Sieve container. */
  // XorFilterFormat.start allocates the heap buffer: arrayOffset() is 0
  @SuppressWarnings("ByteBufferBackingArray")
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
  // an Xor filter must not equal a Binary Fuse filter of the same bytes
  @SuppressWarnings("EqualsGetClass")
  public final boolean equals(Object o) {
    if (o == null || o.getClass() != getClass()) {
      return false;
    }
    FingerprintFilter f = (FingerprintFilter) o;
    if (!f.shape.equals(shape) || f.keyScheme != keyScheme) {
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

  /**
   * A constructor of one fingerprint class: from heap fingerprints ({@code wrapped} null) or a
   * wrapped buffer ({@code fingerprints} null), and the header's shape.
   *
   * @param <A> the heap fingerprint array, {@code byte[]} or {@code short[]}
   * @param <F> the filter class
   */
  interface Maker<A, F extends FingerprintFilter> {
    F make(A fingerprints, ByteBuffer wrapped, XorFilterFormat.Header shape);
  }

  /**
   * The cold code of one fingerprint class, written once for the four: the construction from key
   * hashes ({@link #build}), and the serialized form ({@link XorFilterFormat}) with its header
   * check, heap reader ({@link #fromByteArray}) and in-place reader ({@link #wrap}), the
   * container's form ({@link #payloadForm}) as {@link XorFamily} registers it. Nothing here runs on
   * a query.
   *
   * @param <A> the heap fingerprint array, {@code byte[]} or {@code short[]}
   * @param <F> the filter class
   */
  static final class Form<A, F extends FingerprintFilter> {
    private final String className;
    private final int formatType;
    private final int fingerprintBits;
    private final boolean fuse;
    private final String name;
    private final Function<ByteBuffer, A> heapCopy;
    private final Function<XorConstruction.Peeled, A> assign;
    private final IntFunction<A> newArray;
    private final Maker<A, F> maker;

    private Form(
        Class<F> cls,
        int formatType,
        int fingerprintBits,
        String name,
        Function<ByteBuffer, A> heapCopy,
        Function<XorConstruction.Peeled, A> assign,
        IntFunction<A> newArray,
        Maker<A, F> maker) {
      this.className = cls.getSimpleName();
      this.formatType = formatType;
      this.fingerprintBits = fingerprintBits;
      this.fuse = formatType == XorFilterFormat.FUSE8 || formatType == XorFilterFormat.FUSE16;
      this.name = name;
      this.heapCopy = heapCopy;
      this.assign = assign;
      this.newArray = newArray;
      this.maker = maker;
    }

    /**
     * The form of an 8-bit class ({@link XorFilterFormat#XOR8} or {@code FUSE8}).
     *
     * @param name the filter's name in format errors, e.g. {@code "Xor8 filter"}
     */
    static <F extends FingerprintFilter> Form<byte[], F> of8(
        Class<F> cls, int formatType, String name, Maker<byte[], F> maker) {
      return new Form<>(
          cls,
          formatType,
          8,
          name,
          Form::copy8,
          XorConstruction.Peeled::assign8,
          byte[]::new,
          maker);
    }

    /** The form of a 16-bit class ({@link XorFilterFormat#XOR16} or {@code FUSE16}). */
    static <F extends FingerprintFilter> Form<short[], F> of16(
        Class<F> cls, int formatType, String name, Maker<short[], F> maker) {
      return new Form<>(
          cls,
          formatType,
          16,
          name,
          Form::copy16,
          XorConstruction.Peeled::assign16,
          short[]::new,
          maker);
    }

    private static byte[] copy8(ByteBuffer view) {
      byte[] out = new byte[view.remaining()];
      view.get(out);
      return out;
    }

    private static short[] copy16(ByteBuffer view) {
      ShortBuffer in = view.asShortBuffer(); // little-endian, as the view
      short[] out = new short[in.remaining()];
      in.get(out);
      return out;
    }

    /** The filter class's simple name, for the builders' messages. */
    String className() {
      return className;
    }

    /** The fingerprint bits, 8 or 16. */
    int fingerprintBits() {
      return fingerprintBits;
    }

    /**
     * Builds the filter of the first {@code count} hashes (which may be reordered): peeling ({@link
     * XorConstruction}) over the Xor layout, or the Binary Fuse layout at {@code arity}, from
     * {@code seed} on.
     */
    F build(long[] hashes, int count, long seed, int arity) {
      if (count == 0) {
        return maker.make(newArray.apply(0), null, shape(arity, seed, 0, 0, 0, 0));
      }
      XorConstruction.Peeled p =
          fuse
              ? XorConstruction.peel(hashes, count, seed, (n, g) -> FuseLayout.forKeys(arity, n, g))
              : XorConstruction.peel(hashes, count, seed, XorLayout::forKeys);
      A fingerprints = assign.apply(p);
      XorFilterFormat.Header shape;
      if (p.layout instanceof FuseLayout f) {
        shape = shape(arity, p.seed, p.numKeys, f.segmentLength, f.segmentCount, f.length());
      } else {
        XorLayout x = (XorLayout) p.layout; // one "segment" of three blocks
        shape = shape(3, p.seed, p.numKeys, x.blockLength, 1, x.length());
      }
      return maker.make(fingerprints, null, shape);
    }

    /**
     * Reads the form {@link FingerprintFilter#toByteArray()} writes, fingerprints copied to the
     * heap.
     *
     * @throws dev.sieve.SieveFormatException if the bytes are truncated, too long or inconsistent
     */
    F fromByteArray(byte[] bytes) {
      ByteBuffer in = ByteBuffer.wrap(bytes);
      XorFilterFormat.Header h = check(in);
      A fingerprints = heapCopy.apply(XorFilterFormat.fingerprintView(in, h, fingerprintBits));
      return maker.make(fingerprints, null, h);
    }

    /**
     * Reads the form from {@code bytes}' position to its limit, in place: the fingerprints are not
     * copied, and queries read the buffer (heap, direct or memory-mapped). The checks are those of
     * {@link #fromByteArray}, with offsets relative to the position. The buffer's position and
     * limit may change afterwards; its bytes must not while the filter is in use. The filter is
     * read-only; its {@code copy()} gives one on the heap.
     *
     * @throws dev.sieve.SieveFormatException if the bytes are truncated, too long or inconsistent
     */
    F wrap(ByteBuffer bytes) {
      XorFilterFormat.Header h = check(bytes);
      return maker.make(null, XorFilterFormat.fingerprintView(bytes, h, fingerprintBits), h);
    }

    private XorFilterFormat.Header check(ByteBuffer bytes) {
      return XorFilterFormat.read(bytes, formatType, fingerprintBits, fuse, name);
    }
  }

  /**
   * The container's payload form of one fingerprint class (type ids 4 to 7): the class's own form
   * ({@link XorFilterFormat}); parameter A the fingerprint bits, B the arity (3 for Xor). Read in
   * place. Registered by {@link XorFamily}, from each class's {@link Form}.
   *
   * @param <F> the filter class
   */
  static <F extends FingerprintFilter> PayloadForm<F> payloadForm(Class<F> cls, Form<?, F> form) {
    return PayloadForm.inPlace(
        cls,
        f -> f.toByteArray(),
        f -> form.fingerprintBits,
        f -> form.fuse ? f.shape().arity() : 3,
        (payload, numKeys) -> form.fromByteArray(payload),
        (payload, numKeys) -> form.wrap(payload));
  }
}
