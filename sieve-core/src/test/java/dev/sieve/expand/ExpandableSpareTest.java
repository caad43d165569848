package dev.sieve.expand;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The next table allocated ahead of a doubling: asked for near it, taken by it, counted, dropped.
 */
class ExpandableSpareTest {
  private static final int LIMIT = 4_000_000;

  /** Adds random keys until the spare is asked for; returns the keys added. */
  private static long[] fillUntilRequested(ExpandableFilter f, SplittableRandom rnd) {
    long[] keys = new long[LIMIT];
    for (int i = 0; i < LIMIT; i++) {
      keys[i] = rnd.nextLong();
      f.add(keys[i]);
      if (f.spare.requested()) {
        return java.util.Arrays.copyOf(keys, i + 1);
      }
    }
    throw new AssertionError("no spare asked for in " + LIMIT + " adds");
  }

  private static long[] awaitReady(ExpandableFilter f) throws InterruptedException {
    for (int i = 0; i < 2_000 && f.spare.ready() == null; i++) {
      Thread.sleep(5);
    }
    long[] ready = f.spare.ready();
    assertNotNull(ready, "the allocator did not deliver within 10 s");
    return ready;
  }

  @Test
  void theAddThatBeginsTheDoublingTakesTheTableAllocatedAhead() throws InterruptedException {
    ExpandableFilter f = ExpandableFilter.builder().fpRate(0.01).create();
    SplittableRandom rnd = new SplittableRandom(7);
    long[] keys = fillUntilRequested(f, rnd);
    long room = ExpandableMath.maxEntries(f.slots) - f.used;
    assertTrue(room <= f.slots >>> 5, "asked for only near the doubling: room " + room);
    assertTrue(f.slots >>> 5 > 0 && room >= 0);
    long[] ready = awaitReady(f);
    assertTrue(ready.length >= ExpandableSpare.MIN_WORDS, "only large tables: " + ready.length);
    assertEquals(
        ExpandableSlots.tableBits(f.slots, f.width) + 64L * ready.length,
        f.sizeInBits(),
        "a ready spare is counted");
    int before = f.doublings();
    long extra = 0;
    while (f.doublings() == before) {
      f.add(rnd.nextLong());
      extra++;
    }
    assertTrue(extra <= room + 1, extra + " adds past the request, room was " + room);
    assertSame(ready, f.words, "the doubling's table is the one allocated ahead");
    assertFalse(f.spare.requested());
    assertEquals(0, f.spare.readyBits());
    for (long k : keys) {
      assertTrue(f.mayContain(k), "key " + k);
    }
  }

  @Test
  void aSpareOfAnotherLengthIsNeverUsedAndTheTakeIsAllZero() throws InterruptedException {
    ExpandableFilter f = ExpandableFilter.builder().fpRate(0.01).create();
    fillUntilRequested(f, new SplittableRandom(11));
    long[] ready = awaitReady(f);
    ready[0] = 0; // all zero as allocated
    long[] other = f.spare.take(ready.length + 1);
    assertNotSame(ready, other);
    assertEquals(ready.length + 1, other.length);
    assertFalse(f.spare.requested(), "dropped by the take");
    assertNull(f.spare.ready());
    assertNotSame(ready, f.spare.take(ready.length), "once taken or dropped, never handed out");
  }

  @Test
  void smallTablesAndCompactsHoldNoSpare() throws InterruptedException {
    ExpandableFilter small = ExpandableFilter.builder().fpRate(0.01).create();
    SplittableRandom rnd = new SplittableRandom(3);
    for (int i = 0; i < 50_000; i++) {
      small.add(rnd.nextLong());
      assertFalse(small.spare.requested(), "a table under 1 MiB is zeroed by its doubling");
    }
    ExpandableFilter f = ExpandableFilter.builder().fpRate(0.01).create();
    long[] keys = fillUntilRequested(f, new SplittableRandom(5));
    awaitReady(f);
    for (int i = 0; i < keys.length; i += 2) {
      assertTrue(f.remove(keys[i]));
    }
    f.compact();
    assertFalse(f.spare.requested(), "a compact drops the spare");
    assertEquals(ExpandableSlots.tableBits(f.slots, f.width), f.sizeInBits());
    for (int i = 1; i < keys.length; i += 2) {
      assertTrue(f.mayContain(keys[i]));
    }
  }
}
