package dev.sieve.hash;

import java.nio.charset.StandardCharsets;
import java.util.Objects;

/**
 * The 64-bit hash Parquet gives a column value before it reaches a split-block Bloom filter
 * (apache/parquet-format, BloomFilter.md, "Technical Approach"): XXH64 ({@link XxHash64}) with seed
 * 0 of the value's PLAIN encoding, without a length prefix.
 *
 * <ul>
 *   <li>INT32 (and the logical types stored in it: DATE, TIME_MILLIS, small DECIMAL, ...): the 4
 *       little-endian bytes, {@link #ofInt};
 *   <li>INT64 (TIMESTAMP, TIME_MICROS/NANOS, DECIMAL, ...): the 8 little-endian bytes, {@link
 *       #ofLong};
 *   <li>FLOAT, DOUBLE: the 4 / 8 little-endian bytes of the IEEE 754 bits as stored, NaN payloads
 *       and the sign of zero included ({@code Float.floatToRawIntBits}, as parquet-java's {@code
 *       ByteBuffer.putFloat}): {@code 0.0} and {@code -0.0} are different values to the filter,
 *       {@link #ofFloat}, {@link #ofDouble};
 *   <li>BYTE_ARRAY and FIXED_LEN_BYTE_ARRAY (strings, UUIDs, large DECIMALs, ...): the bytes
 *       themselves, {@link #ofBinary}; a string is its UTF-8 bytes, {@link #ofString}.
 * </ul>
 *
 * <p>This is <b>not</b> Sieve's key hash ({@link KeyHash}: XXPH3 of a {@code long}'s big-endian
 * bytes). A filter hashes keys by its {@link dev.sieve.KeyScheme}: one read from a Parquet bitset,
 * or built with {@link dev.sieve.KeyScheme#PARQUET_XXH64}, hashes every key form by this class
 * ({@code mayContain(42L)} is {@link #ofLong ofLong(42)}, {@code mayContainDouble}, {@code
 * mayContain("x")}, ...), so it answers as parquet-java does.
 */
public final class ParquetHash {
  private ParquetHash() {}

  /** The hash of an INT32 value. */
  public static long ofInt(int value) {
    return XxHash64.hashInt(value, 0);
  }

  /** The hash of an INT64 value. */
  public static long ofLong(long value) {
    return XxHash64.hashLong(value, 0);
  }

  /** The hash of a FLOAT value (its raw IEEE 754 bits). */
  public static long ofFloat(float value) {
    return XxHash64.hashInt(Float.floatToRawIntBits(value), 0);
  }

  /** The hash of a DOUBLE value (its raw IEEE 754 bits). */
  public static long ofDouble(double value) {
    return XxHash64.hashLong(Double.doubleToRawLongBits(value), 0);
  }

  /** The hash of a BYTE_ARRAY or FIXED_LEN_BYTE_ARRAY value. */
  public static long ofBinary(byte[] value) {
    return XxHash64.hash(Objects.requireNonNull(value, "value"), 0);
  }

  /** The hash of {@code value[off, off + len)} as a BYTE_ARRAY value. */
  public static long ofBinary(byte[] value, int off, int len) {
    return XxHash64.hash(value, off, len, 0);
  }

  /**
   * The hash of a typed key: XXH64 (seed 0) of the bytes {@code encoder} writes for it, numbers
   * little-endian (Parquet's plain encoding: {@code ofKey(42L, KeyEncoder.LONG) == ofLong(42)}),
   * text as UTF-8; through a per-thread buffer, so nothing reaches the heap in the steady state.
   *
   * @param <T> the key type
   * @param key the key
   * @param encoder how the key becomes bytes
   * @return the hash
   */
  public static <T> long ofKey(T key, KeyEncoder<? super T> encoder) {
    return KeyBuffer.parquetHash(key, encoder);
  }

  /** The hash of a string column value (BYTE_ARRAY with the STRING/UTF8 annotation). */
  public static long ofString(String value) {
    return ofBinary(value.getBytes(StandardCharsets.UTF_8));
  }
}
