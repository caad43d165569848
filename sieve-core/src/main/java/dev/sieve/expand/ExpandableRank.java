package dev.sieve.expand;

import static dev.sieve.expand.ExpandableKernel.dist;
import static dev.sieve.expand.ExpandableKernel.next;
import static dev.sieve.expand.ExpandableKernel.prev;

import dev.sieve.expand.ExpandableSlots.Words;

/**
 * Rank and select over the metadata of an {@link ExpandableKernel} table (the blocks of {@link
 * ExpandableSlots}): how many runs start in a range (the occupied bits), where the {@code k}-th run
 * ends (the runends bits), each block's offset (stored, or computed where it saturated), and from
 * them where a quotient's run ends and starts. Static, reading through {@link Words}; the lookups
 * of {@link ExpandableKernel} and the edits of {@link ExpandableWrites} are built on them.
 */
final class ExpandableRank {
  private ExpandableRank() {}

  /** {@return the distance forward from {@code a} to the next block start {@code s}: n if equal} */
  static long step(long a, long s, long n) {
    return s > a ? s - a : s - a + n;
  }

  /** {@return the first slot of the block after the one of slot {@code s} (0 after the last)} */
  static long nextBlockStart(long s, long n) {
    long t = ((s >>> 6) + 1) << 6;
    return t >= n ? 0 : t;
  }

  /**
   * {@return the number of occupied bits at the {@code len} slots from {@code from}, cyclically}
   */
  static long countOccupied(Words t, long n, int width, long from, long len) {
    long c = 0;
    long i = from;
    while (len > 0) {
      int j = (int) (i & 63);
      int take = (int) Math.min(len, Math.min(64 - j, n - i));
      long word = ExpandableSlots.occupieds(t, width, i >>> 6) >>> j;
      if (take < 64) {
        word &= (1L << take) - 1;
      }
      c += Long.bitCount(word);
      len -= take;
      i += take;
      if (i == n) {
        i = 0;
      }
    }
    return c;
  }

  /**
   * {@return the slot of the {@code k}-th ({@code k ≥ 1}) run end at or after {@code from}} In a
   * consistent table the {@code k} run ends lie within one turn of the table from {@code from}, so
   * the loop reads at most {@code blocks + 1} runends words. A query that reads a table
   * optimistically (a seqlock, {@link ExpandableFilter}'s "Threads") may see metadata half written
   * (a run end not yet set, an offset from another state); then there may be fewer than {@code k}
   * run ends, and the loop stops after that many words and returns {@code from}: any slot of the
   * table, so the query ends, its validation fails and it is asked again under the lock. The same
   * for a run end read past the last slot.
   */
  static long selectRunend(Words t, long n, int width, long from, long k) {
    long i = from;
    for (long left = ExpandableSlots.blocks(n) + 1; left > 0; left--) {
      long b = i >>> 6;
      int j = (int) (i & 63);
      long word = ExpandableSlots.runends(t, width, b) >>> j << j;
      int c = Long.bitCount(word);
      if (k <= c) {
        for (long m = k; m > 1; m--) {
          word &= word - 1;
        }
        long r = (b << 6) + Long.numberOfTrailingZeros(word);
        return r < n ? r : from;
      }
      k -= c;
      i = (b + 1) << 6;
      if (i >= n) {
        i = 0;
      }
    }
    return from; // fewer than k run ends in the table: a torn read (see above)
  }

  /** {@return the first occupied slot after {@code q}, cyclically} */
  static long nextOccupied(Words t, long n, int width, long q) {
    long i = next(q, n);
    while (true) {
      long b = i >>> 6;
      int j = (int) (i & 63);
      long word = ExpandableSlots.occupieds(t, width, b) >>> j << j;
      if (word != 0) {
        return (b << 6) + Long.numberOfTrailingZeros(word);
      }
      i = (b + 1) << 6;
      if (i >= n) {
        i = 0;
      }
    }
  }

  /**
   * The offset at slot {@code s} from the one at slot {@code a} before it: how many slots from
   * {@code s} on hold entries of quotients before {@code s}, given {@code pa}, the same at {@code
   * a}. The runs of the occupied quotients in {@code [a, s)} follow the {@code pa} slots of earlier
   * quotients in order, so the last of them ends at the {@code c}-th run end from {@code a + pa}.
   */
  static long offsetAt(Words t, long n, int width, long a, long pa, long s) {
    long d = dist(a, s, n);
    long c = countOccupied(t, n, width, a, d);
    if (c == 0) {
      return Math.max(0, pa - d);
    }
    long r = selectRunend(t, n, width, (a + pa) % n, c);
    return Math.max(0, dist(a, r, n) + 1 - d);
  }

  /**
   * {@return the offset of block {@code b}: the stored one, or where it saturated, computed from
   * the nearest earlier block whose offset did not}
   */
  static long blockOffset(Words t, long n, int width, long b) {
    int stored = ExpandableSlots.offset(t, width, b);
    if (stored < ExpandableSlots.SATURATED) {
      return stored;
    }
    long blocks = ExpandableSlots.blocks(n);
    long a = b;
    long steps = 0;
    do {
      a = a == 0 ? blocks - 1 : a - 1;
      if (++steps >= blocks) {
        throw new IllegalStateException("every block's offset is saturated: the table is full");
      }
    } while (ExpandableSlots.offset(t, width, a) >= ExpandableSlots.SATURATED);
    return offsetAt(t, n, width, a << 6, ExpandableSlots.offset(t, width, a), b << 6);
  }

  /** {@return the slot of the last entry of the run of the occupied quotient {@code q}} */
  static long runEnd(Words t, long n, int width, long q) {
    if (n <= 64) {
      long a = clusterAnchor(t, n, width, q);
      return selectRunend(t, n, width, a, countOccupied(t, n, width, a, dist(a, q, n) + 1));
    }
    long b = q >>> 6;
    long rank = Long.bitCount(ExpandableSlots.occupieds(t, width, b) & (-1L >>> (63 - (q & 63))));
    return selectRunend(t, n, width, ((b << 6) + blockOffset(t, n, width, b)) % n, rank);
  }

  /**
   * {@return for a table of one block, the slot after the nearest empty slot before {@code q}:
   * offset 0} In a table of one block a run that wraps round the end spills into the block's start
   * from quotients of the same block, so the block's start is no anchor for its own quotients.
   */
  private static long clusterAnchor(Words t, long n, int width, long q) {
    long e = prev(q, n);
    while (e != q && ExpandableSlots.value(t, width, e) != 0) {
      e = prev(e, n);
    }
    return next(e, n);
  }

  /** {@return the slot where the run of {@code q} starts, or would start} */
  static long runStartSlot(Words t, long n, int width, long q) {
    if (n <= 64) {
      return (q + offsetAt(t, n, width, clusterAnchor(t, n, width, q), 0, q)) % n;
    }
    long s = q & ~63L;
    return (q + offsetAt(t, n, width, s, blockOffset(t, n, width, q >>> 6), q)) % n;
  }
}
