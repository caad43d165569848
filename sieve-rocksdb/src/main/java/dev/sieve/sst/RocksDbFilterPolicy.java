package dev.sieve.sst;

import dev.sieve.Filter;
import dev.sieve.bloom.BlockedBloomFilter;
import dev.sieve.hash.KeyHash;
import dev.sieve.ribbon.Standard128RibbonFilter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * A RocksDB built-in filter policy setting, and the writer path: the filter block RocksDB's builder
 * writes for a sequence of keys under that setting (with {@code optimize_filters_for_memory=false},
 * RocksDB's default).
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
 * Keys are given in the order RocksDB adds them to the filter (sorted key order within an SST);
 * only consecutive duplicate hashes are merged, as RocksDB does.
 *
 * @param type Bloom or Ribbon
 * @param bitsPerKey the configured (Bloom-equivalent) bits per key
 * @param bloomBeforeLevel Ribbon only
 */
public record RocksDbFilterPolicy(Type type, double bitsPerKey, int bloomBeforeLevel) {

  /** The two built-in policies. */
  public enum Type {
    BLOOM,
    RIBBON
  }

  /** The level RocksDB assigns when it does not know one (an {@code SstFileWriter} file). */
  public static final int UNKNOWN_LEVEL = Integer.MAX_VALUE - 1;

  /** The level RocksDB assigns to flushes. */
  public static final int FLUSH_LEVEL = -1;

  public RocksDbFilterPolicy {
    Objects.requireNonNull(type, "type");
    if (!(bitsPerKey >= 0) || Double.isInfinite(bitsPerKey)) {
      throw new IllegalArgumentException("bits per key must be finite and >= 0, got " + bitsPerKey);
    }
  }

  public static RocksDbFilterPolicy bloom(double bitsPerKey) {
    return new RocksDbFilterPolicy(Type.BLOOM, bitsPerKey, 0);
  }

  public static RocksDbFilterPolicy ribbon(double bitsPerKey, int bloomBeforeLevel) {
    return new RocksDbFilterPolicy(Type.RIBBON, bitsPerKey, bloomBeforeLevel);
  }

  /**
   * Parses {@code bloom:BITS} or {@code ribbon:BITS[:BLOOM_BEFORE_LEVEL]} (also RocksDB's own
   * {@code bloomfilter:BITS} and {@code ribbonfilter:BITS[:LEVEL]} spellings).
   *
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

  /** Whether the setting means "no filter" (bits per key below 0.5). */
  public boolean isNoFilter() {
    return bitsPerKey < 0.5;
  }

  /**
   * RocksDB's millibits per key for this setting ({@code BloomLikeFilterPolicy}): 0 for no filter,
   * else the bits clamped to [1, 100] in thousandths.
   */
  public int millibitsPerKey() {
    if (isNoFilter()) {
      return 0;
    }
    double b = Math.min(100.0, Math.max(1.0, bitsPerKey));
    return BlockedBloomFilter.rocksDbMillibitsPerKey(b);
  }

  /**
   * As {@link #buildFilterBlock(Iterable, int, int)} for the latest format and an unknown level.
   */
  public byte[] buildFilterBlock(Iterable<byte[]> keys) {
    return buildFilterBlock(keys, Footer.MAX_FORMAT_VERSION, UNKNOWN_LEVEL);
  }

  /**
   * The filter block (its 5-byte metadata included; the SST block trailer is not, as it depends on
   * the file offset) that RocksDB writes for {@code keys} in a table of {@code formatVersion} at
   * {@code level}.
   *
   * @return RocksDB's 0-byte block for no keys
   * @throws IllegalStateException for the "no filter" setting, for which RocksDB writes none
   */
  public byte[] buildFilterBlock(Iterable<byte[]> keys, int formatVersion, int level) {
    Objects.requireNonNull(keys, "keys");
    if (isNoFilter()) {
      throw new IllegalStateException(
          "bits per key " + bitsPerKey + " < 0.5 means no filter: RocksDB writes no filter block");
    }
    int millibits = millibitsPerKey();
    boolean useBloom = type == Type.BLOOM || level < bloomBeforeLevel;
    if (useBloom && type == Type.BLOOM && formatVersion < 5) {
      return LegacyLocalityBloomFilter.buildRocksDbFilterBlock(keys, (millibits + 500) / 1000);
    }
    List<byte[]> list = new ArrayList<>();
    keys.forEach(list::add);
    long[] hashes = new long[list.size()];
    for (int i = 0; i < hashes.length; i++) {
      hashes[i] = KeyHash.hash64(Objects.requireNonNull(list.get(i), "key"));
    }
    return buildFromHashes(hashes, millibits, useBloom);
  }

  private byte[] buildFromHashes(long[] hashes, int millibits, boolean useBloom) {
    if (hashes.length == 0) {
      return new byte[0];
    }
    Filter f =
        useBloom
            ? BlockedBloomFilter.buildRocksDb(hashes, hashes.length, millibits)
            : Standard128RibbonFilter.buildRocksDb(hashes, hashes.length, bitsPerKey);
    if (f instanceof BlockedBloomFilter) {
      return ((BlockedBloomFilter) f).toRocksDbFilterBlock();
    }
    return ((Standard128RibbonFilter) f).toRocksDbFilterBlock();
  }

  @Override
  public String toString() {
    return type == Type.BLOOM
        ? "bloom:" + bitsPerKey
        : "ribbon:" + bitsPerKey + (bloomBeforeLevel == 0 ? "" : ":" + bloomBeforeLevel);
  }
}
