package dev.sieve.internal;

import dev.sieve.Filter;
import dev.sieve.KeyScheme;
import dev.sieve.KeySchemeException;
import java.util.Objects;

/**
 * The key-scheme plumbing of the filters, the families' builders and the container reader (the
 * API's own {@code FilterBuilder} does without it, the API depending on no class of this package):
 * a filter is given its scheme through {@link Filter#withKeyScheme}, which every filter class
 * implements (the same data, sharing its storage, with keys hashed by another scheme).
 */
public final class Schemes {
  private Schemes() {}

  /**
   * {@code filter} under {@code scheme}.
   *
   * @param <F> the filter class
   * @param filter a filter just built or read
   * @param scheme its keys' scheme
   * @return the filter under {@code scheme}
   * @throws IllegalArgumentException if the filter cannot carry the scheme ({@link
   *     KeyScheme#IDENTITY} on a filter that does not mix hashes itself, or a filter class that
   *     carries no scheme)
   */
  @SuppressWarnings("unchecked")
  public static <F extends Filter> F apply(F filter, KeyScheme scheme) {
    if (filter.keyScheme() == scheme) {
      return filter;
    }
    check(filter, scheme);
    Filter schemed = filter.withKeyScheme(scheme);
    if (schemed.getClass() != filter.getClass()) {
      throw new IllegalStateException(
          filter.getClass().getName() + ".withKeyScheme gave a " + schemed.getClass().getName());
    }
    return (F) schemed;
  }

  /**
   * Checks that {@code filter} can carry {@code scheme}: {@link KeyScheme#IDENTITY} only where the
   * filter's registry type is identity-safe ({@link FamilyType#isIdentitySafe()}). A builder checks
   * the scheme it is given itself, with the same message ({@link
   * dev.sieve.FilterBuilder#keyScheme(KeyScheme)}).
   *
   * @param filter the filter
   * @param scheme the scheme
   * @throws IllegalArgumentException if not
   */
  public static void check(Filter filter, KeyScheme scheme) {
    Objects.requireNonNull(scheme, "scheme");
    if (scheme == KeyScheme.IDENTITY && !Families.get().isIdentitySafe(filter)) {
      throw new IllegalArgumentException(
          "keys as their own hash (IDENTITY) need a filter that mixes them itself (Xor, Binary"
              + " Fuse), not "
              + filter.getClass().getName().replaceFirst(".*\\.", ""));
    }
  }

  /**
   * Refuses to combine two filters of different schemes.
   *
   * @param a one filter
   * @param b the other
   * @throws KeySchemeException if their schemes differ
   */
  public static void checkSame(Filter a, Filter b) {
    if (a.keyScheme() != b.keyScheme()) {
      throw new KeySchemeException(
          "cannot combine a filter of keys hashed by "
              + a.keyScheme()
              + " with one of keys hashed by "
              + b.keyScheme()
              + ": the same key has different hashes in them");
    }
  }
}
