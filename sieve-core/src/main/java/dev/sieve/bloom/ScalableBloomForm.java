package dev.sieve.bloom;

import dev.sieve.SieveFormatException;
import dev.sieve.internal.ChannelReads;
import dev.sieve.internal.ChannelWrites;
import dev.sieve.internal.PayloadForm;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.channels.WritableByteChannel;

/**
 * The payload format of {@link ScalableBloomFilter} (the Sieve container's type id 11): writing it,
 * and reading it from a {@code byte[]}, a buffer or, past 2 GiB, a file channel (each stage mapped
 * by {@link BlockedBloomForm#map}), each checked once here; {@link Payload} is the container's form
 * of it.
 *
 * <p>Little-endian, every offset from the payload's start: a 64-byte header ({@code u32} payload
 * version 2, {@code u32} stage count {@code m}, {@code u64} initial capacity {@code n0}, {@code
 * f64} requested rate {@code f}, {@code f64} growth factor {@code s}, {@code f64} tightening ratio
 * {@code r}, 24 zero bytes), then a 32-byte entry per stage ({@code u64} capacity, {@code u64} key
 * count, {@code u64} filter-block length, {@code u32} probe count, 4 zero bytes) padded with zeros
 * to a multiple of 64, then each stage's RocksDB FastLocalBloom filter block (data then the 5-byte
 * trailer) followed by zeros to the next multiple of 64, so every stage's data starts 64-byte
 * aligned. {@code docs/format.md} lists the checks. Read in place from a buffer each stage is a
 * zero-copy view. The entry's probe count is a second copy of the one in the stage's block trailer
 * and must agree with it, so an edit of a stage's probe count behind recomputed checksums is
 * refused (as the container header's parameter A makes it for a plain blocked Bloom filter) rather
 * than read as a stage that answers "absent" for its keys. Any other payload version is refused.
 */
final class ScalableBloomForm {
  private ScalableBloomForm() {}

  /** The payload version this class writes and reads: stage entries with the probe count. */
  static final int PAYLOAD_VERSION = 2;

  static final int HEADER_BYTES = 64;
  static final int STAGE_ENTRY_BYTES = 32;

  // ---------------------------------------------------------------- layout

  /** The payload length of these stages. */
  static long length(ScalableBloomStage[] stages) {
    long at = tableEnd(stages.length);
    for (ScalableBloomStage s : stages) {
      at = align64(at + s.filter.rocksDbFilterBlockLength());
    }
    return at;
  }

  static long tableEnd(int numStages) {
    return align64(HEADER_BYTES + (long) STAGE_ENTRY_BYTES * numStages);
  }

  private static long align64(long at) {
    return (at + 63) & ~63L;
  }

  // ---------------------------------------------------------------- writing

  /** {@code filter}'s parameters with these stages (read once by the caller), as one array. */
  static byte[] toByteArray(ScalableBloomFilter filter, ScalableBloomStage[] stages) {
    long length = length(stages);
    if (length > Integer.MAX_VALUE - 8) {
      throw new IllegalStateException(
          "a scalable filter of " + length + " bytes does not fit one byte[]; use writeTo");
    }
    ByteBuffer out = ByteBuffer.allocate((int) length).order(ByteOrder.LITTLE_ENDIAN);
    out.put(headerAndTable(filter, stages));
    for (ScalableBloomStage s : stages) {
      out.put(s.filter.toRocksDbFilterBlock());
      out.position((int) align64(out.position()));
    }
    return out.array();
  }

  /** The bytes of {@link #toByteArray} to {@code out} in chunks, for any size; not closed. */
  static void writeTo(
      ScalableBloomFilter filter, ScalableBloomStage[] stages, WritableByteChannel out)
      throws IOException {
    ChannelWrites.writeFully(out, ByteBuffer.wrap(headerAndTable(filter, stages)));
    for (ScalableBloomStage s : stages) {
      s.filter.writeRocksDbFilterBlock(out);
      long len = s.filter.rocksDbFilterBlockLength();
      int pad = (int) (align64(len) - len);
      ChannelWrites.writeFully(out, ByteBuffer.allocate(pad));
    }
  }

  private static byte[] headerAndTable(ScalableBloomFilter filter, ScalableBloomStage[] stages) {
    ByteBuffer b =
        ByteBuffer.allocate((int) tableEnd(stages.length)).order(ByteOrder.LITTLE_ENDIAN);
    b.putInt(0, PAYLOAD_VERSION);
    b.putInt(4, stages.length);
    b.putLong(8, filter.initialCapacity());
    b.putDouble(16, filter.fpRate());
    b.putDouble(24, filter.growthFactor());
    b.putDouble(32, filter.tighteningRatio());
    for (int i = 0; i < stages.length; i++) {
      int at = HEADER_BYTES + STAGE_ENTRY_BYTES * i;
      b.putLong(at, stages[i].capacity);
      b.putLong(at + 8, stages[i].keys());
      b.putLong(at + 16, stages[i].filter.rocksDbFilterBlockLength());
      b.putInt(at + 24, stages[i].filter.numProbes());
    }
    return b.array();
  }

  // ---------------------------------------------------------------- reading

  /**
   * The filter in {@code payload}'s remaining bytes: copied onto the heap (mutable), or {@code
   * inPlace} as zero-copy views of the buffer (read-only).
   *
   * @throws SieveFormatException naming the offset and the problem for anything but a valid form
   */
  static ScalableBloomFilter read(ByteBuffer payload, boolean inPlace) {
    ByteBuffer in = payload.duplicate().order(ByteOrder.LITTLE_ENDIAN);
    long length = in.remaining();
    ScalableBloomParameters p = ScalableBloomParameters.read(in, length, length);
    ScalableBloomStage[] stages = new ScalableBloomStage[p.numStages];
    long at = tableEnd(p.numStages);
    for (int i = 0; i < p.numStages; i++) {
      int entry = HEADER_BYTES + STAGE_ENTRY_BYTES * i;
      long blockLength = in.getLong(entry + 16);
      long keys = in.getLong(entry + 8);
      long capacity = in.getLong(entry);
      if (blockLength > length - at) {
        throw blockPastEnd(i, entry, blockLength, at, length);
      }
      ByteBuffer block = in.duplicate().position((int) at).limit((int) (at + blockLength)).slice();
      BlockedBloomFilter filter;
      try {
        if (inPlace) {
          filter = BlockedBloomFilter.wrapRocksDbFilterBlock(block, keys);
        } else {
          byte[] copy = new byte[(int) blockLength];
          block.get(copy);
          filter = BlockedBloomFilter.fromRocksDbFilterBlock(copy, keys);
        }
      } catch (SieveFormatException e) {
        throw new SieveFormatException(
            at + e.offset(), "stage " + i + " filter block: " + e.getMessage(), e);
      }
      p.checkProbes(i, filter);
      stages[i] = new ScalableBloomStage(filter, capacity, keys);
      long end = at + blockLength;
      at = align64(end);
      if (at > length) {
        throw new SieveFormatException(
            end, "stage " + i + " padding runs past the payload's " + length + " bytes");
      }
      for (long z = end; z < at; z++) {
        if (in.get((int) z) != 0) {
          throw new SieveFormatException(z, "padding after stage " + i + " is not zero");
        }
      }
    }
    checkEnd(at, length, p.numStages);
    return p.filter(stages, inPlace);
  }

  /** The number of leading payload bytes {@link #map} reads: the header and the largest table. */
  static final int MAX_TABLE_BYTES =
      HEADER_BYTES + STAGE_ENTRY_BYTES * ScalableBloomFilter.MAX_STAGES;

  /**
   * Maps the payload of {@code payloadLength} bytes at {@code payloadOffset} of {@code channel}, a
   * payload over one buffer: the header and table are read onto the heap and each stage's block is
   * mapped in segments of {@code 2^segmentShift} bytes ({@link BlockedBloomForm#map}). Checked as
   * {@link #read}; the filter is read-only.
   *
   * @throws SieveFormatException with file offsets
   */
  static ScalableBloomFilter map(
      FileChannel channel, long payloadOffset, long payloadLength, int segmentShift)
      throws IOException {
    try {
      ByteBuffer head =
          ChannelReads.readSmall(
              channel, payloadOffset, (int) Math.min(payloadLength, MAX_TABLE_BYTES));
      ByteBuffer in = head.order(ByteOrder.LITTLE_ENDIAN);
      ScalableBloomParameters p =
          ScalableBloomParameters.read(in, Math.min(payloadLength, in.remaining()), payloadLength);
      ScalableBloomStage[] stages = new ScalableBloomStage[p.numStages];
      long at = tableEnd(p.numStages);
      for (int i = 0; i < p.numStages; i++) {
        int entry = HEADER_BYTES + STAGE_ENTRY_BYTES * i;
        long blockLength = in.getLong(entry + 16);
        long keys = in.getLong(entry + 8);
        long end = at + blockLength;
        if (blockLength > payloadLength - at || align64(end) > payloadLength) {
          throw blockPastEnd(i, entry, blockLength, at, payloadLength);
        }
        int pad = (int) (align64(end) - end);
        ByteBuffer padding = ChannelReads.readSmall(channel, payloadOffset + end, pad);
        for (int z = 0; z < pad; z++) {
          if (padding.get(z) != 0) {
            throw new SieveFormatException(end + z, "padding after stage " + i + " is not zero");
          }
        }
        BlockedBloomFilter filter;
        try {
          filter =
              BlockedBloomForm.map(channel, payloadOffset + at, blockLength, segmentShift, keys);
        } catch (SieveFormatException e) {
          throw new SieveFormatException(
              e.offset() - payloadOffset, "stage " + i + " filter block: " + e.getMessage(), e);
        }
        p.checkProbes(i, filter);
        stages[i] = new ScalableBloomStage(filter, in.getLong(entry), keys);
        at = align64(end);
      }
      checkEnd(at, payloadLength, p.numStages);
      return p.filter(stages, true);
    } catch (SieveFormatException e) {
      throw new SieveFormatException(payloadOffset + e.offset(), e.getMessage(), e);
    }
  }

  private static SieveFormatException blockPastEnd(
      int i, int entry, long blockLength, long at, long length) {
    return new SieveFormatException(
        entry + 16,
        "stage "
            + i
            + " block of "
            + blockLength
            + " bytes at offset "
            + at
            + " runs past the payload's "
            + length
            + " bytes");
  }

  private static void checkEnd(long at, long length, int numStages) {
    if (at != length) {
      throw new SieveFormatException(
          at, "payload of " + length + " bytes, the " + numStages + " stages end at " + at);
    }
  }

  /**
   * The container's payload form (type id 11): this format; parameter A the number of stages, B 0.
   * Read in place, past 2 GiB too ({@link ScalableBloomForm#map}). Registered by {@link
   * BloomFamily}.
   */
  static PayloadForm<ScalableBloomFilter> payloadForm() {
    return PayloadForm.inPlace(
        ScalableBloomFilter.class,
        ScalableBloomFilter::toByteArray,
        ScalableBloomFilter::numStages,
        f -> 0,
        (payload, numKeys) -> read(ByteBuffer.wrap(payload), false),
        (payload, numKeys) -> read(payload.slice(), true),
        ScalableBloomFilter::serializedLength,
        ScalableBloomFilter::writeTo,
        (channel, offset, length, shift, numKeys) -> map(channel, offset, length, shift));
  }
}
