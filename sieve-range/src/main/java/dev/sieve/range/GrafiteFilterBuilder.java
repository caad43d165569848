package dev.sieve.range;

import dev.sieve.KeyScheme;
import java.util.Arrays;
import java.util.Objects;

/**
 * Builds a {@link GrafiteFilter}: {@link #maxRangeLength(long)} {@code L} and either {@link
 * #fpRate(double)} {@code ε}, the false-positive bound for ranges of length {@code L} ({@code r =
 * n·L/ε}), or {@link #bitsPerKey(double)} {@code B} ({@code r = n·2^(B−2)}, so {@code FPP ≤
 * ℓ/2^(B−2)}); the last of the two set wins. Defaults: {@code L = 2^10}, {@code ε = 0.01}.
 *
 * <p>{@code build(long[])} builds over the keys themselves, as {@link #buildFromKeys} does, for
 * range queries, unless a scheme is set with {@link #keyScheme}; byte and text keys through the
 * generic {@code build} methods, and every key once a scheme is set, are hashed by the scheme: a
 * point filter over key hashes, whose range queries throw {@code KeySchemeException}. {@link
 * #buildFromByteKeys} builds a range filter over byte keys.
 */
public final class GrafiteFilterBuilder extends RangeBuilderBase<GrafiteFilter> {
  private long maxRangeLength = 1L << 10;
  private double fpRate = 0.01;
  private double bitsPerKey = Double.NaN;
  private long seed = 0x5EED_6A7AL;

  GrafiteFilterBuilder() {}

  @Override
  public GrafiteFilterBuilder keyScheme(KeyScheme scheme) {
    super.keyScheme(scheme);
    return this;
  }

  /**
   * The false-positive bound {@code ε} for ranges of length {@link #maxRangeLength}.
   *
   * @throws IllegalArgumentException if {@code fpRate} is not in (0, 1)
   */
  @Override
  public GrafiteFilterBuilder fpRate(double fpRate) {
    if (!(fpRate > 0 && fpRate < 1)) {
      throw new IllegalArgumentException("fpRate " + fpRate + " must be in (0, 1)");
    }
    this.fpRate = fpRate;
    this.bitsPerKey = Double.NaN;
    return this;
  }

  /**
   * Sizes for {@code B} bits per key: {@code r = n·2^(B−2)}.
   *
   * @param bitsPerKey {@code B}, in [3, 64]
   * @return this builder
   * @throws IllegalArgumentException if {@code bitsPerKey} is outside [3, 64]
   */
  public GrafiteFilterBuilder bitsPerKey(double bitsPerKey) {
    if (!(bitsPerKey >= 3 && bitsPerKey <= 64)) {
      throw new IllegalArgumentException("bitsPerKey " + bitsPerKey + " must be in [3, 64]");
    }
    this.bitsPerKey = bitsPerKey;
    return this;
  }

  /**
   * The longest range the filter is sized for ({@code L}); longer ranges are answered too, split at
   * block boundaries (see {@link GrafiteFilter}).
   *
   * @param maxRangeLength {@code L}, in [1, 2^62]
   * @return this builder
   * @throws IllegalArgumentException if outside [1, 2^62]
   */
  public GrafiteFilterBuilder maxRangeLength(long maxRangeLength) {
    if (maxRangeLength < 1 || maxRangeLength > GrafiteCodes.MAX_CODE_RANGE) {
      throw new IllegalArgumentException(
          "maxRangeLength " + maxRangeLength + " must be in [1, 2^62]");
    }
    this.maxRangeLength = maxRangeLength;
    return this;
  }

  /** The seed of the block hash {@code q}; builds are deterministic for a given seed. */
  @Override
  public GrafiteFilterBuilder seed(long seed) {
    this.seed = seed;
    return this;
  }

  /**
   * Builds from {@code long} keys as they are (unsorted, repeats allowed), for range queries in
   * their unsigned order; the filter's scheme is {@link KeyScheme#IDENTITY}.
   *
   * @param keys the keys; not modified
   * @return the filter
   */
  public GrafiteFilter buildFromKeys(long[] keys) {
    Objects.requireNonNull(keys, "keys");
    return buildOverKeys(keys.clone());
  }

  @Override
  GrafiteFilter buildOverKeys(long[] keys) {
    return build(keys, keys.length, KeyScheme.IDENTITY);
  }

  /**
   * Builds from byte-string keys through their 8-byte prefixes ({@link
   * RangeFilter#prefixKey(byte[], int, int)}), for {@link RangeFilter#mayContainRange(byte[],
   * byte[])}; the filter's scheme is {@link KeyScheme#IDENTITY}.
   *
   * @param keys the keys, none {@code null}
   * @return the filter
   */
  public GrafiteFilter buildFromByteKeys(byte[][] keys) {
    long[] p = RangeFilter.prefixKeys(keys);
    return build(p, p.length, KeyScheme.IDENTITY);
  }

  @Override
  protected GrafiteFilter buildFromHashes(long[] hashes, int count) {
    return build(hashes, count, KeyScheme.XXPH3);
  }

  /** The code range for {@code n} distinct keys under this builder's settings. */
  long codeRangeFor(long n) {
    double r =
        Double.isNaN(bitsPerKey)
            ? RangeMath.grafiteCodeRange(n, maxRangeLength, fpRate)
            : Math.ceil(Math.max(1, n) * Math.pow(2.0, bitsPerKey - 2));
    return (long) Math.max(1.0, Math.min(r, (double) GrafiteCodes.MAX_CODE_RANGE));
  }

  private GrafiteFilter build(long[] keys, int count, KeyScheme scheme) {
    Arrays.sort(keys, 0, count);
    int n = 0;
    for (int i = 0; i < count; i++) {
      if (n == 0 || keys[i] != keys[n - 1]) {
        keys[n++] = keys[i];
      }
    }
    long r = codeRangeFor(n);
    int k = GrafiteCodes.blockShiftFor(maxRangeLength, r);
    long[] c = new long[n];
    for (int i = 0; i < n; i++) {
      c[i] = GrafiteCodes.code(keys[i], k, seed, r);
    }
    Arrays.sort(c);
    int m = 0;
    for (int i = 0; i < n; i++) {
      if (m == 0 || c[i] != c[m - 1]) {
        c[m++] = c[i];
      }
    }
    return new GrafiteFilter(EliasFanoCodec.encode(c, m, r), n, r, maxRangeLength, k, seed, scheme);
  }
}
