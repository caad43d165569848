package dev.sieve.bench;

import dev.sieve.FastLongKeyFilter;
import dev.sieve.FilterBuilder;
import dev.sieve.bench.SieveFilterMembership.Mode;
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
import java.util.function.DoubleFunction;

/**
 * The Sieve filters under test, one adapter each, all built through the filters' public builders
 * from {@code long} keys (so the build includes hashing every key with Sieve's key hash).
 */
public final class SieveAdapters {
  private SieveAdapters() {}

  /**
   * All Sieve kinds present in this build: each filter as a caller queries it ({@code sieve-X}),
   * through the batch API ({@code sieve-X-batch}) and pre-hashed ({@code sieve-X-prehashed}).
   */
  public static List<StructureKind> kinds() {
    List<StructureKind> kinds = new ArrayList<>();
    add(
        kinds,
        "sieve-standard-bloom",
        "Sieve StandardBloomFilter (k random bits, optimal k)",
        true,
        b -> StandardBloomFilter.builder().bitsPerKey(b));
    add(
        kinds,
        "sieve-blocked-bloom",
        "Sieve BlockedBloomFilter (RocksDB FastLocalBloom, one 512-bit line per key)",
        true,
        b -> BlockedBloomFilter.builder().bitsPerKey(b));
    add(
        kinds,
        "sieve-ribbon",
        "Sieve Standard128RibbonFilter (RocksDB's Ribbon; bits/key = bloom-equivalent)",
        true,
        b -> Standard128RibbonFilter.builder().bloomEquivalentBitsPerKey(b));
    add(
        kinds,
        "sieve-xor8",
        "Sieve Xor8Filter (8-bit fingerprints, 1.23n slots)",
        false,
        b -> Xor8Filter.builder());
    add(
        kinds,
        "sieve-xor16",
        "Sieve Xor16Filter (16-bit fingerprints)",
        false,
        b -> Xor16Filter.builder());
    add(
        kinds,
        "sieve-binary-fuse8",
        "Sieve BinaryFuse8Filter (3-wise, 8-bit fingerprints)",
        false,
        b -> BinaryFuse8Filter.builder());
    add(
        kinds,
        "sieve-binary-fuse16",
        "Sieve BinaryFuse16Filter (3-wise, 16-bit fingerprints)",
        false,
        b -> BinaryFuse16Filter.builder());
    addCuckoo(kinds, 8);
    addCuckoo(kinds, 16);
    return kinds;
  }

  /** The suffix of the batch rows. */
  public static final String BATCH_SUFFIX = "-batch";

  /** The suffix of the pre-hashed rows. */
  public static final String PREHASHED_SUFFIX = "-prehashed";

  /** The suffix of the rows keyed by the fast long-key hash ({@code FastLongKeyFilter}). */
  public static final String FASTHASH_SUFFIX = "-fasthash";

  private static void add(
      List<StructureKind> kinds,
      String name,
      String description,
      boolean sized,
      DoubleFunction<FilterBuilder<?>> builder) {
    kinds.add(
        new StructureKind(
            name,
            Family.SIEVE,
            description,
            sized,
            (keys, b) -> new SieveFilterMembership(builder.apply(b).build(keys))));
    kinds.add(
        new StructureKind(
            name + BATCH_SUFFIX,
            Family.SIEVE,
            description + ", queried through the batch API",
            sized,
            (keys, b) -> new SieveFilterMembership(builder.apply(b).build(keys), Mode.BATCH)));
    kinds.add(
        new StructureKind(
            name + PREHASHED_SUFFIX,
            Family.SIEVE,
            description + ", pre-hashed (the random key is its own hash)",
            sized,
            (keys, b) ->
                new SieveFilterMembership(builder.apply(b).buildFromHashes(keys), Mode.PREHASHED)));
    kinds.add(
        new StructureKind(
            name + FASTHASH_SUFFIX,
            Family.SIEVE,
            description + ", fast long-key hash (FastLongKeyFilter, not RocksDB's bytes)",
            sized,
            (keys, b) ->
                new SieveFilterMembership(FastLongKeyFilter.build(builder.apply(b), keys))));
    kinds.add(
        new StructureKind(
            name + FASTHASH_SUFFIX + BATCH_SUFFIX,
            Family.SIEVE,
            description + ", fast long-key hash, queried through the batch API",
            sized,
            (keys, b) ->
                new SieveFilterMembership(
                    FastLongKeyFilter.build(builder.apply(b), keys), Mode.BATCH)));
  }

  private static void addCuckoo(List<StructureKind> kinds, int bits) {
    String name = "sieve-cuckoo" + bits;
    String description =
        "Sieve CuckooFilter (" + bits + "-bit fingerprints, buckets of 4, load 0.95)";
    kinds.add(
        new StructureKind(
            name,
            Family.SIEVE,
            description,
            false,
            (keys, b) -> new SieveFilterMembership(cuckoo(keys, bits))));
    kinds.add(
        new StructureKind(
            name + BATCH_SUFFIX,
            Family.SIEVE,
            description + ", queried through the batch API",
            false,
            (keys, b) -> new SieveFilterMembership(cuckoo(keys, bits), Mode.BATCH)));
    kinds.add(
        new StructureKind(
            name + PREHASHED_SUFFIX,
            Family.SIEVE,
            description + ", pre-hashed (the random key is its own hash)",
            false,
            (keys, b) -> {
              CuckooFilter f = CuckooFilter.createWithFingerprintBits(keys.length, bits);
              for (long key : keys) {
                f.addHash(key);
              }
              return new SieveFilterMembership(f, Mode.PREHASHED);
            }));
  }

  /** A cuckoo filter sized for the keys at its design load, every key added. */
  static CuckooFilter cuckoo(long[] keys, int fingerprintBits) {
    CuckooFilter f = CuckooFilter.createWithFingerprintBits(keys.length, fingerprintBits);
    for (long key : keys) {
      f.addHash(KeyHash.hash64(key));
    }
    return f;
  }
}
