package dev.sieve.bench;

import dev.sieve.Filter;
import java.util.Objects;

/**
 * A Sieve {@link Filter} seen as a {@link Membership}, queried one of three ways ({@link Mode}):
 * single lookups through {@link Filter#mayContain(long)} (every timing includes Sieve's key hash,
 * XXPH3 of the key's eight big-endian bytes, as a caller pays it), the batch API {@link
 * Filter#mayContainBatch(long[], int, int, long[])}, or pre-hashed lookups through {@link
 * Filter#mayContainHash(long)} where the random 64-bit key is itself taken as the key hash (the
 * filter is then built with {@code buildFromHashes} over the keys), which isolates the probe.
 */
public final class SieveFilterMembership implements Membership {
  /** How the filter is queried. */
  public enum Mode {
    /** {@code mayContain(long)} per key. */
    SINGLE,
    /** {@code mayContainBatch(long[], ...)} over each run of keys. */
    BATCH,
    /** {@code mayContainHash(key)}: the key is the hash. */
    PREHASHED
  }

  private final Filter filter;
  private final Mode mode;
  private final long[] resultBits = new long[(Membership.BATCH + 63) / 64];

  public SieveFilterMembership(Filter filter) {
    this(filter, Mode.SINGLE);
  }

  public SieveFilterMembership(Filter filter, Mode mode) {
    this.filter = Objects.requireNonNull(filter, "filter");
    this.mode = Objects.requireNonNull(mode, "mode");
  }

  /** The wrapped filter. */
  public Filter filter() {
    return filter;
  }

  /** How it is queried. */
  public Mode mode() {
    return mode;
  }

  @Override
  public boolean mayContain(long key) {
    return mode == Mode.PREHASHED ? filter.mayContainHash(key) : filter.mayContain(key);
  }

  @Override
  public int mayContainBatch(long[] keys, int off, int len) {
    switch (mode) {
      case BATCH:
        {
          long[] bits = len <= Membership.BATCH ? resultBits : new long[(len + 63) >>> 6];
          return filter.mayContainBatch(keys, off, len, bits);
        }
      case PREHASHED:
        {
          int hits = 0;
          for (int i = 0; i < len; i++) {
            if (filter.mayContainHash(keys[off + i])) {
              hits++;
            }
          }
          return hits;
        }
      default:
        {
          int hits = 0;
          for (int i = 0; i < len; i++) {
            if (filter.mayContain(keys[off + i])) {
              hits++;
            }
          }
          return hits;
        }
    }
  }

  @Override
  public long sizeInBits() {
    return filter.sizeInBits();
  }

  @Override
  public double modelFpRate() {
    return filter.modelledFpRate();
  }

  @Override
  public Object root() {
    return filter;
  }
}
