package dev.sieve.expand;

import dev.sieve.expand.ExpandableSlots.Words;
import dev.sieve.internal.BatchScratch;

/**
 * The table of an {@link ExpandableFilter}: a quotient filter (Bender et al., "Don't Thrash: How to
 * Cache Your Hash on Flash", PVLDB 5(11), 2012) whose entries carry fingerprints of different
 * lengths (InfiniFilter, Dayan et al., SIGMOD 2023) in {@code n} slots, with static probe, insert,
 * delete and rebuild loops over the blocks of slots ({@link ExpandableSlots}).
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
 *       nearest earlier block whose offset is not saturated ({@link #offsetAt}: the occupied bits
 *       between the two blocks, then a select): the slow path, in clusters of more than 65,535
 *       slots only. A table of one block (64 slots or fewer) anchors its runs after an empty slot
 *       instead: there a run wrapping round the end spills into the block from its own quotients.
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

  /** {@return the distance forward from {@code a} to the next block start {@code s}: n if equal} */
  private static long step(long a, long s, long n) {
    return s > a ? s - a : s - a + n;
  }

  /** {@return the first slot of the block after the one of slot {@code s} (0 after the last)} */
  private static long nextBlockStart(long s, long n) {
    long t = ((s >>> 6) + 1) << 6;
    return t >= n ? 0 : t;
  }

  /** {@return the value stored in slot {@code i}} */
  static long valueAt(Words t, int width, long i) {
    return ExpandableSlots.value(t, width, i);
  }

  // ---------------------------------------------------------------- rank and select

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
  private static long runStartSlot(Words t, long n, int width, long q) {
    if (n <= 64) {
      return (q + offsetAt(t, n, width, clusterAnchor(t, n, width, q), 0, q)) % n;
    }
    long s = q & ~63L;
    return (q + offsetAt(t, n, width, s, blockOffset(t, n, width, q >>> 6), q)) % n;
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
   * numberOfLeadingZeros(v) − (66 − width)} ({@link #matchesKey}): one count, one shift and one
   * compare per entry, with no branch on {@code r} (a void entry, {@code v = 1}, matches: the shift
   * leaves the marker alone).
   */
  static long probeKey(long hash, long n, int width) {
    int l = width - 3;
    return l == 0 ? 1 : (1L << l) | (position(hash, n) >>> (64 - l));
  }

  /**
   * {@return whether the entry {@code v} matches the key whose {@link #probeKey} is {@code key}}
   */
  static boolean matchesKey(long v, long key, int width) {
    return key >>> (Long.numberOfLeadingZeros(v) - (66 - width)) == v;
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
    long[] a = t.a;
    boolean exists = ExpandableSlots.occupied(t, width, q);
    long p;
    if (exists) {
      p = next(runEnd(t, n, width, q), n);
    } else {
      p = runStartSlot(t, n, width, q);
    }
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
    long[] a = t.a;
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
    return bestLength;
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
