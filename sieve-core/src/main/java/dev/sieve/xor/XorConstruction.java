package dev.sieve.xor;

import dev.sieve.SieveException;
import dev.sieve.internal.base.Checks;
import dev.sieve.math.FingerprintMath;
import java.util.Arrays;

/**
 * The construction shared by the Xor and Binary Fuse filters: peel the key hypergraph, then assign
 * fingerprints in reverse peeling order.
 *
 * <h2>Peeling</h2>
 *
 * Every slot keeps the number of keys that touch it and the XOR of their seeded hashes. A slot
 * touched by exactly one key names that key (the XOR is its hash); the key is removed from its
 * other slots, which may leave some of them touched by one key, and so on. If every key is removed
 * this way, the reverse order lets each key choose the value of the slot it was alone in so that
 * the XOR of its slots equals its fingerprint, without disturbing keys assigned before it. The
 * arrays are three per slot (an {@code int} count, a {@code long} XOR, an {@code int} queue entry,
 * 16 bytes per slot) and none per key: the peeled order is written over the already-read part of
 * the queue, and a peeled key's hash stays in the XOR of the slot it was alone in. For Binary Fuse
 * layouts of at least 2^16 keys, the counting pass first groups the seeded hashes by start segment
 * (a counting sort, as the paper does; 8 bytes per key, freed before the peel), so it sweeps the
 * table in a window of {@code arity} segments instead of at random.
 *
 * <h2>Duplicates and termination</h2>
 *
 * Two equal key hashes never peel (neither is ever alone in a slot), which is how xor constructions
 * that do not deduplicate loop forever. Here the first failed attempt sorts the hashes and drops
 * repeats in place, then retries the same seed, so duplicates cost one sort and change nothing
 * else: the filter of a multiset is the filter of its set. Peeling does not depend on the order of
 * the keys, so the same key set always gives the same bytes.
 *
 * <p>Distinct keys fail to peel with a small probability per seed (a 2-core in the random
 * hypergraph). Each further attempt uses the next seed of a fixed sequence; after every {@link
 * #ATTEMPTS_PER_SIZE} failed seeds the table grows (see the layouts), and after {@link
 * #MAX_ATTEMPTS} attempts the build throws {@link SieveException}. Measured on random key sets
 * ({@code n} from 2 to 10^5, 2000 builds per size below 10^4), a seed fails at the base size in at
 * most about 15% of builds for the Xor layout (worst near {@code n = 5000}), 6% for 3-wise and 22%
 * for 4-wise Binary Fuse (worst near {@code n = 100}). Taking seeds as independent, all 64 fail
 * with probability below {@code 0.25^64 = 2^-128}, and the growth only lowers it: the exception is
 * not expected to be seen. It exists so that no input, however adversarial, makes a build loop
 * forever.
 */
final class XorConstruction {

  /**
   * The fixed-width filters' {@code fpRate(f)}: accepts the rates {@code bits}-bit fingerprints
   * reach ({@code f >= 2^-bits}) and changes nothing, as the width fixes the size.
   *
   * @throws IllegalArgumentException if {@code fpRate} is outside (0, 1) or below {@code 2^-bits}
   */
  static void checkFpRate(String filter, double fpRate, int bits) {
    Checks.fpRate(fpRate);
    double floor = FingerprintMath.xorFingerprintFpRate(bits);
    if (fpRate < floor) {
      throw new IllegalArgumentException(
          filter
              + " has "
              + bits
              + "-bit fingerprints: its rate is "
              + floor
              + ", above the requested "
              + fpRate
              + " (a 16-bit filter reaches "
              + FingerprintMath.xorFingerprintFpRate(16)
              + ")");
    }
  }

  private XorConstruction() {}

  /** The most slots one filter holds: the largest Java array. */
  static final int MAX_SLOTS = Integer.MAX_VALUE - 8;

  /** Failed seeds at one size before the table grows. */
  static final int ATTEMPTS_PER_SIZE = 8;

  /** Attempts (seeds) before a build gives up. */
  static final int MAX_ATTEMPTS = 64;

  /** A peeled key set: {@code order[0, size)} are the slots, in peeling order. */
  static final class Peeled {
    final PeelingLayout layout;
    final long seed;
    final int numKeys;
    final int attempts;
    private final int[] order;
    private final long[] xors;

    Peeled(PeelingLayout layout, long seed, int numKeys, int attempts, int[] order, long[] xors) {
      this.layout = layout;
      this.seed = seed;
      this.numKeys = numKeys;
      this.attempts = attempts;
      this.order = order;
      this.xors = xors;
    }

    /** The 8-bit fingerprint table. */
    byte[] assign8() {
      byte[] table = new byte[layout.length()];
      int arity = layout.arity();
      int[] pos = new int[4];
      for (int k = numKeys - 1; k >= 0; k--) {
        int slot = order[k];
        long h = xors[slot];
        layout.positions(h, pos);
        int v = SeededHash.fingerprint(h);
        for (int j = 0; j < arity; j++) {
          if (pos[j] != slot) {
            v ^= table[pos[j]];
          }
        }
        table[slot] = (byte) v;
      }
      return table;
    }

    /** The 16-bit fingerprint table. */
    short[] assign16() {
      short[] table = new short[layout.length()];
      int arity = layout.arity();
      int[] pos = new int[4];
      for (int k = numKeys - 1; k >= 0; k--) {
        int slot = order[k];
        long h = xors[slot];
        layout.positions(h, pos);
        int v = SeededHash.fingerprint(h);
        for (int j = 0; j < arity; j++) {
          if (pos[j] != slot) {
            v ^= table[pos[j]];
          }
        }
        table[slot] = (short) v;
      }
      return table;
    }
  }

  /**
   * Peels the first {@code count} hashes (which it may reorder and deduplicate), {@code count ≥ 1},
   * with the layouts {@code layouts} makes for the current number of distinct keys and growth
   * round.
   */
  static Peeled peel(long[] hashes, int count, long baseSeed, LayoutFactory layouts) {
    int n = count;
    boolean deduplicated = false;
    PeelingLayout layout = layouts.forKeys(n, 0);
    int growth = 0;
    int failuresAtSize = 0;
    for (int attempt = 0; attempt < MAX_ATTEMPTS; ) {
      long seed = SeededHash.attemptSeed(baseSeed, attempt);
      Peeled peeled = tryPeel(hashes, n, layout, seed, attempt + 1);
      if (peeled != null) {
        return peeled;
      }
      if (!deduplicated) {
        deduplicated = true;
        int distinct = sortUnique(hashes, n);
        if (distinct != n) {
          n = distinct;
          layout = layouts.forKeys(n, growth);
          continue; // the same seed again, now without the duplicates that blocked it
        }
      }
      attempt++;
      if (++failuresAtSize == ATTEMPTS_PER_SIZE) {
        failuresAtSize = 0;
        layout = layouts.forKeys(n, ++growth);
      }
    }
    throw new SieveException(
        "construction failed: "
            + n
            + " distinct keys did not peel under "
            + MAX_ATTEMPTS
            + " seeds (the limit); this is expected never to happen for well-mixed key hashes");
  }

  /** Makes the layout for a key count and growth round. */
  interface LayoutFactory {
    PeelingLayout forKeys(long keys, int growth);
  }

  private static Peeled tryPeel(
      long[] hashes, int n, PeelingLayout layout, long seed, int attempts) {
    int length = layout.length();
    int arity = layout.arity();
    int[] counts = new int[length];
    long[] xors = new long[length];
    int[] pos = new int[4];
    long[] grouped = groupByLocality(hashes, n, layout, seed);
    for (int i = 0; i < n; i++) {
      long h = grouped == null ? SeededHash.mix(hashes[i], seed) : grouped[i];
      layout.positions(h, pos);
      for (int j = 0; j < arity; j++) {
        counts[pos[j]]++;
        xors[pos[j]] ^= h;
      }
    }
    grouped = null; // no longer needed: let it be collected before the queue is allocated
    int[] queue = new int[length];
    int tail = 0;
    for (int slot = 0; slot < length; slot++) {
      if (counts[slot] == 1) {
        queue[tail++] = slot;
      }
    }
    int peeled = 0;
    for (int head = 0; head < tail; head++) {
      int slot = queue[head];
      if (counts[slot] != 1) {
        continue; // its last key was peeled through another slot
      }
      long h = xors[slot];
      layout.positions(h, pos);
      for (int j = 0; j < arity; j++) {
        int p = pos[j];
        if (p != slot) {
          xors[p] ^= h;
          if (--counts[p] == 1) {
            queue[tail++] = p;
          }
        }
      }
      counts[slot] = 0;
      queue[peeled++] = slot; // peeled <= head: overwrites an entry already read
    }
    return peeled == n ? new Peeled(layout, seed, n, attempts, queue, xors) : null;
  }

  /**
   * The seeded hashes counting-sorted by locality group (the Binary Fuse start segment, as the
   * paper does), so the counting pass sweeps the table instead of jumping around it; {@code null}
   * where the layout has one group or the set is too small to gain. The order does not change the
   * result: counts and XORs are sums.
   */
  private static long[] groupByLocality(long[] hashes, int n, PeelingLayout layout, long seed) {
    int groups = layout.localityGroups();
    if (groups <= 1 || n < (1 << 16)) {
      return null;
    }
    int[] start = new int[groups + 1];
    for (int i = 0; i < n; i++) {
      start[layout.localityGroup(SeededHash.mix(hashes[i], seed)) + 1]++;
    }
    for (int g = 0; g < groups; g++) {
      start[g + 1] += start[g];
    }
    long[] grouped = new long[n];
    for (int i = 0; i < n; i++) {
      long h = SeededHash.mix(hashes[i], seed);
      grouped[start[layout.localityGroup(h)]++] = h;
    }
    return grouped;
  }

  /** Sorts {@code a[0, n)} and moves its distinct values to the front; returns their number. */
  static int sortUnique(long[] a, int n) {
    if (n < 2) {
      return n;
    }
    Arrays.sort(a, 0, n);
    int w = 1;
    for (int i = 1; i < n; i++) {
      if (a[i] != a[w - 1]) {
        a[w++] = a[i];
      }
    }
    return w;
  }
}
