package dev.sieve.shard;

import dev.sieve.Filter;
import dev.sieve.hash.KeyHash;
import dev.sieve.internal.base.BatchScratch;

/**
 * The batch query of {@link ShardedFilter}, one chunk of hashes at a time: with one shard, the
 * chunk remixed and handed to the shard's own batch query (so its memory-level parallelism is
 * kept); with several, key by key.
 */
final class ShardedBatch {
  private ShardedBatch() {}

  private static final ThreadLocal<long[][]> SCRATCH =
      ThreadLocal.withInitial(() -> new long[][] {new long[BatchScratch.CHUNK], new long[1]});

  /** The answers for {@code hashes[at, at + chunk)}: bit {@code i} for hash {@code at + i}. */
  static long probeChunk(Filter[] shards, int shardBits, long[] hashes, int at, int chunk) {
    long word = 0;
    if (shards.length == 1) {
      long[][] scratch = SCRATCH.get();
      long[] mixed = scratch[0];
      KeyHash.mix64(hashes, at, chunk, mixed, 0);
      shards[0].mayContainHashes(mixed, 0, chunk, scratch[1]);
      return scratch[1][0];
    }
    for (int i = 0; i < chunk; i++) {
      long h = hashes[at + i];
      if (shards[ShardedFilter.shardOfBits(h, shardBits)].mayContainHash(KeyHash.mix64(h))) {
        word |= 1L << i;
      }
    }
    return word;
  }
}
