package dev.sieve.sst;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Objects;

/**
 * xxHash32 (Yann Collet, XXH32): RocksDB's {@code kxxHash} block checksum, at seed 0 ({@code
 * dev.sieve.sst.ChecksumType}).
 *
 * <p>Four 32-bit lanes each absorb 4 bytes per step ({@code lane = rotl(lane + w·P2, 13)·P1}) over
 * 16-byte stripes; the lanes are rotated and summed, the tail is folded in 4 then 1 byte at a time,
 * and a final avalanche spreads every input bit over the result. Inputs are read little-endian on
 * every platform. Reference: the xxHash specification (doc/xxhash_spec.md of the xxHash project).
 */
final class XxHash32 {
  private XxHash32() {}

  private static final int P1 = 0x9E3779B1;
  private static final int P2 = 0x85EBCA77;
  private static final int P3 = 0xC2B2AE3D;
  private static final int P4 = 0x27D4EB2F;
  private static final int P5 = 0x165667B1;

  private static final VarHandle LE32 =
      MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);

  /**
   * XXH32 of {@code data[off, off + len)} with {@code seed}.
   *
   * @throws IndexOutOfBoundsException if the range is outside {@code data}
   */
  public static int hash(byte[] data, int off, int len, int seed) {
    Objects.checkFromIndexSize(off, len, data.length);
    int end = off + len;
    int p = off;
    int h;
    if (len >= 16) {
      int v1 = seed + P1 + P2;
      int v2 = seed + P2;
      int v3 = seed;
      int v4 = seed - P1;
      int limit = end - 16;
      while (p <= limit) {
        v1 = round(v1, (int) LE32.get(data, p));
        v2 = round(v2, (int) LE32.get(data, p + 4));
        v3 = round(v3, (int) LE32.get(data, p + 8));
        v4 = round(v4, (int) LE32.get(data, p + 12));
        p += 16;
      }
      h =
          Integer.rotateLeft(v1, 1)
              + Integer.rotateLeft(v2, 7)
              + Integer.rotateLeft(v3, 12)
              + Integer.rotateLeft(v4, 18);
    } else {
      h = seed + P5;
    }
    h += len;
    while (p + 4 <= end) {
      h += (int) LE32.get(data, p) * P3;
      h = Integer.rotateLeft(h, 17) * P4;
      p += 4;
    }
    while (p < end) {
      h += (data[p] & 0xFF) * P5;
      h = Integer.rotateLeft(h, 11) * P1;
      p++;
    }
    h ^= h >>> 15;
    h *= P2;
    h ^= h >>> 13;
    h *= P3;
    h ^= h >>> 16;
    return h;
  }

  private static int round(int acc, int input) {
    acc += input * P2;
    return Integer.rotateLeft(acc, 13) * P1;
  }
}
