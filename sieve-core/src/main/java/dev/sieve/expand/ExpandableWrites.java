package dev.sieve.expand;

import static dev.sieve.expand.ExpandableKernel.dist;
import static dev.sieve.expand.ExpandableKernel.length;
import static dev.sieve.expand.ExpandableKernel.matches;
import static dev.sieve.expand.ExpandableKernel.next;
import static dev.sieve.expand.ExpandableKernel.position;
import static dev.sieve.expand.ExpandableKernel.prev;
import static dev.sieve.expand.ExpandableKernel.quotient;
import static dev.sieve.expand.ExpandableKernel.valueAt;
import static dev.sieve.expand.ExpandableRank.blockOffset;
import static dev.sieve.expand.ExpandableRank.nextBlockStart;
import static dev.sieve.expand.ExpandableRank.nextOccupied;
import static dev.sieve.expand.ExpandableRank.offsetAt;
import static dev.sieve.expand.ExpandableRank.runEnd;
import static dev.sieve.expand.ExpandableRank.runStartSlot;
import static dev.sieve.expand.ExpandableRank.step;

import dev.sieve.expand.ExpandableSlots.Words;

/**
 * The writes to an {@link ExpandableKernel} table, on the heap array: insert and delete of one
 * entry (shifting the rest of the cluster and keeping the block offsets), and the whole-table
 * passes (the runs in quotient order, every block's exact offset, the rebuild into a table of the
 * same or twice the size). The layout and the reasons are in {@link ExpandableKernel}'s class
 * comment.
 */
final class ExpandableWrites {
  private ExpandableWrites() {}

  /**
   * Inserts the entry {@code value} into the run of {@code q}, after its last entry (or where the
   * run would start), shifting the rest of the cluster one slot right into the first empty slot.
   * The table must have an empty slot.
   */
  static void insert(long[] a, long n, int width, long q, long value) {
    insert(new ExpandableSlots.Heap(a), n, width, q, value);
  }

  /** {@link #insert(long[], long, int, long, long)} on a heap table's reader (no allocation). */
  static void insert(ExpandableSlots.Heap t, long n, int width, long q, long value) {
    boolean exists = ExpandableSlots.occupied(t, width, q);
    insertAfter(t, n, width, q, value, exists ? runEnd(t, n, width, q) : -1);
  }

  /**
   * {@link #insert(ExpandableSlots.Heap, long, int, long, long)} with the run's last slot {@code
   * end} known ({@code -1}: {@code q} is not occupied), for an add that has read the run already.
   */
  static void insertAfter(ExpandableSlots.Heap t, long n, int width, long q, long value, long end) {
    long[] a = t.a;
    boolean exists = end >= 0;
    long p = exists ? next(end, n) : runStartSlot(t, n, width, q);
    long e = p;
    while (ExpandableSlots.value(t, width, e) != 0) {
      e = next(e, n);
    }
    for (long i = e; i != p; ) {
      long before = prev(i, n);
      ExpandableSlots.setValue(a, width, i, ExpandableSlots.value(t, width, before));
      ExpandableSlots.setRunend(a, width, i, ExpandableSlots.runend(t, width, before));
      i = before;
    }
    ExpandableSlots.setValue(a, width, p, value);
    if (exists) {
      ExpandableSlots.setRunend(a, width, prev(p, n), false);
    }
    ExpandableSlots.setRunend(a, width, p, true);
    ExpandableSlots.setOccupied(a, width, q, true);
    // offsets: +1 at the block starts in (q, e]: the slots from such a start to p hold entries of
    // quotients before it (runs are in quotient order), so the new entry joins or extends its
    // prefix, and past p every entry moved one slot on
    long span = dist(q, e, n);
    long s = nextBlockStart(q, n);
    for (long d = step(q, s, n); d <= span; ) {
      bumpOffset(a, t, width, s >>> 6);
      long s2 = nextBlockStart(s, n);
      d += step(s, s2, n);
      s = s2;
    }
  }

  private static void bumpOffset(long[] a, Words t, int width, long b) {
    int stored = ExpandableSlots.offset(t, width, b);
    if (stored < ExpandableSlots.SATURATED) {
      ExpandableSlots.setOffset(a, width, b, stored + 1);
    }
  }

  /**
   * Deletes the matching entry of {@code hash}'s run with the longest fingerprint.
   *
   * @return the fingerprint length of the entry deleted, or {@code -1} if no entry matches (then
   *     nothing changed)
   */
  static int remove(long[] a, long n, int width, long hash) {
    return remove(new ExpandableSlots.Heap(a), n, width, hash);
  }

  /** {@link #remove(long[], long, int, long)} on a heap table's reader (no allocation). */
  static int remove(ExpandableSlots.Heap t, long n, int width, long hash) {
    long q = quotient(hash, n);
    if (!ExpandableSlots.occupied(t, width, q)) {
      return -1;
    }
    long end = runEnd(t, n, width, q);
    long at = position(hash, n);
    long best = -1;
    int bestLength = -1;
    long start;
    for (long i = end; ; i = prev(i, n)) {
      long v = ExpandableSlots.value(t, width, i);
      if (matches(v, at) && length(v) > bestLength) {
        best = i;
        bestLength = length(v);
      }
      if (i == q || ExpandableSlots.runend(t, width, prev(i, n))) {
        start = i;
        break;
      }
    }
    if (best < 0) {
      return -1;
    }
    removeAt(t, n, width, q, start, end, best);
    return bestLength;
  }

  /**
   * Deletes the entry in slot {@code best} of the run of {@code q} ({@code start..end}), shifting
   * the following entries of the cluster one slot left until an empty slot or a run that starts in
   * its canonical slot, and keeping the block offsets.
   */
  static void removeAt(
      ExpandableSlots.Heap t, long n, int width, long q, long start, long end, long best) {
    long[] a = t.a;
    // shift the rest of the cluster left over best, up to an empty slot or a run in its own slot
    long i = best;
    long runQuotient = q;
    boolean endBefore = ExpandableSlots.runend(t, width, best);
    while (true) {
      long j = next(i, n);
      long v = ExpandableSlots.value(t, width, j);
      if (v == 0) {
        break;
      }
      if (endBefore) {
        runQuotient = nextOccupied(t, n, width, runQuotient);
        if (runQuotient == j) {
          break;
        }
      }
      endBefore = ExpandableSlots.runend(t, width, j);
      ExpandableSlots.setValue(a, width, i, v);
      ExpandableSlots.setRunend(a, width, i, endBefore);
      i = j;
    }
    ExpandableSlots.setValue(a, width, i, 0);
    ExpandableSlots.setRunend(a, width, i, false);
    if (start == end) {
      ExpandableSlots.setOccupied(a, width, q, false);
    } else if (best == end) {
      ExpandableSlots.setRunend(a, width, prev(best, n), true);
    }
    // offsets: −1 at the block starts in (q, i], as for an insert
    long span = dist(q, i, n);
    long s = nextBlockStart(q, n);
    for (long d = step(q, s, n); d <= span; ) {
      dropOffset(a, t, n, width, s >>> 6);
      long s2 = nextBlockStart(s, n);
      d += step(s, s2, n);
      s = s2;
    }
  }

  /**
   * Lowers a block's offset by one; a saturated one is computed again (earlier blocks are done).
   */
  private static void dropOffset(long[] a, Words t, long n, int width, long b) {
    int stored = ExpandableSlots.offset(t, width, b);
    long exact = stored < ExpandableSlots.SATURATED ? stored - 1 : blockOffset(t, n, width, b);
    ExpandableSlots.setOffset(a, width, b, exact);
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

  /** {@return an empty slot of the table, or {@code -1} if it has none} */
  static long emptySlot(Words t, long n, int width) {
    for (long i = 0; i < n; i++) {
      if (ExpandableSlots.value(t, width, i) == 0) {
        return i;
      }
    }
    return -1;
  }

  /** Visits every run of the table, in quotient order from the first slot after an empty one. */
  static void forEachRun(Words t, long n, int width, RunVisitor visitor) {
    long e = emptySlot(t, n, width);
    long quotient = e;
    long rel = 1;
    while (rel < n) {
      long i = (e + rel) % n;
      if (ExpandableSlots.value(t, width, i) == 0) {
        rel++;
        continue;
      }
      quotient = nextOccupied(t, n, width, quotient);
      int length = 1;
      for (long k = i; !ExpandableSlots.runend(t, width, k); k = next(k, n)) {
        length++;
      }
      visitor.run(quotient, i, length);
      rel += length;
    }
  }

  /** Receives the exact offset of every block. */
  interface OffsetVisitor {
    void offset(long block, long exact);
  }

  /**
   * Computes every block's exact offset from the definition, in one pass from an empty slot (whose
   * next slot has offset 0). The table must have an empty slot.
   */
  static void forEachOffset(Words t, long n, int width, OffsetVisitor visitor) {
    long a = next(emptySlot(t, n, width), n);
    long pa = 0;
    long s = (a & 63) == 0 ? a : nextBlockStart(a, n);
    for (long k = ExpandableSlots.blocks(n); k > 0; k--) {
      pa = offsetAt(t, n, width, a, pa, s);
      a = s;
      visitor.offset(s >>> 6, pa);
      s = nextBlockStart(s, n);
    }
  }

  /**
   * Writes every entry of {@code src} ({@code n} slots) into the empty table {@code dst} of {@code
   * newN} slots of {@code newWidth} bits, {@code newN} being {@code n} (a wider slot) or {@code 2n}
   * (a doubling: the top fingerprint bit becomes the low quotient bit; a void entry goes to both
   * new runs).
   *
   * @return the number of entries written (void entries count twice on a doubling)
   */
  static long rebuild(Words src, long n, int width, long[] dst, long newN, int newWidth) {
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
    out.finish();
    return out.count;
  }

  /** {@link #rebuild(Words, long, int, long[], long, int)} from a heap table. */
  static long rebuild(long[] src, long n, int width, long[] dst, long newN, int newWidth) {
    return rebuild(new ExpandableSlots.Heap(src), n, width, dst, newN, newWidth);
  }

  /**
   * Lays out entries given in quotient order (cyclically, from the first run of the source's pass)
   * in an empty table: each run starts at its canonical slot or right after the previous run; then
   * {@link #finish()} computes the offsets. The source's pass starts after an empty slot and a
   * doubling at most doubles each position, so the layout ends before it comes round to its own
   * start.
   */
  static final class Appender {
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
      if (q != lastQ) {
        pos = Math.max(pos, Math.floorMod(q - base, n));
        ExpandableSlots.setOccupied(t, width, q, true);
        lastQ = q;
      } else {
        ExpandableSlots.setRunend(t, width, (base + pos - 1) % n, false);
      }
      long at = (base + pos) % n;
      ExpandableSlots.setValue(t, width, at, value);
      ExpandableSlots.setRunend(t, width, at, true);
      pos++;
      count++;
    }

    /** Writes every block's offset; call once after the last entry. */
    void finish() {
      if (count > 0) {
        forEachOffset(
            new ExpandableSlots.Heap(t),
            n,
            width,
            (b, exact) -> ExpandableSlots.setOffset(t, width, b, exact));
      }
    }
  }
}
