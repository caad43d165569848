package dev.sieve.sst;

import dev.sieve.registry.FilterType;

/**
 * What a RocksDB filter block (or a table's filter) is, as found in an SST file and as the CLI
 * names it. It names kinds Sieve only reads (the legacy Bloom) and markers that are no filter; the
 * kinds Sieve builds map to the registry's {@linkplain FilterType#isRocksDbCompatible() RocksDB
 * types} through {@link #filterType()}, the one translation between the two.
 */
public enum FilterKind {
  /** FastLocalBloom, format_version ≥ 5 ({@link dev.sieve.bloom.BlockedBloomFilter}). */
  FAST_LOCAL_BLOOM("fastlocalbloom", FilterType.BLOCKED_BLOOM, true),
  /** The format_version &lt; 5 Bloom filter ({@link LegacyLocalityBloomFilter}). */
  LEGACY_BLOOM("legacy bloom", null, true),
  /** Standard128Ribbon ({@link dev.sieve.ribbon.Standard128RibbonFilter}). */
  RIBBON("ribbon", FilterType.RIBBON, false),
  /**
   * A block RocksDB reads as "always true": zero probes, a reserved marker or sub-implementation,
   * or inconsistent legacy metadata. It never says absent.
   */
  ALWAYS_TRUE("always true", null, false),
  /** A block of at most 5 bytes: RocksDB's encoding of a filter over no keys; every key absent. */
  ALWAYS_FALSE("always false", null, false),
  /** The table's filter is partitioned: a top-level index over filter partitions. */
  PARTITIONED("partitioned", null, false),
  /** The table has no filter at all; every key "maybe". */
  NONE("none", null, false);

  private final String label;
  private final FilterType filterType;
  private final boolean bloom;

  FilterKind(String label, FilterType filterType, boolean bloom) {
    this.label = label;
    this.filterType = filterType;
    this.bloom = bloom;
  }

  /**
   * The registry's type of this kind: {@link FilterType#BLOCKED_BLOOM} for FastLocalBloom, {@link
   * FilterType#RIBBON} for Ribbon.
   *
   * @return the type, or {@code null} for a kind Sieve does not build as a registry type (the
   *     legacy Bloom, the markers, partitioned, none)
   */
  public FilterType filterType() {
    return filterType;
  }

  /**
   * Whether the block is a Bloom filter with a probe count (FastLocalBloom or the legacy Bloom).
   *
   * @return true for {@link #FAST_LOCAL_BLOOM} and {@link #LEGACY_BLOOM}
   */
  public boolean isBloom() {
    return bloom;
  }

  /**
   * The name the CLI prints.
   *
   * @return {@code fastlocalbloom}, {@code legacy bloom}, ...
   */
  public String label() {
    return label;
  }
}
