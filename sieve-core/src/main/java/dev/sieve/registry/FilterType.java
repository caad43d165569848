package dev.sieve.registry;

import dev.sieve.Filter;
import dev.sieve.FilterBuilder;
import dev.sieve.MutableFilter;
import dev.sieve.MutableFilterBuilder;
import dev.sieve.bloom.BlockedBloomFilter;
import dev.sieve.bloom.ScalableBloomFilter;
import dev.sieve.bloom.SplitBlockBloomFilter;
import dev.sieve.bloom.StandardBloomFilter;
import dev.sieve.bloom.TwoWordBloomFilter;
import dev.sieve.cuckoo.CuckooFilter;
import dev.sieve.expand.ExpandableFilter;
import dev.sieve.internal.Shardable;
import dev.sieve.interop.CassandraBloomFilter;
import dev.sieve.interop.DataSketchesBloomFilter;
import dev.sieve.interop.GuavaBloomFilter;
import dev.sieve.interop.OrcBloomFilter;
import dev.sieve.interop.SparkBloomFilter;
import dev.sieve.range.GrafiteFilter;
import dev.sieve.range.PrefixBloomRangeFilter;
import dev.sieve.ribbon.BumpedRibbonFilter;
import dev.sieve.ribbon.Standard128RibbonFilter;
import dev.sieve.shard.ShardedFilter;
import dev.sieve.xor.BinaryFuse16Filter;
import dev.sieve.xor.BinaryFuse8Filter;
import dev.sieve.xor.Xor16Filter;
import dev.sieve.xor.Xor8Filter;
import java.util.Arrays;
import java.util.List;
import java.util.function.Supplier;

/**
 * The registry of Sieve's filter types, one row each: the container type id (never changed or
 * reused; {@code docs/format.md}), a stable name, the traits, the filter class and the builder,
 * whose one uniform knob is {@link FilterBuilder#fpRate(double)}. The CLI, the benchmark and the
 * tests take their lists from here; a payload's form is its family's, found by the class.
 */
public enum FilterType {
  /** {@link BlockedBloomFilter}, RocksDB's FastLocalBloom. */
  BLOCKED_BLOOM(
      1,
      "blocked-bloom",
      Traits.MUTABLE | Traits.MERGEABLE | Traits.ROCKSDB,
      BlockedBloomFilter.class,
      BlockedBloomFilter::builder),
  /** {@link StandardBloomFilter}. */
  STANDARD_BLOOM(
      2,
      "standard-bloom",
      Traits.MUTABLE_MERGEABLE,
      StandardBloomFilter.class,
      StandardBloomFilter::builder),
  /** {@link Standard128RibbonFilter}, RocksDB's Standard128Ribbon ({@code ribbonfilter}). */
  RIBBON(
      3, "ribbon", Traits.ROCKSDB, Standard128RibbonFilter.class, Standard128RibbonFilter::builder),
  /** {@link Xor8Filter}. */
  XOR8(4, "xor8", 0, Xor8Filter.class, Xor8Filter::builder),
  /** {@link Xor16Filter}. */
  XOR16(5, "xor16", 0, Xor16Filter.class, Xor16Filter::builder),
  /** {@link BinaryFuse8Filter}. */
  BINARY_FUSE8(6, "binary-fuse8", 0, BinaryFuse8Filter.class, BinaryFuse8Filter::builder),
  /** {@link BinaryFuse16Filter}. */
  BINARY_FUSE16(7, "binary-fuse16", 0, BinaryFuse16Filter.class, BinaryFuse16Filter::builder),
  /** {@link CuckooFilter}; a filter read in place is read-only. */
  CUCKOO(8, "cuckoo", Traits.MUTABLE, CuckooFilter.class, CuckooFilter::builder),
  /** {@link SplitBlockBloomFilter}, Parquet's split-block Bloom filter. */
  SPLIT_BLOCK_BLOOM(
      9,
      "split-block-bloom",
      Traits.MUTABLE_MERGEABLE,
      SplitBlockBloomFilter.class,
      SplitBlockBloomFilter::builder),
  /** {@link BumpedRibbonFilter}. */
  BUMPED_RIBBON(10, "bumped-ribbon", 0, BumpedRibbonFilter.class, BumpedRibbonFilter::builder),
  /** {@link ScalableBloomFilter}, the growable chain of blocked Bloom stages. */
  SCALABLE_BLOOM(
      11,
      "scalable-bloom",
      Traits.MUTABLE,
      ScalableBloomFilter.class,
      ScalableBloomFilter::builder),
  /** {@link ShardedFilter}: the registry's builder makes 16 Binary Fuse 8 shards. */
  SHARDED(12, "sharded", 0, ShardedFilter.class, ShardedFilter::builder),
  /** {@link ExpandableFilter}, the expandable quotient filter (grows by doubling, deletes). */
  EXPANDABLE(13, "expandable", Traits.MUTABLE, ExpandableFilter.class, ExpandableFilter::builder),
  /** {@link GuavaBloomFilter}, Guava's {@code BloomFilter} in its own form (foreign). */
  GUAVA_BLOOM(14, "guava-bloom", Traits.FOREIGN, GuavaBloomFilter.class, FilterType::foreign),
  /** {@link SparkBloomFilter}, Spark's sketch {@code BloomFilter} V1 or V2 (foreign). */
  SPARK_BLOOM(15, "spark-bloom", Traits.FOREIGN, SparkBloomFilter.class, FilterType::foreign),
  /** {@link DataSketchesBloomFilter}, DataSketches' {@code BloomFilter} (foreign). */
  DATASKETCHES_BLOOM(
      16, "datasketches-bloom", Traits.FOREIGN, DataSketchesBloomFilter.class, FilterType::foreign),
  /** {@link OrcBloomFilter}, Apache ORC's Bloom filter (row index streams), bit for bit. */
  ORC_BLOOM(
      18, "orc-bloom", Traits.MUTABLE_MERGEABLE, OrcBloomFilter.class, OrcBloomFilter::builder),
  /** {@link CassandraBloomFilter}, Cassandra's SSTable {@code Filter.db} (foreign). */
  CASSANDRA_BLOOM(
      19, "cassandra-bloom", Traits.FOREIGN, CassandraBloomFilter.class, FilterType::foreign),
  /** {@link GrafiteFilter}, the range filter; {@code fpRate}: its bound up to its max range. */
  GRAFITE(20, "grafite", 0, GrafiteFilter.class, GrafiteFilter::builder),
  /** {@link PrefixBloomRangeFilter}, the prefix-Bloom baseline; {@code fpRate}: per probe. */
  PREFIX_BLOOM_RANGE(
      21, "prefix-bloom-range", 0, PrefixBloomRangeFilter.class, PrefixBloomRangeFilter::builder),
  /** {@link TwoWordBloomFilter}, Sieve's two-word blocked Bloom: two loads per lookup. */
  TWO_WORD_BLOOM(
      22,
      "two-word-bloom",
      Traits.MUTABLE_MERGEABLE,
      TwoWordBloomFilter.class,
      TwoWordBloomFilter::builder);

  /** The trait bits of the constructor (a nested class: the constants come before any field). */
  private static final class Traits {
    static final int MUTABLE = 1;
    static final int MERGEABLE = 2;
    static final int ROCKSDB = 4;
    static final int MUTABLE_MERGEABLE = MUTABLE | MERGEABLE;
    static final int FOREIGN = 16;
  }

  /** The registry builder of a foreign type: there is none (see {@link #isForeign()}). */
  private static FilterBuilder<? extends Filter> foreign() {
    throw new UnsupportedOperationException(
        "a foreign filter type is built by its own class's create method, hashing keys as its"
            + " owner does; the registry's builders take Sieve key hashes");
  }

  private final int id;
  private final String cliName;
  private final int traits;
  private final Class<? extends Filter> filterClass;

  @SuppressWarnings("ImmutableEnumChecker") // stateless builder factories (method references)
  private final Supplier<? extends FilterBuilder<? extends Filter>> builder;

  FilterType(
      int id,
      String cliName,
      int traits,
      Class<? extends Filter> filterClass,
      Supplier<? extends FilterBuilder<? extends Filter>> builder) {
    this.id = id;
    this.cliName = cliName;
    this.traits = traits;
    this.filterClass = filterClass;
    this.builder = builder;
  }

  /** {@return the type id stored in the container header, never changed or reused} */
  public int id() {
    return id;
  }

  /** {@return the stable name of the type on the command line and in reports, e.g. "xor8"} */
  public String cliName() {
    return cliName;
  }

  /** {@return the filter class of this type} */
  public Class<? extends Filter> filterClass() {
    return filterClass;
  }

  /** {@return whether keys can be added after the build ({@link #mutableBuilder()})} */
  public boolean isMutable() {
    return (traits & Traits.MUTABLE) != 0;
  }

  /** {@return whether two filters of this type and shape merge ({@code union}: the Blooms)} */
  public boolean isMergeable() {
    return (traits & Traits.MERGEABLE) != 0;
  }

  /** {@return whether the filter has a RocksDB filter block form (blocked Bloom, Ribbon)} */
  public boolean isRocksDbCompatible() {
    return (traits & Traits.ROCKSDB) != 0;
  }

  /** {@return whether a sharded filter may hold shards of this type (its class is Shardable)} */
  public boolean isShardable() {
    return Shardable.class.isAssignableFrom(filterClass);
  }

  /**
   * {@return whether this is another system's filter in its own form ({@code dev.sieve.interop}):
   * hashed as its owner hashes (so {@code mayContainHash} refuses), with no registry builder}
   */
  public boolean isForeign() {
    return (traits & Traits.FOREIGN) != 0;
  }

  /** {@return a new builder at its defaults (a foreign type has none: it throws)} */
  public FilterBuilder<? extends Filter> builder() {
    return builder.get();
  }

  /**
   * {@return a new builder of a mutable type, which also creates empty filters; a static type's
   * throws UnsupportedOperationException}
   */
  @SuppressWarnings("unchecked")
  public MutableFilterBuilder<? extends MutableFilter> mutableBuilder() {
    if (!isMutable()) {
      throw new UnsupportedOperationException(cliName + " is static: its keys are given at build");
    }
    return (MutableFilterBuilder<? extends MutableFilter>) builder.get();
  }

  /**
   * {@return the type named {@code name}; IllegalArgumentException naming the known ones if none}
   */
  public static FilterType forName(String name) {
    StringBuilder known = new StringBuilder();
    for (FilterType t : values()) {
      if (t.cliName.equals(name)) {
        return t;
      }
      known.append(known.length() == 0 ? "" : ", ").append(t.cliName);
    }
    throw new IllegalArgumentException("unknown filter type '" + name + "' (known: " + known + ")");
  }

  /** {@return the types Sieve builds from keys (all but the foreign ones), in values() order} */
  public static List<FilterType> builtIn() {
    return Arrays.stream(values()).filter(t -> !t.isForeign()).toList();
  }

  /** {@return the type with this container id, or {@code null} if there is none} */
  public static FilterType forId(int id) {
    for (FilterType t : values()) {
      if (t.id == id) {
        return t;
      }
    }
    return null;
  }

  /** {@return the type whose filter class is {@code cls}, or {@code null} if there is none} */
  public static FilterType forClass(Class<?> cls) {
    for (FilterType t : values()) {
      if (t.filterClass == cls) {
        return t;
      }
    }
    return null;
  }

  /** {@return the type of {@code filter}; IllegalArgumentException if its class has none} */
  public static FilterType of(Filter filter) {
    FilterType t = forClass(filter.getClass());
    if (t == null) {
      throw new IllegalArgumentException(
          "the Sieve container has no type for " + filter.getClass().getName());
    }
    return t;
  }
}
