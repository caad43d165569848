package dev.sieve.internal;

import dev.sieve.KeyScheme;

/**
 * What the builders that hash {@code long} keys themselves share ({@code buildFromLongKeys}): they
 * hash the keys {@link #BLOCK} at a time into a scratch array that stays in the L1 cache and add
 * each block as it goes, in place of hashing every key into one array of {@code n} hashes first (a
 * second array as large as the keys, written once and read twice).
 */
public final class LongKeyBlocks {
  private LongKeyBlocks() {}

  /** The keys hashed per block: 4 KiB of hashes. */
  public static final int BLOCK = 512;

  /**
   * A scratch array for the blocks of a build of {@code count} keys.
   *
   * @param count the keys
   * @return an array of {@code min(count, BLOCK)} longs
   */
  public static long[] scratch(int count) {
    return new long[Math.min(count, BLOCK)];
  }

  /**
   * Whether {@code scheme} hashes distinct {@code long} keys to distinct hashes, so that the runs
   * of equal neighbours among the keys are those among their hashes and a build may count its
   * distinct neighbours on the keys before hashing them: true for {@link KeyScheme#XXPH3} (XXPH3's
   * 8-byte branch is a chain of bijections of the 64-bit value: XORs with constants, xor-shifts,
   * odd multiplies, an added length), {@link KeyScheme#FAST} and {@link KeyScheme#MIX64} (the
   * SplitMix64 finalizer, a bijection) and {@link KeyScheme#IDENTITY}.
   *
   * @param scheme the scheme
   * @return whether its {@code long} hash is injective
   */
  public static boolean injective(KeyScheme scheme) {
    return scheme == KeyScheme.XXPH3
        || scheme == KeyScheme.FAST
        || scheme == KeyScheme.MIX64
        || scheme == KeyScheme.IDENTITY;
  }

  /**
   * The number of entries of {@code a[0, count)} that differ from the one before them (the first
   * counts).
   *
   * @param a the values
   * @param count how many
   * @return their count of distinct neighbours
   */
  public static long countConsecutiveDistinct(long[] a, int count) {
    long n = count == 0 ? 0 : 1;
    for (int i = 1; i < count; i++) {
      if (a[i] != a[i - 1]) {
        n++;
      }
    }
    return n;
  }
}
