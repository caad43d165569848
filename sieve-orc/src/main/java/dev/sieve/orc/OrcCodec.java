package dev.sieve.orc;

import dev.sieve.SieveFormatException;
import io.airlift.compress.Decompressor;
import io.airlift.compress.MalformedInputException;
import io.airlift.compress.lz4.Lz4Decompressor;
import io.airlift.compress.lzo.LzoDecompressor;
import io.airlift.compress.snappy.SnappyDecompressor;
import io.airlift.compress.zstd.ZstdDecompressor;
import java.io.ByteArrayOutputStream;
import java.util.zip.DataFormatException;
import java.util.zip.Inflater;

/**
 * ORC's compression framing (ORC specification, "Compression"): a compressed stream is a sequence
 * of chunks, each a 3-byte little-endian header {@code (length << 1) | original} and then {@code
 * length} bytes, stored as they are when {@code original} is 1, else compressed by the file's codec
 * on its own (ZLIB is raw deflate, no zlib header). Each chunk decompresses to at most the
 * postscript's {@code compressionBlockSize} bytes. NONE means no chunks: the bytes are the stream.
 *
 * <p>ZLIB is inflated by {@link Inflater} (nowrap); SNAPPY, LZO, LZ4 and ZSTD by aircompressor's
 * pure-Java decompressors (ORC's own Java writer uses the same library). BROTLI is refused.
 *
 * <h2>Hostile input</h2>
 *
 * A chunk longer than the bytes left, a chunk that decompresses to more than the block size, a
 * total over the caller's limit (checked as the output grows, so a small chunk cannot blow up
 * memory), and a corrupt chunk are each a {@link SieveFormatException} naming the chunk's offset.
 */
final class OrcCodec {
  private final OrcFile.Compression compression;
  private final int blockSize;

  OrcCodec(OrcFile.Compression compression, int blockSize) {
    this.compression = compression;
    this.blockSize = blockSize;
  }

  /**
   * The decompressed bytes of {@code buf[off, off + len)}, which came from file offset {@code
   * base}; at most {@code limit} bytes ({@code what} names the stream in errors).
   */
  byte[] decompress(byte[] buf, int off, int len, long base, int limit, String what) {
    if (compression == OrcFile.Compression.NONE) {
      if (len > limit) {
        throw new SieveFormatException(base, what + " of " + len + " bytes exceeds " + limit);
      }
      return java.util.Arrays.copyOfRange(buf, off, off + len);
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream(Math.min(len * 2 + 16, limit));
    byte[] chunkOut = null;
    int pos = off;
    int end = off + len;
    while (pos < end) {
      long at = base + (pos - off);
      if (end - pos < 3) {
        throw new SieveFormatException(at, what + ": chunk header of 3 bytes ends early");
      }
      int header = (buf[pos] & 0xFF) | (buf[pos + 1] & 0xFF) << 8 | (buf[pos + 2] & 0xFF) << 16;
      pos += 3;
      boolean original = (header & 1) != 0;
      int chunkLen = header >>> 1;
      if (chunkLen > end - pos) {
        throw new SieveFormatException(
            at,
            what + ": chunk length " + chunkLen + " exceeds the " + (end - pos) + " bytes left");
      }
      if (original) {
        if (chunkLen > blockSize) {
          throw new SieveFormatException(
              at,
              what
                  + ": stored chunk of "
                  + chunkLen
                  + " bytes exceeds the block size "
                  + blockSize);
        }
        checkTotal(out.size() + (long) chunkLen, limit, at, what);
        out.write(buf, pos, chunkLen);
      } else {
        if (chunkOut == null) {
          chunkOut = new byte[blockSize];
        }
        int n = inflate(buf, pos, chunkLen, chunkOut, at, what);
        checkTotal(out.size() + (long) n, limit, at, what);
        out.write(chunkOut, 0, n);
      }
      pos += chunkLen;
    }
    return out.toByteArray();
  }

  private static void checkTotal(long total, int limit, long at, String what) {
    if (total > limit) {
      throw new SieveFormatException(
          at, what + " decompresses to more than its limit of " + limit + " bytes");
    }
  }

  private int inflate(byte[] in, int off, int len, byte[] out, long at, String what) {
    if (compression == OrcFile.Compression.ZLIB) {
      Inflater inflater = new Inflater(true);
      try {
        inflater.setInput(in, off, len);
        int n = 0;
        while (!inflater.finished()) {
          if (n == out.length) {
            // more output than one block: a valid ORC chunk never does this
            throw new SieveFormatException(
                at, what + ": chunk inflates past the block size " + out.length);
          }
          int got = inflater.inflate(out, n, out.length - n);
          if (got == 0 && (inflater.needsInput() || inflater.needsDictionary())) {
            throw new SieveFormatException(at, what + ": deflate chunk is truncated");
          }
          n += got;
        }
        return n;
      } catch (DataFormatException e) {
        throw new SieveFormatException(at, what + ": corrupt deflate chunk: " + e.getMessage(), e);
      } finally {
        inflater.end();
      }
    }
    Decompressor d =
        switch (compression) {
          case SNAPPY -> new SnappyDecompressor();
          case LZO -> new LzoDecompressor();
          case LZ4 -> new Lz4Decompressor();
          case ZSTD -> new ZstdDecompressor();
          default ->
              throw new SieveFormatException(
                  at, what + ": compression " + compression + " is not supported");
        };
    try {
      return d.decompress(in, off, len, out, 0, out.length);
    } catch (MalformedInputException | IllegalArgumentException | IndexOutOfBoundsException e) {
      throw new SieveFormatException(
          at, what + ": corrupt " + compression + " chunk: " + e.getMessage(), e);
    }
  }
}
