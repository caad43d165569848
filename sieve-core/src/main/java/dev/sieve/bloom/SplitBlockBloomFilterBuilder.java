package dev.sieve.bloom;

import dev.sieve.KeyScheme;
import dev.sieve.MutableFilterBuilder;
import dev.sieve.internal.base.Checks;

/**
 * Builds {@link SplitBlockBloomFilter}s sized as parquet-java sizes them: from {@link
 * #expectedKeys} distinct values at {@link #fpRate} (default 1%, Parquet's), or a {@link #numBytes}
 * request; both rounded to a power of two and capped at {@code maxBytes}. There is no seed:
 * Parquet's hash has none.
 */
public final class SplitBlockBloomFilterBuilder
    extends MutableFilterBuilder<SplitBlockBloomFilter> {
  @Override
  public SplitBlockBloomFilterBuilder keyScheme(KeyScheme scheme) {
    super.keyScheme(scheme);
    return this;
  }

  private long expectedKeys = -1;
  private double fpRate = SplitBlockBloomFilter.DEFAULT_FP_RATE;
  private int numBytes = -1;
  private int maxBytes = SplitBlockBloomFilter.MAX_BYTES;
  private double bitsPerKey = -1;

  SplitBlockBloomFilterBuilder() {}

  /** The number of distinct values expected (parquet-java's {@code ndv}). */
  @Override
  public SplitBlockBloomFilterBuilder expectedKeys(long n) {
    Checks.count("expected keys", n, SplitBlockBloomFilter.MAX_DISTINCT_VALUES);
    super.expectedKeys(n);
    expectedKeys = n;
    return this;
  }

  /**
   * The target false-positive rate, in (0, 1) (default 0.01). The size it gives is rounded up to a
   * power of two bytes, as parquet-java's writer rounds it, so the filter can be nearly twice the
   * size the rate needs and its rate far below the target (0.01 for 10^6 keys: 16.8 bits per key,
   * 0.11%); {@link #bitsPerKey} sizes exactly.
   */
  @Override
  public SplitBlockBloomFilterBuilder fpRate(double f) {
    fpRate = Checks.fpRate(f);
    return this;
  }

  /**
   * A bitset size request in bytes, rounded as {@code new BlockSplitBloomFilter(numBytes)} rounds
   * it (at least 32, up to a power of two, at most {@code maxBytes}); it overrides the sizing by
   * keys and rate.
   */
  public SplitBlockBloomFilterBuilder numBytes(int b) {
    if (b < 0) {
      throw new IllegalArgumentException("number of bytes must be >= 0, got " + b);
    }
    numBytes = b;
    return this;
  }

  /**
   * The largest bitset, in bytes (default 128 MiB, the format's limit; parquet-java's writer uses
   * {@code parquet.bloom.filter.max.bytes}, 1 MiB by default). Values outside (32, 128 MiB) mean
   * 128 MiB, as in parquet-java.
   */
  public SplitBlockBloomFilterBuilder maxBytes(int b) {
    maxBytes = b;
    return this;
  }

  /**
   * Sizes the filter at exactly {@code bitsPerKey} bits per distinct value, rounded up to whole
   * 32-byte blocks (at least one): <b>not</b> a size Parquet's writers choose (they use powers of
   * two), but the one to compare filters at equal bits/key. It overrides the other sizings.
   *
   * @throws IllegalArgumentException if {@code bitsPerKey} is not in [1, 100]
   */
  public SplitBlockBloomFilterBuilder bitsPerKey(double bitsPerKey) {
    this.bitsPerKey = Checks.bitsPerKey(bitsPerKey, 1.0, 100.0);
    return this;
  }

  /** The bitset size these settings give for {@code distinctValues} values. */
  int numBytesFor(long distinctValues) {
    return SplitBlockForm.numBytesFor(distinctValues, bitsPerKey, numBytes, maxBytes, fpRate);
  }

  /**
   * Sized by {@link #numBytes}, else by {@link #expectedKeys} (default {@link
   * MutableFilterBuilder#DEFAULT_EXPECTED_KEYS}, as every mutable builder's) at {@link #bitsPerKey}
   * or {@link #fpRate}.
   */
  @Override
  protected SplitBlockBloomFilter createEmpty() {
    return SplitBlockForm.empty(numBytesFor(expectedKeys()));
  }

  /** Sized as given, else by the hash count at {@link #fpRate}; counts distinct neighbours. */
  @Override
  protected SplitBlockBloomFilter buildFromHashes(long[] hashes, int count) {
    return SplitBlockForm.build(hashes, count, expectedKeys, this::numBytesFor);
  }
}
