package dev.sieve.bench;

import dev.sieve.FilterBuilder;
import dev.sieve.KeyScheme;
import dev.sieve.bench.SieveFilterMembership.Mode;
import dev.sieve.bloom.BlockedBloomFilter;
import dev.sieve.bloom.SplitBlockBloomFilter;
import dev.sieve.bloom.StandardBloomFilter;
import dev.sieve.bloom.TwoWordBloomFilter;
import dev.sieve.cuckoo.CuckooFilter;
import dev.sieve.range.GrafiteFilter;
import dev.sieve.registry.FilterType;
import dev.sieve.ribbon.BumpedRibbonFilter;
import dev.sieve.ribbon.Standard128RibbonFilter;
import java.util.ArrayList;
import java.util.List;
import java.util.function.DoubleFunction;

/**
 * The Sieve filters under test, taken from the one registry of filter types ({@link FilterType}):
 * every type, one adapter per row, all built from {@code long} keys through the type's own builder
 * (so the build includes hashing every key with Sieve's key hash). A type sized by bits per key
 * (the Bloom filters; Ribbon's Bloom-equivalent bits per key) takes the report's bits/key setting;
 * a type sized by fingerprint bits (Cuckoo) is timed at the fingerprint widths of the FastFilter
 * peers it is read against ({@link #FINGERPRINT_WIDTHS}), named {@code sieve-<name><bits>}; a
 * fixed-size type (Xor, Binary Fuse) ignores the setting. The bench holds no list of filters of its
 * own: a type added to the registry gets its rows here.
 */
public final class SieveAdapters {
  private SieveAdapters() {}

  /** The fingerprint widths timed for a type sized by fingerprint bits: FastFilter's Cuckoo8/16. */
  public static final int[] FINGERPRINT_WIDTHS = {8, 16};

  /**
   * All Sieve kinds present in this build: each filter as a caller queries it ({@code sieve-X}),
   * through the batch API ({@code sieve-X-batch}), pre-hashed ({@code sieve-X-prehashed}) and with
   * the fast long-key hash ({@code sieve-X-fasthash}, {@code sieve-X-fasthash-batch}).
   */
  public static List<StructureKind> kinds() {
    List<StructureKind> kinds = new ArrayList<>();
    for (FilterType type : FilterType.builtIn()) {
      String name = "sieve-" + type.cliName();
      String description = "Sieve " + type.filterClass().getSimpleName();
      switch (type) {
        case BLOCKED_BLOOM ->
            add(kinds, name, description, true, b -> BlockedBloomFilter.builder().bitsPerKey(b));
        case STANDARD_BLOOM ->
            add(kinds, name, description, true, b -> StandardBloomFilter.builder().bitsPerKey(b));
        case SPLIT_BLOCK_BLOOM ->
            add(kinds, name, description, true, b -> SplitBlockBloomFilter.builder().bitsPerKey(b));
        case TWO_WORD_BLOOM -> {
          add(kinds, name, description, true, b -> TwoWordBloomFilter.builder().bitsPerKey(b));
          // two bits per word (four per key, FastFilter's BlockedBloom's count) at a quarter bit
          // per key more: modelled 1.24% at 10.25 bits/key, below the BlockedBloom's 1.29-1.30%
          // at 10 (the builder's j = 3 at 10 bits/key models 1.08% with six bits per key)
          add(
              kinds,
              name + "-j2",
              description + " (2 bits per word at bits/key + 0.25)",
              true,
              b -> TwoWordBloomFilter.builder().bitsPerWord(2).bitsPerKey(b + 0.25));
        }
        case RIBBON ->
            add(
                kinds,
                name,
                description + " (bits/key = bloom-equivalent)",
                true,
                b -> Standard128RibbonFilter.builder().bloomEquivalentBitsPerKey(b));
        case BUMPED_RIBBON ->
            // 7 whole result bits (FPR 1/128), beside Ribbon's ~1% at 10 bloom-equivalent bits
            add(
                kinds,
                name,
                description + " (BuRR, 7 result bits: FPR 1/128; not RocksDB's format)",
                false,
                b -> BumpedRibbonFilter.builder().resultBits(7));
        case CUCKOO -> {
          for (int bits : FINGERPRINT_WIDTHS) {
            add(
                kinds,
                name + bits,
                description + " (" + bits + "-bit fingerprints)",
                false,
                b -> CuckooFilter.builder().fingerprintBits(bits));
          }
        }
        case SCALABLE_BLOOM ->
            add(
                kinds,
                name,
                description + " (grows from a guess; at its default 1%)",
                false,
                b -> type.builder());
        case EXPANDABLE ->
            add(
                kinds,
                name,
                description + " (grows by doubling; sized by its rate, at its default 1%)",
                false,
                b -> type.builder());
        case GRAFITE ->
            // a range filter asked points: ranges of length 1, so r = n·2^(b−2) codes
            add(
                kinds,
                name,
                description + " (range filter asked points: maxRangeLength 1)",
                true,
                b -> GrafiteFilter.builder().maxRangeLength(1).bitsPerKey(Math.max(3, b)));
        case PREFIX_BLOOM_RANGE -> {
          // a range filter's baseline: as a point filter it is a blocked Bloom filter sharing its
          // bits with the upper levels; the range section of the report measures it
        }
        default -> add(kinds, name, description, false, b -> type.builder()); // fixed size
      }
    }
    return kinds;
  }

  /** The suffix of the batch rows. */
  public static final String BATCH_SUFFIX = "-batch";

  /** The suffix of the pre-hashed rows. */
  public static final String PREHASHED_SUFFIX = "-prehashed";

  /**
   * The suffix of the rows keyed by the fast long-key hash: the filter built with the key scheme
   * {@link KeyScheme#IDENTITY} where the type takes it (Xor, Binary Fuse), else {@link
   * KeyScheme#MIX64}, the hashing these rows measured through the former {@code FastLongKeyFilter}
   * wrapper.
   */
  public static final String FASTHASH_SUFFIX = "-fasthash";

  private static void add(
      List<StructureKind> kinds,
      String name,
      String description,
      boolean sized,
      DoubleFunction<? extends FilterBuilder<?>> builder) {
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
            description + ", fast long-key hash (key scheme MIX64/IDENTITY, not RocksDB's bytes)",
            sized,
            (keys, b) -> new SieveFilterMembership(fastLongKeys(builder.apply(b)).build(keys))));
    kinds.add(
        new StructureKind(
            name + FASTHASH_SUFFIX + BATCH_SUFFIX,
            Family.SIEVE,
            description + ", fast long-key hash, queried through the batch API",
            sized,
            (keys, b) ->
                new SieveFilterMembership(fastLongKeys(builder.apply(b)).build(keys), Mode.BATCH)));
  }

  /**
   * {@code builder} set to the fast long-key scheme of its type: {@link KeyScheme#IDENTITY} where
   * the filter mixes hashes itself (the builder takes it), else {@link KeyScheme#MIX64}.
   */
  static <B extends FilterBuilder<?>> FilterBuilder<?> fastLongKeys(B builder) {
    try {
      return builder.keyScheme(KeyScheme.IDENTITY);
    } catch (IllegalArgumentException e) {
      return builder.keyScheme(KeyScheme.MIX64);
    }
  }
}
