package dev.sieve.policy;

import dev.sieve.RocksDbFilter;
import dev.sieve.bloom.BlockedBloomFilter;
import dev.sieve.bloom.FastLocalBloomSizing;
import dev.sieve.internal.base.LongList;
import dev.sieve.ribbon.RibbonSizing;
import dev.sieve.ribbon.Standard128RibbonFilter;

/**
 * The filters a {@link FilterPolicy} builds: FastLocalBloom on a Bloom level, and on a Ribbon level
 * the steps of RocksDB's {@code Standard128RibbonBitsBuilder} with its Bloom fallbacks (the class
 * comment of {@link FilterPolicy} lists them), at the policy's millibits/key and FPR.
 */
final class PolicyBuild {
  private PolicyBuild() {}

  /** {@link FilterPolicy#rocksDbId()}: the bits/key with up to three decimals, no trailing zero. */
  static String rocksDbId(boolean ribbonPolicy, int millibitsPerKey, int bloomBeforeLevel) {
    StringBuilder sb =
        new StringBuilder(ribbonPolicy ? "ribbonfilter:" : "bloomfilter:")
            .append(millibitsPerKey / 1000);
    int frac = millibitsPerKey % 1000;
    if (frac > 0) {
      sb.append('.').append(frac / 100);
      frac %= 100;
      if (frac > 0) {
        sb.append(frac / 10);
        frac %= 10;
        if (frac > 0) {
          sb.append(frac);
        }
      }
    }
    return ribbonPolicy ? sb.append(':').append(bloomBeforeLevel).toString() : sb.toString();
  }

  /** FastLocalBloom over the hashes, rounded as {@code optimize_filters_for_memory} says. */
  static BlockedBloomFilter bloom(FilterPolicy policy, long[] hashes, int count) {
    BlockedBloomFilter planned =
        BlockedBloomFilter.buildRocksDb(hashes, count, policy.millibitsPerKey());
    if (!policy.optimizeFiltersForMemory() || count == 0) {
      return planned;
    }
    return MemoryRounding.withProbesForAllocatedLength(planned, hashes, count);
  }

  /** Standard128Ribbon over the hashes, or its Bloom fallback. */
  static RocksDbFilter ribbon(FilterPolicy policy, long[] hashes, int count) {
    long[] entries = LongList.dedupConsecutive(hashes, count);
    int n = entries.length;
    if (n == 0) {
      return Standard128RibbonFilter.builder()
          .buildAdded(); // the empty filter: RocksDB's 0-byte block
    }
    if (n > RibbonSizing.MAX_RIBBON_ENTRIES) {
      return bloom(policy, entries, n);
    }
    return ribbonAtSlots(policy, entries, n, RibbonSizing.numSlotsForKeys(n), true);
  }

  /**
   * RocksDB's Ribbon path for {@code n ≥ 1} de-duplicated entries at {@code numSlots} slots: the
   * Bloom comparison for small filters (when {@code compareWithBloom}), then the solve, Bloom if
   * all 256 seeds fail. Tests call it with an undersized {@code numSlots} to force the fallback.
   */
  static RocksDbFilter ribbonAtSlots(
      FilterPolicy policy, long[] entries, int n, int numSlots, boolean compareWithBloom) {
    int bias = (int) (entries[0] >>> 32);
    long bytes = RibbonSizing.bytesForOneInFpRate(numSlots, policy.oneInFpRate(), bias);
    if (compareWithBloom
        && numSlots < RibbonSizing.BLOOM_COMPARISON_SLOTS
        && bloomBlockBytes(n, policy.millibitsPerKey()) < bytes + FilterPolicy.TRAILER_BYTES) {
      return bloom(policy, entries, n);
    }
    return Standard128RibbonFilter.solveRocksDb(entries, n, numSlots, bytes)
        .<RocksDbFilter>map(r -> r)
        .orElseGet(() -> bloom(policy, entries, n));
  }

  /**
   * RocksDB's FastLocalBloom block length for the fallback ({@code CalculateSpace}): data rounded
   * up to 64 bytes plus the 5-byte trailer.
   */
  static long bloomBlockBytes(long numKeys, int millibitsPerKey) {
    return FastLocalBloomSizing.rocksDbDataBytes(numKeys, millibitsPerKey)
        + FilterPolicy.TRAILER_BYTES;
  }

  /**
   * Whether RocksDB builds FastLocalBloom instead of Ribbon for {@code numKeys ≥ 1} keys on a
   * Ribbon level: too many keys for Ribbon, or a small filter (fewer than 1024 slots) whose Bloom
   * block would be strictly smaller than the Ribbon block at this rounding bias (the upper half of
   * the first key's hash).
   */
  static boolean bloomIsSmaller(FilterPolicy policy, long numKeys, int roundingBias32) {
    if (numKeys > RibbonSizing.MAX_RIBBON_ENTRIES) {
      return true;
    }
    int numSlots = RibbonSizing.numSlotsForKeys((int) numKeys);
    if (numSlots >= RibbonSizing.BLOOM_COMPARISON_SLOTS) {
      return false;
    }
    long ribbonBlock =
        RibbonSizing.bytesForOneInFpRate(numSlots, policy.oneInFpRate(), roundingBias32)
            + FilterPolicy.TRAILER_BYTES;
    return bloomBlockBytes(numKeys, policy.millibitsPerKey()) < ribbonBlock;
  }
}
