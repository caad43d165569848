package dev.sieve.shard;

import dev.sieve.Filter;
import dev.sieve.FilterBuilder;
import dev.sieve.bloom.BlockedBloomFilter;
import dev.sieve.ribbon.Standard128RibbonFilter;
import dev.sieve.xor.BinaryFuse16Filter;
import dev.sieve.xor.BinaryFuse8Filter;
import dev.sieve.xor.Xor16Filter;
import dev.sieve.xor.Xor8Filter;
import java.util.function.Supplier;

/** The shard types of the tests, each with fixed settings and seeds. */
enum ShardTypes {
  BLOCKED_BLOOM(() -> BlockedBloomFilter.builder().bitsPerKey(10)),
  RIBBON(() -> Standard128RibbonFilter.builder().bloomEquivalentBitsPerKey(10)),
  XOR8(() -> Xor8Filter.builder().seed(3)),
  XOR16(() -> Xor16Filter.builder().seed(3)),
  BINARY_FUSE8(() -> BinaryFuse8Filter.builder().seed(3)),
  BINARY_FUSE16(() -> BinaryFuse16Filter.builder().seed(3));

  final Supplier<FilterBuilder<? extends Filter>> builder;

  ShardTypes(Supplier<FilterBuilder<? extends Filter>> builder) {
    this.builder = builder;
  }

  ShardedFilter.Builder sharded(int shards) {
    return ShardedFilter.builder(shards, builder);
  }
}
