package dev.sieve.expand;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The covering cells of {@link ExpandableCover#cells}: its long arithmetic against the exact
 * reference {@link ExpandableCover#cellsExact} over random shapes, entries, caps and refinements,
 * and every cell set covering its entry's interval (a key the entry matched lies in one of them).
 */
class ExpandableCoverTest {

  @Test
  void theFastCellsAreTheExactOnes() {
    SplittableRandom random = new SplittableRandom(20261207);
    for (int i = 0; i < 400_000; i++) {
      long slots = shape(random);
      long fromSlots = random.nextInt(8) == 0 ? slots : shape(random);
      long q = random.nextLong(fromSlots);
      int r = random.nextInt(25);
      long value = (1L << r) | (r == 0 ? 0 : random.nextLong() & ((1L << r) - 1));
      int maxBits = random.nextInt(22);
      int finer = random.nextInt(4);
      long[] exact = ExpandableCover.cellsExact(slots, maxBits, finer, fromSlots, q, value);
      long[] fast = ExpandableCover.cells(slots, maxBits, finer, fromSlots, q, value);
      assertArrayEquals(
          exact,
          fast,
          () ->
              slots
                  + " slots from "
                  + fromSlots
                  + ", q "
                  + q
                  + ", value "
                  + value
                  + ", cap "
                  + maxBits
                  + ", finer "
                  + finer);
      // the interval [q + fp/2^r, q + (fp+1)/2^r) / fromSlots lies within the cells' span
      double lo = (q + (double) (value & ((1L << r) - 1)) / (1L << r)) / fromSlots;
      double width = 1.0 / ((double) slots * (1L << fast[0]));
      assertTrue(fast[1] * width <= lo + 1e-12, "the first cell starts at or before the entry");
      assertTrue(fast[1] <= fast[2], "at least one cell");
    }
  }

  /** {@return the slot count of a random table shape, as {@code ExpandableMath.slots} gives} */
  private static long shape(SplittableRandom random) {
    int mant = random.nextInt(3) == 0 ? 0 : random.nextInt(256);
    int log = mant == 0 ? 6 + random.nextInt(27) : 8 + random.nextInt(25);
    return ExpandableMath.slots(log, mant);
  }
}
