package dev.sieve.hash;

import java.nio.ByteBuffer;

/**
 * Where a {@link KeyEncoder} writes the bytes of one key. The key is the concatenation of
 * everything written, in order; Sieve hashes those bytes exactly as it hashes a {@code byte[]} key
 * ({@link dev.sieve.hash.KeyHash}), so a key encoded here and the same bytes given as an array get
 * the same hash. The sink is reused from key to key (one per thread), so encoding a key puts
 * nothing on the heap once the sink has grown to the longest key; an encoder must not keep a
 * reference to it past {@link KeyEncoder#encode}.
 *
 * <p>Numbers are written big-endian, the encoding under which unsigned integers sort as their bytes
 * (and the one RocksDB users usually give integer keys): {@link #putLong} writes the eight bytes
 * {@link dev.sieve.Filter#mayContain(long)} hashes, {@link #putInt} four. A filter of {@link
 * dev.sieve.KeyScheme#PARQUET_XXH64} hashes typed keys as Parquet's plain encoding: there the
 * numbers are written little-endian.
 */
public interface KeySink {

  /** Appends one byte. */
  KeySink putByte(byte b);

  /** Appends all bytes of {@code bytes}. */
  default KeySink putBytes(byte[] bytes) {
    return putBytes(bytes, 0, bytes.length);
  }

  /** Appends {@code bytes[off, off + len)}. */
  KeySink putBytes(byte[] bytes, int off, int len);

  /** Appends the remaining bytes of {@code bytes}; its position is not changed. */
  KeySink putBytes(ByteBuffer bytes);

  /** Appends the two big-endian bytes of {@code value}. */
  KeySink putShort(short value);

  /** Appends the four big-endian bytes of {@code value}. */
  KeySink putInt(int value);

  /** Appends the eight big-endian bytes of {@code value}. */
  KeySink putLong(long value);

  /**
   * Appends the UTF-8 bytes of {@code chars}, exactly those of {@code
   * chars.toString().getBytes(StandardCharsets.UTF_8)}: a surrogate pair is one 4-byte code point,
   * and an unpaired surrogate is written as {@code '?'} (0x3F), as {@link String#getBytes} does.
   */
  KeySink putUtf8(CharSequence chars);
}
