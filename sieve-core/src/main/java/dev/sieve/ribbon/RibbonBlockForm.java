package dev.sieve.ribbon;

import static dev.sieve.ribbon.Standard128RibbonFilter.MARKER;
import static dev.sieve.ribbon.Standard128RibbonFilter.TRAILER_BYTES;

import dev.sieve.SieveFormatException;
import dev.sieve.internal.ChannelReads;
import dev.sieve.internal.ChannelWrites;
import dev.sieve.internal.LongSegments;
import dev.sieve.internal.PayloadForm;
import dev.sieve.internal.base.Checks;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.channels.WritableByteChannel;

/**
 * RocksDB's Standard128Ribbon filter block for {@link Standard128RibbonFilter}: what RocksDB's
 * {@code Standard128RibbonBitsBuilder} writes and {@code GetRibbonBitsReader} reads in
 * table/block_based/filter_policy.cc. Writing ({@link #toBytes}, {@link #write}), reading ({@link
 * #read}, a copy) and wrapping ({@link #wrap}, {@link #wrapData}, in place); the block is checked
 * once, here ({@link #checkShape}).
 *
 * <h2>Layout (RocksDB SerializableInterleavedSolution)</h2>
 *
 * The data is a sequence of 16-byte little-endian segments, each one column of one 128-slot block.
 * With {@code numBlocks} blocks and {@code numSegments = dataLength / 16}: {@code upperNumColumns =
 * ceil(numSegments / numBlocks)} (at most 32) and {@code upperStartBlock = upperNumColumns ·
 * numBlocks - numSegments}; blocks before {@code upperStartBlock} hold {@code upperNumColumns - 1}
 * columns, the rest {@code upperNumColumns}, block after block. A query starting at slot {@code s}
 * reads block {@code s / 128} and, unless {@code s} is block-aligned, the next one: column {@code
 * j}'s bit is the parity of {@code (seg_j(b) & c << (s % 128)) ^ (seg_j(b+1) & c >>> (128 - s %
 * 128))}. The query ({@link RibbonProbe}) computes the same answer as RocksDB's column loop without
 * key-dependent branches but one: it runs every block's {@code upperNumColumns} columns under a
 * mask and leaves after the first two columns when they disagree (three in four negative keys), so
 * a negative query is cheaper than a positive one and a positive one is never mispredicted.
 *
 * <h2>Trailer</h2>
 *
 * Five bytes after the data: {@code 0xFE} (−2, Standard128Ribbon), the ordinal seed, and {@code
 * numBlocks} as 24-bit little-endian. Zero keys give RocksDB's empty (0-byte) filter block, which
 * RocksDB reads as "always false".
 *
 * <h2>Checks</h2>
 *
 * A 0-byte block reads as the empty filter. Everything else is checked, and refused with a {@link
 * SieveFormatException} naming the problem where it is inconsistent. Where RocksDB's own reader
 * ({@code GetRibbonBitsReader}, {@code GetBuiltinFilterBitsReader}) would quietly fall back, the
 * message says which way:
 *
 * <ul>
 *   <li>1 to 5 bytes: RocksDB reads "always false" (as if no keys); refused as truncated;
 *   <li>a marker other than {@code 0xFE}: another format (RocksDB dispatches on it, e.g. {@code
 *       0xFF} is FastLocalBloom, {@code 0} "always true");
 *   <li>fewer than 2 blocks: RocksDB reads "always true";
 *   <li>a data length that is not a whole number of 16-byte segments, no segment at all, or more
 *       than 32 columns per block: never written by RocksDB (its reader would ignore the excess or
 *       answer "maybe" everywhere).
 * </ul>
 *
 * Fewer segments than blocks is valid (some blocks then have no columns and answer "maybe" for
 * every key starting there), as RocksDB reads it.
 */
final class RibbonBlockForm {

  private RibbonBlockForm() {}

  // ---------------------------------------------------------------- writing

  /** The block's bytes (see {@link Standard128RibbonFilter#toRocksDbFilterBlock}). */
  static byte[] toBytes(Standard128RibbonFilter f) {
    int numBlocks = f.numBlocks();
    if (numBlocks == 0) {
      return new byte[0];
    }
    if (f.rocksDbFilterBlockLength() > Integer.MAX_VALUE - 8) {
      throw new IllegalStateException(
          "a filter block of "
              + f.rocksDbFilterBlockLength()
              + " bytes does not fit one byte[]; use writeRocksDbFilterBlock");
    }
    int numSegments = f.numSegments();
    int dataLen = numSegments * RibbonSizing.SEGMENT_BYTES;
    byte[] out = new byte[dataLen + TRAILER_BYTES];
    ByteBuffer buf = ByteBuffer.wrap(out).order(ByteOrder.LITTLE_ENDIAN);
    for (int i = 0; i < 2 * numSegments; i++) {
      buf.putLong(f.word(i));
    }
    out[dataLen] = MARKER;
    out[dataLen + 1] = (byte) f.seed();
    out[dataLen + 2] = (byte) numBlocks;
    out[dataLen + 3] = (byte) (numBlocks >>> 8);
    out[dataLen + 4] = (byte) (numBlocks >>> 16);
    return out;
  }

  /** Writes the block's bytes (see {@link Standard128RibbonFilter#writeRocksDbFilterBlock}). */
  static void write(Standard128RibbonFilter f, WritableByteChannel out) throws IOException {
    int numBlocks = f.numBlocks();
    if (numBlocks == 0) {
      return;
    }
    ChannelWrites.writeWords(
        out,
        2L * f.numSegments(),
        i -> f.word((int) i),
        new byte[] {
          MARKER,
          (byte) f.seed(),
          (byte) numBlocks,
          (byte) (numBlocks >>> 8),
          (byte) (numBlocks >>> 16)
        });
  }

  // ---------------------------------------------------------------- reading and wrapping

  /**
   * The filter of a block's bytes, copied (see {@link
   * Standard128RibbonFilter#fromRocksDbFilterBlock(byte[], long)}).
   */
  static Standard128RibbonFilter read(byte[] block, long numKeys) {
    Checks.count("number of keys", numKeys, Long.MAX_VALUE);
    if (block.length == 0) {
      checkEmptyBlockKeys(numKeys);
      return Standard128RibbonFilter.EMPTY;
    }
    BlockShape shape = checkBlock(ByteBuffer.wrap(block));
    int dataLen = block.length - TRAILER_BYTES;
    int upper = (int) ((shape.numSegments + shape.numBlocks - 1) / shape.numBlocks);
    long[] data = new long[RibbonProbe.paddedWords(dataLen / RibbonSizing.SEGMENT_BYTES, upper)];
    ByteBuffer.wrap(block, 0, dataLen)
        .order(ByteOrder.LITTLE_ENDIAN)
        .asLongBuffer()
        .get(data, 0, dataLen / Long.BYTES);
    return new Standard128RibbonFilter(
        data, null, null, shape.numBlocks, (int) shape.numSegments, shape.seed, numKeys);
  }

  /**
   * The filter of the block in a buffer's remaining bytes, read in place (see {@link
   * Standard128RibbonFilter#wrapRocksDbFilterBlock}).
   */
  static Standard128RibbonFilter wrap(ByteBuffer block, long numKeys) {
    Checks.count("number of keys", numKeys, Long.MAX_VALUE);
    ByteBuffer view = block.slice();
    if (!view.hasRemaining()) {
      checkEmptyBlockKeys(numKeys);
      return Standard128RibbonFilter.EMPTY;
    }
    BlockShape shape = checkBlock(view);
    LongSegments segments = LongSegments.of(view, 2 * shape.numSegments);
    return new Standard128RibbonFilter(
        null,
        segments,
        view.duplicate().order(ByteOrder.LITTLE_ENDIAN).asLongBuffer(),
        shape.numBlocks,
        (int) shape.numSegments,
        shape.seed,
        numKeys);
  }

  /**
   * Maps the block of {@code blockLength} bytes at {@code offset} of {@code channel}, its data in
   * segments of {@code 2^segmentShift} bytes, for blocks over one buffer; the trailer is read and
   * checked as {@link #wrap} checks it.
   *
   * @throws SieveFormatException with file offsets
   */
  static Standard128RibbonFilter map(
      FileChannel channel, long offset, long blockLength, int segmentShift, long numKeys)
      throws IOException {
    long dataLen = blockLength - TRAILER_BYTES;
    try {
      ByteBuffer trailer = ChannelReads.readSmall(channel, offset + dataLen, TRAILER_BYTES);
      return wrapData(
          ChannelReads.mapSegments(channel, offset, dataLen, segmentShift),
          segmentShift,
          dataLen,
          trailer,
          numKeys);
    } catch (SieveFormatException e) {
      throw new SieveFormatException(offset + e.offset(), e.getMessage(), e);
    }
  }

  /** The filter of data split over buffers of {@code 2^segmentShift} bytes, read in place. */
  static Standard128RibbonFilter wrapData(
      ByteBuffer[] segments, int segmentShift, long dataBytes, ByteBuffer trailer, long numKeys) {
    Checks.count("number of keys", numKeys, Long.MAX_VALUE);
    if (trailer.remaining() != TRAILER_BYTES) {
      throw new IllegalArgumentException(
          "trailer must be " + TRAILER_BYTES + " bytes, got " + trailer.remaining());
    }
    BlockShape shape = checkShape(trailer, trailer.position(), dataBytes);
    LongSegments data = LongSegments.of(segments, segmentShift, 2 * shape.numSegments);
    return new Standard128RibbonFilter(
        null, data, null, shape.numBlocks, (int) shape.numSegments, shape.seed, numKeys);
  }

  // ---------------------------------------------------------------- checks

  /** RocksDB's 0-byte block answers "absent" for every key: refuse a claim that it has some. */
  private static void checkEmptyBlockKeys(long numKeys) {
    if (numKeys > 0) {
      throw new SieveFormatException(
          0,
          "a 0-byte Ribbon block (RocksDB's block for zero keys) cannot hold the "
              + numKeys
              + " keys given: it answers \"absent\" for every key");
    }
  }

  /** What a filter block's trailer and length say. */
  private record BlockShape(int seed, int numBlocks, long numSegments) {}

  /** Validates a non-empty block (the buffer's remaining bytes); see fromRocksDbFilterBlock. */
  private static BlockShape checkBlock(ByteBuffer block) {
    int length = block.remaining();
    if (length <= TRAILER_BYTES) {
      throw new SieveFormatException(
          0,
          "filter block of "
              + length
              + " bytes is not longer than its 5-byte trailer (RocksDB reads it as 'always"
              + " false', i.e. no keys; refused as truncated)");
    }
    int dataLen = length - TRAILER_BYTES;
    return checkShape(block, block.position() + dataLen, dataLen);
  }

  /**
   * Validates the trailer at {@code trailerAt} in {@code buf} for {@code dataLen} data bytes before
   * it (offsets in the messages are relative to the block's first byte).
   */
  private static BlockShape checkShape(ByteBuffer buf, int trailerAt, long dataLen) {
    if (buf.get(trailerAt) != MARKER) {
      throw new SieveFormatException(
          dataLen,
          "trailer marker is "
              + buf.get(trailerAt)
              + ", expected -2 (Standard128Ribbon); -1 is FastLocalBloom, 0 RocksDB's 'always"
              + " true', >= 1 legacy Bloom");
    }
    int seed = buf.get(trailerAt + 1) & 0xFF;
    int numBlocks =
        (buf.get(trailerAt + 2) & 0xFF)
            | (buf.get(trailerAt + 3) & 0xFF) << 8
            | (buf.get(trailerAt + 4) & 0xFF) << 16;
    if (numBlocks < 2) {
      throw new SieveFormatException(
          dataLen + 2,
          "number of blocks is "
              + numBlocks
              + ", at least 2 required (RocksDB reads such a block as 'always true')");
    }
    if (dataLen <= 0 || dataLen % RibbonSizing.SEGMENT_BYTES != 0) {
      throw new SieveFormatException(
          dataLen, "data length " + dataLen + " is not a positive multiple of the 16-byte segment");
    }
    long numSegments = dataLen / RibbonSizing.SEGMENT_BYTES;
    if (numSegments > (long) numBlocks * RibbonSizing.MAX_COLUMNS) {
      throw new SieveFormatException(
          dataLen,
          numSegments
              + " segments over "
              + numBlocks
              + " blocks is more than 32 result columns per block");
    }
    return new BlockShape(seed, numBlocks, numSegments);
  }

  // ---------------------------------------------------------------- the container's payload form

  /**
   * The container's payload form (type id 3): the block itself; parameter A the seed, B the number
   * of blocks. Read in place, past 2 GiB in segments ({@link #map}). Registered by {@link
   * RibbonFamily}.
   */
  static PayloadForm<Standard128RibbonFilter> payloadForm() {
    return PayloadForm.inPlace(
        Standard128RibbonFilter.class,
        RibbonBlockForm::toBytes,
        Standard128RibbonFilter::seed,
        Standard128RibbonFilter::numBlocks,
        RibbonBlockForm::read,
        RibbonBlockForm::wrap,
        Standard128RibbonFilter::rocksDbFilterBlockLength,
        RibbonBlockForm::write,
        RibbonBlockForm::map);
  }
}
