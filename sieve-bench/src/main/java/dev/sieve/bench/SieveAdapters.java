package dev.sieve.bench;

import dev.sieve.bloom.BlockedBloomFilter;
import dev.sieve.bloom.StandardBloomFilter;
import dev.sieve.cuckoo.CuckooFilter;
import dev.sieve.hash.KeyHash;
import dev.sieve.ribbon.Standard128RibbonFilter;
import dev.sieve.xor.BinaryFuse16Filter;
import dev.sieve.xor.BinaryFuse8Filter;
import dev.sieve.xor.Xor16Filter;
import dev.sieve.xor.Xor8Filter;
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
    kinds.add(
        new StructureKind(
            "sieve-ribbon",
            Family.SIEVE,
            "Sieve Standard128RibbonFilter (RocksDB's Ribbon; bits/key = bloom-equivalent)",
            true,
            (keys, b) ->
                new SieveFilterMembership(
                    Standard128RibbonFilter.builder().bitsPerKey(b).build(keys))));
    kinds.add(
        new StructureKind(
            "sieve-xor8",
            Family.SIEVE,
            "Sieve Xor8Filter (8-bit fingerprints, 1.23n slots)",
            false,
            (keys, b) -> new SieveFilterMembership(Xor8Filter.builder().build(keys))));
    kinds.add(
        new StructureKind(
            "sieve-xor16",
            Family.SIEVE,
            "Sieve Xor16Filter (16-bit fingerprints)",
            false,
            (keys, b) -> new SieveFilterMembership(Xor16Filter.builder().build(keys))));
    kinds.add(
        new StructureKind(
            "sieve-binary-fuse8",
            Family.SIEVE,
            "Sieve BinaryFuse8Filter (3-wise, 8-bit fingerprints)",
            false,
            (keys, b) -> new SieveFilterMembership(BinaryFuse8Filter.builder().build(keys))));
    kinds.add(
        new StructureKind(
            "sieve-binary-fuse16",
            Family.SIEVE,
            "Sieve BinaryFuse16Filter (3-wise, 16-bit fingerprints)",
            false,
            (keys, b) -> new SieveFilterMembership(BinaryFuse16Filter.builder().build(keys))));
    kinds.add(
        new StructureKind(
            "sieve-cuckoo8",
            Family.SIEVE,
            "Sieve CuckooFilter (8-bit fingerprints, buckets of 4, load 0.95)",
            false,
            (keys, b) -> new SieveFilterMembership(cuckoo(keys, 8))));
    kinds.add(
        new StructureKind(
            "sieve-cuckoo16",
            Family.SIEVE,
            "Sieve CuckooFilter (16-bit fingerprints, buckets of 4, load 0.95)",
            false,
            (keys, b) -> new SieveFilterMembership(cuckoo(keys, 16))));
    return kinds;
  }

  /** A cuckoo filter sized for the keys at its design load, every key added. */
  static CuckooFilter cuckoo(long[] keys, int fingerprintBits) {
    CuckooFilter f = CuckooFilter.create(keys.length, fingerprintBits);
    for (long key : keys) {
      f.addHash(KeyHash.hash64(key));
    }
    return f;
  }
}
