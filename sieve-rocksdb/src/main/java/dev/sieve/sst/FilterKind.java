package dev.sieve.sst;

/** What a RocksDB filter block (or a table's filter) is, as the CLI names it. */
public enum FilterKind {
  /** FastLocalBloom, format_version ≥ 5 ({@link dev.sieve.bloom.BlockedBloomFilter}). */
  FAST_LOCAL_BLOOM("fastlocalbloom"),
  /** The format_version &lt; 5 Bloom filter ({@link LegacyLocalityBloomFilter}). */
  LEGACY_BLOOM("legacy bloom"),
  /** Standard128Ribbon ({@link dev.sieve.ribbon.Standard128RibbonFilter}). */
  RIBBON("ribbon"),
  /**
   * A block RocksDB reads as "always true": zero probes, a reserved marker or sub-implementation,
   * or inconsistent legacy metadata. It never says absent.
   */
  ALWAYS_TRUE("always true"),
  /** A block of at most 5 bytes: RocksDB's encoding of a filter over no keys; every key absent. */
  ALWAYS_FALSE("always false"),
  /** The table's filter is partitioned: a top-level index over filter partitions. */
  PARTITIONED("partitioned"),
  /** The table has no filter at all; every key "maybe". */
  NONE("none");

  private final String label;

  FilterKind(String label) {
    this.label = label;
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
