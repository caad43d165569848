package dev.sieve.hash;

import dev.sieve.internal.base.Murmur3x64;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Objects;

/**
 * The 64-bit hashes Apache ORC's Bloom filters ({@code org.apache.orc.util.BloomFilter}, streams
 * {@code BLOOM_FILTER} and {@code BLOOM_FILTER_UTF8}) take of a column value, written here from
 * ORC's specification (orc/site/specification, "Bloom Filter Index") and checked against orc-core
 * in sieve-orc's differential tests.
 *
 * <ul>
 *   <li>Integer columns (boolean, byte, short, int, long, date as epoch days, timestamp as epoch
 *       milliseconds) hash the value as a long by Thomas Wang's 64-bit integer mix ({@link
 *       #ofLong}): shifts, adds and xors, no multiplication table.
 *   <li>Floating-point columns hash {@code Double.doubleToLongBits} of the value (a float widened
 *       to double first) by the same mix ({@link #ofDouble}); NaN is the canonical NaN's bits.
 *   <li>String, char, varchar, decimal (as its string) and binary columns hash the bytes (text as
 *       UTF-8) by the 64-bit variant of MurmurHash3 x64 that ORC and Hive use ({@link #ofBytes}):
 *       the 128-bit algorithm's first lane only (8-byte blocks mixed with c1 {@code
 *       0x87c37b91114253d5}, c2 {@code 0x4cf5ad432745937f}, rotations 31 and 27, {@code h * 5 +
 *       0x52dce729}; the tail as in Murmur3; then {@code h ^= length} and fmix64), seed 104729.
 *   <li>A null value hashes to {@code NULL_HASH}.
 * </ul>
 */
public final class OrcHash {
  private OrcHash() {}

  /** ORC's Murmur3 seed. */
  static final int SEED = 104729;

  /** The hash ORC gives a null value. */
  static final long NULL_HASH = 2862933555777941757L;

  private static final VarHandle LE64 =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

  /** The hash of an integer value (Thomas Wang's 64-bit mix). */
  public static long ofLong(long key) {
    long k = ~key + (key << 21);
    k ^= k >> 24;
    k = k + (k << 3) + (k << 8);
    k ^= k >> 14;
    k = k + (k << 2) + (k << 4);
    k ^= k >> 28;
    return k + (k << 31);
  }

  /** The hash of a floating-point value: {@link #ofLong} of {@code Double.doubleToLongBits}. */
  public static long ofDouble(double value) {
    return ofLong(Double.doubleToLongBits(value));
  }

  /** The hash of a string value: {@link #ofBytes} of its UTF-8 bytes. */
  public static long ofString(CharSequence value) {
    byte[] b = value.toString().getBytes(StandardCharsets.UTF_8);
    return ofBytes(b, 0, b.length);
  }

  /** The hash of {@code data[off, off + len)}: ORC's 64-bit Murmur3, seed {@code SEED}. */
  public static long ofBytes(byte[] data, int off, int len) {
    Objects.checkFromIndexSize(off, len, data.length);
    long h = SEED;
    int blocks = len >>> 3;
    for (int i = 0; i < blocks; i++) {
      long k = (long) LE64.get(data, off + (i << 3));
      h ^= Murmur3x64.mixK1(k);
      h = Long.rotateLeft(h, 27) * 5 + 0x52dce729;
    }
    int rest = len & 7;
    if (rest > 0) {
      h ^= Murmur3x64.mixK1(Murmur3x64.littleEndian(data, off + (blocks << 3), rest, false));
    }
    return Murmur3x64.fmix64(h ^ len);
  }

  /**
   * The hash of a typed key: {@link #ofLong} for {@link KeyEncoder#LONG} and {@link KeyEncoder#INT}
   * (ORC stores every integer column as a long), else {@link #ofBytes} of the bytes {@code encoder}
   * writes (text as UTF-8).
   *
   * @param <T> the key type
   * @param key the key
   * @param encoder how the key becomes bytes
   * @return the hash
   */
  public static <T> long ofKey(T key, KeyEncoder<? super T> encoder) {
    if (encoder == (Object) KeyEncoder.LONG && key instanceof Long v) {
      return ofLong(v);
    }
    if (encoder == (Object) KeyEncoder.INT && key instanceof Integer v) {
      return ofLong(v);
    }
    return KeyBuffer.orcHash(key, encoder);
  }
}
