package dev.sieve.policy;

import dev.sieve.RocksDbFilter;
import dev.sieve.hash.KeyHash;

/**
 * Tests' short forms of {@link FilterPolicy}'s RocksDB builds: a Ribbon level of {@code
 * ribbonfilter:B:-1} with {@code optimize_filters_for_memory} off (the setting RocksDB's golden
 * blocks were written with), and the package-private forced-size path.
 */
final class RocksDbBuilds {
  private RocksDbBuilds() {}

  /** The policy whose every level is a Ribbon level, without the memory option. */
  static FilterPolicy ribbonEverywhere(double bloomEquivalentBitsPerKey) {
    return FilterPolicy.ribbon(bloomEquivalentBitsPerKey, FilterPolicy.ALWAYS_RIBBON)
        .withOptimizeFiltersForMemory(false);
  }

  /** What RocksDB's Ribbon builder writes for these hashes: Ribbon or its Bloom fallback. */
  static RocksDbFilter ribbonLevel(long[] hashes, int count, double bitsPerKey) {
    return ribbonEverywhere(bitsPerKey).build(FilterPolicy.UNKNOWN_LEVEL, hashes, count);
  }

  /** As {@link #ribbonLevel} over byte-string keys ({@link KeyHash#hash64(byte[])}). */
  static RocksDbFilter ribbonLevel(byte[][] keys, double bitsPerKey) {
    long[] hashes = new long[keys.length];
    for (int i = 0; i < keys.length; i++) {
      hashes[i] = KeyHash.hash64(keys[i]);
    }
    return ribbonLevel(hashes, hashes.length, bitsPerKey);
  }

  /**
   * RocksDB's Ribbon path forced to {@code numSlots} slots (to force seed retries and fallback).
   */
  static RocksDbFilter ribbonAtSlots(
      long[] entries, int n, double bitsPerKey, int numSlots, boolean compareWithBloom) {
    return ribbonEverywhere(bitsPerKey).buildRibbonAtSlots(entries, n, numSlots, compareWithBloom);
  }
}
