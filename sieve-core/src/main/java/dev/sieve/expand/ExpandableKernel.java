package dev.sieve.expand;

import static dev.sieve.expand.ExpandableRank.blockOffset;
import static dev.sieve.expand.ExpandableRank.runEnd;
import static dev.sieve.expand.ExpandableRank.selectRunend;

import dev.sieve.expand.ExpandableSlots.Words;
import dev.sieve.internal.base.BatchScratch;

/**
 * The table of an {@link ExpandableFilter}: a quotient filter (Bender et al., "Don't Thrash: How to
 * Cache Your Hash on Flash", PVLDB 5(11), 2012) whose entries carry fingerprints of different
 * lengths (InfiniFilter, Dayan et al., SIGMOD 2023) in {@code n} slots: the layout, the entries and
 * the lookups here; rank and select over the metadata in {@link ExpandableRank}; insert, delete and
 * the whole-table passes in {@link ExpandableWrites} (all static, over the blocks of slots of
 * {@link ExpandableSlots}).
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
 * next {@code r} as fingerprint.
 *
 * <h2>The layout: blocks of 64 slots (RSQF)</h2>
 *
 * The metadata are those of the rank-and-select quotient filter (P. Pandey, M. A. Bender, R.
 * Johnson, R. Patro, "A General-Purpose Counting Filter: Making Every Bit Count", SIGMOD 2017), per
 * block of 64 slots ({@link ExpandableSlots}): an <em>occupieds</em> word (bit {@code j}: slot
 * {@code j} is the canonical slot of a run), a <em>runends</em> word (bit {@code j}: slot {@code j}
 * holds the last entry of a run), a 16-bit <em>offset</em> (how many slots from the block's first
 * one hold entries of quotients before it), and the 64 values:
 *
 * <pre>
 *   value (width − 2 bits): 0 = empty slot; otherwise 1 marker bit then the r-bit fingerprint,
 *                           value = (1 &lt;&lt; r) | fingerprint, so r = 63 − numberOfLeadingZeros(value)
 * </pre>
 *
 * The unary marker (InfiniFilter's) lets one table hold fingerprints of every length up to {@code
 * width − 3}; value {@code 1} ({@code r = 0}) is a <em>void</em> entry, whose fingerprint has run
 * out: it matches every key of its run. Runs lie in quotient order (cyclically: a run may wrap past
 * the last slot to slot 0), each at its canonical slot or right after the run before it.
 *
 * <p>Bits per slot: {@code width = r + 3} (occupied, run end, marker) plus {@code 16 / 64 = 0.25}
 * for the offset, so {@code width + 0.25} bits a slot and {@code (width + 0.25) / load} bits per
 * key ({@link ExpandableMath#bitsPerKey}): 0.25 bits a slot more than the walk-based layout of
 * payload versions 1 and 2 (occupied and continuation bits, no offset).
 *
 * <h2>Operations</h2>
 *
 * <ul>
 *   <li>Query, O(1) expected: block {@code b = q / 64}; if {@code q}'s occupied bit is clear, no;
 *       else the words of {@code q}'s own value are read at once (their address is the hash's, so
 *       that miss overlaps the metadata's), {@code k} = the occupied bits of the block up to {@code
 *       q} ({@code Long.bitCount}), and {@code q}'s run ends at the {@code k}-th run end from slot
 *       {@code 64b + offset} (select in the runends words) and starts after the last run end in
 *       {@code [q, end)}, or at {@code q}. The run is read forward as a bit stream, one word load
 *       per 64 bits, each entry matched by one shift of the key's longest fingerprint ({@link
 *       #probeKey}); a void entry matches. The block's metadata and values are adjacent: a query
 *       reads one or two cache lines unless its cluster is long. The batch form ({@link
 *       #probeChunk}) reads the metadata and home words of 64 keys first, then finishes each.
 *   <li>Saturation: an offset of 65,535 or more is stored as 65,535 and computed when read from the
 *       nearest earlier block whose offset is not saturated ({@link ExpandableRank#offsetAt}: the
 *       occupied bits between the two blocks, then a select): the slow path, in clusters of more
 *       than 65,535 slots only. A table of one block (64 slots or fewer) anchors its runs after an
 *       empty slot instead: there a run wrapping round the end spills into the block from its own
 *       quotients.
 *   <li>Insert: after the last entry of {@code q}'s run (or where the run would start), shifting
 *       the rest of the cluster one slot right into the first empty slot (values with their run-end
 *       bits); the occupied bits do not move. Every block start in {@code (q, empty]} gains one in
 *       its offset (the slots from it to the insert hold entries of earlier quotients).
 *   <li>Delete: of the matching entry with the <em>longest</em> fingerprint in {@code q}'s run (a
 *       shorter matching entry matches every key the longer one matches, so no other key loses its
 *       last match), shifting the following entries of the cluster one slot left until an empty
 *       slot or a run that starts in its canonical slot; every block start in {@code (q, last slot
 *       emptied]} loses one (a saturated one is computed again).
 *   <li>Rebuild: one pass over the runs in quotient order, writing each entry into a table of the
 *       same or twice the size (then entries whose top fingerprint bit is 0 go to run {@code 2q},
 *       those with 1 to {@code 2q + 1}, and a void entry to both: a void entry does not know its
 *       next quotient bit, so it is duplicated and each copy stays void). The pass appends, so the
 *       new table is laid out without any search; the offsets are computed in one pass after it.
 * </ul>
 *
 * Reads go through {@link ExpandableSlots.Words} (the heap array or a buffer read in place), so one
 * kernel serves both; writes are on the heap array.
 *
 * <p>Every operation needs an empty slot somewhere: the filter doubles before the table fills.
 */
final class ExpandableKernel {
  private ExpandableKernel() {}

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

  static long next(long i, long n) {
    return i + 1 == n ? 0 : i + 1;
  }

  static long prev(long i, long n) {
    return i == 0 ? n - 1 : i - 1;
  }

  /** {@return the cyclic distance from slot {@code a} forward to slot {@code b}} */
  static long dist(long a, long b, long n) {
    return b >= a ? b - a : b - a + n;
  }

  /** {@return the value stored in slot {@code i}} */
  static long valueAt(Words t, int width, long i) {
    return ExpandableSlots.value(t, width, i);
  }

  // ---------------------------------------------------------------- operations

  /**
   * {@return whether some entry of {@code hash}'s run matches it} The lookup, in the order its
   * reads are issued:
   *
   * <ol>
   *   <li>the occupieds word of {@code q}'s block; bit clear: no, having read the block's first
   *       words only (one cache line, two where the word straddles one);
   *   <li>the words holding the value of slot {@code q} ({@link #homeWord}): their address comes
   *       from the hash alone, not from the metadata, so the core issues the load as soon as the
   *       occupied test is predicted, while the offset and the run-end select (the rest of the
   *       block's metadata, mostly in the line already read) are worked out; the run is at or just
   *       after {@code q} in most lookups, so its values are then in those words;
   *   <li>the run's end (offset, rank, select) and its start (the last run end in {@code [q, end)},
   *       or {@code q}), then the run is scanned forward with whole-word reads, several values per
   *       64-bit load ({@link #scanRun}), the first words from step 2's load.
   * </ol>
   *
   * The answers are those of the walk of the block layout's first kernel (read backwards from the
   * run end, one straddling read per value), kept as the test oracle ({@code ExpandableProbeOracle}
   * in the tests).
   */
  static boolean mayContain(Words t, long n, int width, long hash) {
    long q = quotient(hash, n);
    long b = q >>> 6;
    long base = ExpandableSlots.base(b, width);
    long occupieds = ExpandableSlots.bits(t, base + ExpandableSlots.OCCUPIEDS_AT, 64);
    if ((occupieds >>> (q & 63) & 1) == 0) {
      return false;
    }
    int home = homeWord(base, q, width);
    long h0 = t.word(home);
    long h1 = home < lastWord(n, width) ? t.word(home + 1) : 0;
    return finish(t, n, width, hash, q, occupieds, home, h0, h1);
  }

  /**
   * {@return the index of the word holding the first bit of slot {@code q}'s value, in the block
   * whose first bit is {@code base}}
   */
  static int homeWord(long base, long q, int width) {
    return (int) ((base + ExpandableSlots.VALUES_AT + (q & 63) * (width - 2)) >>> 6);
  }

  /** {@return the index of the table's last word} */
  static int lastWord(long n, int width) {
    return (int) (ExpandableSlots.wordsFor(n, width) - 1);
  }

  /**
   * The lookup of an occupied quotient {@code q} ({@code occupieds}: its block's word), given the
   * words {@code home} and {@code home + 1} ({@code h0}, {@code h1}; {@code h1} is 0 past the
   * table's last word) already read: the run's end and start, then the scan.
   */
  private static boolean finish(
      Words t, long n, int width, long hash, long q, long occupieds, int home, long h0, long h1) {
    long end;
    if (n <= 64) {
      end = runEnd(t, n, width, q);
    } else {
      long b = q >>> 6;
      long from = (b << 6) + blockOffset(t, n, width, b);
      if (from >= n) {
        from %= n;
      }
      end = selectRunend(t, n, width, from, Long.bitCount(occupieds & (-1L >>> (63 - (q & 63)))));
    }
    long start = runStart(t, n, width, q, end);
    return scanRun(
        t, n, width, start, dist(start, end, n) + 1, probeKey(hash, n, width), home, h0, h1);
  }

  /**
   * {@return the slot where the run of the occupied quotient {@code q}, which ends at {@code end},
   * starts: the slot after the last run end in {@code [q, end)}, or {@code q} if there is none} The
   * slots of {@code [q, end)} hold the ends of earlier quotients' runs (shifted there) and the
   * start of {@code q}'s run: no later run ends before {@code end}. Read a runends word at a time,
   * backwards from {@code end}.
   */
  static long runStart(Words t, long n, int width, long q, long end) {
    long d = dist(q, end, n); // slots of [q, end) left to look at, from end − 1 down
    long top = end == 0 ? n : end; // exclusive, in (0, n]
    while (d > 0) {
      long b = (top - 1) >>> 6;
      int below = (int) (top - (b << 6)); // slots of block b below top: 1..64
      int take = (int) Math.min(d, below);
      long mask = (below == 64 ? -1L : (1L << below) - 1) & (-1L << (below - take));
      long word = ExpandableSlots.runends(t, width, b) & mask;
      if (word != 0) {
        return next((b << 6) + 63 - Long.numberOfLeadingZeros(word), n);
      }
      d -= take;
      top -= take;
      if (top == 0) {
        top = n;
      }
    }
    return q;
  }

  /**
   * {@return the key's probe value: its position's longest fingerprint the slot holds, {@code width
   * − 3} bits, under its marker} An entry {@code v} with an {@code r}-bit fingerprint matches the
   * key iff {@code v} equals this shifted right by {@code width − 3 − r}, that is by {@code
   * numberOfLeadingZeros(v) − (66 − width)}: one count, one shift and one compare per entry, with
   * no branch on {@code r} (a void entry, {@code v = 1}, matches: the shift leaves the marker
   * alone).
   */
  static long probeKey(long hash, long n, int width) {
    int l = width - 3;
    return l == 0 ? 1 : (1L << l) | (position(hash, n) >>> (64 - l));
  }

  /**
   * {@return whether one of the {@code count} entries from slot {@code start} on (cyclically)
   * matches {@code key}} The values are read as a bit stream, one 64-bit word load per 64 bits
   * (several values per load; a value across two words takes the low part from the word before),
   * seeking again at each block's first slot (past the block's metadata); the words {@code home}
   * and {@code home + 1} are taken from {@code h0} and {@code h1}, read before.
   */
  static boolean scanRun(
      Words t, long n, int width, long start, long count, long key, int home, long h0, long h1) {
    int vw = width - 2;
    long mask = (1L << vw) - 1;
    int c = 66 - width;
    long s = start;
    while (true) {
      long bit = ExpandableSlots.base(s >>> 6, width) + ExpandableSlots.VALUES_AT + (s & 63) * vw;
      int w = (int) (bit >>> 6);
      int sh = (int) (bit & 63);
      long cur = (w == home ? h0 : w == home + 1 ? h1 : t.word(w)) >>> sh;
      int avail = 64 - sh;
      long inBlock = Math.min(count, Math.min(64 - (s & 63), n - s));
      for (long k = inBlock; k > 0; k--) {
        long v;
        if (avail >= vw) {
          v = cur & mask;
          cur >>>= vw;
          avail -= vw;
        } else {
          w++;
          long nx = w == home ? h0 : w == home + 1 ? h1 : t.word(w);
          v = (cur | nx << avail) & mask;
          cur = nx >>> (vw - avail);
          avail += 64 - vw;
        }
        if (key >>> (Long.numberOfLeadingZeros(v) - c) == v) {
          return true;
        }
      }
      count -= inBlock;
      if (count == 0) {
        return false;
      }
      s += inBlock;
      if (s == n) {
        s = 0;
      }
    }
  }

  /**
   * The batch lookup of {@code hashes[at, at + chunk)} ({@code chunk ≤ 64}): bit {@code i} of the
   * result is {@link #mayContain(Words, long, int, long)} of {@code hashes[at + i]}. Pass 1 reads,
   * for every key, its block's occupieds word and the word of its home slot's value (independent
   * loads: the misses of the whole chunk are in flight together); pass 2 tests the occupied bits
   * and finishes the occupied keys on lines already read (their metadata and home words).
   */
  static long probeChunk(Words t, long n, int width, long[] hashes, int at, int chunk) {
    BatchScratch scratch = BatchScratch.get();
    long[] occupieds = scratch.loaded;
    long[] homes = scratch.state;
    int[] homeWords = scratch.positions;
    int vw = width - 2;
    // pass 1: the metadata word and the home value word of every key
    for (int i = 0; i < chunk; i++) {
      long q = quotient(hashes[at + i], n);
      long base = ExpandableSlots.base(q >>> 6, width);
      occupieds[i] = ExpandableSlots.bits(t, base + ExpandableSlots.OCCUPIEDS_AT, 64);
      int home = (int) ((base + ExpandableSlots.VALUES_AT + (q & 63) * vw) >>> 6);
      homeWords[i] = home;
      homes[i] = t.word(home);
    }
    // pass 2: the occupied test; the run of each occupied key
    int last = lastWord(n, width);
    long word = 0;
    for (int i = 0; i < chunk; i++) {
      long h = hashes[at + i];
      long q = quotient(h, n);
      if ((occupieds[i] >>> (q & 63) & 1) != 0) {
        int home = homeWords[i];
        long h1 = home < last ? t.word(home + 1) : 0;
        if (finish(t, n, width, h, q, occupieds[i], home, homes[i], h1)) {
          word |= 1L << i;
        }
      }
    }
    return word;
  }

  /** {@link #mayContain(Words, long, int, long)} on a heap table. */
  static boolean mayContain(long[] t, long n, int width, long hash) {
    return mayContain(new ExpandableSlots.Heap(t), n, width, hash);
  }
}
