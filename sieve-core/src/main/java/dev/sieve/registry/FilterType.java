package dev.sieve.registry;

import dev.sieve.Filter;
import dev.sieve.FilterBuilder;
import dev.sieve.KeyFilter;
import dev.sieve.MutableFilter;
import dev.sieve.MutableFilterBuilder;
import dev.sieve.internal.Families;
import dev.sieve.internal.FamilyType;
import dev.sieve.internal.FilterFamily;
import java.util.Arrays;
import java.util.List;

/**
 * The registry of Sieve's filter types, one row each: the container type id (never changed or
 * reused; {@code docs/format.md}), a stable name, the traits and the Maven module that provides the
 * type. The filter class and the builder, whose one uniform knob is {@link
 * FilterBuilder#fpRate(double)}, are the type's family's: each filter package registers its types
 * (through {@link java.util.ServiceLoader}), so this table names no filter class, and a type whose
 * module is absent is still listed, its traits known, while {@link #filterClass()} and {@link
 * #builder()} throw {@link MissingFamilyException} naming the module. The CLI, the benchmark and
 * the tests take their lists from here.
 */
@SuppressWarnings("exports") // FamilyType: how the module's family loader reads a row, not API
public enum FilterType implements FamilyType {
  /** {@code dev.sieve.bloom.BlockedBloomFilter}, RocksDB's FastLocalBloom. */
  BLOCKED_BLOOM(
      1,
      "blocked-bloom",
      Traits.MUTABLE_MERGEABLE | Traits.ROCKSDB | Traits.SHARDABLE,
      Modules.CORE),
  /** {@code dev.sieve.bloom.StandardBloomFilter}. */
  STANDARD_BLOOM(2, "standard-bloom", Traits.MUTABLE_MERGEABLE, Modules.CORE),
  /** {@code dev.sieve.ribbon.Standard128RibbonFilter}, RocksDB's Standard128Ribbon. */
  RIBBON(3, "ribbon", Traits.ROCKSDB | Traits.SHARDABLE, Modules.CORE),
  /** {@code dev.sieve.xor.Xor8Filter}. */
  XOR8(4, "xor8", Traits.SHARDABLE | Traits.IDENTITY_SAFE, Modules.CORE),
  /** {@code dev.sieve.xor.Xor16Filter}. */
  XOR16(5, "xor16", Traits.SHARDABLE | Traits.IDENTITY_SAFE, Modules.CORE),
  /** {@code dev.sieve.xor.BinaryFuse8Filter}. */
  BINARY_FUSE8(6, "binary-fuse8", Traits.SHARDABLE | Traits.IDENTITY_SAFE, Modules.CORE),
  /** {@code dev.sieve.xor.BinaryFuse16Filter}. */
  BINARY_FUSE16(7, "binary-fuse16", Traits.SHARDABLE | Traits.IDENTITY_SAFE, Modules.CORE),
  /** {@code dev.sieve.cuckoo.CuckooFilter}; a filter read in place is read-only. */
  CUCKOO(8, "cuckoo", Traits.MUTABLE, Modules.CORE),
  /** {@code dev.sieve.bloom.SplitBlockBloomFilter}, Parquet's split-block Bloom filter. */
  SPLIT_BLOCK_BLOOM(9, "split-block-bloom", Traits.MUTABLE_MERGEABLE, Modules.CORE),
  /** {@code dev.sieve.ribbon.BumpedRibbonFilter}. */
  BUMPED_RIBBON(10, "bumped-ribbon", 0, Modules.CORE),
  /** {@code dev.sieve.bloom.ScalableBloomFilter}, the growable chain of blocked Bloom stages. */
  SCALABLE_BLOOM(11, "scalable-bloom", Traits.MUTABLE, Modules.CORE),
  /**
   * {@code dev.sieve.shard.ShardedFilter}: the registry's builder makes 16 Binary Fuse 8 shards.
   */
  SHARDED(12, "sharded", 0, Modules.CORE),
  /** {@code dev.sieve.expand.ExpandableFilter}, the expandable quotient filter (grows, deletes). */
  EXPANDABLE(13, "expandable", Traits.MUTABLE, Modules.CORE),
  /** {@code dev.sieve.interop.GuavaBloomFilter}, Guava's {@code BloomFilter} (foreign). */
  GUAVA_BLOOM(14, "guava-bloom", Traits.FOREIGN, Modules.INTEROP),
  /** {@code dev.sieve.interop.SparkBloomFilter}, Spark's sketch {@code BloomFilter} (foreign). */
  SPARK_BLOOM(15, "spark-bloom", Traits.FOREIGN, Modules.INTEROP),
  /** {@code dev.sieve.interop.DataSketchesBloomFilter}, DataSketches' (foreign). */
  DATASKETCHES_BLOOM(16, "datasketches-bloom", Traits.FOREIGN, Modules.INTEROP),
  /** {@code dev.sieve.interop.OrcBloomFilter}, Apache ORC's Bloom filter, bit for bit. */
  ORC_BLOOM(18, "orc-bloom", Traits.MUTABLE_MERGEABLE, Modules.INTEROP),
  /** {@code dev.sieve.interop.CassandraBloomFilter}, Cassandra's {@code Filter.db} (foreign). */
  CASSANDRA_BLOOM(19, "cassandra-bloom", Traits.FOREIGN, Modules.INTEROP),
  /** {@code dev.sieve.range.GrafiteFilter}; {@code fpRate}: its bound up to its max range. */
  GRAFITE(20, "grafite", Traits.IDENTITY_SAFE, Modules.RANGE),
  /** {@code dev.sieve.range.PrefixBloomRangeFilter}; {@code fpRate}: per probe. */
  PREFIX_BLOOM_RANGE(21, "prefix-bloom-range", Traits.IDENTITY_SAFE, Modules.RANGE),
  /** {@code dev.sieve.bloom.TwoWordBloomFilter}, two-word blocked Bloom: two loads per lookup. */
  TWO_WORD_BLOOM(22, "two-word-bloom", Traits.MUTABLE_MERGEABLE, Modules.CORE);

  /** The trait bits of the constructor (a nested class: the constants come before any field). */
  private static final class Traits {
    static final int MUTABLE = 1;
    static final int MERGEABLE = 2;
    static final int ROCKSDB = 4;
    static final int MUTABLE_MERGEABLE = MUTABLE | MERGEABLE;
    static final int FOREIGN = 16;
    static final int SHARDABLE = 32;
    static final int IDENTITY_SAFE = 64;
  }

  /**
   * The Maven modules that provide the families. The range filters and the other systems' filters
   * are set apart already (their families register themselves and nothing in the core names them),
   * so that moving them into modules of their own changes no row.
   */
  private static final class Modules {
    static final String CORE = "dev.sieve:sieve-core";
    static final String RANGE = "dev.sieve:sieve-range";
    static final String INTEROP = "dev.sieve:sieve-interop";
  }

  private final int id;
  private final String cliName;
  private final int traits;
  private final String artifact;

  FilterType(int id, String cliName, int traits, String artifact) {
    this.id = id;
    this.cliName = cliName;
    this.traits = traits;
    this.artifact = artifact;
  }

  /** {@return the type id stored in the container header, never changed or reused} */
  @Override
  public int id() {
    return id;
  }

  /** {@return the stable name of the type on the command line and in reports, e.g. "xor8"} */
  @Override
  public String cliName() {
    return cliName;
  }

  /**
   * {@return the Maven coordinates of the module that provides this type's filter class, builder
   * and container form, e.g. "dev.sieve:sieve-core"}
   */
  @Override
  public String artifact() {
    return artifact;
  }

  /**
   * {@return whether this type's family is on the class or module path (else {@link #filterClass()}
   * and {@link #builder()} throw {@link MissingFamilyException})}
   */
  public boolean isPresent() {
    return Families.get().row(this) != null;
  }

  /** The row of this type's family; MissingFamilyException if the family is absent. */
  private FilterFamily.Row<?> family() {
    FilterFamily.Row<?> row = Families.get().row(this);
    if (row == null) {
      throw new MissingFamilyException(this);
    }
    return row;
  }

  /**
   * {@return the filter class of this type: a {@link Filter} for the types Sieve builds, a {@link
   * KeyFilter} alone for a foreign type ({@link #isForeign()}), whose keys its owner hashes}
   *
   * @throws MissingFamilyException if the module that provides the type is absent
   */
  public Class<? extends KeyFilter> filterClass() {
    return family().filterClass();
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

  /**
   * {@return whether a sharded filter may hold shards of this type: the static types built from a
   * shard's keys at once whose probe takes the whole 64-bit key hash (blocked Bloom, Ribbon, Xor,
   * Binary Fuse)}
   */
  public boolean isShardable() {
    return (traits & Traits.SHARDABLE) != 0;
  }

  /**
   * {@return whether the probe sends the 64-bit key hash and its seed through a full 64-bit
   * finalizer (every input bit reaching every output bit), so that keys may be given as their own
   * hashes ({@code KeyScheme.IDENTITY}) without losing the false-positive rate or the
   * construction's success rate: the Xor and Binary Fuse filters and the range filters}
   */
  @Override
  public boolean isIdentitySafe() {
    return (traits & Traits.IDENTITY_SAFE) != 0;
  }

  /**
   * {@return whether this is another system's filter in its own form ({@code dev.sieve.interop}):
   * hashed as its owner hashes, so a {@link KeyFilter} (keys only, no Sieve key hash) and not a
   * {@link Filter}, with no registry builder}
   */
  public boolean isForeign() {
    return (traits & Traits.FOREIGN) != 0;
  }

  /**
   * {@return a new builder at its defaults}
   *
   * @throws UnsupportedOperationException for a foreign type, which has none ({@link #isForeign()})
   * @throws MissingFamilyException if the module that provides the type is absent
   */
  public FilterBuilder<? extends Filter> builder() {
    if (isForeign()) {
      throw new UnsupportedOperationException(
          "a foreign filter type is built by its own class's create method, hashing keys as its"
              + " owner does; the registry's builders take Sieve key hashes");
    }
    FilterBuilder<?> builder = family().builder().get(); // a builder's filters are Filters
    return builder;
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
    return (MutableFilterBuilder<? extends MutableFilter>) builder();
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
    FilterFamily.Row<?> row = Families.get().rowOf(cls);
    return row == null ? null : forId(row.type().id());
  }

  /** {@return the type of {@code filter}; IllegalArgumentException if its class has none} */
  public static FilterType of(KeyFilter filter) {
    FilterType t = forClass(filter.getClass());
    if (t == null) {
      throw new IllegalArgumentException(
          "the Sieve container has no type for " + filter.getClass().getName());
    }
    return t;
  }
}
