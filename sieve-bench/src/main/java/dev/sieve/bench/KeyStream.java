package dev.sieve.bench;

import java.util.SplittableRandom;

/**
 * The keys of a workload too large to hold: key {@code i} of {@code n} is a fixed bijection of
 * {@code i} (a multiply by an odd constant, the seed added, then an xor-shift/multiply mix, each
 * step invertible on 64 bits), so the keys are computed where they are needed and never stored.
 * Because the map is a bijection, the keys of indices {@code 0 .. n-1} are distinct and the key of
 * any index {@code >= n} is none of them: a present query is the key of a random index below {@code
 * n} and an absent query the key of a random index at or above it, both known without a lookup in
 * the key set. Eight bytes per key are saved where {@link Workload} keeps two arrays of {@code n}
 * (16 GB at 10^9 keys).
 */
public final class KeyStream {
  /** The most keys: indices above it are left for the absent queries. */
  public static final long MAX_KEYS = 1L << 62;

  /** An odd multiplier (2^64 / golden ratio): the index's first, invertible, spread. */
  private static final long SPREAD = 0x9E3779B97F4A7C15L;

  /** The odd multiplier of the mix (a multiply by an odd constant is invertible mod 2^64). */
  private static final long MIX = 0xD6E8FEB86659FD93L;

  private final long n;
  private final long seed;

  private KeyStream(long n, long seed) {
    this.n = n;
    this.seed = seed;
  }

  /** The {@code n} keys of {@code seed}. */
  public static KeyStream of(long n, long seed) {
    if (n < 1 || n > MAX_KEYS) {
      throw new IllegalArgumentException(
          "number of keys must be in [1, " + MAX_KEYS + "], got " + n);
    }
    return new KeyStream(n, seed);
  }

  /** How many keys. */
  public long size() {
    return n;
  }

  /** The seed. */
  public long seed() {
    return seed;
  }

  /**
   * The key of index {@code i}: one of the keys for {@code i < n}, an absent key for {@code i >=
   * n}. Distinct indices give distinct keys (every step is invertible).
   */
  public long key(long i) {
    long z = i * SPREAD + seed;
    z = (z ^ (z >>> 32)) * MIX;
    z = (z ^ (z >>> 29)) * MIX;
    return z ^ (z >>> 32);
  }

  /** Writes the keys of indices {@code from .. from + count - 1} to {@code out[0 .. count)}. */
  public void fill(long from, long[] out, int count) {
    for (int i = 0; i < count; i++) {
      out[i] = key(from + i);
    }
  }

  /** Receives the keys a chunk at a time ({@link #forEachChunk}). */
  @FunctionalInterface
  public interface ChunkConsumer {
    /** Takes {@code keys[0 .. count)}; the array is reused for the next chunk. */
    void accept(long[] keys, int count);
  }

  /** Hands every key, in index order, to {@code consumer}, {@code chunk} keys at a time. */
  public void forEachChunk(int chunk, ChunkConsumer consumer) {
    if (chunk < 1) {
      throw new IllegalArgumentException("chunk must be positive, got " + chunk);
    }
    long[] buffer = new long[(int) Math.min(chunk, n)];
    for (long from = 0; from < n; from += buffer.length) {
      int count = (int) Math.min(buffer.length, n - from);
      fill(from, buffer, count);
      consumer.accept(buffer, count);
    }
  }

  /** {@code count} keys drawn uniformly (with replacement) from the {@code n} keys. */
  public long[] presentQueries(int count) {
    SplittableRandom random = new SplittableRandom(seed ^ 0x9051_7173L);
    long[] q = new long[count];
    for (int i = 0; i < count; i++) {
      q[i] = key(random.nextLong(n));
    }
    return q;
  }

  /**
   * {@code count} keys none of which is one of the {@code n} keys: keys of indices {@code >= n}.
   */
  public long[] absentQueries(int count) {
    SplittableRandom random = new SplittableRandom(seed * SPREAD + 1);
    long[] q = new long[count];
    for (int i = 0; i < count; i++) {
      q[i] = key(random.nextLong(n, Long.MAX_VALUE));
    }
    return q;
  }
}
