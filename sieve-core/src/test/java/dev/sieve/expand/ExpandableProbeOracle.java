package dev.sieve.expand;

import dev.sieve.expand.ExpandableSlots.Words;

/**
 * The lookup of payload version 3's first kernel, kept as the test oracle of {@link
 * ExpandableKernel#mayContain(Words, long, int, long)} and of the batch form: the run's end by
 * offset, rank and select, then the run read backwards to its start, one straddling read per value
 * and one run-end test per slot, each entry tested by {@link ExpandableKernel#matches}.
 */
final class ExpandableProbeOracle {
  private ExpandableProbeOracle() {}

  static boolean mayContain(Words t, long n, int width, long hash) {
    long q = ExpandableKernel.quotient(hash, n);
    long b = q >>> 6;
    int j = (int) (q & 63);
    long occupieds = ExpandableSlots.occupieds(t, width, b);
    if ((occupieds >>> j & 1) == 0) {
      return false;
    }
    long i =
        n <= 64
            ? ExpandableRank.runEnd(t, n, width, q)
            : ExpandableRank.selectRunend(
                t,
                n,
                width,
                ((b << 6) + ExpandableRank.blockOffset(t, n, width, b)) % n,
                Long.bitCount(occupieds & (-1L >>> (63 - j))));
    long at = ExpandableKernel.position(hash, n);
    while (true) {
      if (ExpandableKernel.matches(ExpandableSlots.value(t, width, i), at)) {
        return true;
      }
      if (i == q) {
        return false;
      }
      i = ExpandableKernel.prev(i, n);
      if (ExpandableSlots.runend(t, width, i)) {
        return false;
      }
    }
  }

  static boolean mayContain(long[] a, long n, int width, long hash) {
    return mayContain(new ExpandableSlots.Heap(a), n, width, hash);
  }
}
