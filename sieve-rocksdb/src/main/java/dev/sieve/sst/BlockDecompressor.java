package dev.sieve.sst;

import dev.sieve.SieveFormatException;
import io.airlift.compress.MalformedInputException;
import io.airlift.compress.lz4.Lz4Decompressor;
import io.airlift.compress.snappy.SnappyDecompressor;
import io.airlift.compress.zstd.ZstdDecompressor;
import java.util.zip.DataFormatException;
import java.util.zip.Inflater;

/**
 * Decompresses a block stored with one of RocksDB's built-in compression types, so that the
 * verifier can walk compressed index blocks to the data blocks behind them.
 *
 * <p><b>Framing.</b> Block-based tables of format_version ≥ 2 (all that RocksDB still reads) use
 * {@code compress_format_version} 2 (util/compression.cc, {@code BuiltinDecompressorV2}; from
 * format_version 7 the table property {@code rocksdb.compression_name} names the framing, {@code
 * BuiltinV2;…} for the built-in one):
 *
 * <pre>
 *  type 1 Snappy       a raw Snappy block, which begins with its own varint32 uncompressed length
 *  type 2 Zlib         varint32 uncompressed length, then raw deflate (no zlib header, window
 *                      bits -14: Zlib_DecompressBlock)
 *  type 4/5 LZ4/LZ4HC  varint32 uncompressed length, then one LZ4 block (LZ4_decompress_safe)
 *  type 7 ZSTD         varint32 uncompressed length, then one Zstandard frame
 *  type 3 BZip2, 6 Xpress (Windows), 0x80+ custom      not decompressed here
 * </pre>
 *
 * (The reader takes the length as a varint64, "preliminarily generalized"; writers emit a
 * varint32.) Index blocks are never compressed with a dictionary (the table builder's index
 * compressor is created without one), so none is needed.
 *
 * <p><b>Bounds.</b> The stated length is checked before anything is allocated: it must be at most
 * {@link #MAX_DECOMPRESSED_BYTES} and at most what the algorithm can expand the stored bytes to (a
 * Snappy element of n bytes yields at most 22n bytes, an LZ4 sequence about 255n, deflate 1032n, a
 * Zstandard block of at most 128 KiB needs at least 4 bytes). The decompressed length must then
 * equal the stated one. Any failure is a {@link SieveFormatException} naming the block and its
 * offset. Snappy, LZ4 and Zstandard come from aircompressor (pure Java); deflate from {@link
 * Inflater}.
 */
final class BlockDecompressor {
  private BlockDecompressor() {}

  /** Largest decompressed block accepted (256 MiB): a larger stated size is called corrupt. */
  static final int MAX_DECOMPRESSED_BYTES = 1 << 28;

  static final int SNAPPY = 1;
  static final int ZLIB = 2;
  static final int BZIP2 = 3;
  static final int LZ4 = 4;
  static final int LZ4HC = 5;
  static final int XPRESS = 6;
  static final int ZSTD = 7;

  /** {@return RocksDB's name for compression type {@code type}} */
  static String name(int type) {
    return switch (type) {
      case 0 -> "kNoCompression";
      case SNAPPY -> "kSnappyCompression";
      case ZLIB -> "kZlibCompression";
      case BZIP2 -> "kBZip2Compression";
      case LZ4 -> "kLZ4Compression";
      case LZ4HC -> "kLZ4HCCompression";
      case XPRESS -> "kXpressCompression";
      case ZSTD -> "kZSTD";
      default ->
          type >= 0x80
              ? String.format(java.util.Locale.ROOT, "custom compression type 0x%02x", type)
              : "unknown compression type " + type;
    };
  }

  /** {@return whether blocks of compression {@code type} can be decompressed here} */
  static boolean supports(int type) {
    return type == SNAPPY || type == ZLIB || type == LZ4 || type == LZ4HC || type == ZSTD;
  }

  /**
   * Decompresses the stored bytes of a block.
   *
   * @param type the block trailer's compression type; must be {@linkplain #supports supported}
   * @param stored the block's stored bytes (trailer excluded)
   * @param offset the block's file offset, for errors
   * @param what the block's name, for errors
   * @return the block's contents
   * @throws SieveFormatException if the bytes do not decompress to the stated length
   */
  static byte[] decompress(int type, byte[] stored, long offset, String what) {
    if (!supports(type)) {
      throw new IllegalArgumentException("cannot decompress " + name(type));
    }
    String where = what + " (" + name(type) + ")";
    int at; // where the compressed payload starts
    long size;
    if (type == SNAPPY) {
      // Snappy's own preamble: the uncompressed length as a varint32; the payload includes it
      ByteCursor c = new ByteCursor(stored, 0, stored.length, offset);
      size = c.varint32(where + " Snappy uncompressed length");
      at = 0;
    } else {
      ByteCursor c = new ByteCursor(stored, 0, stored.length, offset);
      size = c.varint64(where + " uncompressed length");
      at = c.position();
    }
    int payload = stored.length - at;
    long bound = expansionBound(type, payload);
    if (size < 0 || size > MAX_DECOMPRESSED_BYTES || size > bound) {
      throw new SieveFormatException(
          offset,
          where
              + ": stated uncompressed length "
              + Long.toUnsignedString(size)
              + " is more than "
              + (size < 0 || size > MAX_DECOMPRESSED_BYTES
                  ? "the limit of " + MAX_DECOMPRESSED_BYTES + " bytes"
                  : "the " + bound + " bytes " + payload + " compressed bytes can expand to")
              + ": the block is corrupt");
    }
    byte[] out = new byte[(int) size];
    int n;
    try {
      n =
          switch (type) {
            case SNAPPY ->
                new SnappyDecompressor().decompress(stored, 0, stored.length, out, 0, out.length);
            case LZ4, LZ4HC ->
                new Lz4Decompressor().decompress(stored, at, payload, out, 0, out.length);
            case ZSTD -> new ZstdDecompressor().decompress(stored, at, payload, out, 0, out.length);
            case ZLIB -> inflate(stored, at, payload, out, offset, where);
            default -> throw new AssertionError(type);
          };
    } catch (MalformedInputException
        | IndexOutOfBoundsException
        | IllegalArgumentException
        | IllegalStateException
        | UnsupportedOperationException e) {
      throw new SieveFormatException(
          offset, where + ": does not decompress: " + e.getMessage() + ": the block is corrupt", e);
    }
    if (n != size) {
      throw new SieveFormatException(
          offset,
          where
              + ": decompressed to "
              + n
              + " bytes, its header states "
              + size
              + ": the block is corrupt");
    }
    return out;
  }

  /** The most bytes {@code payload} compressed bytes of this type can decompress to. */
  private static long expansionBound(int type, int payload) {
    long p = payload;
    return switch (type) {
      // the longest copy element: 3 bytes (tag, 2-byte offset) for 64 bytes; +5 the preamble
      case SNAPPY -> 22 * p + 64;
      // a sequence with k match-length bytes: 3 + k bytes for up to 19 + 255k bytes
      case LZ4, LZ4HC -> 255 * p + 64;
      // deflate's maximum ratio: a 258-byte match in 2 bits, about 1032:1
      case ZLIB -> 1032 * p + 64;
      // every Zstandard block (3-byte header, at least 1 byte) yields at most 128 KiB
      case ZSTD -> (p / 4 + 1) * (128 << 10);
      default -> 0;
    };
  }

  /** Raw inflate of exactly {@code out.length} bytes, or what was inflated before it stopped. */
  private static int inflate(byte[] in, int at, int len, byte[] out, long offset, String where) {
    Inflater inf = new Inflater(true);
    try {
      // no "dummy" byte past the stream (an old zlib's need, in Inflater's Javadoc): it could
      // stand in for a truncated stream's last byte
      inf.setInput(in, at, len);
      int n = 0;
      while (n < out.length && !inf.finished()) {
        int r = inf.inflate(out, n, out.length - n);
        if (r == 0) {
          if (inf.needsDictionary()) {
            throw new SieveFormatException(
                offset,
                where + ": deflate stream asks for a preset dictionary: the block is corrupt");
          }
          break; // needs input it does not have: truncated
        }
        n += r;
      }
      if (!inf.finished()) {
        if (n == out.length && inf.inflate(new byte[1]) > 0) {
          throw new SieveFormatException(
              offset,
              where
                  + ": inflates to more than its stated "
                  + out.length
                  + " bytes: the block is"
                  + " corrupt");
        }
        if (!inf.finished()) {
          throw new SieveFormatException(
              offset, where + ": deflate stream ends early: the block is corrupt");
        }
      }
      return n;
    } catch (DataFormatException e) {
      throw new SieveFormatException(
          offset, where + ": does not inflate: " + e.getMessage() + ": the block is corrupt", e);
    } finally {
      inf.end();
    }
  }
}
