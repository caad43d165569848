package dev.sieve.hash;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Objects;

/**
 * The final XXH3 64-bit hash (xxHash 0.8, {@code XXH3_64bits}, seed 0, default secret): RocksDB's
 * {@code kXXH3} block checksum keeps its lower 32 bits ({@code dev.sieve.sst.ChecksumType}).
 *
 * <p>This is <em>not</em> the key hash of RocksDB's filters: those use {@code XXPH3}, a fork of the
 * 0.7.2 <em>preview</em> of XXH3 ({@link Xxph3}), which differs from the final algorithm for
 * several input lengths. The block checksum uses the final one from RocksDB's bundled
 * util/xxhash.h, so Sieve needs both.
 *
 * <h2>The algorithm, by input length</h2>
 *
 * <ul>
 *   <li>0: the avalanche of two secret words.
 *   <li>1–3: the first, middle and last byte and the length packed into 32 bits, keyed by the
 *       secret, then the XXH64 avalanche.
 *   <li>4–8: the first and last 4 bytes, keyed, then the "rrmxmx" mixer.
 *   <li>9–16: the first and last 8 bytes, keyed, folded by a 64×64→128-bit multiply.
 *   <li>17–128: pairs of 16-byte chunks from both ends, each folded by a 128-bit multiply.
 *   <li>129–240: every 16-byte chunk folded, with an intermediate avalanche after eight.
 *   <li>longer: eight 64-bit accumulators over 64-byte stripes (each lane adds a 32×32 product of
 *       the keyed input and swaps raw input into its neighbour), scrambled after every 1024-byte
 *       block, a last overlapping stripe, then merged and avalanched.
 * </ul>
 *
 * Reference: the XXH3 section of the xxHash specification (doc/xxhash_spec.md), RocksDB
 * table/format.cc ({@code ComputeBuiltinChecksum}). Inputs are read little-endian on every
 * platform.
 */
public final class Xxh3 {
  private Xxh3() {}

  private static final long PRIME_MX1 = 0x165667919E3779F9L;
  private static final long PRIME_MX2 = 0x9FB21C651E98DF25L;

  /** The 192-byte default secret ({@code XXH3_kSecret}, the same as XXPH3's) as bytes. */
  private static final byte[] SECRET = new byte[192];

  static {
    for (int i = 0; i < Xxph3.SECRET_WORDS.length; i++) {
      for (int b = 0; b < 8; b++) {
        SECRET[8 * i + b] = (byte) (Xxph3.SECRET_WORDS[i] >>> (8 * b));
      }
    }
  }

  private static final int STRIPE = 64;
  private static final int STRIPES_PER_BLOCK = (192 - STRIPE) / 8; // 16
  private static final int BLOCK = STRIPE * STRIPES_PER_BLOCK; // 1024

  private static final VarHandle LE64 =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
  private static final VarHandle LE32 =
      MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);

  private static long u64(byte[] b, int off) {
    return (long) LE64.get(b, off);
  }

  /** The unsigned 32-bit value at {@code off}, widened to a long. */
  private static long u32(byte[] b, int off) {
    return ((int) LE32.get(b, off)) & 0xFFFFFFFFL;
  }

  private static long s64(int off) {
    return u64(SECRET, off);
  }

  private static long s32(int off) {
    return u32(SECRET, off);
  }

  /**
   * {@code XXH3_64bits(data[off, off + len))}.
   *
   * @throws IndexOutOfBoundsException if the range is outside {@code data}
   */
  public static long hash64(byte[] data, int off, int len) {
    Objects.checkFromIndexSize(off, len, data.length);
    if (len <= 16) {
      return len0to16(data, off, len);
    }
    if (len <= 128) {
      long acc = len * Xxph3.PRIME64_1;
      if (len > 32) {
        if (len > 64) {
          if (len > 96) {
            acc += mix16(data, off + 48, 96);
            acc += mix16(data, off + len - 64, 112);
          }
          acc += mix16(data, off + 32, 64);
          acc += mix16(data, off + len - 48, 80);
        }
        acc += mix16(data, off + 16, 32);
        acc += mix16(data, off + len - 32, 48);
      }
      acc += mix16(data, off, 0);
      acc += mix16(data, off + len - 16, 16);
      return avalanche(acc);
    }
    if (len <= 240) {
      long acc = len * Xxph3.PRIME64_1;
      int rounds = len / 16;
      for (int i = 0; i < 8; i++) {
        acc += mix16(data, off + 16 * i, 16 * i);
      }
      acc = avalanche(acc);
      for (int i = 8; i < rounds; i++) {
        acc += mix16(data, off + 16 * i, 16 * (i - 8) + 3);
      }
      acc += mix16(data, off + len - 16, 136 - 17);
      return avalanche(acc);
    }
    return hashLong(data, off, len);
  }

  private static long len0to16(byte[] d, int off, int len) {
    if (len > 8) {
      long lo = u64(d, off) ^ (s64(24) ^ s64(32));
      long hi = u64(d, off + len - 8) ^ (s64(40) ^ s64(48));
      long acc = len + Long.reverseBytes(lo) + hi + fold64(lo, hi);
      return avalanche(acc);
    }
    if (len >= 4) {
      long in1 = u32(d, off);
      long in2 = u32(d, off + len - 4);
      long keyed = (in2 + (in1 << 32)) ^ (s64(8) ^ s64(16));
      return rrmxmx(keyed, len);
    }
    if (len > 0) {
      int c1 = d[off] & 0xFF;
      int c2 = d[off + (len >> 1)] & 0xFF;
      int c3 = d[off + len - 1] & 0xFF;
      long combined = ((c1 << 16) | (c2 << 24) | c3 | (len << 8)) & 0xFFFFFFFFL;
      return xxh64Avalanche(combined ^ (s32(0) ^ s32(4)));
    }
    return xxh64Avalanche(s64(56) ^ s64(64));
  }

  private static long hashLong(byte[] d, int off, int len) {
    long[] acc = {
      Xxph3.PRIME32_3,
      Xxph3.PRIME64_1,
      Xxph3.PRIME64_2,
      Xxph3.PRIME64_3,
      Xxph3.PRIME64_4,
      Xxph3.PRIME32_2,
      Xxph3.PRIME64_5,
      Xxph3.PRIME32_1
    };
    int blocks = (len - 1) / BLOCK;
    for (int n = 0; n < blocks; n++) {
      int base = off + n * BLOCK;
      for (int s = 0; s < STRIPES_PER_BLOCK; s++) {
        accumulate512(acc, d, base + s * STRIPE, s * 8);
      }
      scramble(acc, 192 - STRIPE);
    }
    int base = off + blocks * BLOCK;
    int stripes = ((len - 1) - BLOCK * blocks) / STRIPE;
    for (int s = 0; s < stripes; s++) {
      accumulate512(acc, d, base + s * STRIPE, s * 8);
    }
    accumulate512(acc, d, off + len - STRIPE, 192 - STRIPE - 7);
    long result = len * Xxph3.PRIME64_1;
    for (int i = 0; i < 4; i++) {
      int so = 11 + 16 * i;
      result += fold64(acc[2 * i] ^ s64(so), acc[2 * i + 1] ^ s64(so + 8));
    }
    return avalanche(result);
  }

  private static void accumulate512(long[] acc, byte[] d, int in, int sec) {
    for (int i = 0; i < 8; i++) {
      long value = u64(d, in + 8 * i);
      long key = value ^ s64(sec + 8 * i);
      acc[i ^ 1] += value;
      acc[i] += (key & 0xFFFFFFFFL) * (key >>> 32);
    }
  }

  private static void scramble(long[] acc, int sec) {
    for (int i = 0; i < 8; i++) {
      long a = acc[i];
      a ^= a >>> 47;
      a ^= s64(sec + 8 * i);
      acc[i] = a * Xxph3.PRIME32_1;
    }
  }

  private static long mix16(byte[] d, int in, int sec) {
    return fold64(u64(d, in) ^ s64(sec), u64(d, in + 8) ^ s64(sec + 8));
  }

  /** The low and high halves of the unsigned 128-bit product, xor-ed. */
  private static long fold64(long a, long b) {
    long lo = a * b;
    long hi = Math.multiplyHigh(a, b) + ((a >> 63) & b) + ((b >> 63) & a);
    return lo ^ hi;
  }

  private static long avalanche(long h) {
    h ^= h >>> 37;
    h *= PRIME_MX1;
    return h ^ (h >>> 32);
  }

  private static long rrmxmx(long h, int len) {
    h ^= Long.rotateLeft(h, 49) ^ Long.rotateLeft(h, 24);
    h *= PRIME_MX2;
    h ^= (h >>> 35) + len;
    h *= PRIME_MX2;
    return h ^ (h >>> 28);
  }

  private static long xxh64Avalanche(long h) {
    h ^= h >>> 33;
    h *= Xxph3.PRIME64_2;
    h ^= h >>> 29;
    h *= Xxph3.PRIME64_3;
    return h ^ (h >>> 32);
  }
}
