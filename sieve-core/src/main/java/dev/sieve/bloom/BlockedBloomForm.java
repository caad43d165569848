package dev.sieve.bloom;

import static dev.sieve.bloom.BlockedBloomFilter.BLOCK_BYTES;
import static dev.sieve.bloom.BlockedBloomFilter.MAX_DATA_BYTES;
import static dev.sieve.bloom.BlockedBloomKernel.addAllPlain;

import dev.sieve.KeyScheme;
import dev.sieve.SieveFormatException;
import dev.sieve.internal.BloomWords;
import dev.sieve.internal.ChannelReads;
import dev.sieve.internal.LongKeyBlocks;
import dev.sieve.internal.PayloadForm;
import dev.sieve.internal.base.Checks;
import dev.sieve.math.BloomMath;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.WritableByteChannel;
import java.util.Objects;

/**
 * RocksDB's FastLocalBloom filter block and sizing for {@link BlockedBloomFilter}: what RocksDB's
 * {@code FastLocalBloomBitsBuilder} and {@code FastLocalBloomBitsReader} do in
 * table/block_based/filter_policy.cc, around the bit math of {@link BlockedBloomKernel}.
 *
 * <h2>The block</h2>
 *
 * The data (the words' little-endian bytes, a multiple of 64 bytes, at most {@link
 * BlockedBloomFilter#MAX_DATA_BYTES}) followed by a 5-byte trailer: {@code 0xFF} (newer Bloom),
 * {@code 0x00} (FastLocalBloom), a byte holding the block-size code (top 3 bits, 0 for 64-byte
 * blocks) and the number of probes (low 5 bits, 1..30), and two zero bytes. Zero keys give the
 * empty block (0 bytes). Reading ({@link #read}, a copy) and wrapping ({@link #wrap}, in place)
 * check the trailer once, here.
 *
 * <h2>Sizing</h2>
 *
 * Bits per key become {@code millibits = (int) (bits · 1000 + 0.500001)}; the data length is {@code
 * ceil(n · millibits / 8000)} bytes capped at {@code 0xffffffc0} and rounded up to a multiple of 64
 * ({@link #dataBytes}); the probe count comes from RocksDB's table of measured optima ({@link
 * BloomMath#fastLocalBloomNumProbes}). RocksDB caps the length silently; the Sieve builders refuse
 * what does not fit ({@link #checkFits}).
 */
final class BlockedBloomForm {
  /** The length of RocksDB's filter-block trailer. */
  static final int TRAILER_BYTES = 5;

  private BlockedBloomForm() {}

  /** A filter over {@code data} with the default key scheme (the container applies its own). */
  static BlockedBloomFilter of(BloomWords data, int numProbes) {
    return new BlockedBloomFilter(data, numProbes, KeyScheme.XXPH3);
  }

  /** A filter over the heap array {@code words} (the array itself), as {@link #of}. */
  static BlockedBloomFilter onHeap(long[] words, int numProbes, long numKeys) {
    return of(BloomWords.onHeap(words, numKeys), numProbes);
  }

  // ---------------------------------------------------------------- reading and wrapping

  /**
   * The filter of a block's bytes, copied (see {@link BlockedBloomFilter#fromRocksDbFilterBlock}).
   */
  static BlockedBloomFilter read(byte[] block, long numKeys) {
    Checks.count("number of keys", numKeys, Long.MAX_VALUE);
    if (block.length == 0) {
      checkEmptyBlockKeys(numKeys, 0);
      return onHeap(new long[0], 1, 0); // RocksDB's block for zero keys
    }
    int probes = checkTrailer(ByteBuffer.wrap(block));
    int dataLen = block.length - TRAILER_BYTES;
    checkEmptyBlockKeys(numKeys, dataLen);
    return of(BloomWords.copyOf(block, 0, dataLen, numKeys), probes);
  }

  /**
   * The filter of the block in a buffer's remaining bytes, read in place (see {@link
   * BlockedBloomFilter#wrapRocksDbFilterBlock}).
   */
  static BlockedBloomFilter wrap(ByteBuffer block, long numKeys) {
    Checks.count("number of keys", numKeys, Long.MAX_VALUE);
    ByteBuffer view = block.slice();
    if (!view.hasRemaining()) {
      checkEmptyBlockKeys(numKeys, 0);
      return onHeap(new long[0], 1, 0); // RocksDB's block for zero keys
    }
    int probes = checkTrailer(view);
    long dataLen = (long) view.remaining() - TRAILER_BYTES;
    checkEmptyBlockKeys(numKeys, dataLen);
    return of(BloomWords.wrap(view, dataLen / Long.BYTES, numKeys), probes);
  }

  /** The filter of data split over buffers of {@code 2^segmentShift} bytes, read in place. */
  static BlockedBloomFilter wrapData(
      ByteBuffer[] segments, int segmentShift, long dataBytes, int numProbes, long numKeys) {
    if (dataBytes < 0 || dataBytes % BLOCK_BYTES != 0 || dataBytes > MAX_DATA_BYTES) {
      throw new IllegalArgumentException(
          "data bytes must be a multiple of 64 in [0, " + MAX_DATA_BYTES + "], got " + dataBytes);
    }
    checkProbes(numProbes);
    return of(BloomWords.wrap(segments, segmentShift, dataBytes / Long.BYTES, numKeys), numProbes);
  }

  /**
   * A block with no data answers "absent" for every key: refuse a caller's claim that it has some.
   */
  private static void checkEmptyBlockKeys(long numKeys, long dataBytes) {
    if (dataBytes == 0 && numKeys > 0) {
      throw new SieveFormatException(
          0,
          "a FastLocalBloom block with no data (RocksDB's block for zero keys) cannot hold the "
              + numKeys
              + " keys given: it answers \"absent\" for every key");
    }
  }

  /** Validates the trailer of the block in {@code block}'s remaining bytes; returns the probes. */
  private static int checkTrailer(ByteBuffer block) {
    int len = block.remaining();
    if (len < TRAILER_BYTES) {
      throw new SieveFormatException(
          0, "FastLocalBloom block of " + len + " bytes is shorter than its 5-byte trailer");
    }
    int dataLen = len - TRAILER_BYTES;
    checkDataLength(dataLen);
    return checkTrailer(block, block.position() + dataLen, dataLen);
  }

  /** Validates a data length: a multiple of 64 up to {@link BlockedBloomFilter#MAX_DATA_BYTES}. */
  private static void checkDataLength(long dataLen) {
    if (dataLen % BLOCK_BYTES != 0) {
      throw new SieveFormatException(
          0, "FastLocalBloom data length " + dataLen + " is not a multiple of 64");
    }
    if (dataLen > MAX_DATA_BYTES) {
      throw new SieveFormatException(
          0, "FastLocalBloom data length " + dataLen + " exceeds " + MAX_DATA_BYTES);
    }
  }

  /**
   * Validates the 5 trailer bytes at index {@code at} of {@code in}, which follow {@code dataLen}
   * data bytes (the offsets reported); returns the probes.
   */
  private static int checkTrailer(ByteBuffer in, int at, long dataLen) {
    int marker = in.get(at) & 0xFF;
    if (marker != 0xFF) {
      throw new SieveFormatException(
          dataLen, "trailer marker is " + marker + ", expected 0xFF (newer Bloom)");
    }
    int subImpl = in.get(at + 1) & 0xFF;
    if (subImpl != 0) {
      throw new SieveFormatException(
          dataLen + 1, "Bloom sub-implementation " + subImpl + " is not FastLocalBloom (0)");
    }
    int blockAndProbes = in.get(at + 2) & 0xFF;
    if ((blockAndProbes >>> 5) != 0) {
      throw new SieveFormatException(
          dataLen + 2, "block size code " + (blockAndProbes >>> 5) + " is not 0 (64-byte blocks)");
    }
    int probes = blockAndProbes & 31;
    if (probes < 1 || probes > 30) {
      throw new SieveFormatException(dataLen + 2, "number of probes " + probes + " outside 1..30");
    }
    if (in.get(at + 3) != 0 || in.get(at + 4) != 0) {
      throw new SieveFormatException(dataLen + 3, "reserved trailer bytes are not zero");
    }
    return probes;
  }

  /**
   * Maps the block of {@code blockLength} bytes at {@code offset} of {@code channel} in segments of
   * {@code 2^segmentShift} bytes, for blocks over one buffer (also each stage of a large scalable
   * filter); the length and trailer are checked as {@link #wrap} checks them.
   *
   * @throws SieveFormatException with file offsets
   */
  static BlockedBloomFilter map(
      FileChannel channel, long offset, long blockLength, int segmentShift, long numKeys)
      throws IOException {
    if (blockLength == 0) {
      return read(new byte[0], numKeys); // RocksDB's block for zero keys, as wrap reads it
    }
    long dataLen = blockLength - TRAILER_BYTES;
    try {
      if (dataLen < 0) {
        throw new SieveFormatException(
            0, "FastLocalBloom block of " + blockLength + " bytes is shorter than its trailer");
      }
      checkDataLength(dataLen);
      ByteBuffer trailer = ChannelReads.readSmall(channel, offset + dataLen, TRAILER_BYTES);
      int probes = checkTrailer(trailer, 0, dataLen);
      checkEmptyBlockKeys(numKeys, dataLen);
      return wrapData(
          ChannelReads.mapSegments(channel, offset, dataLen, segmentShift),
          segmentShift,
          dataLen,
          probes,
          numKeys);
    } catch (SieveFormatException e) {
      throw new SieveFormatException(offset + e.offset(), e.getMessage(), e);
    }
  }

  // ---------------------------------------------------------------- writing

  /** The block's bytes (see {@link BlockedBloomFilter#toRocksDbFilterBlock}). */
  static byte[] toBytes(BlockedBloomFilter filter) {
    if (filter.numBlocks() == 0) {
      return new byte[0];
    }
    long length = filter.rocksDbFilterBlockLength();
    if (length > Integer.MAX_VALUE - 8) {
      throw new IllegalStateException(
          "a filter block of "
              + length
              + " bytes does not fit one byte[]; use writeRocksDbFilterBlock");
    }
    byte[] out = filter.data().toBytes(0, TRAILER_BYTES);
    int dataLen = out.length - TRAILER_BYTES;
    out[dataLen] = (byte) 0xFF;
    out[dataLen + 1] = 0;
    out[dataLen + 2] = (byte) filter.numProbes();
    return out;
  }

  /** Writes the block's bytes (see {@link BlockedBloomFilter#writeRocksDbFilterBlock}). */
  static void write(BlockedBloomFilter filter, WritableByteChannel out) throws IOException {
    if (filter.numBlocks() == 0) {
      return;
    }
    filter.data().writeTo(out, new byte[] {(byte) 0xFF, 0, (byte) filter.numProbes(), 0, 0});
  }

  // ---------------------------------------------------------------- sizing and building

  /** {@link BlockedBloomFilter#createWithBitsPerKey}: {@code bitsPerKey} checked, as RocksDB. */
  static BlockedBloomFilter createWithBitsPerKey(long expectedKeys, double bitsPerKey) {
    Checks.bitsPerKey(
        bitsPerKey, FastLocalBloomSizing.MIN_BITS_PER_KEY, FastLocalBloomSizing.MAX_BITS_PER_KEY);
    return createEmpty(expectedKeys, FastLocalBloomSizing.rocksDbMillibitsPerKey(bitsPerKey));
  }

  /** An empty filter sized as RocksDB sizes one for {@code expectedKeys} at {@code millibits}. */
  static BlockedBloomFilter createEmpty(long expectedKeys, int millibits) {
    Checks.count("expected keys", expectedKeys, Long.MAX_VALUE / 100_000);
    checkFits(expectedKeys, millibits);
    long bytes = Math.max(BLOCK_BYTES, dataBytes(expectedKeys, millibits));
    return onHeap(
        new long[(int) (bytes / Long.BYTES)], BloomMath.fastLocalBloomNumProbes(millibits), 0);
  }

  /** An empty filter of a given shape (see {@link BlockedBloomFilter#withShape}). */
  static BlockedBloomFilter withShape(long dataBytes, int numProbes) {
    if (dataBytes <= 0 || dataBytes % BLOCK_BYTES != 0 || dataBytes > MAX_DATA_BYTES) {
      throw new IllegalArgumentException(
          "data bytes must be a positive multiple of 64 up to "
              + MAX_DATA_BYTES
              + ", got "
              + dataBytes);
    }
    checkProbes(numProbes);
    return onHeap(new long[(int) (dataBytes / Long.BYTES)], numProbes, 0);
  }

  /** RocksDB's filter of these hashes (see {@link BlockedBloomFilter#buildRocksDb}). */
  static BlockedBloomFilter build(long[] hashes, int count, int millibitsPerKey) {
    // (more keys than fit at this setting: the length is capped at MAX_DATA_BYTES, as RocksDB does)
    Objects.checkFromIndexSize(0, count, hashes.length);
    if (millibitsPerKey < 1000 || millibitsPerKey > 100_000) {
      throw new IllegalArgumentException(
          "millibits per key must be in [1000, 100000], got " + millibitsPerKey);
    }
    long distinct = countConsecutiveDistinct(hashes, count);
    long bytes = dataBytes(distinct, millibitsPerKey);
    long[] words = new long[(int) (bytes / Long.BYTES)];
    int numProbes = BloomMath.fastLocalBloomNumProbes(millibitsPerKey);
    BlockedBloomFilter filter = onHeap(words, numProbes, distinct);
    if (bytes > 0) {
      addAllPlain(words, filter.numBlocks(), numProbes, hashes, count);
    }
    return filter;
  }

  /** RocksDB's data length (see {@link FastLocalBloomSizing#rocksDbDataBytes}). */
  static long dataBytes(long numKeys, int millibitsPerKey) {
    long raw;
    if (numKeys > (Long.MAX_VALUE - 7999) / Math.max(1, millibitsPerKey)) {
      raw = MAX_DATA_BYTES;
    } else {
      raw = (numKeys * millibitsPerKey + 7999) / 8000;
    }
    raw = Math.min(raw, MAX_DATA_BYTES);
    return (raw + 63) & ~63L;
  }

  /** The setting for a rate (see {@link FastLocalBloomSizing#millibitsPerKeyForFpRate}). */
  static int millibitsPerKeyForFpRate(double fpRate) {
    Checks.fpRate(fpRate);
    int lo = 1000;
    int hi = 100_000;
    if (modelAt(hi) > fpRate) {
      return hi;
    }
    // the model is not strictly monotone across probe-count steps, so scan coarse then fine
    int best = hi;
    for (int m = lo; m <= hi; m += 50) {
      if (modelAt(m) <= fpRate) {
        best = m;
        break;
      }
    }
    for (int m = Math.max(lo, best - 50); m <= best; m++) {
      if (modelAt(m) <= fpRate) {
        return m;
      }
    }
    return best;
  }

  private static double modelAt(int millibits) {
    return BloomMath.cacheLocalFpRate(
        millibits / 1000.0,
        BloomMath.fastLocalBloomNumProbes(millibits),
        BloomMath.CACHE_LINE_BITS);
  }

  /** Refuses a size RocksDB would silently cap (the Sieve builders fail loudly instead). */
  static void checkFits(long numKeys, int millibitsPerKey) {
    if (numKeys > 0 && numKeys > MAX_DATA_BYTES * 8000 / millibitsPerKey) {
      throw new IllegalArgumentException(
          numKeys
              + " keys at "
              + millibitsPerKey / 1000.0
              + " bits/key need more than the FastLocalBloom limit of "
              + MAX_DATA_BYTES
              + " data bytes; at most "
              + MAX_DATA_BYTES * 8000 / millibitsPerKey
              + " keys fit at this setting");
    }
  }

  static long countConsecutiveDistinct(long[] hashes, int count) {
    return LongKeyBlocks.countConsecutiveDistinct(hashes, count);
  }

  private static void checkProbes(int numProbes) {
    if (numProbes < 1 || numProbes > 30) {
      throw new IllegalArgumentException("number of probes must be in [1, 30], got " + numProbes);
    }
  }

  // ---------------------------------------------------------------- the container's payload form

  /**
   * The container's payload form (type id 1): the block itself; parameter A the probes (0 for the
   * empty filter, whose block is RocksDB's 0-byte block), B 0. Read in place, past 2 GiB in
   * segments ({@link #map}). Registered by {@link BloomFamily}.
   */
  static PayloadForm<BlockedBloomFilter> payloadForm() {
    return PayloadForm.inPlace(
        BlockedBloomFilter.class,
        BlockedBloomForm::toBytes,
        f -> f.numBlocks() == 0 ? 0 : f.numProbes(),
        f -> 0,
        BlockedBloomForm::read,
        BlockedBloomForm::wrap,
        BlockedBloomFilter::rocksDbFilterBlockLength,
        BlockedBloomForm::write,
        BlockedBloomForm::map);
  }
}
