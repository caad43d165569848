package dev.sieve.shard;

import dev.sieve.Filter;
import dev.sieve.FilterBuilder;
import dev.sieve.KeyScheme;
import dev.sieve.bloom.BlockedBloomFilter;
import dev.sieve.hash.KeyHash;
import dev.sieve.internal.Schemes;
import dev.sieve.internal.base.BatchScratch;
import dev.sieve.ribbon.Standard128RibbonFilter;
import dev.sieve.xor.BinaryFuse16Filter;
import dev.sieve.xor.BinaryFuse8Filter;
import dev.sieve.xor.Xor16Filter;
import dev.sieve.xor.Xor8Filter;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * A static filter cut into {@code S} shards ({@code S} a power of two, 1 to 2^16), each an ordinary
 * static Sieve filter of one type: so a key set too large for one JVM (or one filter's limits) is
 * built shard by shard, possibly on different machines (Spark executors, say), and queried as one
 * filter.
 *
 * <h2>The idea</h2>
 *
 * A key's 64-bit hash {@code h} ({@link KeyHash#hash64}) picks its shard by its <em>top</em> {@code
 * log2 S} bits, {@link #shardOf(long, int)}: {@code h >>> (64 - log2 S)}, a range split that keeps
 * the hashes of one shard contiguous and is the same for every shard count up to a shift (shard
 * {@code i} of {@code S} is shards {@code 2i} and {@code 2i+1} of {@code 2S}). The shard's filter
 * is then built over, and queried with, the <em>shard hash</em> {@code shardHash} {@code =
 * mix64(h)} (SplitMix64's finalizer, {@link KeyHash#mix64}), not over {@code h}.
 *
 * <h2>Why the shard hash is remixed</h2>
 *
 * Within one shard the top {@code log2 S} bits of {@code h} are constant, so a filter fed {@code h}
 * directly would see hashes with fewer than 64 random bits, and which bits are lost matters per
 * type: the blocked Bloom filter picks its block from the low 32 bits and derives its probes from
 * the high 32, so constant top bits make every key of a shard share part of its probe pattern (more
 * collisions between keys' probe sets, an FPR above the model); Ribbon's start position is a
 * fast-range over the high bits of a multiplied hash. {@code mix64} is a bijection of 64-bit words
 * whose every input bit reaches every output bit, so the shard hashes of one shard are as random as
 * full 64-bit hashes (distinct keys stay distinct: no collision is added), and each shard's FPR is
 * its own model's. {@code ShardedFilterFprTest} checks this statistically per type.
 *
 * <h2>The math</h2>
 *
 * An absent key lands in shard {@code i} with probability {@code 1/S} (its top bits are uniform),
 * where it is a false positive with the shard's rate {@code p_i}: the FPR is the unweighted mean
 * {@code Σ p_i / S} ({@link #modelledFpRate()}). The size is the sum of the shards' sizes. Shard
 * sizes follow a multinomial: with {@code n} keys each shard holds {@code n/S ± sqrt(n/S)}, so for
 * {@code n/S ≥ 10^4} they are within a few percent of each other, and since every shard is sized to
 * its own key count the space per key is that of the shard type at {@code n/S} keys (small shards
 * of Xor or Binary Fuse cost more per key: keep {@code n/S} in the 10^5..10^8 range).
 *
 * <h2>The trade-off</h2>
 *
 * One shift and one {@code mix64} (a few nanoseconds, no memory access) per query over the bare
 * shard filter, and an array lookup for the shard. In exchange: shards are built independently and
 * in parallel (each needs only its own keys in memory), and the filter's total size is no longer
 * bounded by one Java array (each shard is). Unlike the mutable Bloom filters, a sharded filter is
 * not mergeable; it is the way to build the static types (Ribbon, Xor, Binary Fuse) at 10^9+ keys.
 *
 * <h2>Building</h2>
 *
 * In one JVM, {@link #builder(int, Supplier)}: hashes are partitioned by shard, remixed, sorted and
 * de-duplicated per shard (so the shard's bytes do not depend on the order or the repetition of the
 * keys), then each shard is built by a fresh builder of the supplier (fixed seeds: the same keys
 * give the same bytes). Elsewhere (one task per shard): compute {@link #shardOf} and {@link
 * #shardHash} of every key's hash, build shard {@code i} from the sorted distinct shard hashes of
 * its keys with the same builder, and assemble them with {@link #of(List)}; the result is
 * byte-identical to the one-JVM build.
 *
 * <p>Shard types: {@link BlockedBloomFilter}, {@link Standard128RibbonFilter}, {@link Xor8Filter},
 * {@link Xor16Filter}, {@link BinaryFuse8Filter}, {@link BinaryFuse16Filter}, all shards of one
 * class. Immutable and thread-safe (the shards are). The container format (type id 12) is described
 * in {@code docs/format.md}; reading it with {@code SieveFormat.wrap}/{@code map} queries every
 * shard in place.
 */
public final class ShardedFilter implements Filter {

  /** The largest shard count, {@code 2^16}. */
  public static final int MAX_SHARDS = 1 << 16;

  private final Filter[] shards;
  private final int shardBits;
  private final long numKeys;
  private final long sizeInBits;
  private final BatchScratch.ChunkProbe chunkProbe = this::probeChunk;
  private final KeyScheme keyScheme;

  private ShardedFilter(Filter[] shards) {
    this(shards, KeyScheme.XXPH3);
  }

  private ShardedFilter(Filter[] shards, KeyScheme keyScheme) {
    this.keyScheme = keyScheme;
    this.shards = shards;
    this.shardBits = Integer.numberOfTrailingZeros(shards.length);
    long keys = 0;
    long bits = 0;
    for (Filter f : shards) {
      keys += f.numKeys();
      bits += f.sizeInBits();
    }
    this.numKeys = keys;
    this.sizeInBits = bits;
  }

  /**
   * Assembles shards built elsewhere: shard {@code i} must have been built over the {@link
   * #shardHash shard hashes} of the keys whose {@link #shardOf shard} is {@code i} for {@code
   * shards.size()} shards, or its keys will be reported absent. The list is copied.
   *
   * @throws IllegalArgumentException if the list is empty, its size is not a power of two up to
   *     {@value #MAX_SHARDS}, a shard is {@code null}, not of a static Sieve type, or not of the
   *     first shard's class
   */
  public static ShardedFilter of(List<? extends Filter> shards) {
    return new ShardedFilter(ShardedBuild.checkedShards(shards));
  }

  /**
   * Checks a shard count.
   *
   * @throws IllegalArgumentException unless {@code shardCount} is a power of two in {@code [1,
   *     2^16]}
   */
  static int checkShardCount(int shardCount) {
    return ShardedBuild.checkShardCount(shardCount);
  }

  /**
   * The shard of the key whose 64-bit hash is {@code hash64}, among {@code shardCount} shards: the
   * top {@code log2(shardCount)} bits of the hash.
   *
   * @throws IllegalArgumentException if {@code shardCount} is not a valid shard count
   */
  public static int shardOf(long hash64, int shardCount) {
    return shardOfBits(hash64, Integer.numberOfTrailingZeros(checkShardCount(shardCount)));
  }

  static int shardOfBits(long hash64, int shardBits) {
    // shardBits == 0: a shift by 64 is a shift by 0 in Java, hence the explicit case
    return shardBits == 0 ? 0 : (int) (hash64 >>> (64 - shardBits));
  }

  /**
   * The hash a shard's filter is built over and queried with, for the key whose 64-bit hash is
   * {@code hash64}: {@link KeyHash#mix64}{@code (hash64)}, a bijection that spreads the randomness
   * of the bits below the shard bits over all 64 bits (see the class comment).
   */
  static long shardHash(long hash64) {
    return KeyHash.mix64(hash64);
  }

  /**
   * A builder of {@value #DEFAULT_SHARDS} shards of {@link BinaryFuse8Filter} (the registry's
   * {@code sharded} type); {@link #builder(int, Supplier)} takes any count and static type.
   *
   * @return a new builder
   */
  public static Builder builder() {
    return builder(DEFAULT_SHARDS, BinaryFuse8Filter::builder);
  }

  /** The shard count of {@link #builder()}. */
  static final int DEFAULT_SHARDS = 16;

  /**
   * A builder of sharded filters over {@code shardCount} shards, each built by a new builder from
   * {@code shardBuilder} (e.g. {@code BinaryFuse8Filter::builder}, or {@code () ->
   * BlockedBloomFilter.builder().bitsPerKey(10)}).
   */
  public static Builder builder(
      int shardCount, Supplier<? extends FilterBuilder<? extends Filter>> shardBuilder) {
    return new Builder(checkShardCount(shardCount), Objects.requireNonNull(shardBuilder));
  }

  /**
   * Sorts the first {@code count} hashes of {@code shardHashes} and drops repeats, in place; the
   * shard build in one JVM does this before handing a shard's hashes to its builder, so a shard
   * built elsewhere from the same set, in any order, gets the same bytes.
   *
   * @return the number of distinct hashes, now at the front
   */
  static int sortDistinct(long[] shardHashes, int count) {
    return ShardedBuild.sortDistinct(shardHashes, count);
  }

  @Override
  public boolean mayContainHash(long hash64) {
    return shards[shardOfBits(hash64, shardBits)].mayContainHash(KeyHash.mix64(hash64));
  }

  /**
   * Batch query: with one shard, remixes each chunk of hashes and hands it to the shard's own batch
   * query (so its memory-level parallelism is kept); with several, key by key.
   */
  @Override
  public int mayContainHashes(long[] hashes, int off, int len, long[] resultBits) {
    return BatchScratch.batch(hashes, off, len, resultBits, chunkProbe);
  }

  private long probeChunk(long[] hashes, int at, int chunk) {
    return ShardedBatch.probeChunk(shards, shardBits, hashes, at, chunk);
  }

  /** The number of shards, a power of two. */
  public int shardCount() {
    return shards.length;
  }

  /** Shard {@code i}, queried with {@code shardHash} of the key hashes whose shard is {@code i}. */
  public Filter shard(int i) {
    return shards[Objects.checkIndex(i, shards.length)];
  }

  /** The shards, in order (an unmodifiable list). */
  public List<Filter> shards() {
    return Collections.unmodifiableList(Arrays.asList(shards));
  }

  /** The class of every shard. */
  Class<? extends Filter> shardClass() {
    return shards[0].getClass();
  }

  /** The sum of the shards' key counts. */
  @Override
  public long numKeys() {
    return numKeys;
  }

  /** The sum of the shards' sizes. */
  @Override
  public long sizeInBits() {
    return sizeInBits;
  }

  /**
   * The mean of the shards' modelled FPRs: an absent key falls in each shard with probability
   * {@code 1/S}. Empty shards (FPR 0) count in the mean.
   */
  @Override
  public double modelledFpRate() {
    double sum = 0;
    for (Filter f : shards) {
      sum += f.numKeys() == 0 ? 0.0 : f.modelledFpRate();
    }
    return sum / shards.length;
  }

  @Override
  public KeyScheme keyScheme() {
    return keyScheme;
  }

  @Override
  public ShardedFilter withKeyScheme(KeyScheme scheme) {
    Schemes.check(this, scheme);
    return scheme == keyScheme ? this : new ShardedFilter(shards, scheme);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof ShardedFilter other
        && other.keyScheme == keyScheme
        && Arrays.equals(shards, other.shards);
  }

  @Override
  public int hashCode() {
    return Arrays.hashCode(shards);
  }

  @Override
  public String toString() {
    return "ShardedFilter{shards="
        + shards.length
        + " x "
        + shardClass().getSimpleName()
        + ", keys="
        + numKeys
        + ", bits="
        + sizeInBits
        + "}";
  }

  /**
   * Builds {@link ShardedFilter}s in one JVM: {@code buildFromHashes} partitions the key hashes by
   * shard, remixes, sorts and de-duplicates each shard's hashes, and builds every shard with a new
   * builder from the supplier.
   */
  public static final class Builder extends FilterBuilder<ShardedFilter> {
    @Override
    public Builder keyScheme(KeyScheme scheme) {
      super.keyScheme(scheme);
      return this;
    }

    private final int shardCount;
    private final Supplier<? extends FilterBuilder<? extends Filter>> shardBuilder;
    private double fpRate = Double.NaN; // NaN: the shard builder's own
    private Long seed; // null: the shard builder's own

    private Builder(
        int shardCount, Supplier<? extends FilterBuilder<? extends Filter>> shardBuilder) {
      super(KeyScheme.FAST);
      this.shardCount = shardCount;
      this.shardBuilder = shardBuilder;
    }

    /**
     * The false-positive rate of every shard, and so of the whole filter: handed to each shard's
     * builder ({@link FilterBuilder#fpRate}), checked against the shard type at once.
     *
     * @param fpRate in (0, 1), within the shard type's range
     * @return this builder
     * @throws IllegalArgumentException as the shard type's {@code fpRate} (e.g. a rate below 2^-8
     *     for Binary Fuse 8), naming the value
     */
    @Override
    public Builder fpRate(double fpRate) {
      shardBuilder.get().fpRate(fpRate); // refuses what the shard type cannot reach
      this.fpRate = fpRate;
      return this;
    }

    /**
     * The seed of every shard's builder, for shard types that take one (Xor, Binary Fuse).
     *
     * @param seed any value
     * @return this builder
     * @throws UnsupportedOperationException if the shard type hashes without a seed (blocked Bloom,
     *     Ribbon: RocksDB's hashing)
     */
    @Override
    public Builder seed(long seed) {
      shardBuilder.get().seed(seed);
      this.seed = seed;
      return this;
    }

    /** A new builder of one shard, with this builder's rate and seed. */
    private FilterBuilder<? extends Filter> newShardBuilder() {
      FilterBuilder<? extends Filter> b = shardBuilder.get();
      if (!Double.isNaN(fpRate)) {
        b.fpRate(fpRate);
      }
      if (seed != null) {
        b.seed(seed);
      }
      return b;
    }

    /** The shard count. */
    public int shardCount() {
      return shardCount;
    }

    /**
     * Builds shard {@code shard} from the key hashes (not shard hashes) {@code hashes[0, count)},
     * all of which must belong to it: remixed, sorted, de-duplicated, built. This is the one shard
     * build, used both by {@code buildFromHashes} and by distributed builds.
     *
     * @throws IllegalArgumentException if a hash belongs to another shard
     */
    public Filter buildShard(int shard, long[] hashes, int count) {
      return ShardedBuild.buildShard(shard, shardCount, hashes, count, this::newShardBuilder);
    }

    @Override
    protected ShardedFilter buildFromHashes(long[] hashes, int count) {
      return of(ShardedBuild.buildAll(hashes, count, shardCount, this::buildShard));
    }
  }
}
