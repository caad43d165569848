package dev.sieve;

import dev.sieve.hash.KeyEncoder;
import dev.sieve.hash.KeyHash;
import dev.sieve.hash.OrcHash;
import dev.sieve.hash.ParquetHash;
import dev.sieve.hash.XxHash64;
import java.nio.ByteBuffer;
import java.util.Objects;

/**
 * How a filter turns a key into the 64-bit hash it probes with. Every {@link Filter} has one
 * ({@link Filter#keyScheme()}), chosen when it is built ({@link FilterBuilder#keyScheme}) or read
 * (the container records it, {@code docs/format.md}; a Parquet bitset is {@link #PARQUET_XXH64}),
 * and every key method of the filter hashes by it, so a filter is always asked as it was filled.
 * Only {@link Filter#mayContainHash} and {@link Filter#mayContainHashes} (and {@link
 * MutableFilter#addHash}) take hashes directly, whatever the scheme.
 *
 * <p>A key the scheme does not define (byte or text keys on a {@code long}-only scheme) is an
 * error, {@link KeySchemeException}, never a silent miss.
 */
public enum KeyScheme {
  /**
   * RocksDB's: {@link KeyHash} (XXPH3, seed 0) over the key's bytes; a {@code long} key is its
   * eight big-endian bytes, an {@code int} its four, a {@code float} or {@code double} the
   * big-endian bytes of its raw IEEE 754 bits, text its UTF-8 bytes. Every key form. The default of
   * the types whose format fixes the hash (blocked Bloom and Standard128 Ribbon, RocksDB's; the
   * split-block and ORC Bloom filters' builders and the range filters' byte keys), and of a filter
   * read without a scheme flag.
   */
  XXPH3(0),

  /**
   * {@code long} keys only, through one 64-bit mixer ({@link KeyHash#mix64(long)}): a fast hash for
   * filters that need not match RocksDB's bytes. For every filter type. Container flag bit 0.
   */
  MIX64(1),

  /**
   * {@code long} keys only, each its own hash: only for the filters whose probe first sends the
   * hash and their seed through a full 64-bit finalizer (Xor and Binary Fuse), which is then the
   * key's one mix, as in FastFilter. Container flag bit 1.
   */
  IDENTITY(2),

  /**
   * Parquet's ({@link ParquetHash}): XXH64 with seed 0 of the value's PLAIN encoding, as
   * parquet-java's {@code BlockSplitBloomFilter.hash(...)}: a {@code long} key (INT64) is its eight
   * little-endian bytes, an {@code int} (INT32) its four, a {@code float} or {@code double} the
   * little-endian bytes of its raw IEEE 754 bits, byte keys (BYTE_ARRAY, FIXED_LEN_BYTE_ARRAY)
   * themselves, text its UTF-8 bytes; a typed key the bytes its encoder writes, numbers
   * little-endian. Container flag bit 2.
   */
  PARQUET_XXH64(4),

  /**
   * Apache ORC's Bloom filter hashes ({@link OrcHash}): a {@code long} or {@code int} key (every
   * ORC integer column, dates as epoch days, timestamps as epoch milliseconds) by Thomas Wang's
   * 64-bit mix, a {@code double} or {@code float} (widened) by the same mix of {@code
   * Double.doubleToLongBits}, byte keys (binary) and text (UTF-8: string, char, varchar, decimal)
   * by ORC's 64-bit Murmur3 with seed 104729; a typed key the bytes its encoder writes. Container
   * flag bit 8 (bits 3 to 7 are left for the other foreign schemes).
   */
  ORC_MURMUR3(1 << 8),

  /**
   * Sieve's default where no format fixes the hash: the builders of the types whose bytes no other
   * system reads (two-word, standard and scalable Bloom, Xor, Binary Fuse, Cuckoo, expandable,
   * Bumped Ribbon, sharded) hash by it unless told otherwise. Numbers take one 64-bit mixer, byte
   * keys and text the byte hash of {@link #XXPH3}:
   *
   * <ul>
   *   <li>a {@code long} key: {@link KeyHash#mix64(long)} of its value, as {@link #MIX64};
   *   <li>an {@code int} key (and so a {@code short} or {@code byte} value widened to it): the
   *       {@code long} key of the same value, so {@code mayContainInt(42)} and {@code
   *       mayContain(42L)} ask for one key (under {@link #XXPH3} they are four and eight bytes, two
   *       keys);
   *   <li>a {@code double} key: the {@code long} key of its raw IEEE 754 bits ({@code
   *       Double.doubleToRawLongBits}), a {@code float} the {@code int} key of its raw bits ({@code
   *       Float.floatToRawIntBits}), as {@link #XXPH3} hashes them as those bits' bytes ({@code
   *       0.0} and {@code -0.0}, and NaNs of different payloads, are different keys);
   *   <li>byte keys: {@link KeyHash} (XXPH3, seed 0) of the bytes, as {@link #XXPH3}; text: of its
   *       UTF-8 bytes, so a {@code String} and its UTF-8 {@code byte[]} are one key;
   *   <li>a typed key: {@link KeyEncoder#LONG}, {@link KeyEncoder#INT}, {@link KeyEncoder#FLOAT}
   *       and {@link KeyEncoder#DOUBLE} as the number they carry (the same hash as the key method
   *       of that number), any other encoder as XXPH3 of the bytes it writes.
   * </ul>
   *
   * <p>Every key form is defined, and a filter answers each form as it was added. A number and its
   * bytes are different keys: the {@code long} 42 and the {@code byte[]} of 42's eight big-endian
   * bytes hash differently here (under {@link #XXPH3} they are one key), so a filter built from
   * {@code long}s must be asked with {@code long}s. {@link #XXPH3} is the scheme to ask for where
   * the bytes must match RocksDB's hashing. Container flag bit 9.
   */
  FAST(1 << 9);

  private final int containerFlag;

  KeyScheme(int containerFlag) {
    this.containerFlag = containerFlag;
  }

  /**
   * Its bit in the container's flags ({@code docs/format.md}); 0 for {@link #XXPH3}, whose
   * containers carry no scheme flag.
   *
   * @return the flag bit
   */
  public int containerFlag() {
    return containerFlag;
  }

  /**
   * Whether the scheme defines only {@code long} keys ({@link #MIX64}, {@link #IDENTITY}).
   *
   * @return whether byte, text, {@code int} and floating-point keys are refused
   */
  public boolean longKeysOnly() {
    return this == MIX64 || this == IDENTITY;
  }

  /**
   * The hash of a {@code long} key.
   *
   * @param key the key
   * @return its 64-bit hash
   */
  public long hash(long key) {
    // the key methods of Filter test XXPH3 first and come here for the others: the fast long-key
    // schemes lead, one compare each, the builders' default first
    if (this == FAST || this == MIX64) {
      return KeyHash.mix64(key);
    }
    if (this == IDENTITY) {
      return key;
    }
    if (this == ORC_MURMUR3) {
      return OrcHash.ofLong(key);
    }
    return this == PARQUET_XXH64 ? XxHash64.hashLong(key, 0) : KeyHash.hash64(key);
  }

  /**
   * Hashes {@code count} {@code long} keys, {@code keys[keyOff ..]}, into {@code out[outOff ..]},
   * as {@link #hash(long)} hashes each.
   *
   * @param keys the keys
   * @param keyOff the first key hashed
   * @param count how many keys
   * @param out where the hashes go
   * @param outOff where the first hash goes
   */
  public void hash(long[] keys, int keyOff, int count, long[] out, int outOff) {
    switch (this) {
      case XXPH3 -> KeyHash.hash64(keys, keyOff, count, out, outOff);
      case FAST, MIX64 -> KeyHash.mix64(keys, keyOff, count, out, outOff);
      case IDENTITY -> {
        Objects.checkFromIndexSize(keyOff, count, keys.length);
        System.arraycopy(keys, keyOff, out, outOff, count);
      }
      case PARQUET_XXH64 -> {
        Objects.checkFromIndexSize(keyOff, count, keys.length);
        Objects.checkFromIndexSize(outOff, count, out.length);
        for (int i = 0; i < count; i++) {
          out[outOff + i] = XxHash64.hashLong(keys[keyOff + i], 0);
        }
      }
      case ORC_MURMUR3 -> {
        Objects.checkFromIndexSize(keyOff, count, keys.length);
        Objects.checkFromIndexSize(outOff, count, out.length);
        for (int i = 0; i < count; i++) {
          out[outOff + i] = OrcHash.ofLong(keys[keyOff + i]);
        }
      }
    }
  }

  /**
   * The hash of an {@code int} key.
   *
   * @param key the key
   * @return its 64-bit hash
   * @throws KeySchemeException on a {@code long}-only scheme
   */
  public long hashInt(int key) {
    if (this == FAST) {
      return KeyHash.mix64(key); // the long key of the same value
    }
    if (this == XXPH3) {
      return KeyHash.hashInt(key);
    }
    if (this == PARQUET_XXH64) {
      return XxHash64.hashInt(key, 0);
    }
    if (this == ORC_MURMUR3) {
      return OrcHash.ofLong(key);
    }
    throw refused("int");
  }

  /**
   * The hash of a {@code float} key, by its raw IEEE 754 bits ({@code 0.0f} and {@code -0.0f}, and
   * NaNs of different payloads, are different keys).
   *
   * @param key the key
   * @return its 64-bit hash
   * @throws KeySchemeException on a {@code long}-only scheme
   */
  public long hashFloat(float key) {
    if (this == FAST) {
      return KeyHash.mix64(Float.floatToRawIntBits(key)); // the int key of its raw bits
    }
    if (this == XXPH3) {
      return KeyHash.hashInt(Float.floatToRawIntBits(key));
    }
    if (this == PARQUET_XXH64) {
      return ParquetHash.ofFloat(key);
    }
    if (this == ORC_MURMUR3) {
      return OrcHash.ofDouble(key);
    }
    throw refused("float");
  }

  /**
   * The hash of a {@code double} key, by its raw IEEE 754 bits.
   *
   * @param key the key
   * @return its 64-bit hash
   * @throws KeySchemeException on a {@code long}-only scheme
   */
  public long hashDouble(double key) {
    if (this == FAST) {
      return KeyHash.mix64(Double.doubleToRawLongBits(key));
    }
    if (this == XXPH3) {
      return KeyHash.hash64(Double.doubleToRawLongBits(key));
    }
    if (this == PARQUET_XXH64) {
      return ParquetHash.ofDouble(key);
    }
    if (this == ORC_MURMUR3) {
      return OrcHash.ofDouble(key);
    }
    throw refused("double");
  }

  /**
   * The hash of the byte key {@code key[off, off + len)}.
   *
   * @param key holds the key
   * @param off where it starts
   * @param len its length
   * @return its 64-bit hash
   * @throws KeySchemeException on a {@code long}-only scheme
   */
  public long hash(byte[] key, int off, int len) {
    if (this == XXPH3 || this == FAST) {
      return KeyHash.hash64(key, off, len);
    }
    if (this == PARQUET_XXH64) {
      return XxHash64.hash(key, off, len, 0);
    }
    if (this == ORC_MURMUR3) {
      return OrcHash.ofBytes(key, off, len);
    }
    throw refused("byte");
  }

  /**
   * The hash of the remaining bytes of {@code key}; its position is not changed.
   *
   * @param key the key
   * @return its 64-bit hash
   * @throws KeySchemeException on a {@code long}-only scheme
   */
  public long hash(ByteBuffer key) {
    if (this == XXPH3 || this == FAST) {
      return KeyHash.hash64(key);
    }
    if (this == PARQUET_XXH64) {
      if (key.hasArray()) {
        return XxHash64.hash(key.array(), key.arrayOffset() + key.position(), key.remaining(), 0);
      }
      return ParquetHash.ofKey(key, KeyEncoder.BUFFER);
    }
    if (this == ORC_MURMUR3) {
      return OrcHash.ofKey(key, KeyEncoder.BUFFER);
    }
    throw refused("byte");
  }

  /**
   * The hash of a text key, its UTF-8 bytes; allocation-free (a per-thread buffer).
   *
   * @param key the key
   * @return its 64-bit hash
   * @throws KeySchemeException on a {@code long}-only scheme
   */
  public long hash(CharSequence key) {
    if (this == XXPH3 || this == FAST) {
      return KeyHash.hash64(key);
    }
    if (this == PARQUET_XXH64) {
      return ParquetHash.ofKey(key, KeyEncoder.UTF8);
    }
    if (this == ORC_MURMUR3) {
      return OrcHash.ofString(key);
    }
    throw refused("text");
  }

  /**
   * The hash of a typed key: the bytes {@code encoder} writes for it, through a per-thread buffer
   * (numbers big-endian under {@link #XXPH3}, little-endian under {@link #PARQUET_XXH64}). Under
   * {@link #FAST} the number encoders ({@link KeyEncoder#LONG}, {@code INT}, {@code FLOAT}, {@code
   * DOUBLE}) give the number's own hash ({@link #hash(long)}, {@link #hashInt}, ...), any other
   * encoder XXPH3 of its bytes. On a {@code long}-only scheme only {@link KeyEncoder#LONG} is
   * defined, as {@link #hash(long)}.
   *
   * @param <T> the key type
   * @param key the key
   * @param encoder how the key becomes bytes
   * @return its 64-bit hash
   * @throws KeySchemeException for another encoder on a {@code long}-only scheme
   */
  public <T> long hash(T key, KeyEncoder<? super T> encoder) {
    if (this == XXPH3) {
      return KeyHash.hash64(key, encoder);
    }
    if (this == FAST) {
      return fastTyped(key, encoder);
    }
    if (this == PARQUET_XXH64) {
      return ParquetHash.ofKey(key, encoder);
    }
    if (this == ORC_MURMUR3) {
      return OrcHash.ofKey(key, encoder);
    }
    if (encoder == (Object) KeyEncoder.LONG && key instanceof Long value) {
      return hash(value.longValue());
    }
    throw refused("typed (other than KeyEncoder.LONG)");
  }

  /** {@link #FAST}'s typed key: a number encoder's number as that number, else XXPH3. */
  private <T> long fastTyped(T key, KeyEncoder<? super T> encoder) {
    Object e = encoder;
    if (e == KeyEncoder.LONG && key instanceof Long v) {
      return hash(v.longValue());
    }
    if (e == KeyEncoder.INT && key instanceof Integer v) {
      return hashInt(v);
    }
    if (e == KeyEncoder.DOUBLE && key instanceof Double v) {
      return hashDouble(v);
    }
    if (e == KeyEncoder.FLOAT && key instanceof Float v) {
      return hashFloat(v);
    }
    return KeyHash.hash64(key, encoder);
  }

  /** The exception for a key form this scheme does not define. */
  private KeySchemeException refused(String form) {
    return new KeySchemeException(
        "the filter hashes keys by "
            + this
            + ", which defines long keys only; "
            + form
            + " keys would never meet its keys (build the filter with another KeyScheme)");
  }
}
