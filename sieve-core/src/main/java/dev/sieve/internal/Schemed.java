package dev.sieve.internal;

import dev.sieve.Filter;
import dev.sieve.KeyScheme;
import dev.sieve.KeySchemeException;

/**
 * A filter that carries its {@link KeyScheme} in a final field. The builders and the container
 * reader set it through {@link #withKeyScheme}, which every filter class implements publicly: the
 * same data (sharing its storage) with keys hashed by another scheme, for data that came from that
 * scheme (hashes given to {@code addHash} or {@code buildFromHashes}), as {@code
 * FastLongKeyFilter.of(filter, keyHash)} did.
 */
public interface Schemed {

  /**
   * This filter's data under {@code scheme}: {@code this} if it is the filter's scheme, otherwise a
   * filter of the same class sharing this one's storage (adds to either show in both), whose key
   * methods hash by {@code scheme}. Its answers are right only if the data came from keys hashed
   * that way (hashes given to {@code addHash} or {@code buildFromHashes}); a filter is otherwise
   * given its scheme by its builder ({@code FilterBuilder.keyScheme}) or its container.
   *
   * @param scheme the scheme
   * @return the filter
   * @throws IllegalArgumentException for {@link KeyScheme#IDENTITY} on a filter that does not mix
   *     hashes itself (only Xor and Binary Fuse take it)
   */
  Filter withKeyScheme(KeyScheme scheme);

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
  static <F extends Filter> F apply(F filter, KeyScheme scheme) {
    if (filter.keyScheme() == scheme) {
      return filter;
    }
    check(filter, scheme);
    if (!(filter instanceof Schemed s)) {
      throw new IllegalArgumentException(
          filter.getClass().getSimpleName() + " carries no key scheme but " + KeyScheme.XXPH3);
    }
    return (F) s.withKeyScheme(scheme);
  }

  /**
   * Checks that {@code target} (a filter or its builder) can carry {@code scheme}.
   *
   * @param target the filter or builder
   * @param scheme the scheme
   * @throws IllegalArgumentException if not
   */
  static void check(Object target, KeyScheme scheme) {
    java.util.Objects.requireNonNull(scheme, "scheme");
    if (scheme == KeyScheme.IDENTITY && !(target instanceof SeededFinalizer)) {
      throw new IllegalArgumentException(
          "keys as their own hash (IDENTITY) need a filter that mixes them itself (Xor, Binary"
              + " Fuse), not "
              + target.getClass().getName().replaceFirst(".*\\.", ""));
    }
  }

  /**
   * Refuses to combine two filters of different schemes.
   *
   * @param a one filter
   * @param b the other
   * @throws KeySchemeException if their schemes differ
   */
  static void checkSame(Filter a, Filter b) {
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
