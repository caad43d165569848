package dev.sieve.format;

import dev.sieve.Filter;
import dev.sieve.FilterBuilder;
import dev.sieve.MutableFilter;
import dev.sieve.MutableFilterBuilder;
import dev.sieve.SieveFormatException;
import dev.sieve.bloom.BlockedBloomFilter;
import dev.sieve.bloom.ScalableBloomFilter;
import dev.sieve.bloom.SplitBlockBloomFilter;
import dev.sieve.bloom.StandardBloomFilter;
import dev.sieve.cuckoo.CuckooFilter;
import dev.sieve.internal.ChannelReads;
import dev.sieve.internal.PayloadForm;
import dev.sieve.internal.PayloadForms;
import dev.sieve.ribbon.BumpedRibbonFilter;
import dev.sieve.ribbon.Standard128RibbonFilter;
import dev.sieve.xor.BinaryFuse16Filter;
import dev.sieve.xor.BinaryFuse8Filter;
import dev.sieve.xor.Xor16Filter;
import dev.sieve.xor.Xor8Filter;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.util.function.DoubleFunction;
import java.util.function.Supplier;

/**
 * The registry of Sieve's filter types: for each, its container type id (bytes 10-11 of the
 * header), a stable name ({@link #cliName()}), what it can do ({@link #isMutable()}, {@link
 * #isMergeable()}, {@link #isRocksDbCompatible()}), how to build one ({@link #builder()}, {@link
 * #builder(double)} at its {@link #sizeSetting()}) and how its payload reads and writes. The CLI,
 * the benchmark and the tests take their list of filters from here, so adding a type is one entry
 * (and its class and tests).
 *
 * <p>The ids are part of the file format and never change or get reused; {@code docs/format.md}
 * lists them. For the RocksDB-compatible types (blocked Bloom, Ribbon) the payload is the RocksDB
 * filter block itself.
 */
public enum FilterType {
  /**
   * {@link BlockedBloomFilter}; payload: the RocksDB FastLocalBloom filter block (data then the
   * 5-byte trailer), so the payload can be handed to RocksDB unchanged. Read zero-copy.
   */
  BLOCKED_BLOOM(
      1,
      "blocked-bloom",
      Traits.MUTABLE | Traits.MERGEABLE | Traits.ROCKSDB,
      SizeSetting.BITS_PER_KEY,
      BlockedBloomFilter::builder,
      b -> BlockedBloomFilter.builder().bitsPerKey(b),
      new BlockedBloomCodec()),
  /**
   * {@link StandardBloomFilter}; payload: the class's own form (docs/format.md). Read zero-copy.
   */
  STANDARD_BLOOM(
      2,
      "standard-bloom",
      Traits.MUTABLE | Traits.MERGEABLE,
      SizeSetting.BITS_PER_KEY,
      StandardBloomFilter::builder,
      b -> StandardBloomFilter.builder().bitsPerKey(b),
      new StandardBloomCodec()),
  /**
   * {@link Standard128RibbonFilter}; payload: the RocksDB Standard128Ribbon filter block (data then
   * the 5-byte trailer {@code FE seed numBlocks(24 bits)}), handed to RocksDB unchanged. Read
   * zero-copy (up to one buffer's 2 GiB). Named {@code ribbon} ({@link #cliName()}), as in the CLI,
   * the container docs and RocksDB's {@code ribbonfilter}; {@link #RIBBON_128} is its old name.
   */
  RIBBON(
      3,
      "ribbon",
      Traits.ROCKSDB,
      SizeSetting.BLOOM_EQUIVALENT_BITS_PER_KEY,
      Standard128RibbonFilter::builder,
      b -> Standard128RibbonFilter.builder().bloomEquivalentBitsPerKey(b),
      new SimpleCodec<>(
          Standard128RibbonFilter.class,
          Standard128RibbonFilter::toRocksDbFilterBlock,
          Standard128RibbonFilter::fromRocksDbFilterBlock) {
        @Override
        public int parameterA(Standard128RibbonFilter f) {
          return f.seed();
        }

        @Override
        public int parameterB(Standard128RibbonFilter f) {
          return f.numBlocks();
        }

        @Override
        public Standard128RibbonFilter read(byte[] payload, long numKeys) {
          return Standard128RibbonFilter.fromRocksDbFilterBlock(payload, numKeys);
        }

        @Override
        public Standard128RibbonFilter wrap(ByteBuffer payload, long numKeys) {
          return Standard128RibbonFilter.wrapRocksDbFilterBlock(payload, numKeys);
        }

        @Override
        public boolean zeroCopy() {
          return true;
        }

        @Override
        public long payloadLength(Standard128RibbonFilter f) {
          return f.rocksDbFilterBlockLength();
        }

        @Override
        public void writePayload(
            Standard128RibbonFilter f, java.nio.channels.WritableByteChannel out)
            throws java.io.IOException {
          f.writeRocksDbFilterBlock(out);
        }

        @Override
        public Standard128RibbonFilter mapLarge(
            FileChannel channel, long payloadOffset, long payloadLength, int shift, long numKeys)
            throws java.io.IOException {
          long dataLen = payloadLength - Standard128RibbonFilter.TRAILER_BYTES;
          ByteBuffer trailer =
              ChannelReads.readSmall(
                  channel, payloadOffset + dataLen, Standard128RibbonFilter.TRAILER_BYTES);
          return Standard128RibbonFilter.wrapData(
              ChannelReads.mapSegments(channel, payloadOffset, dataLen, shift),
              shift,
              dataLen,
              trailer,
              numKeys);
        }
      }),
  /** {@link Xor8Filter}; payload: the class's own form (docs/format.md). Read zero-copy. */
  XOR8(
      4,
      "xor8",
      0,
      SizeSetting.NONE,
      Xor8Filter::builder,
      null,
      new SimpleCodec<>(Xor8Filter.class) {
        @Override
        public int parameterA(Xor8Filter f) {
          return Xor8Filter.FINGERPRINT_BITS;
        }

        @Override
        public int parameterB(Xor8Filter f) {
          return 3;
        }
      }),
  /** {@link Xor16Filter}; payload: the class's own form (docs/format.md). Read zero-copy. */
  XOR16(
      5,
      "xor16",
      0,
      SizeSetting.NONE,
      Xor16Filter::builder,
      null,
      new SimpleCodec<>(Xor16Filter.class) {
        @Override
        public int parameterA(Xor16Filter f) {
          return Xor16Filter.FINGERPRINT_BITS;
        }

        @Override
        public int parameterB(Xor16Filter f) {
          return 3;
        }
      }),
  /** {@link BinaryFuse8Filter}; payload: the class's own form (docs/format.md). Read zero-copy. */
  BINARY_FUSE8(
      6,
      "binary-fuse8",
      0,
      SizeSetting.NONE,
      BinaryFuse8Filter::builder,
      null,
      new SimpleCodec<>(BinaryFuse8Filter.class) {
        @Override
        public int parameterA(BinaryFuse8Filter f) {
          return BinaryFuse8Filter.FINGERPRINT_BITS;
        }

        @Override
        public int parameterB(BinaryFuse8Filter f) {
          return f.arity();
        }
      }),
  /** {@link BinaryFuse16Filter}; payload: the class's own form (docs/format.md). Read zero-copy. */
  BINARY_FUSE16(
      7,
      "binary-fuse16",
      0,
      SizeSetting.NONE,
      BinaryFuse16Filter::builder,
      null,
      new SimpleCodec<>(BinaryFuse16Filter.class) {
        @Override
        public int parameterA(BinaryFuse16Filter f) {
          return BinaryFuse16Filter.FINGERPRINT_BITS;
        }

        @Override
        public int parameterB(BinaryFuse16Filter f) {
          return f.arity();
        }
      }),
  /**
   * {@link CuckooFilter}; payload: the class's own form (docs/format.md). Read zero-copy; a wrapped
   * filter is read-only ({@link CuckooFilter#copy()} gives a mutable one).
   */
  CUCKOO(
      8,
      "cuckoo",
      Traits.MUTABLE,
      SizeSetting.FINGERPRINT_BITS,
      CuckooFilter::builder,
      b -> CuckooFilter.builder().fingerprintBits(fingerprintBits(b)),
      new SimpleCodec<>(CuckooFilter.class) {
        @Override
        public int parameterA(CuckooFilter f) {
          return f.fingerprintBits();
        }

        @Override
        public int parameterB(CuckooFilter f) {
          return CuckooFilter.SLOTS_PER_BUCKET;
        }
      }),
  /**
   * {@link SplitBlockBloomFilter}, Parquet's split-block Bloom filter; payload: the raw bitset,
   * exactly the bytes a {@code .parquet} file stores after its {@code BloomFilterHeader} ({@link
   * SplitBlockBloomFilter#toParquetBitset()}). Parameter A is the bits set per value (8), B the
   * block size in bits (256). Read zero-copy.
   */
  SPLIT_BLOCK_BLOOM(
      9,
      "split-block-bloom",
      Traits.MUTABLE | Traits.MERGEABLE,
      SizeSetting.BITS_PER_KEY,
      SplitBlockBloomFilter::builder,
      b -> SplitBlockBloomFilter.builder().bitsPerKey(b),
      new SimpleCodec<>(
          SplitBlockBloomFilter.class,
          SplitBlockBloomFilter::toParquetBitset,
          SplitBlockBloomFilter::fromParquetBitset) {
        @Override
        public int parameterA(SplitBlockBloomFilter f) {
          return 8;
        }

        @Override
        public int parameterB(SplitBlockBloomFilter f) {
          return SplitBlockBloomFilter.BLOCK_BYTES * Byte.SIZE;
        }

        @Override
        public SplitBlockBloomFilter read(byte[] payload, long numKeys) {
          return SplitBlockBloomFilter.fromParquetBitset(payload, numKeys);
        }

        @Override
        public SplitBlockBloomFilter wrap(ByteBuffer payload, long numKeys) {
          return SplitBlockBloomFilter.wrapParquetBitset(payload, numKeys);
        }

        @Override
        public boolean zeroCopy() {
          return true;
        }
      }),
  /**
   * {@link BumpedRibbonFilter}; payload: {@link BumpedRibbonFilter#toByteArray()} (Sieve's own
   * layout, not a RocksDB block). Read zero-copy (up to one buffer's 2 GiB).
   */
  BUMPED_RIBBON(
      10,
      "bumped-ribbon",
      0,
      SizeSetting.FINGERPRINT_BITS,
      BumpedRibbonFilter::builder,
      b -> BumpedRibbonFilter.builder().resultBits(fingerprintBits(b)),
      new SimpleCodec<>(
          BumpedRibbonFilter.class,
          BumpedRibbonFilter::toByteArray,
          BumpedRibbonFilter::fromByteArray,
          BumpedRibbonFilter::wrap) {
        /* The number of layers. */
        @Override
        public int parameterA(BumpedRibbonFilter f) {
          return f.numLayers();
        }

        /* The number of blocks of layer 0 (0 for the empty filter). */
        @Override
        public int parameterB(BumpedRibbonFilter f) {
          return f.numLayers() == 0 ? 0 : f.numBlocks(0);
        }
      }),
  /**
   * {@link ScalableBloomFilter}, the growable chain of blocked Bloom stages; payload: {@link
   * ScalableBloomFilter#toByteArray()} (header, stage table, then each stage's RocksDB
   * FastLocalBloom block, 64-byte aligned). Read zero-copy, past 2 GiB too (each stage mapped in
   * segments); a wrapped filter is read-only.
   */
  SCALABLE_BLOOM(
      11,
      "scalable-bloom",
      Traits.MUTABLE,
      SizeSetting.FP_RATE,
      ScalableBloomFilter::builder,
      null,
      new SimpleCodec<>(
          ScalableBloomFilter.class,
          ScalableBloomFilter::toByteArray,
          ScalableBloomFilter::fromByteArray,
          ScalableBloomFilter::wrap) {
        /* The number of stages. */
        @Override
        public int parameterA(ScalableBloomFilter f) {
          return f.numStages();
        }

        @Override
        public int parameterB(ScalableBloomFilter f) {
          return 0;
        }

        @Override
        public long payloadLength(ScalableBloomFilter f) {
          return f.serializedLength();
        }

        @Override
        public void writePayload(ScalableBloomFilter f, java.nio.channels.WritableByteChannel out)
            throws java.io.IOException {
          f.writeTo(out);
        }

        /* Each stage mapped in segments, as a blocked Bloom payload is. */
        @Override
        public ScalableBloomFilter mapLarge(
            FileChannel channel, long payloadOffset, long payloadLength, int shift, long numKeys)
            throws IOException {
          int headLength = (int) Math.min(payloadLength, ScalableBloomFilter.MAX_TABLE_BYTES);
          ByteBuffer head = ChannelReads.readSmall(channel, payloadOffset, headLength);
          try {
            return ScalableBloomFilter.wrapStages(
                head,
                payloadLength,
                (stage, offset, length, paddedEnd, keys) -> {
                  // offsets from the payload's start, as wrapStages reports them
                  int pad = (int) (paddedEnd - offset - length);
                  ByteBuffer padding =
                      ChannelReads.readSmall(channel, payloadOffset + offset + length, pad);
                  for (int i = 0; i < pad; i++) {
                    if (padding.get(i) != 0) {
                      throw new SieveFormatException(
                          offset + length + i, "padding after stage " + stage + " is not zero");
                    }
                  }
                  try {
                    return mapFastLocalBloom(channel, payloadOffset + offset, length, shift, keys);
                  } catch (SieveFormatException e) {
                    throw new SieveFormatException(
                        e.offset() - payloadOffset,
                        "stage " + stage + " filter block: " + e.getMessage(),
                        e);
                  }
                });
          } catch (SieveFormatException e) {
            throw new SieveFormatException(payloadOffset + e.offset(), e.getMessage(), e);
          }
        }
      }),
  /**
   * {@link dev.sieve.shard.ShardedFilter}: shard count, shard type, a shard table, then each
   * shard's own payload, 64-byte aligned ({@link ShardedCodec}). Parameter A is the shard type id,
   * B the shard count. Read zero-copy (each shard in place; past 2 GiB each shard is mapped
   * separately). The registry's builder makes 16 shards of Binary Fuse 8; {@link
   * dev.sieve.shard.ShardedFilter#builder} takes any count and static shard type.
   */
  SHARDED(
      12,
      "sharded",
      0,
      SizeSetting.NONE,
      dev.sieve.shard.ShardedFilter::builder,
      null,
      new ShardedCodec());

  /**
   * The old name of {@link #RIBBON}: the same constant ({@code RIBBON_128 == RIBBON}), so code
   * compiled against it runs unchanged.
   *
   * @deprecated use {@link #RIBBON}, the name the registry gives the type everywhere else; a {@code
   *     switch} label or {@link #valueOf(String)} needs {@code RIBBON}, as this alias is a field,
   *     not an enum constant
   */
  @Deprecated(since = "1.0")
  public static final FilterType RIBBON_128 = RIBBON;

  /** What the one number of {@link #builder(double)} means for a type. */
  public enum SizeSetting {
    /** Bits of filter per key (the Bloom filters' {@code bitsPerKey}). */
    BITS_PER_KEY,
    /**
     * RocksDB's Ribbon setting ({@code bloomEquivalentBitsPerKey}): the rate of a blocked Bloom
     * filter at that many bits/key, reached in about 30% fewer bits.
     */
    BLOOM_EQUIVALENT_BITS_PER_KEY,
    /**
     * Bits per fingerprint or result, an integer (Cuckoo's {@code fingerprintBits}, Bumped Ribbon's
     * {@code resultBits}).
     */
    FINGERPRINT_BITS,
    /** None: the size is fixed by the type (Xor and Binary Fuse: 8 or 16-bit fingerprints). */
    NONE,
    /**
     * The rate alone: the filter sizes itself as keys arrive ({@code fpRate} and {@code
     * expectedKeys} as the first guess; the growable Bloom filter).
     */
    FP_RATE
  }

  /** The trait bits of the constructor (a nested class: the constants come before any field). */
  private static final class Traits {
    static final int MUTABLE = 1;
    static final int MERGEABLE = 2;
    static final int ROCKSDB = 4;
  }

  private final int id;
  private final String cliName;
  private final int traits;
  private final SizeSetting sizeSetting;

  @SuppressWarnings("ImmutableEnumChecker") // stateless builder factories (method references)
  private final Supplier<? extends FilterBuilder<? extends Filter>> builder;

  @SuppressWarnings("ImmutableEnumChecker") // stateless builder factories (method references)
  private final DoubleFunction<? extends FilterBuilder<? extends Filter>> sized; // null: NONE

  private final Class<? extends Filter> filterClass;

  // stateless codec, resolved once and cached (benign race)
  @SuppressWarnings("ImmutableEnumChecker")
  private volatile PayloadForm<? extends Filter>
      codec; // resolved at first use when built from a class

  /** A row whose codec is still written here (being moved to the families' forms). */
  FilterType(
      int id,
      String cliName,
      int traits,
      SizeSetting sizeSetting,
      Supplier<? extends FilterBuilder<? extends Filter>> builder,
      DoubleFunction<? extends FilterBuilder<? extends Filter>> sized,
      PayloadForm<? extends Filter> codec) {
    this.id = id;
    this.cliName = cliName;
    this.traits = traits;
    this.sizeSetting = sizeSetting;
    this.builder = builder;
    this.sized = sized;
    this.filterClass = codec.filterClass();
    this.codec = codec;
  }

  /**
   * The type id stored in the header.
   *
   * @return the id, never changed or reused
   */
  public int id() {
    return id;
  }

  /**
   * The stable name of the type on the command line and in reports, e.g. {@code "blocked-bloom"}.
   *
   * @return the name
   */
  public String cliName() {
    return cliName;
  }

  /**
   * Whether keys can be added after the filter is built ({@link MutableFilter}; {@link
   * #mutableBuilder()} creates empty ones).
   *
   * @return {@code true} for the Bloom filters and Cuckoo
   */
  public boolean isMutable() {
    return (traits & Traits.MUTABLE) != 0;
  }

  /**
   * Whether two filters of this type and the same shape can be merged into one holding the keys of
   * both ({@code union}, the Bloom filters).
   *
   * @return {@code true} for the Bloom filters
   */
  public boolean isMergeable() {
    return (traits & Traits.MERGEABLE) != 0;
  }

  /**
   * Whether the filter has a RocksDB filter block form, byte-identical to RocksDB's.
   *
   * @return {@code true} for the blocked Bloom (FastLocalBloom) and Ribbon filters
   */
  public boolean isRocksDbCompatible() {
    return (traits & Traits.ROCKSDB) != 0;
  }

  /**
   * What the number given to {@link #builder(double)} means for this type.
   *
   * @return the size setting
   */
  public SizeSetting sizeSetting() {
    return sizeSetting;
  }

  /**
   * A new builder of this type with its defaults ({@code fpRate}, the size setting, {@code seed}
   * and the {@code build} methods of {@link FilterBuilder}).
   *
   * @return a new builder
   */
  public FilterBuilder<? extends Filter> builder() {
    return builder.get();
  }

  /**
   * Whether {@link #builder(double)} takes a number: false for the types whose size is fixed
   * ({@link SizeSetting#NONE}) or grows by itself ({@link SizeSetting#FP_RATE}).
   *
   * @return whether the type has a numeric size setting
   */
  public boolean hasSizeSetting() {
    return sized != null;
  }

  /**
   * A new builder with the size setting ({@link #sizeSetting()}) at {@code setting}, in the manner
   * of FastFilter's {@code FilterType.construct(keys, setting)}.
   *
   * @param setting bits per key, Bloom-equivalent bits per key or fingerprint bits
   * @return a new builder
   * @throws IllegalArgumentException if the setting is out of the type's range, or the type has no
   *     size setting (its size is fixed, its shards' or grown by itself; the message says which;
   *     use {@link #builder()})
   */
  public FilterBuilder<? extends Filter> builder(double setting) {
    if (sized == null) {
      throw new IllegalArgumentException(
          cliName + " has no size setting (" + whyNoSizeSetting() + "), got " + setting);
    }
    return sized.apply(setting);
  }

  /** Why {@link #builder(double)} takes no number for this type, for its message. */
  private String whyNoSizeSetting() {
    return switch (this) {
      case SCALABLE_BLOOM ->
          "it grows as keys arrive; its one knob is the rate: builder().fpRate(r)";
      case SHARDED ->
          "its size is its shards' (the registry's builder makes 16 Binary Fuse 8 shards);"
              + " ShardedFilter.builder() takes the shard type and count";
      case XOR8, BINARY_FUSE8 -> "its 8-bit fingerprints fix its size; use builder()";
      case XOR16, BINARY_FUSE16 -> "its 16-bit fingerprints fix its size; use builder()";
      default -> "use builder()";
    };
  }

  /**
   * A new builder of a mutable type, which also creates empty filters ({@code
   * expectedKeys(n).create()}).
   *
   * @return a new builder
   * @throws UnsupportedOperationException if the type is static ({@link #isMutable()} is false)
   */
  @SuppressWarnings("unchecked")
  public MutableFilterBuilder<? extends MutableFilter> mutableBuilder() {
    if (!isMutable()) {
      throw new UnsupportedOperationException(cliName + " is static: its keys are given at build");
    }
    return (MutableFilterBuilder<? extends MutableFilter>) builder.get();
  }

  /**
   * Builds a filter of this type from {@code long} keys at a size setting.
   *
   * @param keys the keys
   * @param setting as {@link #builder(double)}
   * @return the filter
   */
  public Filter build(long[] keys, double setting) {
    return builder(setting).build(keys);
  }

  /**
   * Reads a Sieve container holding a filter of this type ({@link SieveFormat#read(InputStream,
   * Class)}).
   *
   * @param in the stream, read to the end of the container
   * @return the filter
   * @throws SieveFormatException if the bytes are not a valid container, or it holds another type
   *     (the message names it)
   * @throws IOException if reading fails
   */
  public Filter read(InputStream in) throws IOException {
    return SieveFormat.read(in, filterClass());
  }

  /**
   * The type whose {@link #cliName()} is {@code name}.
   *
   * @param name e.g. {@code "xor8"}
   * @return the type
   * @throws IllegalArgumentException naming the known types if there is none of that name
   */
  public static FilterType forName(String name) {
    for (FilterType t : values()) {
      if (t.cliName.equals(name)) {
        return t;
      }
    }
    StringBuilder known = new StringBuilder();
    for (FilterType t : values()) {
      known.append(known.length() == 0 ? "" : ", ").append(t.cliName);
    }
    throw new IllegalArgumentException("unknown filter type '" + name + "' (known: " + known + ")");
  }

  private static int fingerprintBits(double setting) {
    if (setting != Math.rint(setting) || setting < 1 || setting > 64) {
      throw new IllegalArgumentException("fingerprint bits must be a whole number, got " + setting);
    }
    return (int) setting;
  }

  /** {@return the filter class this type reads to} */
  public Class<? extends Filter> filterClass() {
    return filterClass;
  }

  /**
   * {@return whether {@link SieveFormat#wrap} and {@link SieveFormat#map} read this type in place}
   */
  public boolean zeroCopy() {
    return codec().zeroCopy();
  }

  @SuppressWarnings("unchecked")
  PayloadForm<Filter> codec() {
    PayloadForm<? extends Filter> c = codec;
    if (c == null) {
      c = PayloadForms.form(filterClass);
      codec = c;
    }
    return (PayloadForm<Filter>) c;
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
      if (t.filterClass == filter.getClass()) {
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
  private abstract static class SimpleCodec<F extends Filter> extends PayloadForm<F> {
    private final java.util.function.Function<F, byte[]> writer;
    private final java.util.function.Function<byte[], F> reader;
    private final java.util.function.Function<ByteBuffer, F> wrapper; // null: copy

    SimpleCodec(
        Class<F> cls,
        java.util.function.Function<F, byte[]> writer,
        java.util.function.Function<byte[], F> reader) {
      this(cls, writer, reader, null);
    }

    /** A codec over the class's own package-private form ({@link PayloadForms}). */
    SimpleCodec(Class<F> cls) {
      this(
          cls,
          f -> PayloadForms.of(cls).write(f),
          b -> PayloadForms.of(cls).read(b, 0),
          b -> PayloadForms.of(cls).wrap(b, 0));
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
    public F wrap(ByteBuffer payload, long numKeys) {
      return wrapper != null ? wrapper.apply(payload) : super.wrap(payload, numKeys);
    }

    @Override
    public boolean zeroCopy() {
      return wrapper != null;
    }

    @Override
    public byte[] payload(F filter) {
      return writer.apply(filter);
    }

    @Override
    public F read(byte[] payload, long numKeys) {
      return reader.apply(payload);
    }
  }

  private static final class BlockedBloomCodec extends PayloadForm<BlockedBloomFilter> {
    BlockedBloomCodec() {
      super(BlockedBloomFilter.class);
    }

    @Override
    public byte[] payload(BlockedBloomFilter f) {
      return f.toRocksDbFilterBlock();
    }

    @Override
    public long payloadLength(BlockedBloomFilter f) {
      return f.rocksDbFilterBlockLength();
    }

    @Override
    public void writePayload(BlockedBloomFilter f, java.nio.channels.WritableByteChannel out)
        throws IOException {
      f.writeRocksDbFilterBlock(out);
    }

    /** The probes; 0 for the empty filter, whose payload is RocksDB's 0-byte block. */
    @Override
    public int parameterA(BlockedBloomFilter f) {
      return f.numBlocks() == 0 ? 0 : f.numProbes();
    }

    @Override
    public int parameterB(BlockedBloomFilter f) {
      return 0;
    }

    @Override
    public BlockedBloomFilter read(byte[] payload, long numKeys) {
      return BlockedBloomFilter.fromRocksDbFilterBlock(payload, numKeys);
    }

    @Override
    public BlockedBloomFilter wrap(ByteBuffer payload, long numKeys) {
      return BlockedBloomFilter.wrapRocksDbFilterBlock(payload, numKeys);
    }

    @Override
    public boolean zeroCopy() {
      return true;
    }

    @Override
    public BlockedBloomFilter mapLarge(
        FileChannel channel, long payloadOffset, long payloadLength, int shift, long numKeys)
        throws IOException {
      return mapFastLocalBloom(channel, payloadOffset, payloadLength, shift, numKeys);
    }
  }

  /**
   * Maps a FastLocalBloom filter block of {@code blockLength} bytes at {@code offset} of {@code
   * channel} in segments (its trailer read and checked), for payloads over one buffer.
   *
   * @throws SieveFormatException with file offsets
   */
  static BlockedBloomFilter mapFastLocalBloom(
      FileChannel channel, long offset, long blockLength, int shift, long numKeys)
      throws IOException {
    long dataLen = blockLength - BlockedBloomFilter.TRAILER_BYTES;
    if (dataLen < 0
        || dataLen % BlockedBloomFilter.BLOCK_BYTES != 0
        || dataLen > BlockedBloomFilter.MAX_DATA_BYTES) {
      throw new SieveFormatException(
          offset,
          "FastLocalBloom data length "
              + dataLen
              + " is not a multiple of 64 up to "
              + BlockedBloomFilter.MAX_DATA_BYTES);
    }
    long trailerAt = offset + dataLen;
    ByteBuffer trailer =
        ChannelReads.readSmall(channel, trailerAt, BlockedBloomFilter.TRAILER_BYTES);
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
        ChannelReads.mapSegments(channel, offset, dataLen, shift), shift, dataLen, probes, numKeys);
  }

  private static final class StandardBloomCodec extends PayloadForm<StandardBloomFilter> {
    StandardBloomCodec() {
      super(StandardBloomFilter.class);
    }

    @Override
    public byte[] payload(StandardBloomFilter f) {
      return PayloadForms.of(StandardBloomFilter.class).write(f);
    }

    @Override
    public int parameterA(StandardBloomFilter f) {
      return f.numProbes();
    }

    @Override
    public int parameterB(StandardBloomFilter f) {
      return 0;
    }

    @Override
    public StandardBloomFilter read(byte[] payload, long numKeys) {
      return PayloadForms.of(StandardBloomFilter.class).read(payload, numKeys);
    }

    @Override
    public StandardBloomFilter wrap(ByteBuffer payload, long numKeys) {
      return PayloadForms.of(StandardBloomFilter.class).wrap(payload, numKeys);
    }

    @Override
    public boolean zeroCopy() {
      return true;
    }

    @Override
    public StandardBloomFilter mapLarge(
        FileChannel channel, long payloadOffset, long payloadLength, int shift, long numKeys)
        throws IOException {
      int hb = StandardBloomFilter.HEADER_BYTES;
      if (payloadLength < hb) {
        throw new SieveFormatException(payloadOffset, "standard Bloom payload shorter than 16");
      }
      ByteBuffer header =
          ChannelReads.readSmall(channel, payloadOffset, hb).order(ByteOrder.LITTLE_ENDIAN);
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
          ChannelReads.mapSegments(channel, payloadOffset + hb, dataLen, shift),
          shift,
          bits,
          probes,
          numKeys);
    }
  }
}
