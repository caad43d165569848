package dev.sieve.expand;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The sizing, counted in bits (no timing, no sampling): a filter built for {@code n} keys (a hint,
 * or the keys given) has its modelled rate in {@code (f / 2.25, f / 1.125]} at {@code n} keys, and
 * growing past {@code n}, or from the smallest table, keeps it at most {@code f} at every doubling.
 * The suite runs {@code 10^4} to {@code 10^6} keys; {@code -Dsieve.expand.sizing.max=10000000}
 * prints the table to {@code 10^7}.
 */
class ExpandableSizingTest {

  static ExpandableFilter fill(ExpandableFilter f, long from, long to) {
    for (long i = from; i < to; i++) {
      f.addHash(ExpandableGrowthTest.keyHash(i));
    }
    return f;
  }

  @Test
  void sizedFiltersLandInTheRangeAndGrowingKeepsTheTarget() {
    long max = Long.getLong("sieve.expand.sizing.max", 1_000_000);
    System.out.printf(
        "%6s %9s %10s %10s %10s %10s %10s%n",
        "f", "keys", "hint b/key", "hint m/f", "none b/key", "none m/f", "built m/f");
    for (double f : new double[] {0.01, 0.001}) {
      ExpandableFilter grown = ExpandableFilter.builder().fpRate(f).create();
      long added = 0;
      for (long n = 10_000; n <= max; n *= 10) {
        ExpandableFilter hinted =
            fill(ExpandableFilter.builder().fpRate(f).expectedKeys(n).create(), 0, n);
        assertEquals(0, hinted.doublings());
        double m = hinted.modelledFpRate();
        assertTrue(m <= f / 1.125 && m > f / 2.25, f + " " + n + ": " + m);
        // bits per key: exactly the slot width the sizing gives over the load
        int width = ExpandableMath.sizedBits(f) + ExpandableMath.SLOT_OVERHEAD_BITS;
        assertEquals(width, hinted.width);
        assertEquals(ExpandableSlots.tableBits(hinted.slots, width), hinted.sizeInBits());
        long[] hashes = new long[(int) Math.min(n, 100_000)];
        for (int i = 0; i < hashes.length; i++) {
          hashes[i] = ExpandableGrowthTest.keyHash(i);
        }
        ExpandableFilter built = ExpandableFilter.builder().fpRate(f).buildFromHashes(hashes);
        double mb = built.modelledFpRate();
        assertTrue(mb <= f / 1.125 && mb > f / 2.25, "built " + f + ": " + mb);
        for (; added < n; added++) {
          grown.addHash(ExpandableGrowthTest.keyHash(added));
        }
        assertTrue(grown.modelledFpRate() <= f);
        System.out.printf(
            "%6s %9d %10.2f %10.3f %10.2f %10.3f %10.3f%n",
            f,
            n,
            (double) hinted.sizeInBits() / n,
            m / f,
            (double) grown.sizeInBits() / n,
            grown.modelledFpRate() / f,
            mb / f);
      }
    }
  }

  @Test
  void atOneAndAThousandthPercentTheSizedLengthsAreSevenAndTen() {
    assertEquals(7, ExpandableMath.sizedBits(0.01));
    assertEquals(10, ExpandableMath.sizedBits(0.001));
    for (double f = 0.25; f > 1e-7; f /= 1.37) {
      int r = ExpandableMath.sizedBits(f);
      double atSize = ExpandableMath.MAX_LOAD * Math.scalb(1.0, -r);
      assertTrue(atSize <= f / (1 + ExpandableMath.SIZED_RESERVE), "f=" + f);
      assertTrue(atSize > f / (2 * (1 + ExpandableMath.SIZED_RESERVE)), "f=" + f);
      // never more than growth from an empty table would use
      assertTrue(r <= ExpandableMath.budgetBits(f, 0, 0, ExpandableMath.MIN_LOG_SLOTS, 1));
    }
  }

  /** Past the hint, at every doubling up to 64 times the hint: the rate at most f. */
  @Test
  void growingPastTheHintKeepsTheTarget() {
    for (double f : new double[] {0.01, 0.001, 0.2}) {
      ExpandableFilter filter = ExpandableFilter.builder().fpRate(f).expectedKeys(3_000).create();
      int lastBits = filter.fingerprintBits();
      for (long i = 0; i < 3_000 * 64; i++) {
        if (filter.entries() == ExpandableMath.maxEntries(filter.slots)) {
          assertTrue(filter.modelledFpRate() <= f, f + " at " + i + ": " + filter);
        }
        filter.addHash(ExpandableGrowthTest.keyHash(i));
        assertTrue(filter.fingerprintBits() >= lastBits - 1);
        lastBits = filter.fingerprintBits();
      }
      assertTrue(filter.modelledFpRate() <= f);
      assertTrue(filter.doublings() >= 6, filter.toString());
    }
  }

  /**
   * Adds and removes at random (removes of present keys only), from a sized start and from an empty
   * one: after every operation the modelled rate is at most f, which is what the budget's induction
   * promises for any such sequence.
   */
  @Test
  void anyAddsAndRemovesKeepTheTarget() {
    SplittableRandom random = new SplittableRandom(42);
    for (double f : new double[] {0.01, 0.05}) {
      for (boolean sized : new boolean[] {true, false}) {
        ExpandableFilter filter =
            sized
                ? ExpandableFilter.builder().fpRate(f).expectedKeys(500).create()
                : ExpandableFilter.builder().fpRate(f).create();
        long[] present = new long[200_000];
        int count = 0;
        long next = 0;
        for (int op = 0; op < 150_000; op++) {
          // phases: mostly adds, then mostly removes, so that generations are emptied and refilled
          boolean add = count == 0 || random.nextInt(100) < ((op / 20_000) % 2 == 0 ? 80 : 30);
          if (add) {
            long h = ExpandableGrowthTest.keyHash(next++);
            filter.addHash(h);
            present[count++] = h;
          } else {
            int at = random.nextInt(count);
            assertTrue(filter.removeHash(present[at]));
            present[at] = present[--count];
          }
          assertTrue(filter.modelledFpRate() <= f, sized + " " + f + " op " + op + ": " + filter);
        }
        for (int i = 0; i < count; i++) {
          assertTrue(filter.mayContainHash(present[i]));
        }
      }
    }
  }
}
