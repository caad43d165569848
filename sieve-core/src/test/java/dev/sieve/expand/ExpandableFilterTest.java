package dev.sieve.expand;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sieve.hash.KeyEncoder;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class ExpandableFilterTest {

  static long hash(long i) {
    return ExpandableGrowthTest.keyHash(i);
  }

  @Test
  void builderStartsTinyWithoutAHintAndRightSizedWithOne() {
    assertEquals(ExpandableMath.MIN_LOG_SLOTS, ExpandableFilter.builder().create().log);
    ExpandableFilter hinted = ExpandableFilter.builder().expectedKeys(1000).create();
    // 1000 / 0.85 = 1176.5 slots, rounded up to 9 significant bits: 295 · 4 = 1180 (1003 keys)
    assertEquals(10, hinted.log);
    assertEquals(1180, hinted.slots);
    assertEquals(10 << 8 | 39, ExpandableGrowth.shapeFor(1000));
    assertEquals(16 << 8, ExpandableGrowth.shapeFor(55_705)); // 0.85 · 2^16, a power of two
    assertEquals(6 << 8, ExpandableGrowth.shapeFor(0));
    // sized for its key count: 7-bit fingerprints (0.85 · 2^−7 = 0.66% at load 0.85); grown from
    // the smallest table: 9 (the reserve for 26 doublings)
    assertEquals(7 + 3, hinted.width);
    assertEquals(9 + 3, ExpandableFilter.builder().create().width);
    assertEquals(0.01, hinted.fpRate());
    ExpandableFilter built = ExpandableFilter.builder().fpRate(0.001).build(new long[] {1, 2, 3});
    assertEquals(3, built.numKeys());
    assertEquals(ExpandableMath.MIN_LOG_SLOTS, built.log);
    assertEquals(10 + 3, built.width); // 0.85 · 2^−10 = 0.083%
    assertTrue(built.mayContain(2L));
    assertThrows(IllegalArgumentException.class, () -> ExpandableFilter.builder().fpRate(0));
    assertThrows(IllegalArgumentException.class, () -> ExpandableFilter.builder().fpRate(1));
    assertThrows(IllegalArgumentException.class, () -> ExpandableFilter.builder().fpRate(0.3));
    assertThrows(
        IllegalArgumentException.class, () -> ExpandableFilter.builder().expectedKeys(1L << 40));
  }

  @Test
  void everyKeyFormAddsQueriesAndRemovesTheSameHash() {
    ExpandableFilter f = ExpandableFilter.builder().create();
    byte[] bytes = "bytes".getBytes(StandardCharsets.UTF_8);
    f.add(42L);
    f.add(bytes);
    f.add("text");
    f.addInt(7);
    f.add(ByteBuffer.wrap("buffer".getBytes(StandardCharsets.UTF_8)));
    f.add(99L, KeyEncoder.LONG);
    assertTrue(f.mayContainHash(f.keyScheme().hash(42L)));
    assertTrue(f.mayContain(bytes));
    assertTrue(f.mayContain("bytes"));
    assertTrue(f.mayContain("text".getBytes(StandardCharsets.UTF_8)));
    assertTrue(f.mayContainInt(7));
    assertTrue(f.mayContain(ByteBuffer.wrap("buffer".getBytes(StandardCharsets.UTF_8))));
    assertTrue(f.mayContain(99L));
    long[] result = new long[1];
    assertEquals(2, f.mayContainBatch(new long[] {42L, 99L}, 0, 2, result));
    assertEquals(0b11, result[0]);
    assertEquals(6, f.numKeys());
    assertTrue(f.remove(42L));
    assertTrue(f.remove(bytes));
    assertTrue(f.remove("text"));
    assertEquals(3, f.numKeys());
    assertFalse(f.mayContain(42L));
  }

  @Test
  void aKeyAddedTwiceStaysUntilRemovedTwice() {
    ExpandableFilter f = ExpandableFilter.builder().create();
    f.add(5L);
    f.add(5L);
    assertTrue(f.remove(5L));
    assertTrue(f.mayContain(5L));
    assertTrue(f.remove(5L));
    assertFalse(f.mayContain(5L));
    assertFalse(f.remove(5L));
    assertEquals(0, f.numKeys());
    assertEquals(0, f.entries());
  }

  /**
   * Removing never-added keys, as a careless user would: a remove that finds no matching entry
   * returns {@code false} and changes nothing (detected); one that is a false positive (about the
   * modelled rate) deletes another key's entry and may cost that key a false negative. Measured:
   * the successful removes stay under the 99.9% bound at the modelled rate, and the false negatives
   * they cause are at most their number.
   */
  @Test
  void removingNeverAddedKeysIsDetectedUnlessAFalsePositive() {
    int n = 100_000;
    int absent = 100_000;
    ExpandableFilter f = ExpandableFilter.builder().fpRate(0.01).create();
    for (int i = 0; i < n; i++) {
      f.addHash(hash(i));
    }
    double modelled = f.modelledFpRate();
    long removed = 0;
    for (int i = 0; i < absent; i++) {
      ExpandableFilter before = i % 1000 == 0 ? f.copy() : null;
      boolean r = f.removeHash(ExpandableGrowthTest.absentHash(i));
      if (r) {
        removed++;
      } else if (before != null) {
        assertEquals(before, f, "a remove that found nothing changed nothing");
      }
    }
    long falseNegatives = 0;
    for (int i = 0; i < n; i++) {
      if (!f.mayContainHash(hash(i))) {
        falseNegatives++;
      }
    }
    System.out.printf(
        "removes of %d never-added keys from %d: %d found an entry (modelled rate %.5f),"
            + " %d false negatives after%n",
        absent, n, removed, modelled, falseNegatives);
    assertTrue(removed <= ExpandableGrowthTest.upper(absent, modelled), removed + " removed");
    assertTrue(falseNegatives <= removed);
    assertEquals(n - removed, f.numKeys());
  }

  @Test
  void unionOfFiltersOfDifferentSizesAndWidths() {
    // a: grown from the smallest table (wider slots); b: hinted, larger table, narrow slots
    ExpandableFilter a = ExpandableFilter.builder().fpRate(0.01).create();
    ExpandableFilter b = ExpandableFilter.builder().fpRate(0.01).expectedKeys(200_000).create();
    for (int i = 0; i < 50_000; i++) {
      a.addHash(hash(i));
    }
    for (int i = 50_000; i < 60_000; i++) {
      b.addHash(hash(i));
    }
    assertTrue(a.width > b.width);
    assertTrue(a.log < b.log);
    ExpandableFilter small = a.copy();
    ExpandableFilter big = b.copy();
    small.union(b); // the smaller doubles first
    big.union(a); // a's entries are expanded to b's size; b's slots widen to hold them
    for (ExpandableFilter u : new ExpandableFilter[] {small, big}) {
      assertEquals(60_000, u.numKeys());
      for (int i = 0; i < 60_000; i++) {
        assertTrue(u.mayContainHash(hash(i)), "key " + i);
      }
      // b's slot count is not a power of two times a's: covering entries, at most 4x their rate
      assertTrue(u.modelledFpRate() <= 4 * (a.modelledFpRate() + b.modelledFpRate()));
      assertTrue(u.load() <= ExpandableMath.MAX_LOAD);
    }
    // a union with itself stores every entry twice
    ExpandableFilter self = b.copy();
    self.union(self);
    assertEquals(20_000, self.numKeys());
    for (int i = 50_000; i < 60_000; i++) {
      assertTrue(self.removeHash(hash(i)));
      assertTrue(self.mayContainHash(hash(i)));
    }
    ExpandableFilter other = ExpandableFilter.builder().fpRate(0.001).create();
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> a.union(other));
    assertTrue(e.getMessage().contains("0.01") && e.getMessage().contains("0.001"));
  }

  @Test
  void ratesBelowTheLowestAreRejectedNamingIt() {
    ExpandableFilter.builder().fpRate(2e-8);
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> ExpandableFilter.builder().fpRate(1e-8));
    assertTrue(e.getMessage().contains("1.5"), e.getMessage());
  }

  /**
   * Merging adds up the rates and the void copies: at a 25% target a filter merged with itself a
   * few times is saturated (void copies past half the load after a doubling); the filter then
   * refuses to grow, with its keys still present.
   */
  @Test
  void voidCopiesThatFillTheTableStopTheGrowth() {
    ExpandableFilter f = ExpandableFilter.builder().fpRate(0.25).create();
    for (int i = 0; i < 2000; i++) {
      f.addHash(hash(i));
    }
    assertTrue(f.voidEntries() > 0);
    IllegalStateException e =
        assertThrows(
            IllegalStateException.class,
            () -> {
              for (int k = 0; k < 20; k++) {
                f.union(f);
              }
            });
    assertTrue(e.getMessage().startsWith("saturated"), e.getMessage());
    for (int i = 0; i < 2000; i++) {
      assertTrue(f.mayContainHash(hash(i)));
    }
  }

  /**
   * A small filter merged into a much larger one: its 5-bit fingerprints run out after 5 of the 10
   * doublings between the sizes, so each of its entries lands as 2^5 void copies, one in each run
   * its known hash bits allow; the modelled rate adds exactly the small filter's.
   */
  @Test
  void unionIntoAMuchLargerFilterSpreadsVoidCopies() {
    ExpandableFilter small = ExpandableFilter.builder().fpRate(0.25).create();
    // 55,705 keys: 2^16 slots (a hint giving another slot count's significant bits is refused)
    ExpandableFilter large = ExpandableFilter.builder().fpRate(0.25).expectedKeys(55_705).create();
    ExpandableFilter odd = ExpandableFilter.builder().fpRate(0.25).expectedKeys(50_000).create();
    assertTrue(odd.slots != 1L << odd.log);
    assertEquals(5, small.fingerprintBits());
    for (int i = 0; i < 40; i++) {
      small.addHash(hash(i));
    }
    for (int i = 1000; i < 1100; i++) {
      large.addHash(hash(i));
    }
    int d = large.log - small.log;
    assertEquals(10, d);
    double before = large.modelledFpRate();
    large.union(small);
    assertEquals(100 + 40L * (1 << (d - 5)), large.entries());
    assertEquals(40L << (d - 5), large.voidEntries());
    assertEquals(before + small.modelledFpRate(), large.modelledFpRate(), 1e-12);
    for (int i = 0; i < 40; i++) {
      assertTrue(large.mayContainHash(hash(i)));
      assertTrue(large.removeHash(hash(i))); // removes the copy in the key's own run
    }
    for (int i = 1000; i < 1100; i++) {
      assertTrue(large.mayContainHash(hash(i)));
    }
    assertEquals(100, large.numKeys());
    // into a table whose slot count is not a power of two times 64: covering void entries
    odd.union(small);
    for (int i = 0; i < 40; i++) {
      assertTrue(odd.mayContainHash(hash(i)));
    }
    assertTrue(odd.modelledFpRate() <= 4 * small.modelledFpRate());
  }

  @Test
  void unionAcrossSlotCountsCoversEveryEntryAtAtMostFourTimesItsRate() {
    SplittableRandom rnd = new SplittableRandom(23);
    for (int round = 0; round < 30; round++) {
      ExpandableFilter a =
          ExpandableFilter.builder().fpRate(0.01).expectedKeys(300 + rnd.nextInt(5000)).create();
      ExpandableFilter b =
          ExpandableFilter.builder().fpRate(0.01).expectedKeys(300 + rnd.nextInt(5000)).create();
      int na = rnd.nextInt(6000);
      int nb = rnd.nextInt(6000);
      for (int i = 0; i < na; i++) {
        a.addHash(hash(round * 100_000L + i));
      }
      for (int i = 0; i < nb; i++) {
        b.addHash(hash(round * 100_000L + 50_000 + i));
      }
      double rateA = a.modelledFpRate();
      double rateB = b.modelledFpRate();
      a.union(b);
      assertEquals(na + nb, a.numKeys());
      for (int i = 0; i < na; i++) {
        assertTrue(a.mayContainHash(hash(round * 100_000L + i)));
      }
      for (int i = 0; i < nb; i++) {
        assertTrue(a.mayContainHash(hash(round * 100_000L + 50_000 + i)), "round " + round);
      }
      assertTrue(a.modelledFpRate() <= rateA + 4 * rateB + 1e-12, "round " + round);
      assertTrue(a.load() <= ExpandableMath.MAX_LOAD);
    }
  }

  @Test
  void copyIsIndependentAndEqualUntilChanged() {
    ExpandableFilter f = ExpandableFilter.builder().create();
    for (int i = 0; i < 1000; i++) {
      f.addHash(hash(i));
    }
    ExpandableFilter c = f.copy();
    assertEquals(f, c);
    assertEquals(f.hashCode(), c.hashCode());
    c.addHash(hash(-1));
    assertNotEquals(f, c);
    assertFalse(f.toString().isEmpty());
    // blocks of 64 slots: 64 slot widths and a 16-bit offset each
    assertEquals((1L << f.log) / 64 * (64L * f.width + 16), f.sizeInBits());
    assertEquals(1000, f.approximateElementCount());
    assertEquals(f.modelledFpRate(), f.expectedFpRate());
  }
}
