package dev.sieve.bloom;

import dev.sieve.math.BloomMath;

/**
 * RocksDB's sizing rules for its FastLocalBloom filter ({@link BlockedBloomFilter}): how a bits/key
 * setting becomes thousandths of a bit, how many data bytes a key count gets, and how many probes a
 * setting uses. The builders of {@link BlockedBloomFilter}, {@code FilterPolicy} and the scalable
 * filter's stages size by these rules, so a filter sized here is byte for byte the one RocksDB
 * builds.
 *
 * <p>Reference: RocksDB table/block_based/filter_policy.cc ({@code BloomLikeFilterPolicy}, {@code
 * FastLocalBloomBitsBuilder}) and util/bloom_impl.h ({@code FastLocalBloomImpl::ChooseNumProbes}).
 */
public final class FastLocalBloomSizing {

  /** The smallest and largest bits/key the builders accept. */
  static final double MIN_BITS_PER_KEY = 1.0;

  static final double MAX_BITS_PER_KEY = 100.0;

  private FastLocalBloomSizing() {}

  /**
   * RocksDB's conversion of a bits/key setting to thousandths of a bit ({@code
   * BloomLikeFilterPolicy}): {@code (int) (bits · 1000 + 0.500001)}, the nudge making three-decimal
   * settings exact on every platform. The caller range-checks {@code bitsPerKey}.
   */
  public static int rocksDbMillibitsPerKey(double bitsPerKey) {
    return BloomMath.rocksDbMillibitsPerKey(bitsPerKey);
  }

  /**
   * RocksDB's data length in bytes for {@code numKeys} keys at {@code millibitsPerKey}: {@code
   * ceil(n · millibits / 8000)} capped at {@link BlockedBloomFilter#MAX_DATA_BYTES}, rounded up to
   * a multiple of 64.
   */
  public static long rocksDbDataBytes(long numKeys, int millibitsPerKey) {
    return BlockedBloomForm.dataBytes(numKeys, millibitsPerKey);
  }

  /**
   * RocksDB's probe count for a setting in thousandths of a bit per key ({@code
   * FastLocalBloomImpl::ChooseNumProbes}): the most accurate count measured for each range, up to
   * 24 probes.
   */
  public static int chooseNumProbes(int millibitsPerKey) {
    return BloomMath.fastLocalBloomNumProbes(millibitsPerKey);
  }

  /**
   * The smallest millibits/key setting whose modelled rate ({@link BloomMath#cacheLocalFpRate} at
   * RocksDB's probe count) is at most {@code fpRate}; {@code 100000} if none is.
   */
  public static int millibitsPerKeyForFpRate(double fpRate) {
    return BlockedBloomForm.millibitsPerKeyForFpRate(fpRate);
  }
}
