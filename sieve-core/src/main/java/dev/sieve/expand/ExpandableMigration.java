package dev.sieve.expand;

import static dev.sieve.expand.ExpandableKernel.dist;
import static dev.sieve.expand.ExpandableKernel.length;

import dev.sieve.expand.ExpandableSlots.Heap;

/**
 * A doubling of an {@link ExpandableFilter} under way: the old table, read-only but for removes,
 * and how far its entries have been copied into the new one. A doubling is incremental (as
 * incremental rehashing is): the add that finds the table full allocates the table of twice the
 * slots and from then on every write (add or remove) moves a bounded number of the old table's
 * entries, in quotient order, into runs {@code 2q} and {@code 2q + 1} of the new one, so no single
 * write rebuilds the whole table.
 *
 * <h2>The state</h2>
 *
 * The old table ({@code n} slots) and the filter's table ({@code 2n}, the new one) hold the entries
 * between them; a <em>cursor</em> {@code c} and a count {@code k}: the old quotients below {@code
 * c}, and the first {@code k} entries of the run of {@code c}, have been copied into the new table.
 * Copied entries stay where they were in the old table (unread there: nothing shifts them out of
 * order, and the count {@code k} is of the run's entries from its start, which a shift of the
 * cluster moves as a whole). So an entry is in exactly one table but for the first {@code k} of run
 * {@code c}, which are in both.
 *
 * <ul>
 *   <li>Adds go to the new table, with the new generation's length, as after any doubling: the old
 *       table gains no entry, so its load only falls, and a new entry's length owes nothing to the
 *       old table's slot width.
 *   <li>A query whose old quotient {@code q} is below {@code c} reads the new table only; from
 *       {@code c} on it reads the old table's run {@code q} and the new table. Each entry keeps its
 *       known hash bits (an {@code r}-bit entry of the old table knows as much as its copy of
 *       {@code r − 1} bits in the new one), so the rate is the same {@code m} as for one table.
 *   <li>A remove takes, among the key's matching entries not yet copied (old table, run {@code q}
 *       from entry {@code k} if {@code q = c}) and those in the new table, the one that knows the
 *       most hash bits; a copied one is in the new table, so its stale twin is never chosen.
 *   <li>The bound on equal entries ({@link ExpandableDuplicates}) counts a value's copies in both
 *       tables, as they will be in the new one.
 * </ul>
 *
 * <h2>The step, from the load bounds</h2>
 *
 * A doubling starts at the same load as a whole-table rebuild did: when an add would take the
 * entries past {@code ⌊L · n⌋}, {@code L} = {@value ExpandableMath#MAX_LOAD}. Then the old table
 * holds {@code U ≤ L · n} entries, {@code V} of them void (each becomes two), and the new table
 * {@code 2n} slots, whose own doubling is due at {@code ⌊2L · n⌋} entries; the saturation rule
 * ({@link ExpandableGrowth}) keeps {@code 2V ≤ L · n}. A write does {@value #STEP} units of work:
 * one unit moves one entry (a void one into both runs), or passes the rest of one block of 64
 * quotients with no run left in it. The whole doubling is at most {@code U + n/64} units, so it
 * ends within {@code (U + n/64) / STEP + 1 ≤ (0.85 + 1/64) · n / 16 + 1 ≈ 0.054 n + 1} writes. The
 * adds before the next doubling are due number at least {@code ⌊2L · n⌋ − U − V ≥ 0.425 n − 1}:
 * more, for every table of at least 64 slots (the smallest). So with {@code STEP = 16} a doubling
 * always ends well before the next one is due (four would do; sixteen keeps the time both tables
 * are held, and so the memory of a doubling, to about an eighth of the adds between doublings), and
 * each table holds at most {@code L} of its slots: the old one starts there and only loses entries,
 * the new one holds at most the entries after the doubling. Removes take steps too (they only
 * help). A write moves at most {@value #STEP} old entries and inserts at most twice that many into
 * the new table; no write scans more than {@value #STEP} blocks' occupied words.
 *
 * <p>A union or a {@link ExpandableFilter#compact()} first ends the doubling under way (both pass
 * over every entry anyway), and so does writing the serialized form: a form is never of a filter
 * mid-doubling, and its payload is unchanged. A copy takes the state as it is. While a doubling is
 * under way the filter holds both tables, and {@link ExpandableFilter#sizeInBits()} counts both:
 * the old one is dropped when its last entry has moved. The add that begins a doubling allocates
 * the new table's array in one piece, which the JVM zeroes: the one cost of a doubling that still
 * grows with the table.
 */
final class ExpandableMigration {

  /** Units of work per write: entries moved, or blocks of quotients with no run passed. */
  static final int STEP = 16;

  /** The bits of the old table of {@code m}, a doubling under way, or 0 for none. */
  static long oldBits(ExpandableMigration m) {
    return m == null ? 0 : ExpandableSlots.tableBits(m.oldSlots, m.oldWidth);
  }

  /** The old table, its slot count, slot width and log2 of its slots. */
  final Heap old;

  final long oldSlots;
  final int oldWidth;
  final int oldLog;

  /** The first old quotient whose run is not wholly copied. */
  long cursor;

  /** The entries of the cursor's run already copied (still there, unread). */
  long done;

  ExpandableMigration(Heap old, long oldSlots, int oldWidth, int oldLog, long cursor, long done) {
    this.old = old;
    this.oldSlots = oldSlots;
    this.oldWidth = oldWidth;
    this.oldLog = oldLog;
    this.cursor = cursor;
    this.done = done;
  }

  /** {@return an independent copy of this state, the old table's words copied} */
  ExpandableMigration copy() {
    return new ExpandableMigration(
        new Heap(old.a.clone()), oldSlots, oldWidth, oldLog, cursor, done);
  }

  /** {@return whether {@code o} is the same state: same old table, cursor and count} */
  boolean same(ExpandableMigration o) {
    return o.oldSlots == oldSlots
        && o.oldWidth == oldWidth
        && o.cursor == cursor
        && o.done == done
        && java.util.Arrays.equals(o.old.a, old.a);
  }

  /**
   * {@return whether an entry of either table matches {@code hash}} {@code t, n, width}: the new
   * table. Read optimistically like a single table (the caller validates after).
   */
  boolean mayContain(ExpandableSlots.Words t, long n, int width, long hash) {
    return (ExpandableKernel.quotient(hash, oldSlots) >= cursor
            && ExpandableKernel.mayContain(old, oldSlots, oldWidth, hash))
        || ExpandableKernel.mayContain(t, n, width, hash);
  }

  // ---------------------------------------------------------------- begin, step, finish

  /**
   * Starts a doubling of {@code f}: the new table of twice the slots, {@code width} bits, empty;
   * entries added from now get {@code bits}.
   */
  static void begin(ExpandableFilter f, int width, int bits) {
    long newSlots = ExpandableMath.slots(f.log + 1, f.mant);
    long[] next = f.spare.take(ExpandableGrowth.wordCount(newSlots, width)); // zeroed ahead
    f.migration = new ExpandableMigration(f.heap, f.slots, f.width, f.log, 0, 0);
    f.words = next;
    f.heap = new Heap(next);
    f.log++;
    f.slots = newSlots;
    f.width = width;
    f.newBits = bits;
  }

  /** {@return the entries the doubling under way adds: one per void entry not yet moved} */
  static long pending(ExpandableFilter f) {
    return f.migration == null ? 0 : f.entriesByKnownBits[f.migration.oldLog];
  }

  /** Ends the doubling under way, if any: moves every entry left. */
  static void finish(ExpandableFilter f) {
    while (f.migration != null) {
      step(f, Long.MAX_VALUE);
    }
  }

  /**
   * One write's share of the doubling under way: {@code units} of work (see the class comment),
   * ending it when the last run is copied. Adds the entries moved to {@link
   * ExpandableFilter#lastMoved}.
   */
  static void step(ExpandableFilter f, long units) {
    ExpandableMigration m = f.migration;
    Heap old = m.old;
    long n = m.oldSlots;
    int w = m.oldWidth;
    while (units > 0) {
      long c = m.cursor;
      if (c >= n) {
        f.migration = null; // the old table is dropped
        return;
      }
      long word = ExpandableSlots.occupieds(old, w, c >>> 6) >>> (c & 63);
      if (word == 0) {
        m.cursor = ((c >>> 6) + 1) << 6; // no run left in this block
        units--;
        continue;
      }
      c += Long.numberOfTrailingZeros(word);
      m.cursor = c;
      long end = ExpandableRank.runEnd(old, n, w, c);
      long start = ExpandableKernel.runStart(old, n, w, c, end);
      long len = dist(start, end, n) + 1;
      while (m.done < len && units > 0) {
        long i = start + m.done;
        move(f, m, c, ExpandableSlots.value(old, w, i >= n ? i - n : i));
        m.done++;
        units--;
      }
      if (m.done == len) {
        m.cursor = c + 1;
        m.done = 0;
      }
    }
  }

  /** Copies the old table's entry {@code v} of run {@code q} into run 2q or 2q + 1 (void: both). */
  private static void move(ExpandableFilter f, ExpandableMigration m, long q, long v) {
    f.lastMoved++;
    int r = length(v);
    if (r == 0) {
      ExpandableWrites.insert(f.heap, f.slots, f.width, 2 * q, 1);
      ExpandableWrites.insert(f.heap, f.slots, f.width, 2 * q + 1, 1);
      f.used++;
      f.entriesByKnownBits[m.oldLog]--;
      f.entriesByKnownBits[f.log] += 2;
      return;
    }
    long bit = v >>> (r - 1) & 1;
    ExpandableWrites.insert(f.heap, f.slots, f.width, 2 * q + bit, shorter(v));
  }

  /** {@return the entry {@code v} ({@code r ≥ 1} bits) without its top fingerprint bit} */
  private static long shorter(long v) {
    int r = length(v);
    return (1L << (r - 1)) | (v & ((1L << (r - 1)) - 1));
  }

  // ---------------------------------------------------------------- writes during a doubling

  /** {@return the first entry of the old run of {@code q} not yet copied: {@code done} at c} */
  private long skip(long q) {
    return q == cursor ? done : 0;
  }

  /**
   * {@return how many entries will be {@code value} in the new table's run {@code nq} once the
   * doubling ends: those there now, and those of the old run {@code nq / 2} not yet copied that
   * become it (an entry one bit longer whose top bit is {@code nq}'s low bit; a void one, from a
   * void entry or a one-bit one)}
   */
  int copies(ExpandableFilter f, long nq, long value) {
    long now = count(f.heap, f.slots, f.width, nq, value, 0);
    long q = nq >>> 1;
    if (q < cursor) {
      return (int) now;
    }
    int r = length(value);
    long bit = nq & 1;
    long before = (1L << (r + 1)) | (bit << r) | (value & ((1L << r) - 1));
    long later = count(old, oldSlots, oldWidth, q, before, skip(q));
    if (r == 0) {
      later += count(old, oldSlots, oldWidth, q, 1, skip(q));
    }
    return (int) Math.min(Integer.MAX_VALUE, now + later);
  }

  /** {@return the entries equal to {@code value} in the run of {@code q}, from its entry from} */
  private static long count(Heap t, long n, int width, long q, long value, long from) {
    if (!ExpandableSlots.occupied(t, width, q)) {
      return 0;
    }
    long end = ExpandableRank.runEnd(t, n, width, q);
    long start = ExpandableKernel.runStart(t, n, width, q, end);
    long c = 0;
    for (long k = from, len = dist(start, end, n) + 1; k < len; k++) {
      long i = start + k;
      if (ExpandableSlots.value(t, width, i >= n ? i - n : i) == value) {
        c++;
      }
    }
    return c;
  }

  /**
   * {@link ExpandableFilter#removeHash} during a doubling: the matching entry that knows the most
   * hash bits among the new table's and the old table's not yet copied; the new table's on a tie. A
   * saturated one stays ({@link ExpandableDuplicates}), counted in both tables.
   */
  static boolean remove(ExpandableFilter f, long hash) {
    ExpandableMigration m = f.migration;
    long q = ExpandableKernel.quotient(hash, m.oldSlots);
    long nq = ExpandableKernel.quotient(hash, f.slots);
    long[] inNew = best(f.heap, f.slots, f.width, nq, hash, 0);
    long[] inOld = q < m.cursor ? null : best(m.old, m.oldSlots, m.oldWidth, q, hash, m.skip(q));
    boolean fromNew = inOld == null || inNew != null && length(inNew[0]) + 1 >= length(inOld[0]);
    long[] chosen = fromNew ? inNew : inOld;
    if (chosen == null) {
      return false;
    }
    long v = chosen[0];
    long asNew = fromNew ? v : length(v) == 0 ? 1 : shorter(v);
    if (m.copies(f, nq, asNew) >= ExpandableDuplicates.MAX_COPIES) {
      f.numKeys = Math.max(0, f.numKeys - 1); // a saturated entry stays
      return true;
    }
    if (fromNew) {
      ExpandableWrites.removeAt(f.heap, f.slots, f.width, nq, chosen[2], chosen[3], chosen[1]);
      f.entriesByKnownBits[f.log + length(v)]--;
    } else {
      ExpandableWrites.removeAt(m.old, m.oldSlots, m.oldWidth, q, chosen[2], chosen[3], chosen[1]);
      f.entriesByKnownBits[m.oldLog + length(v)]--;
    }
    f.used--;
    f.numKeys = Math.max(0, f.numKeys - 1);
    return true;
  }

  /**
   * {@return the matching entry of the run of {@code q} with the longest fingerprint, from the
   * run's entry {@code from} on, as {@code {value, slot, start, end}} (the run's first and last
   * slots); {@code null} when none matches}
   */
  private static long[] best(Heap t, long n, int width, long q, long hash, long from) {
    if (!ExpandableSlots.occupied(t, width, q)) {
      return null;
    }
    long end = ExpandableRank.runEnd(t, n, width, q);
    long start = ExpandableKernel.runStart(t, n, width, q, end);
    long at = ExpandableKernel.position(hash, n);
    long[] best = null;
    for (long k = from, len = dist(start, end, n) + 1; k < len; k++) {
      long i = start + k >= n ? start + k - n : start + k;
      long v = ExpandableSlots.value(t, width, i);
      if (ExpandableKernel.matches(v, at) && (best == null || length(v) > length(best[0]))) {
        best = new long[] {v, i, start, end};
      }
    }
    return best;
  }
}
