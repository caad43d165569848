package dev.sieve.bench;

/**
 * The adapter every structure under test is seen through: a built key set that answers membership
 * for {@code long} keys. Filters answer "maybe" for some absent keys; exact sets never do. Each
 * implementation is a small final class, so inside one JMH fork (one structure per fork) the call
 * is monomorphic and inlined.
 */
public interface Membership {

  /** Keys per batch call: the query benchmark's run and the batch rows' scratch size. */
  int BATCH = 1024;

  /** {@code true} if {@code key} may be in the set; {@code false} only if it is definitely not. */
  boolean mayContain(long key);

  /**
   * The structure's size in bits as it reports it (a filter's data bits, an array's length), or
   * {@code -1} when only a heap measurement can tell (boxed {@code HashSet}/{@code TreeSet}).
   */
  long sizeInBits();

  /** The FPR its model predicts; {@code 0} for exact sets, {@code NaN} where there is no model. */
  double modelFpRate();

  /**
   * Tests {@code len} keys, {@code keys[off ..]}, and returns how many may be present. The default
   * is a loop of {@link #mayContain(long)}; structures with a batch path (the {@code -batch} rows)
   * override it.
   */
  default int mayContainBatch(long[] keys, int off, int len) {
    int hits = 0;
    for (int i = 0; i < len; i++) {
      if (mayContain(keys[off + i])) {
        hits++;
      }
    }
    return hits;
  }

  /** The object whose reachable graph is the structure (for object counting). */
  default Object root() {
    return this;
  }
}
