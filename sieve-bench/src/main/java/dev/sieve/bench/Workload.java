package dev.sieve.bench;

import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * The keys every structure is measured on: {@code n} distinct random 64-bit keys from a fixed seed,
 * query streams of present keys (drawn from them) and absent keys (fresh random keys that are
 * checked against the sorted key set, so an "absent" key is truly absent).
 */
public final class Workload {
  /** The default seed of the key generator. */
  public static final long DEFAULT_SEED = 0x51e7e_2026L;

  private final long[] keys;
  private final long[] sortedKeys;
  private final long seed;

  private Workload(long[] keys, long[] sortedKeys, long seed) {
    this.keys = keys;
    this.sortedKeys = sortedKeys;
    this.seed = seed;
  }

  /** {@code n} distinct random keys from {@code seed}. */
  public static Workload create(int n, long seed) {
    if (n < 1) {
      throw new IllegalArgumentException("number of keys must be positive, got " + n);
    }
    SplittableRandom random = new SplittableRandom(seed);
    long[] keys = new long[n];
    for (int i = 0; i < n; i++) {
      keys[i] = random.nextLong();
    }
    long[] sorted = keys.clone();
    Arrays.sort(sorted);
    // replace the (astronomically rare) duplicates so the set has exactly n keys
    boolean again = true;
    while (again) {
      again = false;
      for (int i = 1; i < n; i++) {
        if (sorted[i] == sorted[i - 1]) {
          long fresh = random.nextLong();
          for (int j = 0; j < n; j++) {
            if (keys[j] == sorted[i]) {
              keys[j] = fresh;
              break;
            }
          }
          again = true;
        }
      }
      if (again) {
        sorted = keys.clone();
        Arrays.sort(sorted);
      }
    }
    return new Workload(keys, sorted, seed);
  }

  /** The keys, in generation order (callers must not modify them). */
  public long[] keys() {
    return keys;
  }

  public int size() {
    return keys.length;
  }

  /** Whether {@code key} is one of the keys. */
  public boolean contains(long key) {
    return Arrays.binarySearch(sortedKeys, key) >= 0;
  }

  /** {@code count} keys drawn uniformly (with replacement) from the key set. */
  public long[] presentQueries(int count) {
    SplittableRandom random = new SplittableRandom(seed ^ 0x9051_7173L);
    long[] q = new long[count];
    for (int i = 0; i < count; i++) {
      q[i] = keys[random.nextInt(keys.length)];
    }
    return q;
  }

  /** {@code count} random keys none of which is in the key set. */
  public long[] absentQueries(int count) {
    AbsentKeys absent = absentKeys(1);
    long[] q = new long[count];
    for (int i = 0; i < count; i++) {
      q[i] = absent.next();
    }
    return q;
  }

  /** A stream of random absent keys; {@code stream} selects an independent stream. */
  public AbsentKeys absentKeys(long stream) {
    return new AbsentKeys(new SplittableRandom(seed * 0x9E3779B97F4A7C15L + stream + 1));
  }

  /** A stream of random keys that are not in the key set. */
  public final class AbsentKeys {
    private final SplittableRandom random;

    private AbsentKeys(SplittableRandom random) {
      this.random = random;
    }

    /** The next absent key. */
    public long next() {
      while (true) {
        long key = random.nextLong();
        if (!contains(key)) {
          return key;
        }
      }
    }

    /**
     * The next random key, unchecked: for FPR loops that check only the keys a filter accepts
     * ({@link #contains} on a "maybe"), which is exact and much cheaper.
     */
    public long nextUnchecked() {
      return random.nextLong();
    }
  }
}
