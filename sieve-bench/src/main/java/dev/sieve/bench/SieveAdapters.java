package dev.sieve.bench;

import dev.sieve.bloom.BlockedBloomFilter;
import dev.sieve.bloom.StandardBloomFilter;
import java.util.ArrayList;
import java.util.List;

/**
 * The Sieve filters under test, one adapter each, all built through the filters' public builders
 * from {@code long} keys (so the build includes hashing every key with Sieve's key hash).
 */
public final class SieveAdapters {
  private SieveAdapters() {}

  /** All Sieve kinds present in this build. */
  public static List<StructureKind> kinds() {
    List<StructureKind> kinds = new ArrayList<>();
    kinds.add(
        new StructureKind(
            "sieve-standard-bloom",
            Family.SIEVE,
            "Sieve StandardBloomFilter (k random bits, optimal k)",
            true,
            (keys, b) ->
                new SieveFilterMembership(
                    StandardBloomFilter.builder().bitsPerKey(b).build(keys))));
    kinds.add(
        new StructureKind(
            "sieve-blocked-bloom",
            Family.SIEVE,
            "Sieve BlockedBloomFilter (RocksDB FastLocalBloom, one 512-bit line per key)",
            true,
            (keys, b) ->
                new SieveFilterMembership(BlockedBloomFilter.builder().bitsPerKey(b).build(keys))));
    // -- further Sieve filters (ribbon, xor, binary fuse, cuckoo) join here as they land on main
    return kinds;
  }
}
