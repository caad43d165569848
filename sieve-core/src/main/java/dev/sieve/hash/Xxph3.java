package dev.sieve.hash;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Objects;

/**
 * XXPH3, RocksDB's persistent 64-bit hash: {@code Hash64(data, n, seed)} and, with seed 0, {@code
 * GetSliceHash64}, the hash every RocksDB built-in filter starts from. Bit-exact with RocksDB.
 *
 * <p><b>What it is.</b> XXPH3 ("XX Preview Hash 3") is RocksDB's frozen fork of the
 * <em>preview</em> XXH3 shipped in xxHash 0.7.2 (RocksDB {@code util/xxph3.h}, called from {@code
 * util/hash.cc}). RocksDB standardized its file formats on that preview before XXH3 was final, so
 * the preview is now part of the on-disk format of every filter block. RocksDB made one change of
 * its own: the empty input hashes to a mix of the seed instead of the preview's constant.
 *
 * <p><b>Preview versus final.</b> Final XXH3 (xxHash 0.8.x, as found in most Java hashing
 * libraries) is a different function: it rewrote the 0-, 1..3-, 4..8- and 9..16-byte branches
 * (other secret offsets, seed folding and mixers), accumulates long inputs into swapped lanes, and
 * changed the avalanche multiplier from {@code 0x165667B19E3779F9} to {@code 0x165667919E3779F9},
 * so the same bytes hash differently for essentially every length. A filter built with final XXH3
 * would probe other bits than RocksDB's and report false negatives on RocksDB's filter blocks.
 *
 * <p><b>The algorithm</b> (all arithmetic modulo 2<sup>64</sup>, input words read little-endian). A
 * fixed 192-byte secret {@code S} (read as 64-bit words at byte offsets) keys every branch; the
 * seed is added to (even words) or subtracted from (odd words) the secret words it meets. {@code
 * fold(a, b)} is the 128-bit product {@code a * b} with its halves XORed; {@code avalanche(h)} is
 * {@code h ^= h >>> 37; h *= 0x165667B19E3779F9; h ^= h >>> 32}. By length {@code n}:
 *
 * <ul>
 *   <li>{@code 0}: {@code fold(seed + S[0], PRIME64_2)} (the RocksDB change).
 *   <li>{@code 1..3}: the first, middle and last byte and {@code n} packed into 32 bits, XORed with
 *       the low half of {@code S[0]} plus seed, multiplied by {@code PRIME64_1}, avalanched.
 *   <li>{@code 4..8}: the first and last four bytes as one 64-bit word, keyed with {@code S[0]},
 *       then two xorshift-multiply rounds ({@code PRIME32_1}, {@code PRIME64_2}) and avalanche.
 *   <li>{@code 9..16}: the first and last eight bytes, keyed with {@code S[0]} and {@code S[8]};
 *       their sum plus their folded product plus {@code n}, avalanched.
 *   <li>{@code 17..128}: {@code n * PRIME64_1} plus one {@code mix16} (fold of 16 keyed input
 *       bytes) per 16-byte chunk taken pairwise from both ends (2, 4, 6 or 8 chunks, each pair with
 *       the next 32 secret bytes), avalanched.
 *   <li>{@code 129..240}: {@code mix16} of the first eight chunks, avalanche, then {@code mix16} of
 *       each further whole chunk (secret shifted by 3 bytes) and of the last 16 bytes (secret
 *       offset 119), avalanched.
 *   <li>{@code > 240}: eight 64-bit accumulators; each 64-byte stripe adds, per lane, the input
 *       word plus the product of the two 32-bit halves of (input word XOR secret word), the secret
 *       advancing 8 bytes per stripe. Every 16 stripes (1024 bytes) the accumulators are scrambled
 *       ({@code a ^= a >>> 47; a ^= S[128 + 8i]; a *= PRIME32_1}). A trailing partial stripe is
 *       replaced by the last 64 input bytes with the secret at offset 121. Finally {@code n *
 *       PRIME64_1} plus four folds of accumulator pairs keyed from offset 11, avalanched. A
 *       non-zero seed derives a custom secret (even words {@code + seed}, odd words {@code -
 *       seed}); seed 0 uses the precomputed default secret directly.
 * </ul>
 *
 * <p>This implementation is scalar (RocksDB's SIMD paths compute the same values), allocates
 * nothing, keeps the long-input accumulators in locals, and reads input words with explicit
 * little-endian {@link VarHandle}s, so results never depend on platform or buffer byte order.
 *
 * <p>Reference: RocksDB {@code util/xxph3.h}, {@code util/hash.{h,cc}}, golden values in {@code
 * util/hash_test.cc} (reproduced in {@code Xxph3Test}); Y. Collet, "Presenting XXH3" (2019).
 */
public final class Xxph3 {
  private Xxph3() {}

  static final long PRIME32_1 = 0x9E3779B1L;
  static final long PRIME32_2 = 0x85EBCA77L;
  static final long PRIME32_3 = 0xC2B2AE3DL;
  static final long PRIME64_1 = 0x9E3779B185EBCA87L;
  static final long PRIME64_2 = 0xC2B2AE3D27D4EB4FL;
  static final long PRIME64_3 = 0x165667B19E3779F9L;
  static final long PRIME64_4 = 0x85EBCA77C2B2AE63L;
  static final long PRIME64_5 = 0x27D4EB2F165667C5L;
  static final long LOW32 = 0xFFFFFFFFL;

  /**
   * The 192-byte default secret ({@code kSecret}) as 24 little-endian 64-bit words; the final XXH3
   * ({@link Xxh3}) uses the same secret and primes.
   */
  static final long[] SECRET_WORDS = {
    0xBE4BA423396CFEB8L, 0x1CAD21F72C81017CL, 0xDB979083E96DD4DEL, 0x1F67B3B7A4A44072L,
    0x78E5C0CC4EE679CBL, 0x2172FFCC7DD05A82L, 0x8E2443F7744608B8L, 0x4C263A81E69035E0L,
    0xCB00C391BB52283CL, 0xA32E531B8B65D088L, 0x4EF90DA297486471L, 0xD8ACDEA946EF1938L,
    0x3F349CE33F76FAA8L, 0x1D4F0BC7C7BBDCF9L, 0x3159B4CD4BE0518AL, 0x647378D9C97E9FC8L,
    0xC3EBD33483ACC5EAL, 0xEB6313FAFFA081C5L, 0x49DAF0B751DD0D17L, 0x9E68D429265516D3L,
    0xFCA1477D58BE162BL, 0xCE31D07AD1B8F88FL, 0x280416958F3ACB45L, 0x7E404BBBCAFBD7AFL,
  };

  /**
   * {@code SECRET_AT[o]}: the little-endian 64-bit word of the default secret at byte {@code o}.
   */
  static final long[] SECRET_AT = new long[192 - 8 + 1];

  static {
    for (int o = 0; o < SECRET_AT.length; o++) {
      int k = o >>> 3;
      int r = o & 7;
      SECRET_AT[o] =
          r == 0
              ? SECRET_WORDS[k]
              : (SECRET_WORDS[k] >>> (8 * r)) | (SECRET_WORDS[k + 1] << (64 - 8 * r));
    }
  }

  // Aligned default secret words used by the short branches, as constants.
  private static final long S0 = SECRET_WORDS[0];
  private static final long S8 = SECRET_WORDS[1];
  private static final long S16 = SECRET_WORDS[2];
  private static final long S24 = SECRET_WORDS[3];
  private static final long S32 = SECRET_WORDS[4];
  private static final long S40 = SECRET_WORDS[5];
  private static final long S48 = SECRET_WORDS[6];
  private static final long S56 = SECRET_WORDS[7];
  private static final long S64 = SECRET_WORDS[8];
  private static final long S72 = SECRET_WORDS[9];
  private static final long S80 = SECRET_WORDS[10];
  private static final long S88 = SECRET_WORDS[11];
  private static final long S96 = SECRET_WORDS[12];
  private static final long S104 = SECRET_WORDS[13];
  private static final long S112 = SECRET_WORDS[14];
  private static final long S120 = SECRET_WORDS[15];

  private static final int MIDSIZE_START = 3;
  private static final int MIDSIZE_LAST = 119; // 136 - 17

  private static final VarHandle LE64 =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
  private static final VarHandle LE32 =
      MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
  private static final VarHandle BUF_LE64 =
      MethodHandles.byteBufferViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
  private static final VarHandle BUF_LE32 =
      MethodHandles.byteBufferViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);

  /**
   * RocksDB's {@code Hash64(data + off, len, seed)} ({@code XXPH3_64bits_withSeed}); with seed 0
   * this is {@code GetSliceHash64}.
   *
   * @param data the bytes
   * @param off where they start
   * @param len how many
   * @param seed the seed (RocksDB: 0)
   * @return the 64-bit hash
   * @throws IndexOutOfBoundsException if {@code [off, off + len)} is not inside {@code data}
   */
  public static long hash64(byte[] data, int off, int len, long seed) {
    Objects.checkFromIndexSize(off, len, data.length);
    if (len <= 16) {
      if (len > 8) {
        return len9to16(le64(data, off), le64(data, off + len - 8), len, seed);
      }
      if (len >= 4) {
        return len4to8(le32(data, off) | (le32(data, off + len - 4) << 32), len, seed);
      }
      if (len > 0) {
        return len1to3(data[off], data[off + (len >> 1)], data[off + len - 1], len, seed);
      }
      return len0(seed);
    }
    if (len <= 128) {
      return len17to128(data, off, len, seed);
    }
    if (len <= 240) {
      return len129to240(data, off, len, seed);
    }
    return Xxph3Long.hashLong(data, off, len, seed);
  }

  /**
   * The same hash over {@code data.get(off) .. data.get(off + len - 1)} (absolute indices). The
   * buffer's position, limit, mark and byte order are neither used nor changed; heap, direct and
   * read-only buffers of either byte order give the same result.
   *
   * @param data the bytes
   * @param off where they start
   * @param len how many
   * @param seed the seed (RocksDB: 0)
   * @return the 64-bit hash
   * @throws IndexOutOfBoundsException if {@code [off, off + len)} is not inside {@code [0,
   *     data.limit())}
   */
  public static long hash64(ByteBuffer data, int off, int len, long seed) {
    Objects.checkFromIndexSize(off, len, data.limit());
    if (data.hasArray()) {
      return hash64(data.array(), data.arrayOffset() + off, len, seed);
    }
    if (len <= 16) {
      if (len > 8) {
        return len9to16(le64(data, off), le64(data, off + len - 8), len, seed);
      }
      if (len >= 4) {
        return len4to8(le32(data, off) | (le32(data, off + len - 4) << 32), len, seed);
      }
      if (len > 0) {
        return len1to3(
            data.get(off), data.get(off + (len >> 1)), data.get(off + len - 1), len, seed);
      }
      return len0(seed);
    }
    if (len <= 128) {
      return len17to128(data, off, len, seed);
    }
    if (len <= 240) {
      return len129to240(data, off, len, seed);
    }
    return Xxph3Long.hashLong(data, off, len, seed);
  }

  /**
   * The hash of the eight big-endian bytes of {@code value}, without materializing them: equal to
   * {@code hash64(b, 0, 8, seed)} where {@code b[0]} is the most significant byte of {@code value}.
   *
   * @param value the value
   * @param seed the seed
   * @return the 64-bit hash
   */
  public static long hash64BigEndianLong(long value, long seed) {
    // The 4..8 branch with n = 8 reads the eight bytes as one little-endian word.
    return len4to8(Long.reverseBytes(value), 8, seed);
  }

  /**
   * The hash of the four big-endian bytes of {@code value}: {@code hash64(new byte[] {(byte) (value
   * >>> 24), (byte) (value >>> 16), (byte) (value >>> 8), (byte) value}, 0, 4, seed)}, without the
   * array.
   *
   * @param value the value
   * @param seed the seed
   * @return the 64-bit hash
   */
  public static long hash64BigEndianInt(int value, long seed) {
    // The 4..8 branch with n = 4 reads the same four bytes as its first and last 32-bit word.
    long word = Integer.reverseBytes(value) & LOW32;
    return len4to8(word | (word << 32), 4, seed);
  }

  // ---------------------------------------------------------------- mixing (shared by sources)

  /** Unsigned 64x64 to 128-bit product, halves XORed. */
  static long fold(long a, long b) {
    long high = Math.multiplyHigh(a, b) + ((a >> 63) & b) + ((b >> 63) & a);
    return (a * b) ^ high;
  }

  static long avalanche(long h) {
    h ^= h >>> 37;
    h *= PRIME64_3;
    return h ^ (h >>> 32);
  }

  private static long mix16(long inLo, long inHi, long secretLo, long secretHi, long seed) {
    return fold(inLo ^ (secretLo + seed), inHi ^ (secretHi - seed));
  }

  private static long len0(long seed) {
    return fold(seed + S0, PRIME64_2);
  }

  private static long len1to3(byte first, byte middle, byte last, int len, long seed) {
    long combined =
        (first & 0xFFL) | ((middle & 0xFFL) << 8) | ((last & 0xFFL) << 16) | ((long) len << 24);
    long keyed = combined ^ ((S0 & LOW32) + seed);
    return avalanche(keyed * PRIME64_1);
  }

  private static long len4to8(long input64, int len, long seed) {
    long keyed = input64 ^ (S0 + seed);
    long mix = len + ((keyed ^ (keyed >>> 51)) * PRIME32_1);
    return avalanche((mix ^ (mix >>> 47)) * PRIME64_2);
  }

  private static long len9to16(long first8, long last8, int len, long seed) {
    long lo = first8 ^ (S0 + seed);
    long hi = last8 ^ (S8 - seed);
    return avalanche(len + lo + hi + fold(lo, hi));
  }

  // ---------------------------------------------------------------- byte[] source

  static long le64(byte[] b, int i) {
    return (long) LE64.get(b, i);
  }

  private static long le32(byte[] b, int i) {
    return (int) LE32.get(b, i) & LOW32;
  }

  private static long mix16(byte[] b, int i, long secretLo, long secretHi, long seed) {
    return mix16(le64(b, i), le64(b, i + 8), secretLo, secretHi, seed);
  }

  private static long len17to128(byte[] b, int off, int len, long seed) {
    long acc = len * PRIME64_1;
    int end = off + len;
    if (len > 32) {
      if (len > 64) {
        if (len > 96) {
          acc += mix16(b, off + 48, S96, S104, seed);
          acc += mix16(b, end - 64, S112, S120, seed);
        }
        acc += mix16(b, off + 32, S64, S72, seed);
        acc += mix16(b, end - 48, S80, S88, seed);
      }
      acc += mix16(b, off + 16, S32, S40, seed);
      acc += mix16(b, end - 32, S48, S56, seed);
    }
    acc += mix16(b, off, S0, S8, seed);
    acc += mix16(b, end - 16, S16, S24, seed);
    return avalanche(acc);
  }

  private static long len129to240(byte[] b, int off, int len, long seed) {
    long acc = len * PRIME64_1;
    for (int i = 0; i < 8; i++) {
      acc += mix16(b, off + 16 * i, SECRET_AT[16 * i], SECRET_AT[16 * i + 8], seed);
    }
    acc = avalanche(acc);
    int chunks = len >>> 4;
    for (int i = 8; i < chunks; i++) {
      int s = 16 * (i - 8) + MIDSIZE_START;
      acc += mix16(b, off + 16 * i, SECRET_AT[s], SECRET_AT[s + 8], seed);
    }
    acc += mix16(b, off + len - 16, SECRET_AT[MIDSIZE_LAST], SECRET_AT[MIDSIZE_LAST + 8], seed);
    return avalanche(acc);
  }

  // ---------------------------------------------------------------- ByteBuffer source (no array)

  static long le64(ByteBuffer b, int i) {
    return (long) BUF_LE64.get(b, i);
  }

  private static long le32(ByteBuffer b, int i) {
    return (int) BUF_LE32.get(b, i) & LOW32;
  }

  private static long mix16(ByteBuffer b, int i, long secretLo, long secretHi, long seed) {
    return mix16(le64(b, i), le64(b, i + 8), secretLo, secretHi, seed);
  }

  private static long len17to128(ByteBuffer b, int off, int len, long seed) {
    long acc = len * PRIME64_1;
    int end = off + len;
    if (len > 32) {
      if (len > 64) {
        if (len > 96) {
          acc += mix16(b, off + 48, S96, S104, seed);
          acc += mix16(b, end - 64, S112, S120, seed);
        }
        acc += mix16(b, off + 32, S64, S72, seed);
        acc += mix16(b, end - 48, S80, S88, seed);
      }
      acc += mix16(b, off + 16, S32, S40, seed);
      acc += mix16(b, end - 32, S48, S56, seed);
    }
    acc += mix16(b, off, S0, S8, seed);
    acc += mix16(b, end - 16, S16, S24, seed);
    return avalanche(acc);
  }

  private static long len129to240(ByteBuffer b, int off, int len, long seed) {
    long acc = len * PRIME64_1;
    for (int i = 0; i < 8; i++) {
      acc += mix16(b, off + 16 * i, SECRET_AT[16 * i], SECRET_AT[16 * i + 8], seed);
    }
    acc = avalanche(acc);
    int chunks = len >>> 4;
    for (int i = 8; i < chunks; i++) {
      int s = 16 * (i - 8) + MIDSIZE_START;
      acc += mix16(b, off + 16 * i, SECRET_AT[s], SECRET_AT[s + 8], seed);
    }
    acc += mix16(b, off + len - 16, SECRET_AT[MIDSIZE_LAST], SECRET_AT[MIDSIZE_LAST + 8], seed);
    return avalanche(acc);
  }
}
