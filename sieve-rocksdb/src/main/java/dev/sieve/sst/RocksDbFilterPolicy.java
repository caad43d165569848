package dev.sieve.sst;

import dev.sieve.hash.KeyHash;
import dev.sieve.policy.FilterPolicy;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * A RocksDB built-in filter policy setting, and the writer path: the filter block RocksDB's builder
 * writes for a sequence of keys under that setting.
 *
 * <ul>
 *   <li>{@code bloom:BITS} — {@code BloomFilterPolicy(BITS)}: FastLocalBloom for format_version ≥
 *       5, the legacy Bloom for older ones. BITS below 0.5 means no filter, below 1 becomes 1, 100
 *       and above become 100; the rest rounds to thousandths ({@code millibits}); legacy Bloom uses
 *       whole bits, {@code (millibits + 500) / 1000}.
 *   <li>{@code ribbon:BITS[:BLOOM_BEFORE_LEVEL]} — {@code RibbonFilterPolicy(BITS,
 *       bloomBeforeLevel)} with BITS the <em>Bloom-equivalent</em> bits per key: Standard128Ribbon
 *       (or its FastLocalBloom fallback where RocksDB falls back) on levels at or above {@code
 *       bloomBeforeLevel}, FastLocalBloom below it. Flushes count as level −1, an unknown level
 *       (RocksDB's {@code SstFileWriter}) as the bottommost; {@code Integer.MAX_VALUE} means always
 *       Bloom. The default is 0: flushes Bloom, everything else Ribbon.
 * </ul>
 *
 * <h2>{@code optimize_filters_for_memory} (on by default, as in RocksDB 11)</h2>
 *
 * With the option RocksDB (table/block_based/filter_policy.cc, {@code AllocateMaybeRounding})
 * allocates the filter, asks the allocator for the usable size of the allocation ({@code
 * malloc_usable_size}) and, where that is larger but not by more than a third, grows the filter to
 * what fits (less the 5-byte block trailer, rounded down to whole 64-byte cache lines for Bloom,
 * 16-byte segments for Ribbon); it also picks FastLocalBloom's probe count from the bits per key
 * the final length gives rather than from the configured bits per key. A per-policy balance of the
 * FP rate gained by growing lets later filters of the same policy shrink by up to a quarter.
 *
 * <p>rocksdbjni's Linux library links no allocator of its own: it imports {@code
 * malloc_usable_size} from glibc, so in a JVM the allocator is glibc's malloc (verified: sizes of
 * rocksdbjni-written filters for 1 to 300,000 keys at 7.3, 10 and 16.9 bits/key all equal the
 * heap-chunk model below; jemalloc's size classes would have grown e.g. the 1,000-key 10 bits/key
 * block from 1,285 to 1,477 bytes). A glibc heap chunk's usable size exceeds the request by 8 to 15
 * bytes, or by 16 more where glibc hands out a free chunk whose remainder would be below its
 * 32-byte minimum. For FastLocalBloom neither reaches another 64-byte cache line, so the length
 * never grows, the balance stays 0 and no filter shrinks: what the option changes is the probe
 * count (1,000 keys at 10 bits/key: 1,285 bytes either way, 7 probes instead of 6), also for
 * Ribbon's Bloom fallback, and Sieve's blocks are byte-identical. A Ribbon filter grows by one
 * 16-byte segment in the second case, which the heap's state decides, not the keys (0 or 1 of about
 * 190 Ribbon blocks per test run); Sieve writes the usual length. Not reproduced either:
 * allocations glibc serves by {@code mmap} (above its dynamic mmap threshold, 128 KiB to 32 MiB,
 * when the heap cannot serve them), which round to 4 KiB pages, and everything after a filter grew
 * (the balance then lets later filters of the same policy, e.g. the next partitions, shrink); other
 * allocators (musl's, or jemalloc/tcmalloc preloaded). rocksdbjni was seen serving filters of up to
 * 634 KB from the heap.
 *
 * <p>Keys are given in the order RocksDB adds them to the filter (sorted key order within an SST);
 * only consecutive duplicate hashes are merged, as RocksDB does. Prefix filters and partitioned
 * filters, whose entries and cuts depend on the table, are built by {@link RocksDbTableFilter}.
 *
 * <p>This record is the setting as written ({@code bloom:10}, {@code ribbon:10:1}) and the legacy
 * Bloom of format_version &lt; 5; the rules for format_version ≥ 5 (level choice, Ribbon's Bloom
 * fallback, {@code optimize_filters_for_memory}, partition sizing) are those of {@link
 * FilterPolicy} ({@link #policy()}), their one home. Levels are {@link FilterPolicy#FLUSH}, a level
 * ≥ 0 or {@link FilterPolicy#UNKNOWN_LEVEL}.
 *
 * @param type Bloom or Ribbon
 * @param bitsPerKey the configured (Bloom-equivalent) bits per key
 * @param bloomBeforeLevel Ribbon only
 * @param optimizeFiltersForMemory RocksDB's {@code optimize_filters_for_memory} (default true)
 */
public record RocksDbFilterPolicy(
    Type type, double bitsPerKey, int bloomBeforeLevel, boolean optimizeFiltersForMemory) {

  /** The two built-in policies. */
  public enum Type {
    /** {@code bloom:BITS}. */
    BLOOM,
    /** {@code ribbon:BITS[:BLOOM_BEFORE_LEVEL]}. */
    RIBBON
  }

  /**
   * Checks the setting.
   *
   * @param type Bloom or Ribbon
   * @param bitsPerKey the configured (Bloom-equivalent) bits per key
   * @param bloomBeforeLevel Ribbon only
   * @param optimizeFiltersForMemory RocksDB's {@code optimize_filters_for_memory}
   * @throws IllegalArgumentException for negative, infinite or NaN bits per key
   */
  public RocksDbFilterPolicy {
    Objects.requireNonNull(type, "type");
    if (!(bitsPerKey >= 0) || Double.isInfinite(bitsPerKey)) {
      throw new IllegalArgumentException("bits per key must be finite and >= 0, got " + bitsPerKey);
    }
  }

  /**
   * The setting with RocksDB's default {@code optimize_filters_for_memory=true}.
   *
   * @param type Bloom or Ribbon
   * @param bitsPerKey the configured (Bloom-equivalent) bits per key
   * @param bloomBeforeLevel Ribbon only
   */
  public RocksDbFilterPolicy(Type type, double bitsPerKey, int bloomBeforeLevel) {
    this(type, bitsPerKey, bloomBeforeLevel, true);
  }

  /**
   * {@code bloom:BITS}.
   *
   * @param bitsPerKey bits per key
   * @return the setting
   */
  public static RocksDbFilterPolicy bloom(double bitsPerKey) {
    return new RocksDbFilterPolicy(Type.BLOOM, bitsPerKey, 0);
  }

  /**
   * {@code ribbon:BITS:BLOOM_BEFORE_LEVEL}.
   *
   * @param bitsPerKey Bloom-equivalent bits per key
   * @param bloomBeforeLevel levels below this get Bloom
   * @return the setting
   */
  public static RocksDbFilterPolicy ribbon(double bitsPerKey, int bloomBeforeLevel) {
    return new RocksDbFilterPolicy(Type.RIBBON, bitsPerKey, bloomBeforeLevel);
  }

  /**
   * This setting with {@code optimize_filters_for_memory} on or off.
   *
   * @param on whether the option is on
   * @return the setting
   */
  public RocksDbFilterPolicy withOptimizeFiltersForMemory(boolean on) {
    return new RocksDbFilterPolicy(type, bitsPerKey, bloomBeforeLevel, on);
  }

  /**
   * Parses {@code bloom:BITS} or {@code ribbon:BITS[:BLOOM_BEFORE_LEVEL]} (also RocksDB's own
   * {@code bloomfilter:BITS} and {@code ribbonfilter:BITS[:LEVEL]} spellings).
   *
   * @param spec the setting
   * @return the setting
   * @throws IllegalArgumentException naming what is wrong
   */
  public static RocksDbFilterPolicy parse(String spec) {
    Objects.requireNonNull(spec, "spec");
    String[] parts = spec.trim().split(":", -1);
    String name = parts[0].toLowerCase(Locale.ROOT);
    boolean bloom = name.equals("bloom") || name.equals("bloomfilter");
    boolean ribbon = name.equals("ribbon") || name.equals("ribbonfilter");
    if (!bloom && !ribbon) {
      throw new IllegalArgumentException(
          "filter policy '" + spec + "': expected bloom:BITS or ribbon:BITS[:BLOOM_BEFORE_LEVEL]");
    }
    if (parts.length < 2 || parts.length > (ribbon ? 3 : 2)) {
      throw new IllegalArgumentException(
          "filter policy '" + spec + "': expected bloom:BITS or ribbon:BITS[:BLOOM_BEFORE_LEVEL]");
    }
    double bits;
    try {
      bits = Double.parseDouble(parts[1]);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(
          "filter policy '" + spec + "': bits per key '" + parts[1] + "' is not a number");
    }
    if (!(bits >= 0) || Double.isInfinite(bits)) {
      throw new IllegalArgumentException(
          "filter policy '" + spec + "': bits per key must be finite and >= 0");
    }
    int level = 0;
    if (parts.length == 3) {
      try {
        level = Integer.parseInt(parts[2]);
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException(
            "filter policy '" + spec + "': bloom_before_level '" + parts[2] + "' is not an int");
      }
    }
    return bloom ? bloom(bits) : ribbon(bits, level);
  }

  /**
   * Whether the setting means "no filter" (bits per key below 0.5).
   *
   * @return true for no filter
   */
  public boolean isNoFilter() {
    return bitsPerKey < 0.5;
  }

  /**
   * RocksDB's millibits per key for this setting ({@code BloomLikeFilterPolicy}): 0 for no filter,
   * else the bits clamped to [1, 100] in thousandths.
   *
   * @return millibits per key
   */
  public int millibitsPerKey() {
    return isNoFilter() ? 0 : policy().millibitsPerKey();
  }

  /**
   * The rules of this setting for format_version ≥ 5.
   *
   * @return the policy
   * @throws IllegalArgumentException for the "no filter" setting
   */
  public FilterPolicy policy() {
    FilterPolicy p =
        type == Type.BLOOM
            ? FilterPolicy.bloom(bitsPerKey)
            : FilterPolicy.ribbon(bitsPerKey, bloomBeforeLevel);
    return p.withOptimizeFiltersForMemory(optimizeFiltersForMemory);
  }

  /**
   * As {@link #buildFilterBlock(Iterable, int, int)} for the latest format and an unknown level.
   *
   * @param keys the keys in the order RocksDB adds them
   * @return the filter block
   */
  public byte[] buildFilterBlock(Iterable<byte[]> keys) {
    return buildFilterBlock(keys, Footer.MAX_FORMAT_VERSION, FilterPolicy.UNKNOWN_LEVEL);
  }

  /**
   * The filter block (its 5-byte metadata included; the SST block trailer is not, as it depends on
   * the file offset) that RocksDB writes for {@code keys} in a table of {@code formatVersion} at
   * {@code level}.
   *
   * @param keys the keys in the order RocksDB adds them
   * @param formatVersion the table's format_version
   * @param level {@link FilterPolicy#FLUSH}, a level ≥ 0 or {@link FilterPolicy#UNKNOWN_LEVEL}
   * @return the filter block; RocksDB's 0-byte block for no keys
   * @throws IllegalStateException for the "no filter" setting, for which RocksDB writes none
   */
  public byte[] buildFilterBlock(Iterable<byte[]> keys, int formatVersion, int level) {
    Objects.requireNonNull(keys, "keys");
    if (isNoFilter()) {
      throw new IllegalStateException(
          "bits per key " + bitsPerKey + " < 0.5 means no filter: RocksDB writes no filter block");
    }
    if (type == Type.BLOOM && formatVersion < 5) {
      return LegacyLocalityBloomFilter.buildRocksDbFilterBlock(
          keys, (millibitsPerKey() + 500) / 1000);
    }
    List<byte[]> list = new ArrayList<>();
    keys.forEach(list::add);
    long[] hashes = new long[list.size()];
    for (int i = 0; i < hashes.length; i++) {
      hashes[i] = KeyHash.hash64(Objects.requireNonNull(list.get(i), "key"));
    }
    return finishEntries(hashes, level);
  }

  /**
   * The filter block for hash entries collected as RocksDB's builder collects them (no two equal
   * neighbours), format_version ≥ 5; the 0-byte block for none.
   */
  byte[] finishEntries(long[] entries, int level) {
    if (entries.length == 0) {
      return new byte[0];
    }
    return policy().build(level, entries, entries.length).toRocksDbFilterBlock();
  }

  @Override
  public String toString() {
    return type == Type.BLOOM
        ? "bloom:" + bitsPerKey
        : "ribbon:" + bitsPerKey + (bloomBeforeLevel == 0 ? "" : ":" + bloomBeforeLevel);
  }
}
