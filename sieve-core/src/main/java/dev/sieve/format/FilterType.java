package dev.sieve.format;

import dev.sieve.Filter;
import dev.sieve.SieveFormatException;
import dev.sieve.bloom.BlockedBloomFilter;
import dev.sieve.bloom.StandardBloomFilter;
import dev.sieve.cuckoo.CuckooFilter;
import dev.sieve.ribbon.Standard128RibbonFilter;
import dev.sieve.xor.BinaryFuse16Filter;
import dev.sieve.xor.BinaryFuse8Filter;
import dev.sieve.xor.Xor16Filter;
import dev.sieve.xor.Xor8Filter;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;

/**
 * The filter types a Sieve container holds, each with its type id (bytes 10-11 of the header) and
 * its payload: the filter's own serialized form. The ids are part of the file format and never
 * change or get reused; {@code docs/format.md} lists them. For the RocksDB-compatible types
 * (blocked Bloom, Ribbon) the payload is the RocksDB filter block itself.
 */
public enum FilterType {
  /**
   * {@link BlockedBloomFilter}; payload: the RocksDB FastLocalBloom filter block (data then the
   * 5-byte trailer), so the payload can be handed to RocksDB unchanged. Read zero-copy.
   */
  BLOCKED_BLOOM(1, new BlockedBloomCodec()),
  /**
   * {@link StandardBloomFilter}; payload: {@link StandardBloomFilter#toByteArray()}. Read
   * zero-copy.
   */
  STANDARD_BLOOM(2, new StandardBloomCodec()),
  /**
   * {@link Standard128RibbonFilter}; payload: the RocksDB Standard128Ribbon filter block (data then
   * the 5-byte trailer {@code FE seed numBlocks(24 bits)}), handed to RocksDB unchanged. Read
   * zero-copy (up to one buffer's 2 GiB).
   */
  RIBBON_128(
      3,
      new SimpleCodec<>(
          Standard128RibbonFilter.class,
          Standard128RibbonFilter::toRocksDbFilterBlock,
          Standard128RibbonFilter::fromRocksDbFilterBlock) {
        @Override
        int parameterA(Standard128RibbonFilter f) {
          return f.seed();
        }

        @Override
        int parameterB(Standard128RibbonFilter f) {
          return f.numBlocks();
        }

        @Override
        Standard128RibbonFilter read(byte[] payload, long numKeys) {
          return Standard128RibbonFilter.fromRocksDbFilterBlock(payload, numKeys);
        }

        @Override
        Standard128RibbonFilter wrap(ByteBuffer payload, long numKeys) {
          return Standard128RibbonFilter.wrapRocksDbFilterBlock(payload, numKeys);
        }

        @Override
        boolean zeroCopy() {
          return true;
        }

        @Override
        long payloadLength(Standard128RibbonFilter f) {
          return f.rocksDbFilterBlockLength();
        }

        @Override
        void writePayload(Standard128RibbonFilter f, java.nio.channels.WritableByteChannel out)
            throws java.io.IOException {
          f.writeRocksDbFilterBlock(out);
        }

        @Override
        Standard128RibbonFilter mapLarge(
            FileChannel channel, long payloadOffset, long payloadLength, int shift, long numKeys)
            throws java.io.IOException {
          long dataLen = payloadLength - Standard128RibbonFilter.TRAILER_BYTES;
          ByteBuffer trailer =
              readSmall(channel, payloadOffset + dataLen, Standard128RibbonFilter.TRAILER_BYTES);
          return Standard128RibbonFilter.wrapData(
              mapSegments(channel, payloadOffset, dataLen, shift),
              shift,
              dataLen,
              trailer,
              numKeys);
        }
      }),
  /** {@link Xor8Filter}; payload: {@link Xor8Filter#toByteArray()}. Read zero-copy. */
  XOR8(
      4,
      new SimpleCodec<>(
          Xor8Filter.class, Xor8Filter::toByteArray, Xor8Filter::fromByteArray, Xor8Filter::wrap) {
        @Override
        int parameterA(Xor8Filter f) {
          return Xor8Filter.FINGERPRINT_BITS;
        }

        @Override
        int parameterB(Xor8Filter f) {
          return 3;
        }
      }),
  /** {@link Xor16Filter}; payload: {@link Xor16Filter#toByteArray()}. Read zero-copy. */
  XOR16(
      5,
      new SimpleCodec<>(
          Xor16Filter.class,
          Xor16Filter::toByteArray,
          Xor16Filter::fromByteArray,
          Xor16Filter::wrap) {
        @Override
        int parameterA(Xor16Filter f) {
          return Xor16Filter.FINGERPRINT_BITS;
        }

        @Override
        int parameterB(Xor16Filter f) {
          return 3;
        }
      }),
  /**
   * {@link BinaryFuse8Filter}; payload: {@link BinaryFuse8Filter#toByteArray()}. Read zero-copy.
   */
  BINARY_FUSE8(
      6,
      new SimpleCodec<>(
          BinaryFuse8Filter.class,
          BinaryFuse8Filter::toByteArray,
          BinaryFuse8Filter::fromByteArray,
          BinaryFuse8Filter::wrap) {
        @Override
        int parameterA(BinaryFuse8Filter f) {
          return BinaryFuse8Filter.FINGERPRINT_BITS;
        }

        @Override
        int parameterB(BinaryFuse8Filter f) {
          return f.arity();
        }
      }),
  /**
   * {@link BinaryFuse16Filter}; payload: {@link BinaryFuse16Filter#toByteArray()}. Read zero-copy.
   */
  BINARY_FUSE16(
      7,
      new SimpleCodec<>(
          BinaryFuse16Filter.class,
          BinaryFuse16Filter::toByteArray,
          BinaryFuse16Filter::fromByteArray,
          BinaryFuse16Filter::wrap) {
        @Override
        int parameterA(BinaryFuse16Filter f) {
          return BinaryFuse16Filter.FINGERPRINT_BITS;
        }

        @Override
        int parameterB(BinaryFuse16Filter f) {
          return f.arity();
        }
      }),
  /**
   * {@link CuckooFilter}; payload: {@link CuckooFilter#toByteArray()}. Read zero-copy; a wrapped
   * filter is read-only ({@link CuckooFilter#copy()} gives a mutable one).
   */
  CUCKOO(
      8,
      new SimpleCodec<>(
          CuckooFilter.class,
          CuckooFilter::toByteArray,
          CuckooFilter::fromByteArray,
          CuckooFilter::wrap) {
        @Override
        int parameterA(CuckooFilter f) {
          return f.fingerprintBits();
        }

        @Override
        int parameterB(CuckooFilter f) {
          return CuckooFilter.SLOTS_PER_BUCKET;
        }
      }),
  /**
   * {@link dev.sieve.shard.ShardedFilter}: shard count, shard type, a shard table, then each
   * shard's own payload, 64-byte aligned ({@link ShardedCodec}). Parameter A is the shard type id,
   * B the shard count. Read zero-copy (each shard in place; past 2 GiB each shard is mapped
   * separately). Ids 9 to 11 are left to types being added on other branches.
   */
  SHARDED(12, new ShardedCodec());

  private final int id;
  private final PayloadCodec<? extends Filter> codec;

  FilterType(int id, PayloadCodec<? extends Filter> codec) {
    this.id = id;
    this.codec = codec;
  }

  /** The type id stored in the header. */
  public int id() {
    return id;
  }

  /** The filter class this type reads to. */
  public Class<? extends Filter> filterClass() {
    return codec.filterClass();
  }

  /** Whether {@link SieveFormat#wrap} and {@link SieveFormat#map} read this type in place. */
  public boolean zeroCopy() {
    return codec.zeroCopy();
  }

  @SuppressWarnings("unchecked")
  PayloadCodec<Filter> codec() {
    return (PayloadCodec<Filter>) codec;
  }

  /** The type with this id, or {@code null}. */
  static FilterType byId(int id) {
    for (FilterType t : values()) {
      if (t.id == id) {
        return t;
      }
    }
    return null;
  }

  /**
   * The type of {@code filter}.
   *
   * @throws IllegalArgumentException if the container has no type for its class
   */
  public static FilterType of(Filter filter) {
    for (FilterType t : values()) {
      if (t.codec.filterClass() == filter.getClass()) {
        return t;
      }
    }
    throw new IllegalArgumentException(
        "the Sieve container has no type for " + filter.getClass().getName());
  }

  // ---------------------------------------------------------------- codecs

  /**
   * A codec over a {@code toByteArray()}/{@code fromByteArray(byte[])} pair, and a zero-copy {@code
   * wrap(ByteBuffer)} reading the same form in place where the class has one.
   */
  private abstract static class SimpleCodec<F extends Filter> extends PayloadCodec<F> {
    private final java.util.function.Function<F, byte[]> writer;
    private final java.util.function.Function<byte[], F> reader;
    private final java.util.function.Function<ByteBuffer, F> wrapper; // null: copy

    SimpleCodec(
        Class<F> cls,
        java.util.function.Function<F, byte[]> writer,
        java.util.function.Function<byte[], F> reader) {
      this(cls, writer, reader, null);
    }

    SimpleCodec(
        Class<F> cls,
        java.util.function.Function<F, byte[]> writer,
        java.util.function.Function<byte[], F> reader,
        java.util.function.Function<ByteBuffer, F> wrapper) {
      super(cls);
      this.writer = writer;
      this.reader = reader;
      this.wrapper = wrapper;
    }

    @Override
    F wrap(ByteBuffer payload, long numKeys) {
      return wrapper != null ? wrapper.apply(payload) : super.wrap(payload, numKeys);
    }

    @Override
    boolean zeroCopy() {
      return wrapper != null;
    }

    @Override
    byte[] payload(F filter) {
      return writer.apply(filter);
    }

    @Override
    F read(byte[] payload, long numKeys) {
      return reader.apply(payload);
    }
  }

  private static final class BlockedBloomCodec extends PayloadCodec<BlockedBloomFilter> {
    BlockedBloomCodec() {
      super(BlockedBloomFilter.class);
    }

    @Override
    byte[] payload(BlockedBloomFilter f) {
      return f.toRocksDbFilterBlock();
    }

    @Override
    long payloadLength(BlockedBloomFilter f) {
      return f.rocksDbFilterBlockLength();
    }

    @Override
    void writePayload(BlockedBloomFilter f, java.nio.channels.WritableByteChannel out)
        throws IOException {
      f.writeRocksDbFilterBlock(out);
    }

    /** The probes; 0 for the empty filter, whose payload is RocksDB's 0-byte block. */
    @Override
    int parameterA(BlockedBloomFilter f) {
      return f.numBlocks() == 0 ? 0 : f.numProbes();
    }

    @Override
    int parameterB(BlockedBloomFilter f) {
      return 0;
    }

    @Override
    BlockedBloomFilter read(byte[] payload, long numKeys) {
      return BlockedBloomFilter.fromRocksDbFilterBlock(payload, numKeys);
    }

    @Override
    BlockedBloomFilter wrap(ByteBuffer payload, long numKeys) {
      return BlockedBloomFilter.wrapRocksDbFilterBlock(payload, numKeys);
    }

    @Override
    boolean zeroCopy() {
      return true;
    }

    @Override
    BlockedBloomFilter mapLarge(
        FileChannel channel, long payloadOffset, long payloadLength, int shift, long numKeys)
        throws IOException {
      long dataLen = payloadLength - BlockedBloomFilter.TRAILER_BYTES;
      if (dataLen % BlockedBloomFilter.BLOCK_BYTES != 0
          || dataLen > BlockedBloomFilter.MAX_DATA_BYTES) {
        throw new SieveFormatException(
            payloadOffset,
            "FastLocalBloom data length "
                + dataLen
                + " is not a multiple of 64 up to "
                + BlockedBloomFilter.MAX_DATA_BYTES);
      }
      long trailerAt = payloadOffset + dataLen;
      ByteBuffer trailer = readSmall(channel, trailerAt, BlockedBloomFilter.TRAILER_BYTES);
      int probes = trailer.get(2) & 0xFF;
      if ((trailer.get(0) & 0xFF) != 0xFF
          || trailer.get(1) != 0
          || probes < 1
          || probes > 30
          || trailer.get(3) != 0
          || trailer.get(4) != 0) {
        throw new SieveFormatException(
            trailerAt, "not a FastLocalBloom trailer (FF 00 probes(1..30) 00 00)");
      }
      return BlockedBloomFilter.wrapData(
          mapSegments(channel, payloadOffset, dataLen, shift), shift, dataLen, probes, numKeys);
    }
  }

  private static final class StandardBloomCodec extends PayloadCodec<StandardBloomFilter> {
    StandardBloomCodec() {
      super(StandardBloomFilter.class);
    }

    @Override
    byte[] payload(StandardBloomFilter f) {
      return f.toByteArray();
    }

    @Override
    int parameterA(StandardBloomFilter f) {
      return f.numProbes();
    }

    @Override
    int parameterB(StandardBloomFilter f) {
      return 0;
    }

    @Override
    StandardBloomFilter read(byte[] payload, long numKeys) {
      return StandardBloomFilter.fromByteArray(payload, numKeys);
    }

    @Override
    StandardBloomFilter wrap(ByteBuffer payload, long numKeys) {
      return StandardBloomFilter.wrap(payload, numKeys);
    }

    @Override
    boolean zeroCopy() {
      return true;
    }

    @Override
    StandardBloomFilter mapLarge(
        FileChannel channel, long payloadOffset, long payloadLength, int shift, long numKeys)
        throws IOException {
      int hb = StandardBloomFilter.HEADER_BYTES;
      if (payloadLength < hb) {
        throw new SieveFormatException(payloadOffset, "standard Bloom payload shorter than 16");
      }
      ByteBuffer header = readSmall(channel, payloadOffset, hb).order(ByteOrder.LITTLE_ENDIAN);
      long bits = header.getLong(0);
      int probes = header.get(8);
      if (bits < 1 || bits > StandardBloomFilter.MAX_BITS) {
        throw new SieveFormatException(
            payloadOffset, "number of bits " + bits + " outside [1, MAX_BITS]");
      }
      if (probes < 1 || probes > StandardBloomFilter.MAX_PROBES) {
        throw new SieveFormatException(payloadOffset + 8, "number of probes " + probes);
      }
      for (int i = 9; i < hb; i++) {
        if (header.get(i) != 0) {
          throw new SieveFormatException(payloadOffset + i, "reserved header byte is not zero");
        }
      }
      long dataLen = ((bits + 63) >>> 6) * Long.BYTES;
      if (payloadLength != hb + dataLen) {
        throw new SieveFormatException(
            payloadOffset + hb,
            "data of " + (payloadLength - hb) + " bytes, expected " + dataLen + " for " + bits);
      }
      return StandardBloomFilter.wrapData(
          mapSegments(channel, payloadOffset + hb, dataLen, shift), shift, bits, probes, numKeys);
    }
  }
}
