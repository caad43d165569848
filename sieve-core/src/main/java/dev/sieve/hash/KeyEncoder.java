package dev.sieve.hash;

import java.nio.ByteBuffer;

/**
 * Turns a key of type {@code T} into the bytes Sieve hashes, by writing them into a reusable {@link
 * KeySink} (the idea of Guava's {@code Funnel}): nothing per key reaches the heap in the steady
 * state. Two keys the filter should treat as equal must be encoded to the same bytes, and the
 * encoding must not change once filters are persisted with it (a filter stores hashes of the bytes,
 * not the keys).
 *
 * <pre>{@code
 * record User(long tenant, String name) {}
 * KeyEncoder<User> users = (u, sink) -> sink.putLong(u.tenant()).putUtf8(u.name());
 * KeyedFilter<User> filter = Xor8Filter.builder().build(list, users).keyed(users);
 * }</pre>
 *
 * <p>Encoders that write variable-length fields one after another should make the split unambiguous
 * (a length prefix, or a fixed-width field first), as {@code ("ab", "c")} and {@code ("a", "bc")}
 * would otherwise be one key.
 *
 * @param <T> the key type
 */
@FunctionalInterface
public interface KeyEncoder<T> {

  /** Writes the bytes of {@code key} into {@code sink}. */
  void encode(T key, KeySink sink);

  /** Strings and other character sequences as their UTF-8 bytes ({@link KeySink#putUtf8}). */
  KeyEncoder<CharSequence> UTF8 = (key, sink) -> sink.putUtf8(key);

  /**
   * {@code Long} keys as their eight big-endian bytes, as {@link
   * dev.sieve.Filter#mayContain(long)}.
   */
  KeyEncoder<Long> LONG = (key, sink) -> sink.putLong(key);

  /**
   * {@code Integer} keys as their four big-endian bytes, as {@link
   * dev.sieve.Filter#mayContainInt(int)}.
   */
  KeyEncoder<Integer> INT = (key, sink) -> sink.putInt(key);

  /**
   * {@code Float} keys as the four bytes of their raw IEEE 754 bits ({@code
   * Float.floatToRawIntBits}), as {@link dev.sieve.Filter#mayContainFloat(float)}: big-endian, or
   * little-endian (Parquet's FLOAT) on a {@link dev.sieve.KeyScheme#PARQUET_XXH64} filter.
   */
  KeyEncoder<Float> FLOAT = (key, sink) -> sink.putInt(Float.floatToRawIntBits(key));

  /**
   * {@code Double} keys as the eight bytes of their raw IEEE 754 bits ({@code
   * Double.doubleToRawLongBits}), as {@link dev.sieve.Filter#mayContainDouble(double)}.
   */
  KeyEncoder<Double> DOUBLE = (key, sink) -> sink.putLong(Double.doubleToRawLongBits(key));

  /** Byte-array keys as themselves. */
  KeyEncoder<byte[]> BYTES = (key, sink) -> sink.putBytes(key);

  /** Buffer keys as their remaining bytes (the position is not changed). */
  KeyEncoder<ByteBuffer> BUFFER = (key, sink) -> sink.putBytes(key);
}
