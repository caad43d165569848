package dev.sieve.testing;

import dev.sieve.Filter;
import dev.sieve.KeyScheme;
import dev.sieve.hash.KeyHash;

/**
 * The check of a filter's own single {@code long} lookup against its batch and its hash path, for
 * the filters that write their single lookup out (its first calls run interpreted): the same
 * queries asked {@code rounds} times, so the lookup runs interpreted first and C2-compiled last.
 */
public final class SingleLookupCheck {
  private SingleLookupCheck() {}

  /** {@return the hash {@code scheme} gives the {@code long} key, as the filters compute it} */
  public static long schemeHash(KeyScheme scheme, long key) {
    return scheme == KeyScheme.XXPH3 ? KeyHash.hash64(key) : scheme.hash(key);
  }

  /**
   * Asks {@code queries} (a fifth of them keys of the filter, at indexes divisible by 5) {@code
   * rounds} times: each single lookup must equal the batch's answer and {@code
   * mayContainHash(schemeHash(key))}; then every key must be present, some absent query must have
   * answered "maybe" (so both answers were compared), and every round must answer alike.
   *
   * @throws AssertionError naming the filter, the scheme, the query and the round
   */
  public static void check(Filter f, KeyScheme scheme, long[] keys, long[] queries, int rounds) {
    int n = queries.length;
    long[] bits = new long[(n + 63) / 64];
    long positives = 0;
    for (int round = 0; round < rounds; round++) {
      f.mayContainBatch(queries, 0, n, bits);
      for (int i = 0; i < n; i++) {
        boolean single = f.mayContain(queries[i]);
        boolean batch = (bits[i >>> 6] >>> (i & 63) & 1) != 0;
        if (single != batch || single != f.mayContainHash(schemeHash(scheme, queries[i]))) {
          throw new AssertionError(f + " " + scheme + ": query " + i + " round " + round);
        }
        positives += single ? 1 : 0;
      }
    }
    for (long k : keys) {
      if (!f.mayContain(k)) {
        throw new AssertionError(f + " " + scheme + ": key " + k + " answered absent");
      }
    }
    // the rest answer "maybe" at the filter's rate, so the comparison covered both answers
    long absentHits = positives - (long) rounds * ((n + 4) / 5);
    if (absentHits <= 0) {
      throw new AssertionError(f + " " + scheme + ": no false positive compared");
    }
    if (absentHits % rounds != 0) {
      throw new AssertionError(f + " " + scheme + ": the answers differ between rounds");
    }
  }
}
