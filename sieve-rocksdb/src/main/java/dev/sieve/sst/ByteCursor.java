package dev.sieve.sst;

import dev.sieve.SieveFormatException;

/**
 * Sequential reads of RocksDB's integer encodings (util/coding.h) from a byte array that holds the
 * bytes of a file starting at {@code fileOffset}; every error names the file offset.
 */
final class ByteCursor {
  private final byte[] data;
  private final long fileOffset;
  private final int limit;
  private int pos;

  ByteCursor(byte[] data, int pos, int limit, long fileOffset) {
    this.data = data;
    this.pos = pos;
    this.limit = limit;
    this.fileOffset = fileOffset;
  }

  /** The array read (shared, not copied). */
  byte[] data() {
    return data;
  }

  int position() {
    return pos;
  }

  void position(int p) {
    pos = p;
  }

  int remaining() {
    return limit - pos;
  }

  long fileOffset() {
    return fileOffset + pos;
  }

  /** A varint32: 7 bits per byte, low bits first, at most 5 bytes, at most 2^32 - 1. */
  long varint32(String what) {
    long v = varint(what, 5);
    if (v > 0xFFFFFFFFL) {
      throw new SieveFormatException(fileOffset(), what + ": varint32 overflows 32 bits");
    }
    return v;
  }

  /** A varint64: 7 bits per byte, low bits first, at most 10 bytes. */
  long varint64(String what) {
    return varint(what, 10);
  }

  private long varint(String what, int maxBytes) {
    long start = fileOffset();
    long result = 0;
    for (int i = 0, shift = 0; i < maxBytes; i++, shift += 7) {
      if (pos >= limit) {
        throw new SieveFormatException(start, what + ": truncated varint");
      }
      int b = data[pos++] & 0xFF;
      if (shift == 63 && (b & 0x7E) != 0) {
        throw new SieveFormatException(start, what + ": varint64 overflows 64 bits");
      }
      result |= (long) (b & 0x7F) << shift;
      if ((b & 0x80) == 0) {
        return result;
      }
    }
    throw new SieveFormatException(start, what + ": varint longer than " + maxBytes + " bytes");
  }

  /** A zig-zag varint64 ({@code GetVarsignedint64}). */
  long varsigned64(String what) {
    long u = varint64(what);
    return (u >>> 1) ^ -(u & 1);
  }

  BlockHandle blockHandle(String what) {
    long off = varint64(what + " offset");
    long size = varint64(what + " size");
    return new BlockHandle(off, size);
  }

  /** Skips {@code n} bytes, returning the array position they started at. */
  int take(long n, String what) {
    if (n < 0 || n > remaining()) {
      throw new SieveFormatException(
          fileOffset(), what + ": " + n + " bytes needed, " + remaining() + " left in the block");
    }
    int p = pos;
    pos += (int) n;
    return p;
  }
}
