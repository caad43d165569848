package dev.sieve.expand;

import dev.sieve.KeyScheme;
import dev.sieve.internal.Schemes;
import java.util.Arrays;

/**
 * The writes and the state of an {@link ExpandableFilter} behind its public methods: add, remove,
 * union and compact under the write lock, the copies under the read lock, the empty filters, and
 * equality. Static passes over the filter's package-private state; the reasons are in the filter's
 * class comment, the loops in {@link ExpandableKernel} and {@link ExpandableWrites}, the resizes in
 * {@link ExpandableGrowth}.
 */
final class ExpandableOps {
  private ExpandableOps() {}

  /**
   * {@return an empty filter of the shape {@code (startLog, mant)} ({@link ExpandableMath#slots})}
   * {@code sized}: built for a key count (the table holds it at load {@value
   * ExpandableMath#MAX_LOAD}), so the first generation's fingerprints are {@link
   * ExpandableMath#sizedBits}; else the budget policy's for growth from an empty table.
   */
  static ExpandableFilter empty(double fpRate, int startLog, int mant, boolean sized) {
    int bits =
        sized
            ? ExpandableMath.sizedBits(fpRate)
            : ExpandableMath.budgetBits(fpRate, 0, 0, startLog, 1);
    int width = bits + ExpandableMath.SLOT_OVERHEAD_BITS;
    long[] words =
        new long[ExpandableGrowth.wordCount(ExpandableMath.slots(startLog, mant), width)];
    ExpandableFilter f = new ExpandableFilter(KeyScheme.XXPH3, fpRate, mant, null, false);
    return of(f, startLog, startLog, width, bits, words, 0, 0, new long[65]);
  }

  /** {@return {@code f} (fresh from its constructor) with this table and these counts} */
  static ExpandableFilter of(
      ExpandableFilter f,
      int startLog,
      int log,
      int width,
      int newBits,
      long[] words,
      long used,
      long numKeys,
      long[] entriesByKnownBits) {
    f.startLog = startLog;
    f.log = log;
    f.slots = ExpandableMath.slots(log, f.mant);
    f.width = width;
    f.newBits = newBits;
    f.words = words;
    f.heap = words == null ? null : new ExpandableSlots.Heap(words);
    f.used = used;
    f.numKeys = numKeys;
    f.entriesByKnownBits = entriesByKnownBits;
    return f;
  }

  /**
   * {@return a copy of {@code o} under {@code keyScheme}: on the heap, or sharing a wrapped buffer,
   * or (a {@link ExpandableFilter#heldView}) sharing {@code o}'s heap array} The caller holds
   * {@code o}'s read lock (or {@code o} is wrapped).
   */
  static ExpandableFilter copyOf(
      ExpandableFilter o, KeyScheme keyScheme, boolean shareWrapped, boolean heldView) {
    ExpandableFilter f =
        new ExpandableFilter(
            keyScheme, o.fpRate, o.mant, shareWrapped ? o.wrapped : null, heldView);
    long[] words = shareWrapped ? null : heldView ? o.words : heapWords(o);
    f.migration = o.migration == null ? null : o.migration.copy(); // none in a held view
    return of(
        f,
        o.startLog,
        o.log,
        o.width,
        o.newBits,
        words,
        o.used,
        o.numKeys,
        o.entriesByKnownBits.clone());
  }

  /** {@link ExpandableFilter#copy()}: under {@code f}'s read lock. */
  static ExpandableFilter copy(ExpandableFilter f) {
    long stamp = f.lock.readLock();
    try {
      return copyOf(f, f.keyScheme(), false, false);
    } finally {
      f.lock.unlockRead(stamp);
    }
  }

  /** {@return the slot words on the heap: a copy (of the array, or of the wrapped buffer)} */
  static long[] heapWords(ExpandableFilter f) {
    return f.words != null ? f.words.clone() : f.wrapped.toArray();
  }

  static void checkMutable(ExpandableFilter f) {
    if (f.heldView) {
      throw new UnsupportedOperationException("a view held for writing the filter is read-only");
    }
    if (f.words == null) {
      throw new UnsupportedOperationException(
          "an expandable filter wrapping a buffer is read-only; copy() gives a mutable one");
    }
  }

  /**
   * {@link ExpandableFilter#addHash}: under the write lock, combined ({@link ExpandableCombiner}).
   */
  static void add(ExpandableFilter f, long hash64) {
    checkMutable(f);
    ExpandableCombiner.add(f, hash64);
  }

  /** One add and its share of a doubling under way; the caller holds the write lock. */
  static void addAndStep(ExpandableFilter f, long hash64) {
    f.lastMoved = 0;
    addLocked(f, hash64);
    if (f.migration != null) {
      ExpandableMigration.step(f, ExpandableMigration.STEP);
    } else {
      f.spare.prepare(f);
    }
  }

  private static void addLocked(ExpandableFilter f, long hash64) {
    if (f.migration == null && f.used < ExpandableMath.maxEntries(f.slots)) {
      // the common add: no doubling under way or due, so the run found for the bound on equal
      // entries is where the entry goes, and the run is located once
      long q = ExpandableKernel.quotient(hash64, f.slots);
      long value = ExpandableKernel.entryValue(hash64, f.slots, f.newBits);
      long end =
          ExpandableSlots.occupied(f.heap, f.width, q)
              ? ExpandableRank.runEnd(f.heap, f.slots, f.width, q)
              : -1;
      if (end >= 0 && ExpandableDuplicates.saturatedFrom(f.heap, f.slots, f.width, q, end, value)) {
        f.numKeys++; // the key is present already: counted, not stored
        return;
      }
      ExpandableWrites.insertAfter(f.heap, f.slots, f.width, q, value, end);
      f.used++;
      f.numKeys++;
      f.entriesByKnownBits[f.log + f.newBits]++;
      return;
    }
    if (ExpandableDuplicates.absorbs(f, hash64)) { // before a growth this add does not need
      f.numKeys++; // the key is present already: counted, not stored
      return;
    }
    ExpandableGrowth.ensureRoom(f, 1);
    ExpandableWrites.insert(
        f.heap,
        f.slots,
        f.width,
        ExpandableKernel.quotient(hash64, f.slots),
        ExpandableKernel.entryValue(hash64, f.slots, f.newBits));
    f.used++;
    f.numKeys++;
    f.entriesByKnownBits[f.log + f.newBits]++;
  }

  /** {@link ExpandableFilter#removeHash}: under the write lock. */
  static boolean remove(ExpandableFilter f, long hash64) {
    checkMutable(f);
    long stamp = f.lock.writeLock();
    try {
      f.lastMoved = 0;
      if (f.migration != null) {
        boolean removed = ExpandableMigration.remove(f, hash64);
        ExpandableMigration.step(f, ExpandableMigration.STEP);
        return removed;
      }
      if (ExpandableDuplicates.removeKeeps(f.heap, f.slots, f.width, hash64)) {
        f.numKeys = Math.max(0, f.numKeys - 1); // a saturated entry stays (ExpandableDuplicates)
        return true;
      }
      int r = ExpandableWrites.remove(f.heap, f.slots, f.width, hash64);
      if (r < 0) {
        return false;
      }
      f.used--;
      f.numKeys = Math.max(0, f.numKeys - 1);
      f.entriesByKnownBits[f.log + r]--;
      return true;
    } finally {
      f.lock.unlockWrite(stamp);
    }
  }

  /** {@link ExpandableFilter#union}: {@code other} copied under its read lock, then ours. */
  static void union(ExpandableFilter f, ExpandableFilter other) {
    Schemes.checkSame(f, other);
    checkMutable(f);
    ExpandableFilter source = other.copy(); // other's read lock, then ours (other may be f)
    long stamp = f.lock.writeLock();
    try {
      ExpandableMigration.finish(f); // a union passes over every entry anyway
      ExpandableMigration.finish(source);
      ExpandableGrowth.union(f, source);
    } finally {
      f.lock.unlockWrite(stamp);
    }
  }

  /** {@link ExpandableFilter#compact()}: under the write lock. */
  static int compact(ExpandableFilter f) {
    checkMutable(f);
    long stamp = f.lock.writeLock();
    try {
      ExpandableMigration.finish(f);
      f.spare.drop(); // sized for the next doubling of this table, not of a halved one
      int halvings = 0;
      while (ExpandableGrowth.canHalve(f)) {
        ExpandableGrowth.halve(f);
        halvings++;
      }
      return halvings;
    } finally {
      f.lock.unlockWrite(stamp);
    }
  }

  /** {@link ExpandableFilter#shrinkToFit()}: under the write lock. */
  static boolean shrinkToFit(ExpandableFilter f) {
    checkMutable(f);
    long stamp = f.lock.writeLock();
    try {
      ExpandableMigration.finish(f);
      f.spare.drop();
      while (ExpandableGrowth.canHalve(f)) {
        ExpandableGrowth.halve(f);
      }
      return ExpandableCover.shrinkToFit(f);
    } finally {
      f.lock.unlockWrite(stamp);
    }
  }

  /** {@link ExpandableFilter#equals}: the same parameters, counts and slots. */
  static boolean sameState(ExpandableFilter a, ExpandableFilter b) {
    return b.keyScheme() == a.keyScheme()
        && b.fpRate == a.fpRate
        && b.startLog == a.startLog
        && b.mant == a.mant
        && b.log == a.log
        && b.width == a.width
        && b.newBits == a.newBits
        && b.used == a.used
        && b.numKeys == a.numKeys
        && (b.migration == null
            ? a.migration == null
            : a.migration != null && b.migration.same(a.migration))
        && Arrays.equals(
            b.words != null ? b.words : heapWords(b), a.words != null ? a.words : heapWords(a));
  }

  static int hash(ExpandableFilter f) {
    return Arrays.hashCode(f.words != null ? f.words : heapWords(f)) * 31 + f.log;
  }

  static String describe(ExpandableFilter f) {
    return String.format(
        "ExpandableFilter{fpRate=%s, slots=%d, doublings=%d, slotBits=%d, keys=%d, entries=%d}",
        f.fpRate, f.slots, f.doublings(), f.width, f.numKeys, f.used);
  }
}
