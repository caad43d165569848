package dev.sieve.policy;

import static dev.sieve.policy.FilterPolicy.TRAILER_BYTES;

import dev.sieve.bloom.BlockedBloomFilter;
import dev.sieve.ribbon.RibbonSizing;

/**
 * RocksDB's {@code ApproximateNumEntries(bytes)} of the FastLocalBloom and Standard128Ribbon
 * builders (format_version ≥ 5): how many entries a filter of so many bytes holds, which sizes
 * filter partitions ({@link FilterPolicy#approximateNumEntries}).
 */
final class PartitionSizing {
  private PartitionSizing() {}

  /** The Ribbon builder's estimate, at {@code oneInFp}; its Bloom fallback at {@code millibits}. */
  static long ribbonEntries(long bytes, double oneInFp, int millibits) {
    long dataBytes = (Math.max(bytes, TRAILER_BYTES) - TRAILER_BYTES) & ~15L;
    if (!(oneInFp > 1.0)) {
      return RibbonSizing.MAX_RIBBON_ENTRIES;
    }
    double minBitsPerSlot;
    if (oneInFp >= 4294967296.0) {
      minBitsPerSlot = 32.0;
    } else {
      // columns alternate between b and b + 1: slightly below log2(1 / fp rate) bits a slot
      long rounded = (long) oneInFp;
      int upperBits = 64 - Long.numberOfLeadingZeros(rounded);
      double upperRate = Math.pow(2.0, -upperBits);
      minBitsPerSlot = upperBits - (1.0 / oneInFp - upperRate) / upperRate;
    }
    double maxSlots = dataBytes * 8.0 / minBitsPerSlot;
    if (!(maxSlots < RibbonSizing.numSlotsForKeys(RibbonSizing.MAX_RIBBON_ENTRIES))) {
      return RibbonSizing.MAX_RIBBON_ENTRIES;
    }
    long slots = RibbonSizing.roundUpNumSlots((long) maxSlots);
    for (int i = 0; slots > 0; i++) {
      if (RibbonSizing.bytesForOneInFpRate((int) slots, oneInFp, 0) <= dataBytes || i >= 2) {
        break;
      }
      slots = (slots - 1) / RibbonSizing.SLOTS_PER_BLOCK * RibbonSizing.SLOTS_PER_BLOCK;
      if (slots == RibbonSizing.SLOTS_PER_BLOCK) {
        slots = 0; // one start position is never used
      }
    }
    long entries = RibbonSizing.numKeysForSlots((int) slots);
    if (slots < RibbonSizing.BLOOM_COMPARISON_SLOTS) {
      return Math.max(entries, bloomEntries(bytes, millibits));
    }
    return Math.min(entries, RibbonSizing.MAX_RIBBON_ENTRIES);
  }

  /** The FastLocalBloom builder's estimate at {@code millibits} thousandths of a bit per key. */
  static long bloomEntries(long bytes, int millibits) {
    long data =
        bytes >= TRAILER_BYTES
            ? Math.min(bytes - TRAILER_BYTES, BlockedBloomFilter.MAX_DATA_BYTES) & ~63L
            : 0;
    return 8000L * data / millibits;
  }
}
