package dev.sieve.shard;

import dev.sieve.Filter;
import dev.sieve.FilterBuilder;
import dev.sieve.hash.KeyHash;
import dev.sieve.registry.FilterType;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * The build steps of {@link ShardedFilter} (its builder's partition and shard build, and the checks
 * of shards assembled from elsewhere); {@link ShardedFilter} and its {@link ShardedFilter.Builder}
 * hold the API and delegate here.
 */
final class ShardedBuild {
  private ShardedBuild() {}

  /** One shard's build, as {@link ShardedFilter.Builder#buildShard}. */
  interface ShardBuild {
    Filter build(int shard, long[] hashes, int count);
  }

  /** {@link ShardedFilter#of}'s checks: the shards, copied, all of one shardable class. */
  static Filter[] checkedShards(List<? extends Filter> shards) {
    Objects.requireNonNull(shards, "shards");
    ShardedFilter.checkShardCount(shards.size());
    Filter[] copy = new Filter[shards.size()];
    Class<?> cls = null;
    for (int i = 0; i < copy.length; i++) {
      Filter f = shards.get(i);
      if (f == null) {
        throw new IllegalArgumentException("shard " + i + " is null");
      }
      if (!isShardClass(f.getClass())) {
        throw new IllegalArgumentException(
            "shard "
                + i
                + " is a "
                + f.getClass().getName()
                + ", not one of the static types a sharded filter holds (blocked Bloom, Ribbon,"
                + " Xor, Binary Fuse: FilterType.isShardable())");
      }
      if (cls == null) {
        cls = f.getClass();
      } else if (f.getClass() != cls) {
        throw new IllegalArgumentException(
            "shard "
                + i
                + " is a "
                + f.getClass().getSimpleName()
                + " but shard 0 is a "
                + cls.getSimpleName()
                + ": all shards must be of one type");
      }
      copy[i] = f;
    }
    return copy;
  }

  /** Whether {@code cls} may be the class of a shard: a type's the registry calls shardable. */
  static boolean isShardClass(Class<?> cls) {
    FilterType type = FilterType.forClass(cls);
    return type != null && type.isShardable();
  }

  /** {@link ShardedFilter#sortDistinct}. */
  static int sortDistinct(long[] shardHashes, int count) {
    Objects.checkFromIndexSize(0, count, shardHashes.length);
    Arrays.sort(shardHashes, 0, count);
    int distinct = 0;
    for (int i = 0; i < count; i++) {
      if (distinct == 0 || shardHashes[i] != shardHashes[distinct - 1]) {
        shardHashes[distinct++] = shardHashes[i];
      }
    }
    return distinct;
  }

  /** {@link ShardedFilter.Builder#buildShard}, a new shard builder from {@code newBuilder}. */
  static Filter buildShard(
      int shard,
      int shardCount,
      long[] hashes,
      int count,
      Supplier<? extends FilterBuilder<? extends Filter>> newBuilder) {
    Objects.checkIndex(shard, shardCount);
    Objects.checkFromIndexSize(0, count, hashes.length);
    int bits = Integer.numberOfTrailingZeros(shardCount);
    long[] mixed = new long[count];
    for (int i = 0; i < count; i++) {
      int s = ShardedFilter.shardOfBits(hashes[i], bits);
      if (s != shard) {
        throw new IllegalArgumentException(
            "hash 0x"
                + Long.toHexString(hashes[i])
                + " belongs to shard "
                + s
                + " of "
                + shardCount
                + ", not "
                + shard);
      }
      mixed[i] = KeyHash.mix64(hashes[i]);
    }
    int distinct = sortDistinct(mixed, count);
    Filter f = newBuilder.get().buildFromHashes(Arrays.copyOf(mixed, distinct));
    if (!isShardClass(f.getClass())) {
      throw new IllegalArgumentException(
          "the shard builder made a "
              + f.getClass().getName()
              + ", not one of the static types a sharded filter holds (FilterType.isShardable())");
    }
    return f;
  }

  /** The builder's {@code buildFromHashes}: the hashes partitioned by shard, each shard built. */
  static List<Filter> buildAll(long[] hashes, int count, int shardCount, ShardBuild build) {
    int bits = Integer.numberOfTrailingZeros(shardCount);
    int[] sizes = new int[shardCount];
    for (int i = 0; i < count; i++) {
      sizes[ShardedFilter.shardOfBits(hashes[i], bits)]++;
    }
    long[][] parts = new long[shardCount][];
    for (int s = 0; s < shardCount; s++) {
      parts[s] = new long[sizes[s]];
    }
    int[] fill = new int[shardCount];
    for (int i = 0; i < count; i++) {
      int s = ShardedFilter.shardOfBits(hashes[i], bits);
      parts[s][fill[s]++] = hashes[i];
    }
    List<Filter> shards = new ArrayList<>(shardCount);
    for (int s = 0; s < shardCount; s++) {
      shards.add(build.build(s, parts[s], sizes[s]));
      parts[s] = null; // free the shard's hashes before the next build
    }
    return shards;
  }
}
