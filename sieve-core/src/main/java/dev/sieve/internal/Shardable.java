package dev.sieve.internal;

/**
 * Marks a filter class whose filters may be the shards of a {@code dev.sieve.shard.ShardedFilter}:
 * the types built from a shard's keys at once, whose probe takes the whole 64-bit key hash a shard
 * is given (blocked Bloom, Ribbon, Xor, Binary Fuse). The trait is the class's own: the registry's
 * {@code FilterType.isShardable()} reads it from the row's class, and the shard package checks a
 * shard's class against it, so neither package asks the other.
 */
public interface Shardable {}
