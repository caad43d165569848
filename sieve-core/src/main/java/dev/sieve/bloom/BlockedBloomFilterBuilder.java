package dev.sieve.bloom;

import dev.sieve.KeyScheme;
import dev.sieve.MutableFilterBuilder;
import dev.sieve.internal.LongKeyBlocks;
import dev.sieve.internal.base.Checks;

/** Builds {@link BlockedBloomFilter}s with RocksDB's sizing (see the class comment). */
public final class BlockedBloomFilterBuilder extends MutableFilterBuilder<BlockedBloomFilter> {
  @Override
  public BlockedBloomFilterBuilder keyScheme(KeyScheme scheme) {
    super.keyScheme(scheme);
    return this;
  }

  private int millibitsPerKey = 10_000;

  BlockedBloomFilterBuilder() {}

  /** Sets bits per key, fractional, in [1, 100] (default 10). */
  public BlockedBloomFilterBuilder bitsPerKey(double bitsPerKey) {
    Checks.bitsPerKey(
        bitsPerKey, FastLocalBloomSizing.MIN_BITS_PER_KEY, FastLocalBloomSizing.MAX_BITS_PER_KEY);
    millibitsPerKey = FastLocalBloomSizing.rocksDbMillibitsPerKey(bitsPerKey);
    return this;
  }

  /** The smallest bits/key (in thousandths) whose modelled rate meets it, up to 100. */
  @Override
  public BlockedBloomFilterBuilder fpRate(double fpRate) {
    millibitsPerKey = FastLocalBloomSizing.millibitsPerKeyForFpRate(fpRate);
    return this;
  }

  /** {@return the setting in thousandths of a bit per key} */
  public int millibitsPerKey() {
    return millibitsPerKey;
  }

  @Override
  public BlockedBloomFilterBuilder expectedKeys(long expectedKeys) {
    super.expectedKeys(expectedKeys);
    return this;
  }

  /** Sized as RocksDB sizes a filter for that many keys at the configured millibits/key. */
  @Override
  protected BlockedBloomFilter createEmpty() {
    return BlockedBloomForm.createEmpty(expectedKeys(), millibitsPerKey);
  }

  /**
   * Throws where RocksDB would cap the length ({@link BlockedBloomFilter#buildRocksDb} caps as
   * RocksDB does).
   */
  @Override
  protected BlockedBloomFilter buildFromHashes(long[] hashes, int count) {
    BlockedBloomForm.checkFits(count, millibitsPerKey);
    return BlockedBloomFilter.buildRocksDb(hashes, count, millibitsPerKey);
  }

  /**
   * The filter {@link #buildFromHashes} gives for the keys' hashes, hashing them a block at a time
   * into a small scratch array as it adds them (no array of {@code n} hashes); under a scheme that
   * may map two keys to one hash, {@code null}: the common path.
   */
  @Override
  protected BlockedBloomFilter buildFromLongKeys(long[] keys) {
    KeyScheme scheme = keyScheme();
    if (!LongKeyBlocks.injective(scheme)) {
      return null;
    }
    BlockedBloomForm.checkFits(keys.length, millibitsPerKey);
    return schemed(BloomLongKeyBuild.blocked(keys, scheme, millibitsPerKey));
  }
}
