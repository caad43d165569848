package dev.sieve.hash;

import java.nio.ByteBuffer;
import java.util.Objects;

/**
 * The {@link KeySink} Sieve hashes typed keys through: a growable byte array, one per thread,
 * reused from key to key, so a key costs no allocation once the array has grown to the longest key
 * seen on the thread. The key's hash is {@link Xxph3} (seed 0) over the bytes written, the hash of
 * {@link dev.sieve.hash.KeyHash#hash64(byte[])}.
 *
 * <p>An encoder that itself hashes a typed key (re-entrant use on one thread) gets a fresh buffer
 * for the inner key, so the outer key's bytes are never overwritten.
 */
final class KeyBuffer implements KeySink {
  private static final ThreadLocal<KeyBuffer> PER_THREAD = ThreadLocal.withInitial(KeyBuffer::new);

  /** Buffers up to this size are kept for the thread; a longer key's array is dropped after use. */
  private static final int KEEP_BYTES = 1 << 16;

  private byte[] bytes = new byte[64];
  private int length;
  private boolean inUse;

  /** Whether numbers are written little-endian (Parquet's plain encoding), not big-endian. */
  private boolean littleEndian;

  private KeyBuffer() {}

  /** The hash of {@code key}'s bytes as {@code encoder} writes them. */
  static <T> long hash(T key, KeyEncoder<? super T> encoder) {
    KeyBuffer b = acquire(key, encoder, false);
    try {
      return Xxph3.hash64(b.bytes, 0, b.length, 0);
    } finally {
      b.release();
    }
  }

  /**
   * XXH64 (seed 0) of {@code key}'s bytes as {@code encoder} writes them, numbers little-endian:
   * Parquet's hash of the value ({@link ParquetHash}).
   */
  static <T> long parquetHash(T key, KeyEncoder<? super T> encoder) {
    KeyBuffer b = acquire(key, encoder, true);
    try {
      return XxHash64.hash(b.bytes, 0, b.length, 0);
    } finally {
      b.release();
    }
  }

  /** ORC's Murmur3 hash of {@code key}'s bytes as {@code encoder} writes them ({@link OrcHash}). */
  static <T> long orcHash(T key, KeyEncoder<? super T> encoder) {
    KeyBuffer b = acquire(key, encoder, false);
    try {
      return OrcHash.ofBytes(b.bytes, 0, b.length);
    } finally {
      b.release();
    }
  }

  /** {@code test} of {@code key}'s bytes as {@code encoder} writes them. */
  static <T> boolean test(T key, KeyEncoder<? super T> encoder, KeyBytes.RangeTest test) {
    KeyBuffer b = acquire(key, encoder, false);
    try {
      return test.test(b.bytes, 0, b.length);
    } finally {
      b.release();
    }
  }

  /** This thread's buffer (a fresh one if it is in use) holding {@code key}'s bytes. */
  private static <T> KeyBuffer acquire(T key, KeyEncoder<? super T> encoder, boolean littleEndian) {
    Objects.requireNonNull(encoder, "encoder");
    KeyBuffer b = PER_THREAD.get();
    if (b.inUse) {
      b = new KeyBuffer();
    }
    b.inUse = true;
    b.length = 0;
    b.littleEndian = littleEndian;
    try {
      encoder.encode(key, b);
    } catch (RuntimeException | Error e) {
      b.release();
      throw e;
    }
    return b;
  }

  private void release() {
    inUse = false;
    if (bytes.length > KEEP_BYTES) {
      bytes = new byte[64];
    }
  }

  private void ensure(long more) {
    long need = length + more;
    if (more < 0 || need > Integer.MAX_VALUE - 8) {
      throw new IllegalArgumentException(
          "a key longer than " + (Integer.MAX_VALUE - 8) + " bytes cannot be hashed");
    }
    if (need > bytes.length) {
      long grown = Math.max(need, 2L * bytes.length);
      bytes = java.util.Arrays.copyOf(bytes, (int) Math.min(grown, Integer.MAX_VALUE - 8));
    }
  }

  @Override
  public KeySink putByte(byte b) {
    ensure(1);
    bytes[length++] = b;
    return this;
  }

  @Override
  public KeySink putBytes(byte[] src, int off, int len) {
    Objects.checkFromIndexSize(off, len, src.length);
    ensure(len);
    System.arraycopy(src, off, bytes, length, len);
    length += len;
    return this;
  }

  @Override
  public KeySink putBytes(ByteBuffer src) {
    int len = src.remaining();
    ensure(len);
    src.duplicate().get(bytes, length, len);
    length += len;
    return this;
  }

  @Override
  public KeySink putShort(short value) {
    return putBigEndian(value, 2);
  }

  @Override
  public KeySink putInt(int value) {
    return putBigEndian(value, 4);
  }

  @Override
  public KeySink putLong(long value) {
    return putBigEndian(value, 8);
  }

  /** The low {@code count} bytes of {@code value}, most significant first (or last, in LE). */
  private KeySink putBigEndian(long value, int count) {
    ensure(count);
    if (littleEndian) {
      for (int i = 0; i < count; i++) {
        bytes[length + i] = (byte) (value >>> (8 * i));
      }
      length += count;
      return this;
    }
    for (int i = 0; i < count; i++) {
      bytes[length + i] = (byte) (value >>> (8 * (count - 1 - i)));
    }
    length += count;
    return this;
  }

  @Override
  // reads the low surrogate only when the bounds check passed
  @SuppressWarnings("AssignmentExpression")
  public KeySink putUtf8(CharSequence chars) {
    int n = chars.length();
    ensure(n); // ASCII: one byte a char; more is reserved as needed below
    int at = length;
    byte[] out = bytes;
    int i = 0;
    for (; i < n; i++) { // ASCII run, the common case
      char c = chars.charAt(i);
      if (c >= 0x80) {
        break;
      }
      out[at++] = (byte) c;
    }
    if (i < n) {
      length = at;
      ensure(3L * (n - i)); // at most three bytes per remaining char (a pair: 4 for 2 chars)
      out = bytes;
      for (; i < n; i++) {
        char c = chars.charAt(i);
        if (c < 0x80) {
          out[at++] = (byte) c;
        } else if (c < 0x800) {
          out[at++] = (byte) (0xC0 | (c >>> 6));
          out[at++] = (byte) (0x80 | (c & 0x3F));
        } else if (Character.isSurrogate(c)) {
          char low;
          if (Character.isHighSurrogate(c)
              && i + 1 < n
              && Character.isLowSurrogate(low = chars.charAt(i + 1))) {
            int cp = Character.toCodePoint(c, low);
            i++;
            out[at++] = (byte) (0xF0 | (cp >>> 18));
            out[at++] = (byte) (0x80 | ((cp >>> 12) & 0x3F));
            out[at++] = (byte) (0x80 | ((cp >>> 6) & 0x3F));
            out[at++] = (byte) (0x80 | (cp & 0x3F));
          } else {
            out[at++] = (byte) '?'; // an unpaired surrogate, as String.getBytes(UTF_8)
          }
        } else {
          out[at++] = (byte) (0xE0 | (c >>> 12));
          out[at++] = (byte) (0x80 | ((c >>> 6) & 0x3F));
          out[at++] = (byte) (0x80 | (c & 0x3F));
        }
      }
    }
    length = at;
    return this;
  }
}
