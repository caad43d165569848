package dev.sieve.expand;

import java.nio.ByteBuffer;

/**
 * The table of an {@link ExpandableFilter}: a quotient filter (Bender et al., "Don't Thrash: How to
 * Cache Your Hash on Flash", PVLDB 5(11), 2012) whose entries carry fingerprints of different
 * lengths (InfiniFilter, Dayan et al., SIGMOD 2023) in {@code n} slots, with static probe, insert,
 * delete and rebuild loops over the raw slots ({@link ExpandableSlots}).
 *
 * <h2>Addressing</h2>
 *
 * A table has {@code n} slots, any count (a right-sized start from a key-count hint need not be a
 * power of two). A key hash {@code h}, read as the fraction {@code h / 2^64} of the unit interval,
 * scaled by {@code n} gives the 128-bit product {@code h · n}: its high word is the quotient {@code
 * q} (the canonical slot, in {@code [0, n)}; Lemire's multiply-shift range reduction) and its low
 * word {@code lo} the key's position inside its slot, whose top {@code r} bits are the fingerprint
 * {@code lo >>> (64 − r)}. Doubling the table doubles the product: quotient {@code 2q + b} with
 * {@code b} the top bit of {@code lo}, fingerprint one bit shorter. So an entry stays a prefix of
 * its key's position however often the table doubles, and the entries of every run stay in quotient
 * order. For {@code n = 2^log} this is the top {@code log} bits of {@code h} as quotient and the
 * next {@code r} as fingerprint (the layout of payload version 1).
 *
 * <h2>A slot</h2>
 *
 * <pre>
 *   bit 0        occupied: some entry has this slot as its canonical slot (its run exists)
 *   bit 1        continuation: this entry continues the run of the slot before it
 *   bits 2..     value: 0 = empty slot; otherwise 1 marker bit then the r-bit fingerprint,
 *                value = (1 &lt;&lt; r) | fingerprint, so r = 63 − numberOfLeadingZeros(value)
 * </pre>
 *
 * The unary marker (InfiniFilter's) lets one table hold fingerprints of every length up to {@code
 * width − 3}; value {@code 1} ({@code r = 0}) is a <em>void</em> entry, whose fingerprint has run
 * out: it matches every key of its run. An empty slot is value 0, so the quotient filter's third
 * metadata bit ("shifted") is not needed: a block (a maximal sequence of non-empty slots) starts
 * after an empty slot, its first entry sits in its canonical slot, and its runs are in the order of
 * the occupied bits, so the quotient of every entry follows from a walk from the block start.
 *
 * <h2>Operations</h2>
 *
 * <ul>
 *   <li>Query: walk back from {@code q} to the block start, count the occupied bits in {@code
 *       [start, q)}, skip that many runs, compare every entry of {@code q}'s run (a void entry
 *       matches).
 *   <li>Insert: at the start of {@code q}'s run (or where it would start), shifting the rest of the
 *       block one slot right into the first empty slot; the occupied bits do not move.
 *   <li>Delete: of the matching entry with the <em>longest</em> fingerprint in {@code q}'s run (a
 *       shorter matching entry matches every key the longer one matches, so no other key loses its
 *       last match), shifting the following entries of the block one slot left until an empty slot
 *       or an entry in its canonical slot.
 *   <li>Rebuild: one pass over the runs in quotient order, writing each entry into a table of the
 *       same or twice the size (then entries whose top fingerprint bit is 0 go to run {@code 2q},
 *       those with 1 to {@code 2q + 1}, and a void entry to both: a void entry does not know its
 *       next quotient bit, so it is duplicated and each copy stays void). The pass appends, so the
 *       new table is laid out without any search.
 * </ul>
 *
 * Every operation needs an empty slot somewhere: the filter doubles before the table fills.
 */
final class ExpandableKernel {
  private ExpandableKernel() {}

  static final long OCCUPIED = 1;
  static final long CONTINUATION = 2;

  // ---------------------------------------------------------------- entries

  /**
   * {@return the canonical slot of {@code hash} in a table of {@code n} slots: high word of h·n}
   */
  static long quotient(long hash, long n) {
    return Math.multiplyHigh(hash, n) + ((hash >> 63) & n);
  }

  /** {@return the key's position inside its slot of a table of {@code n} slots: low word of h·n} */
  static long position(long hash, long n) {
    return hash * n;
  }

  /**
   * {@return the value of a new entry for {@code hash}: marker and {@code bits}-bit fingerprint}
   */
  static long entryValue(long hash, long n, int bits) {
    return bits == 0 ? 1 : (1L << bits) | (position(hash, n) >>> (64 - bits));
  }

  /** {@return the fingerprint length of a non-empty value; 0 for a void entry} */
  static int length(long value) {
    return 63 - Long.numberOfLeadingZeros(value);
  }

  /**
   * {@return whether the entry {@code value} matches the key at position {@code pos} in its slot (a
   * void entry always does)}
   */
  static boolean matches(long value, long pos) {
    int r = length(value);
    return r == 0 || (value & ((1L << r) - 1)) == pos >>> (64 - r);
  }

  private static long value(long slot) {
    return slot >>> 2;
  }

  private static long next(long i, long n) {
    return i + 1 == n ? 0 : i + 1;
  }

  private static long prev(long i, long n) {
    return i == 0 ? n - 1 : i - 1;
  }

  // ---------------------------------------------------------------- walks

  /** {@return where the run of {@code q} starts, or where it would start if it does not exist} */
  static long runStart(long[] t, long n, int width, long q) {
    long start = q;
    while (value(ExpandableSlots.get(t, width, prev(start, n))) != 0) {
      start = prev(start, n);
    }
    long runs = 0;
    for (long i = start; i != q; i = next(i, n)) {
      runs += ExpandableSlots.get(t, width, i) & OCCUPIED;
    }
    long pos = start;
    for (; runs > 0; runs--) {
      do {
        pos = next(pos, n);
      } while ((ExpandableSlots.get(t, width, pos) & CONTINUATION) != 0);
    }
    return pos;
  }

  /** {@return whether some entry of {@code hash}'s run matches it} */
  static boolean mayContain(long[] t, long n, int width, long hash) {
    long q = quotient(hash, n);
    if ((ExpandableSlots.get(t, width, q) & OCCUPIED) == 0) {
      return false;
    }
    long at = position(hash, n);
    long pos = runStart(t, n, width, q);
    long slot = ExpandableSlots.get(t, width, pos);
    while (true) {
      if (matches(value(slot), at)) {
        return true;
      }
      pos = next(pos, n);
      slot = ExpandableSlots.get(t, width, pos);
      if ((slot & CONTINUATION) == 0) {
        return false;
      }
    }
  }

  /**
   * {@link #mayContain(long[], long, int, long)} over slots read in place from a little-endian
   * buffer (a filter wrapped from its form): the same walk.
   */
  static boolean mayContain(ByteBuffer t, long n, int width, long hash) {
    long q = quotient(hash, n);
    if ((ExpandableSlots.get(t, width, q) & OCCUPIED) == 0) {
      return false;
    }
    long start = q;
    while (value(ExpandableSlots.get(t, width, prev(start, n))) != 0) {
      start = prev(start, n);
    }
    long runs = 0;
    for (long i = start; i != q; i = next(i, n)) {
      runs += ExpandableSlots.get(t, width, i) & OCCUPIED;
    }
    long pos = start;
    for (; runs > 0; runs--) {
      do {
        pos = next(pos, n);
      } while ((ExpandableSlots.get(t, width, pos) & CONTINUATION) != 0);
    }
    long at = position(hash, n);
    long slot = ExpandableSlots.get(t, width, pos);
    while (true) {
      if (matches(value(slot), at)) {
        return true;
      }
      pos = next(pos, n);
      slot = ExpandableSlots.get(t, width, pos);
      if ((slot & CONTINUATION) == 0) {
        return false;
      }
    }
  }

  /**
   * Inserts the entry {@code value} into the run of {@code q}, at the run's start. The table must
   * have an empty slot.
   */
  static void insert(long[] t, long n, int width, long q, long value) {
    boolean runExists = (ExpandableSlots.get(t, width, q) & OCCUPIED) != 0;
    long p = runStart(t, n, width, q);
    long empty = p;
    while (value(ExpandableSlots.get(t, width, empty)) != 0) {
      empty = next(empty, n);
    }
    for (long i = empty; i != p; ) {
      long before = prev(i, n);
      long moved = ExpandableSlots.get(t, width, before) & ~OCCUPIED;
      ExpandableSlots.set(t, width, i, (ExpandableSlots.get(t, width, i) & OCCUPIED) | moved);
      i = before;
    }
    ExpandableSlots.set(t, width, p, (ExpandableSlots.get(t, width, p) & OCCUPIED) | value << 2);
    if (runExists) {
      long after = next(p, n);
      ExpandableSlots.set(t, width, after, ExpandableSlots.get(t, width, after) | CONTINUATION);
    }
    ExpandableSlots.set(t, width, q, ExpandableSlots.get(t, width, q) | OCCUPIED);
  }

  /**
   * Deletes the matching entry of {@code hash}'s run with the longest fingerprint.
   *
   * @return the fingerprint length of the entry deleted, or {@code -1} if no entry matches (then
   *     nothing changed)
   */
  static int remove(long[] t, long n, int width, long hash) {
    long q = quotient(hash, n);
    if ((ExpandableSlots.get(t, width, q) & OCCUPIED) == 0) {
      return -1;
    }
    long at = position(hash, n);
    long start = runStart(t, n, width, q);
    long best = -1;
    int bestLength = -1;
    long pos = start;
    long slot = ExpandableSlots.get(t, width, pos);
    do {
      long v = value(slot);
      if (matches(v, at) && length(v) > bestLength) {
        best = pos;
        bestLength = length(v);
      }
      pos = next(pos, n);
      slot = ExpandableSlots.get(t, width, pos);
    } while ((slot & CONTINUATION) != 0);
    if (best < 0) {
      return -1;
    }
    boolean runHasMore = (ExpandableSlots.get(t, width, next(start, n)) & CONTINUATION) != 0;
    deleteAt(t, n, width, best, q);
    if (best == start) {
      if (runHasMore) {
        ExpandableSlots.set(t, width, start, ExpandableSlots.get(t, width, start) & ~CONTINUATION);
      } else {
        ExpandableSlots.set(t, width, q, ExpandableSlots.get(t, width, q) & ~OCCUPIED);
      }
    }
    return bestLength;
  }

  /**
   * Empties slot {@code x} (an entry of the run of {@code q}) and shifts the following entries of
   * its block one slot left, up to an empty slot or an entry in its canonical slot.
   */
  private static void deleteAt(long[] t, long n, int width, long x, long q) {
    long i = x;
    long runQuotient = q;
    while (true) {
      long j = next(i, n);
      long following = ExpandableSlots.get(t, width, j);
      if (value(following) == 0) {
        break;
      }
      if ((following & CONTINUATION) == 0) {
        runQuotient = nextOccupied(t, width, n, runQuotient);
        if (runQuotient == j) {
          break;
        }
      }
      ExpandableSlots.set(
          t, width, i, (ExpandableSlots.get(t, width, i) & OCCUPIED) | (following & ~OCCUPIED));
      i = j;
    }
    ExpandableSlots.set(t, width, i, ExpandableSlots.get(t, width, i) & OCCUPIED);
  }

  /** {@return the first slot after {@code q} (cyclically) whose occupied bit is set} */
  private static long nextOccupied(long[] t, int width, long n, long q) {
    long i = next(q, n);
    while ((ExpandableSlots.get(t, width, i) & OCCUPIED) == 0) {
      i = next(i, n);
    }
    return i;
  }

  // ---------------------------------------------------------------- whole-table passes

  /** Receives the runs of a table in quotient order, starting after an empty slot. */
  interface RunVisitor {
    /**
     * One run: quotient {@code q}, entries in slots {@code first, first + 1, …} ({@code length} of
     * them, modulo the table size).
     */
    void run(long q, long first, int length);
  }

  /** Visits every run of the table, in quotient order from the first slot after an empty one. */
  static void forEachRun(long[] t, long n, int width, RunVisitor visitor) {
    long base = 0;
    while (value(ExpandableSlots.get(t, width, base)) != 0) {
      base++;
    }
    base = next(base, n); // slot base − 1 is empty: no run reaches past it into base
    long occupiedRel = -1;
    long rel = 0;
    while (rel < n) {
      long slot = ExpandableSlots.get(t, width, (base + rel) % n);
      if (value(slot) == 0) {
        rel++;
        continue;
      }
      do {
        occupiedRel++;
      } while ((ExpandableSlots.get(t, width, (base + occupiedRel) % n) & OCCUPIED) == 0);
      int length = 1;
      while ((ExpandableSlots.get(t, width, (base + rel + length) % n) & CONTINUATION) != 0) {
        length++;
      }
      visitor.run((base + occupiedRel) % n, (base + rel) % n, length);
      rel += length;
    }
  }

  /** {@return the value stored in slot {@code i}} */
  static long valueAt(long[] t, int width, long i) {
    return value(ExpandableSlots.get(t, width, i));
  }

  /**
   * Writes every entry of {@code src} ({@code n} slots) into the empty table {@code dst} of {@code
   * newN} slots of {@code newWidth} bits, {@code newN} being {@code n} (a wider slot) or {@code 2n}
   * (a doubling: the top fingerprint bit becomes the low quotient bit; a void entry goes to both
   * new runs).
   *
   * @return the number of entries written (void entries count twice on a doubling)
   */
  static long rebuild(long[] src, long n, int width, long[] dst, long newN, int newWidth) {
    Appender out = new Appender(dst, newN, newWidth);
    boolean doubling = newN == 2 * n;
    forEachRun(
        src,
        n,
        width,
        (q, first, length) -> {
          if (!doubling) {
            for (int k = 0; k < length; k++) {
              out.append(q, valueAt(src, width, (first + k) % n));
            }
            return;
          }
          for (int bit = 0; bit <= 1; bit++) {
            for (int k = 0; k < length; k++) {
              long v = valueAt(src, width, (first + k) % n);
              int r = length(v);
              if (r == 0) {
                out.append(2 * q + bit, 1);
              } else if ((v >>> (r - 1) & 1) == bit) {
                out.append(2 * q + bit, (1L << (r - 1)) | (v & ((1L << (r - 1)) - 1)));
              }
            }
          }
        });
    return out.count;
  }

  /**
   * Lays out entries given in quotient order (cyclically, from the first run of the source's pass)
   * in an empty table: each run starts at its canonical slot or right after the previous run. The
   * source's pass starts after an empty slot and a doubling at most doubles each position, so the
   * layout ends before it comes round to its own start.
   */
  private static final class Appender {
    private final long[] t;
    private final int width;
    private final long n;
    private long base = -1;
    private long pos;
    private long lastQ = -1;
    long count;

    Appender(long[] t, long n, int width) {
      this.t = t;
      this.width = width;
      this.n = n;
    }

    void append(long q, long value) {
      if (base < 0) {
        base = q;
      }
      long cont = 0;
      if (q != lastQ) {
        pos = Math.max(pos, Math.floorMod(q - base, n));
        ExpandableSlots.set(t, width, q, ExpandableSlots.get(t, width, q) | OCCUPIED);
        lastQ = q;
      } else {
        cont = CONTINUATION;
      }
      long at = (base + pos) % n;
      ExpandableSlots.set(
          t, width, at, (ExpandableSlots.get(t, width, at) & OCCUPIED) | cont | value << 2);
      pos++;
      count++;
    }
  }
}
