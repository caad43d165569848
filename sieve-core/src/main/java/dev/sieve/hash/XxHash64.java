package dev.sieve.hash;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * xxHash64 (Yann Collet, XXH64), the one copy in Sieve: RocksDB's {@code kxxHash64} block checksum
 * keeps its lower 32 bits ({@code dev.sieve.sst}), and Parquet hashes every value for its
 * split-block Bloom filters with it at seed 0 ({@link ParquetHash}).
 *
 * <p>Four 64-bit lanes absorb 32-byte stripes ({@code lane = rotl(lane + w·P2, 31)·P1}), are merged
 * into one accumulator, the tail is folded in 8-, 4- and 1-byte steps and a final avalanche mixes
 * the result. Inputs are read little-endian on every platform. {@link #hashLong} and {@link
 * #hashInt} are the 8- and 4-byte inputs without a byte array (the tail steps alone).
 *
 * <p>Reference: the xxHash specification (doc/xxhash_spec.md of the xxHash project).
 */
public final class XxHash64 {
  private XxHash64() {}

  private static final long P1 = 0x9E3779B185EBCA87L;
  private static final long P2 = 0xC2B2AE3D27D4EB4FL;
  private static final long P3 = 0x165667B19E3779F9L;
  private static final long P4 = 0x85EBCA77C2B2AE63L;
  private static final long P5 = 0x27D4EB2F165667C5L;

  private static final VarHandle LE64 =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
  private static final VarHandle LE32 =
      MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);

  /** XXH64 of all of {@code data} with {@code seed}. */
  public static long hash(byte[] data, long seed) {
    return hash(data, 0, data.length, seed);
  }

  /**
   * XXH64 of {@code data[off, off + len)} with {@code seed}.
   *
   * @throws IndexOutOfBoundsException if the range is outside {@code data}
   */
  public static long hash(byte[] data, int off, int len, long seed) {
    java.util.Objects.checkFromIndexSize(off, len, data.length);
    int end = off + len;
    int p = off;
    long h;
    if (len >= 32) {
      long v1 = seed + P1 + P2;
      long v2 = seed + P2;
      long v3 = seed;
      long v4 = seed - P1;
      int limit = end - 32;
      while (p <= limit) {
        v1 = round(v1, (long) LE64.get(data, p));
        v2 = round(v2, (long) LE64.get(data, p + 8));
        v3 = round(v3, (long) LE64.get(data, p + 16));
        v4 = round(v4, (long) LE64.get(data, p + 24));
        p += 32;
      }
      h =
          Long.rotateLeft(v1, 1)
              + Long.rotateLeft(v2, 7)
              + Long.rotateLeft(v3, 12)
              + Long.rotateLeft(v4, 18);
      h = mergeRound(h, v1);
      h = mergeRound(h, v2);
      h = mergeRound(h, v3);
      h = mergeRound(h, v4);
    } else {
      h = seed + P5;
    }
    h += len;
    while (p + 8 <= end) {
      h ^= round(0, (long) LE64.get(data, p));
      h = Long.rotateLeft(h, 27) * P1 + P4;
      p += 8;
    }
    if (p + 4 <= end) {
      h ^= (((int) LE32.get(data, p)) & 0xFFFFFFFFL) * P1;
      h = Long.rotateLeft(h, 23) * P2 + P3;
      p += 4;
    }
    while (p < end) {
      h ^= (data[p] & 0xFFL) * P5;
      h = Long.rotateLeft(h, 11) * P1;
      p++;
    }
    return avalanche(h);
  }

  /** XXH64 of the 8 little-endian bytes of {@code value}, as {@link #hash} of those bytes. */
  public static long hashLong(long value, long seed) {
    long h = seed + P5 + 8;
    h ^= round(0, value);
    h = Long.rotateLeft(h, 27) * P1 + P4;
    return avalanche(h);
  }

  /** XXH64 of the 4 little-endian bytes of {@code value}, as {@link #hash} of those bytes. */
  public static long hashInt(int value, long seed) {
    long h = seed + P5 + 4;
    h ^= (value & 0xFFFFFFFFL) * P1;
    h = Long.rotateLeft(h, 23) * P2 + P3;
    return avalanche(h);
  }

  private static long avalanche(long h) {
    h ^= h >>> 33;
    h *= P2;
    h ^= h >>> 29;
    h *= P3;
    h ^= h >>> 32;
    return h;
  }

  private static long round(long acc, long input) {
    acc += input * P2;
    return Long.rotateLeft(acc, 31) * P1;
  }

  private static long mergeRound(long acc, long val) {
    acc ^= round(0, val);
    return acc * P1 + P4;
  }
}
