package dev.sieve.expand;

import dev.sieve.KeyScheme;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Entries carried into a table whose slot count is not a power-of-two multiple of their own: by the
 * cells of the new table that cover them. Used by {@link ExpandableFilter#union} of two filters of
 * different shapes and by {@link ExpandableFilter#shrinkToFit()}.
 *
 * <h2>Covering cells</h2>
 *
 * An entry of {@code r} fingerprint bits in run {@code q} of a table of {@code m} slots stands for
 * the keys whose position {@code h / 2^64} lies in {@code [(q + fp/2^r) / m, (q + (fp+1)/2^r) /
 * m)}. In a table of {@code n} slots a cell of {@code c} fingerprint bits is an interval {@code 1 /
 * (n · 2^c)} wide, aligned to that width. The entry is replaced by the cells that meet its
 * interval: every key it matched lies in one of them, so no key becomes absent. With {@code c} the
 * largest whose cells are at least as wide as the interval that is one cell, or two where the
 * interval crosses a cell boundary (void cells where {@code c} is 0: every slot the interval
 * meets), at most four times the entry's share of the rate; cells {@code k} bits narrower take up
 * to {@code 2^k + 1} entries and at most {@code 1 + 2^(1−k)} times the share.
 *
 * <h2>Shrinking to fit</h2>
 *
 * A filter that grew and then lost keys keeps its growth's long fingerprints and wide slots, even
 * once {@link ExpandableFilter#compact()} has halved its table. {@link #shrinkToFit} rebuilds it
 * smaller: either its own shape with every fingerprint cut to {@code r*} bits (a prefix of its hash
 * bits, so every key it matched still matches; shorter ones unchanged), or the shape a filter built
 * for the entries has ({@link ExpandableGrowth#shapeFor}: load at most {@value
 * ExpandableMath#MAX_LOAD}) through cells at most {@code r*} bits long, two or three bits finer
 * than the entries they cover (the oldest entries know the fewest bits and are the fewest: finer
 * cells keep their share of the rate near what it was). {@code r*} is the sized length {@link
 * ExpandableMath#sizedBits}, or longer where that does not fit the rate; the smallest candidate
 * that fits is kept. It fits when its modelled rate, with the entries that can still be added
 * before its next doubling at {@code r*} bits each, is at most {@code f / (1 + }{@value
 * ExpandableMath#SIZED_RESERVE}{@code )}: the state of a filter built for its keys, so the
 * induction of {@link ExpandableMath} holds from there as from a sized start.
 */
final class ExpandableCover {
  private ExpandableCover() {}

  /**
   * How many bits finer than an entry's interval the cells of a re-fit to another shape may be:
   * each is a candidate (more cells for the oldest entries, less of the rate; which is smaller
   * depends on how much of the rate they hold).
   */
  static final int[] FINER = {2, 3};

  /**
   * {@return the cells of a table of {@code slots} slots covering the entry {@code value} of run
   * {@code q} of a table of {@code fromSlots} slots, as {@code {c, first, last}}: cells of {@code
   * c} fingerprint bits, {@code c} the largest whose cells are at least as wide as the entry's
   * interval, plus {@code finer}, at most {@code maxBits}; {@code first} and {@code last} counted
   * in that width from the table's start}
   */
  static long[] cells(long slots, int maxBits, int finer, long fromSlots, long q, long value) {
    int r = ExpandableKernel.length(value);
    if (r > 20 || q >= 1L << 40) {
      return cellsExact(slots, maxBits, finer, fromSlots, q, value);
    }
    long start = (q << r) | (value & ((1L << r) - 1)); // the interval [start, start + 1) / den
    if (slots == fromSlots) { // the same table: the cell is the entry's own prefix
      int c = Math.min(r, maxBits);
      return new long[] {c, start >>> (r - c), start >>> (r - c)};
    }
    // slots = A · 2^a and fromSlots = B · 2^b, A and B odd below 512 (every shape's slot count)
    int a = Long.numberOfTrailingZeros(slots);
    int b = Long.numberOfTrailingZeros(fromSlots);
    long bigA = slots >>> a;
    long bigB = fromSlots >>> b;
    if (bigA >= 512 || bigB >= 512) {
      return cellsExact(slots, maxBits, finer, fromSlots, q, value);
    }
    // c: the largest with A · 2^(a+c) <= B · 2^(b+r) (cells at least as wide as the interval):
    // from the leading bits, or one less
    int d = b + r - a;
    int c = d + (63 - Long.numberOfLeadingZeros(bigB)) - (63 - Long.numberOfLeadingZeros(bigA));
    if (!atMost(bigA, c, bigB, d)) {
      c--;
    }
    c = Math.max(0, Math.min(Math.max(0, c) + finer, maxBits));
    // the cells of width 1 / (A · 2^(a+c)) that meet it: start · A · 2^e / B, e = a + c − b − r
    int e = a + c - b - r;
    long lo = start * bigA; // start < 2^60 and A < 2^9: no overflow past the checks below
    long hi = lo + bigA;
    if (start >= 1L << 52 || e > Long.numberOfLeadingZeros(hi) - 2 || e < -50) {
      return cellsExact(slots, maxBits, finer, fromSlots, q, value);
    }
    if (e >= 0) {
      return new long[] {c, (lo << e) / bigB, ((hi << e) - 1) / bigB};
    }
    long div = bigB << -e;
    return new long[] {c, lo / div, (hi - 1) / div};
  }

  /** {@return whether {@code A · 2^c <= B · 2^d}, for {@code A, B} in [1, 512)} */
  private static boolean atMost(long bigA, int c, long bigB, int d) {
    return c >= d ? (bigA << Math.min(c - d, 20)) <= bigB : bigA <= (bigB << Math.min(d - c, 20));
  }

  /** {@link #cells} in exact arithmetic of any size: the reference the fast path is held to. */
  static long[] cellsExact(long slots, int maxBits, int finer, long fromSlots, long q, long value) {
    int r = ExpandableKernel.length(value);
    if (slots == fromSlots) {
      int c = Math.min(r, maxBits);
      long cell = ((q << r) | (value & ((1L << r) - 1))) >>> (r - c);
      return new long[] {c, cell, cell};
    }
    BigInteger den = BigInteger.valueOf(fromSlots).shiftLeft(r); // the interval is 1/den wide
    BigInteger start =
        BigInteger.valueOf(q).shiftLeft(r).add(BigInteger.valueOf(value & ((1L << r) - 1)));
    BigInteger n = BigInteger.valueOf(slots);
    // c: the largest with n · 2^c <= den (cells at least as wide as the interval), at least 0
    int c = Math.max(0, den.bitLength() - n.bitLength());
    while (c > 0 && n.shiftLeft(c).compareTo(den) > 0) {
      c--;
    }
    c = Math.max(0, Math.min(c + finer, maxBits));
    BigInteger scale = n.shiftLeft(c);
    long first = start.multiply(scale).divide(den).longValueExact();
    BigInteger[] end = start.add(BigInteger.ONE).multiply(scale).divideAndRemainder(den);
    long last = end[0].longValueExact() - (end[1].signum() == 0 ? 1 : 0);
    return new long[] {c, first, last};
  }

  /** Inserts the {@link #cells} {@code cell} into {@code f} (bounded copies of one value). */
  private static void put(ExpandableFilter f, long[] cell) {
    int c = (int) cell[0];
    for (long k = cell[1]; k <= cell[2]; k++) {
      ExpandableGrowth.insertEntry(f, k >>> c, c == 0 ? 1 : (1L << c) | (k & ((1L << c) - 1)));
    }
  }

  /**
   * Inserts into {@code f} the cells covering an entry of a table of {@code fromSlots} slots (a
   * union's other side of another shape), doubling {@code f} first where they do not fit.
   */
  static void insertCovering(ExpandableFilter f, long q, long value, long fromSlots) {
    while (true) {
      int cap = Math.min(f.width - ExpandableMath.SLOT_OVERHEAD_BITS, 64 - f.log);
      long[] cell = cells(f.slots, cap, 0, fromSlots, q, value);
      if (f.used + (cell[2] - cell[1] + 1) > ExpandableMath.maxEntries(f.slots)) {
        ExpandableGrowth.expand(f); // then the cells are computed again for the doubled table
        continue;
      }
      put(f, cell);
      return;
    }
  }

  /**
   * Re-fits {@code f}'s entries into a smaller table (the class comment), the caller holding the
   * write lock with no doubling under way: the candidates smallest first, the first that fits.
   *
   * @return whether the table was replaced
   */
  static boolean shrinkToFit(ExpandableFilter f) {
    double limit = f.fpRate / (1 + ExpandableMath.SIZED_RESERVE);
    if (f.used == 0 || f.modelledFpRate() > limit) {
      return false; // nothing to fit, or past the rate already (a union): nothing to spend
    }
    long present = ExpandableSlots.tableBits(f.slots, f.width);
    int sizedShape = ExpandableGrowth.shapeFor(f.used);
    long sizedSlots = ExpandableMath.slots(sizedShape >>> 8, sizedShape & 0xFF);
    List<long[]> candidates = new ArrayList<>(); // {table bits, fingerprint bits, shape, finer}
    for (int bits = ExpandableMath.sizedBits(f.fpRate);
        bits + ExpandableMath.SLOT_OVERHEAD_BITS <= f.width;
        bits++) {
      int width = bits + ExpandableMath.SLOT_OVERHEAD_BITS;
      candidates.add(new long[] {ExpandableSlots.tableBits(f.slots, width), bits, -1, 0});
      for (int finer : sizedSlots < f.slots ? FINER : new int[0]) {
        // the shape for the cells, which outnumber the entries (finer cells, boundaries crossed)
        // and whose number moves a little with the shape: counted again until they fit
        int shape = sizedShape;
        long slots = sizedSlots;
        for (int tries = 0; tries < 3; tries++) {
          long cells = countCells(f, slots, bits, finer);
          if (cells <= ExpandableMath.maxEntries(slots)) {
            break;
          }
          shape = ExpandableGrowth.shapeFor(cells + cells / 64);
          slots = ExpandableMath.slots(shape >>> 8, shape & 0xFF);
        }
        if (slots < f.slots) {
          candidates.add(new long[] {ExpandableSlots.tableBits(slots, width), bits, shape, finer});
        }
      }
    }
    candidates.sort(Comparator.comparingLong((long[] c) -> c[0]));
    for (long[] c : candidates) {
      if (c[0] >= present) {
        return false;
      }
      boolean own = c[2] < 0;
      int shape = own ? f.log << 8 | f.mant : (int) c[2];
      ExpandableFilter g = fitted(f, shape, (int) c[1], (int) c[3], limit, c[0]);
      if (g != null) {
        f.words = g.words;
        f.heap = g.heap;
        f.mant = g.mant;
        f.log = g.log;
        f.slots = g.slots;
        f.width = g.width;
        f.newBits = g.newBits;
        f.used = g.used;
        f.entriesByKnownBits = g.entriesByKnownBits;
        // a shape of 9 significant bits starts where it is, as a sized filter's does
        f.startLog = g.mant != 0 ? g.log : Math.min(f.startLog, g.log);
        return true;
      }
    }
    return false;
  }

  /**
   * {@return {@code f}'s entries covered in a table of {@code shape} (or, where the cells do not
   * fit it, of the shape sized for them) with fingerprints of at most {@code bits} bits, or {@code
   * null} where that table takes more than {@code planned} bits or its rate at full load would pass
   * {@code limit}}
   */
  private static ExpandableFilter fitted(
      ExpandableFilter f, int shape, int bits, int finer, double limit, long planned) {
    for (int tries = 0; ; tries++) {
      long cells = countCells(f, ExpandableMath.slots(shape >>> 8, shape & 0xFF), bits, finer);
      if (cells <= ExpandableMath.maxEntries(ExpandableMath.slots(shape >>> 8, shape & 0xFF))) {
        break;
      }
      if (tries == 2) {
        return null;
      }
      shape = ExpandableGrowth.shapeFor(cells); // entries that became several cells
    }
    int log = shape >>> 8;
    int mant = shape & 0xFF;
    long slots = ExpandableMath.slots(log, mant);
    int width = bits + ExpandableMath.SLOT_OVERHEAD_BITS;
    if (ExpandableSlots.tableBits(slots, width) > planned) {
      return null;
    }
    ExpandableFilter g =
        ExpandableOps.of(
            new ExpandableFilter(KeyScheme.XXPH3, f.fpRate, mant, null, false),
            log,
            log,
            width,
            bits,
            new long[ExpandableGrowth.wordCount(slots, width)],
            0,
            0,
            new long[f.entriesByKnownBits.length]);
    forEachCell(f, slots, Math.min(bits, 64 - log), finer, cell -> put(g, cell));
    // what the entries added before the next doubling can add, at bits each (as a sized start)
    long room = ExpandableMath.maxEntries(slots) - g.used;
    double atFull = g.modelledFpRate() + Math.scalb((double) room, -bits) / slots;
    return atFull <= limit ? g : null;
  }

  /** {@return how many cells cover {@code f}'s entries in a table of {@code slots} slots} */
  private static long countCells(ExpandableFilter f, long slots, int bits, int finer) {
    int log = 63 - Long.numberOfLeadingZeros(slots);
    long[] count = {0};
    forEachCell(
        f, slots, Math.min(bits, 64 - log), finer, cell -> count[0] += cell[2] - cell[1] + 1);
    return count[0];
  }

  /** Gives the {@link #cells} of every entry of {@code f} in a table of {@code slots} slots. */
  private static void forEachCell(
      ExpandableFilter f, long slots, int cap, int finer, java.util.function.Consumer<long[]> to) {
    ExpandableSlots.Heap src = f.heap;
    long fromSlots = f.slots;
    int fromWidth = f.width;
    ExpandableWrites.forEachRun(
        src,
        fromSlots,
        fromWidth,
        (q, first, length) -> {
          for (int k = 0; k < length; k++) {
            long v = ExpandableKernel.valueAt(src, fromWidth, (first + k) % fromSlots);
            to.accept(cells(slots, cap, finer, fromSlots, q, v));
          }
        });
  }
}
