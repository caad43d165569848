package dev.sieve.expand;

/**
 * The bound on equal entries in one run. Equal keys (and keys whose hashes agree on the quotient
 * and the fingerprint) give equal entries in one run; stored without limit they would make the run
 * as long as the number of adds, and every insert, remove and query of that quotient linear in it
 * (a build of {@code n} equal keys quadratic). So a run keeps at most {@value #MAX_COPIES} copies
 * of one entry value: an add that finds that many stores nothing (the key is present already), and
 * a run holds at most {@code MAX_COPIES} entries per distinct value, {@code MAX_COPIES · 2^(width −
 * 2)} in all, whatever the adds, which bounds every single operation.
 *
 * <p>A value with {@code MAX_COPIES} copies is <i>saturated</i>: it may stand for more adds than it
 * has copies, so a remove whose entry is saturated leaves it in place (and reports the remove
 * done). The key count still counts both (adds minus removes), so it may exceed the entries stored.
 * A key added more than {@code MAX_COPIES} times then answers "maybe" after all its removes (a
 * false positive, until the filter is rebuilt), never "absent" while an add is still standing: no
 * remove can take the last copy that a present key needs. Below the bound a key added twice stays
 * present until removed twice.
 */
final class ExpandableDuplicates {
  private ExpandableDuplicates() {}

  /** The most copies of one entry value one run keeps. */
  static final int MAX_COPIES = 8;

  /**
   * Whether {@code f}'s run for {@code hash} is saturated with the entry an add of it would store,
   * so that the add stores nothing. A saturated value stays saturated through doublings (equal
   * values split alike), so the answer holds for the table the add would grow to.
   */
  static boolean absorbs(ExpandableFilter f, long hash) {
    long q = ExpandableKernel.quotient(hash, f.slots);
    long value = ExpandableKernel.entryValue(hash, f.slots, f.newBits);
    if (f.migration != null) { // the copies in both tables of a doubling under way
      return f.migration.copies(f, q, value) >= MAX_COPIES;
    }
    return saturated(f.heap, f.slots, f.width, q, value);
  }

  /**
   * Whether the run of the occupied quotient {@code q} holds {@value #MAX_COPIES} copies of {@code
   * value}; reads the run from its end back to its start (at most {@code MAX_COPIES} per value).
   */
  static boolean saturated(ExpandableSlots.Heap t, long n, int width, long q, long value) {
    if (!ExpandableSlots.occupied(t, width, q)) {
      return false;
    }
    return saturatedFrom(t, n, width, q, ExpandableRank.runEnd(t, n, width, q), value);
  }

  /** {@link #saturated} with the run's last slot {@code end} known. */
  static boolean saturatedFrom(
      ExpandableSlots.Heap t, long n, int width, long q, long end, long value) {
    int copies = 0;
    for (long i = end; ; i = ExpandableKernel.prev(i, n)) {
      if (ExpandableSlots.value(t, width, i) == value && ++copies >= MAX_COPIES) {
        return true;
      }
      if (i == q || ExpandableSlots.runend(t, width, ExpandableKernel.prev(i, n))) {
        return false;
      }
    }
  }

  /**
   * Whether a remove of {@code hash} must leave its entry: the entry the kernel's remove would
   * delete (the matching entry of the run with the longest fingerprint) is saturated.
   */
  static boolean removeKeeps(ExpandableSlots.Heap t, long n, int width, long hash) {
    long q = ExpandableKernel.quotient(hash, n);
    if (!ExpandableSlots.occupied(t, width, q)) {
      return false;
    }
    long end = ExpandableRank.runEnd(t, n, width, q);
    long at = ExpandableKernel.position(hash, n);
    long best = 0;
    int bestLength = -1;
    for (long i = end; ; i = ExpandableKernel.prev(i, n)) {
      long v = ExpandableSlots.value(t, width, i);
      if (ExpandableKernel.matches(v, at) && ExpandableKernel.length(v) > bestLength) {
        best = v;
        bestLength = ExpandableKernel.length(v);
      }
      if (i == q || ExpandableSlots.runend(t, width, ExpandableKernel.prev(i, n))) {
        break;
      }
    }
    return bestLength >= 0 && saturatedFrom(t, n, width, q, end, best);
  }
}
