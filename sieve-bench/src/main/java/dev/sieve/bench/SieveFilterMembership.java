package dev.sieve.bench;

import dev.sieve.Filter;
import java.util.Objects;

/**
 * A Sieve {@link Filter} seen as a {@link Membership}: queries go through {@link
 * Filter#mayContain(long)}, so every timing includes Sieve's key hash (XXPH3 of the key's eight
 * big-endian bytes), as a caller pays it.
 */
public final class SieveFilterMembership implements Membership {
  private final Filter filter;

  public SieveFilterMembership(Filter filter) {
    this.filter = Objects.requireNonNull(filter, "filter");
  }

  /** The wrapped filter. */
  public Filter filter() {
    return filter;
  }

  @Override
  public boolean mayContain(long key) {
    return filter.mayContain(key);
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
