package dev.sieve.range;

import dev.sieve.KeyScheme;
import dev.sieve.bloom.BlockedBloomFilter;
import java.util.Arrays;
import java.util.Objects;

/**
 * Builds a {@link PrefixBloomRangeFilter}: {@link #maxRangeLength(long)} {@code L} (the top level
 * {@code T = ⌈log2 L⌉}) and either {@link #bitsPerKey(double)}, the total memory per key shared by
 * all levels, or {@link #fpRate(double)}, the rate of each Bloom probe (every level gets the bits
 * per prefix a blocked Bloom filter needs for it). The last of the two set wins. Defaults: {@code L
 * = 2^10}, 16 bits per key.
 *
 * <p>{@code build(long[])} builds over the keys themselves, as {@link #buildFromKeys} does, for
 * range queries, unless a scheme is set with {@link #keyScheme}; byte and text keys through the
 * generic {@code build} methods, and every key once a scheme is set, are hashed by the scheme: a
 * point filter over key hashes, whose range queries throw {@code KeySchemeException}. {@link
 * #buildFromByteKeys} builds a range filter over byte keys.
 */
public final class PrefixBloomRangeFilterBuilder extends RangeBuilderBase<PrefixBloomRangeFilter> {
  private long maxRangeLength = 1L << 10;
  private double bitsPerKey = 16;
  private int millibitsPerEntry = -1;
  private long seed = 0x5EED_B100L;

  PrefixBloomRangeFilterBuilder() {}

  @Override
  public PrefixBloomRangeFilterBuilder keyScheme(KeyScheme scheme) {
    super.keyScheme(scheme);
    return this;
  }

  /**
   * The rate of each Bloom probe (the point-query rate); a range's rate is higher.
   *
   * @throws IllegalArgumentException if {@code fpRate} is not in (0, 1) or below what 100 bits per
   *     prefix reach
   */
  @Override
  public PrefixBloomRangeFilterBuilder fpRate(double fpRate) {
    millibitsPerEntry = BlockedBloomFilter.builder().fpRate(fpRate).millibitsPerKey();
    return this;
  }

  /**
   * The memory per key, all levels together.
   *
   * @param bitsPerKey in [1, 1000]
   * @return this builder
   * @throws IllegalArgumentException if outside [1, 1000]
   */
  public PrefixBloomRangeFilterBuilder bitsPerKey(double bitsPerKey) {
    if (!(bitsPerKey >= 1 && bitsPerKey <= 1000)) {
      throw new IllegalArgumentException("bitsPerKey " + bitsPerKey + " must be in [1, 1000]");
    }
    this.bitsPerKey = bitsPerKey;
    this.millibitsPerEntry = -1;
    return this;
  }

  /**
   * The longest range the levels are chosen for.
   *
   * @param maxRangeLength {@code L}, in [1, 2^62]
   * @return this builder
   * @throws IllegalArgumentException if outside [1, 2^62]
   */
  public PrefixBloomRangeFilterBuilder maxRangeLength(long maxRangeLength) {
    if (maxRangeLength < 1 || maxRangeLength > GrafiteCodes.MAX_CODE_RANGE) {
      throw new IllegalArgumentException(
          "maxRangeLength " + maxRangeLength + " must be in [1, 2^62]");
    }
    this.maxRangeLength = maxRangeLength;
    return this;
  }

  /** The seed of the prefix hashes; builds are deterministic for a given seed. */
  @Override
  public PrefixBloomRangeFilterBuilder seed(long seed) {
    this.seed = seed;
    return this;
  }

  /**
   * Builds from {@code long} keys as they are (unsigned order); scheme {@link KeyScheme#IDENTITY}.
   *
   * @param keys the keys; not modified
   * @return the filter
   */
  public PrefixBloomRangeFilter buildFromKeys(long[] keys) {
    Objects.requireNonNull(keys, "keys");
    return buildOverKeys(keys.clone());
  }

  @Override
  PrefixBloomRangeFilter buildOverKeys(long[] keys) {
    return build(keys, keys.length, KeyScheme.IDENTITY);
  }

  /**
   * Builds from byte-string keys through their 8-byte prefixes ({@link
   * RangeFilter#prefixKey(byte[], int, int)}); scheme {@link KeyScheme#IDENTITY}.
   *
   * @param keys the keys, none {@code null}
   * @return the filter
   */
  public PrefixBloomRangeFilter buildFromByteKeys(byte[][] keys) {
    long[] p = RangeFilter.prefixKeys(keys);
    return build(p, p.length, KeyScheme.IDENTITY);
  }

  @Override
  protected PrefixBloomRangeFilter buildFromHashes(long[] hashes, int count) {
    return build(hashes, count, KeyScheme.XXPH3);
  }

  private PrefixBloomRangeFilter build(long[] keys, int count, KeyScheme scheme) {
    int t = GrafiteCodes.blockShiftFor(maxRangeLength);
    // unsigned order, so equal prefixes at every level are adjacent
    for (int i = 0; i < count; i++) {
      keys[i] ^= Long.MIN_VALUE;
    }
    Arrays.sort(keys, 0, count);
    int n = 0;
    for (int i = 0; i < count; i++) {
      long k = keys[i] ^ Long.MIN_VALUE;
      if (n == 0 || k != keys[n - 1]) {
        keys[n++] = k;
      }
    }
    long entries = 0;
    for (int j = 0; j <= t; j++) {
      for (int i = 0; i < n; i++) {
        if (i == 0 || (keys[i] >>> j) != (keys[i - 1] >>> j)) {
          entries++;
        }
      }
    }
    if (entries > Integer.MAX_VALUE - 8) {
      throw new IllegalArgumentException(
          entries + " prefixes exceed one array; use fewer keys or a shorter maxRangeLength");
    }
    long[] salts = PrefixBloomRangeFilter.salts(seed);
    long[] hashes = new long[(int) entries];
    int e = 0;
    for (int j = 0; j <= t; j++) {
      for (int i = 0; i < n; i++) {
        if (i == 0 || (keys[i] >>> j) != (keys[i - 1] >>> j)) {
          hashes[e++] = PrefixBloomRangeFilter.entryHash(salts, seed, j, keys[i] >>> j);
        }
      }
    }
    int millibits = millibitsPerEntry;
    if (millibits < 0) {
      double perEntry = entries == 0 ? bitsPerKey : bitsPerKey * n / entries;
      millibits = (int) Math.round(Math.max(1.0, Math.min(100.0, perEntry)) * 1000);
    }
    // distinct hashes, sorted, so RocksDB's consecutive de-duplication counts each entry once
    Arrays.sort(hashes);
    BlockedBloomFilter bloom = BlockedBloomFilter.buildRocksDb(hashes, hashes.length, millibits);
    return new PrefixBloomRangeFilter(bloom, n, t, seed, scheme);
  }
}
