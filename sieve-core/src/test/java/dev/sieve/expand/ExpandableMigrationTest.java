package dev.sieve.expand;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sieve.KeyScheme;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The incremental doubling ({@link ExpandableMigration}): no write moves more than {@value
 * ExpandableMigration#STEP} of the old table's entries, every doubling ends before the next is due,
 * and no added key is ever reported absent at any step of one, with removes, duplicates, copies,
 * unions, compaction and the serialized form in between.
 */
class ExpandableMigrationTest {

  @Test
  void noAddMovesMoreThanTheStepWhileGrowingPastAMillionKeys() {
    ExpandableFilter f = ExpandableFilter.builder().fpRate(0.01).create();
    SplittableRandom rnd = new SplittableRandom(41);
    long most = 0;
    long moved = 0;
    int doublingsSeen = 0;
    boolean wasMigrating = false;
    for (int i = 0; i < 1_100_000; i++) {
      f.addHash(rnd.nextLong());
      most = Math.max(most, f.lastMoved);
      moved += f.lastMoved;
      if (f.lastMoved > ExpandableMigration.STEP) {
        throw new AssertionError("add " + i + " moved " + f.lastMoved + " entries: " + f);
      }
      boolean migrating = f.migration != null;
      if (migrating && !wasMigrating) {
        doublingsSeen++;
      }
      wasMigrating = migrating;
    }
    assertEquals(ExpandableMigration.STEP, most, "the step is used in full");
    assertTrue(f.doublings() >= 14, f.toString());
    assertEquals(f.doublings(), doublingsSeen, "every doubling was incremental");
    assertTrue(moved > f.entries() / 2, "the old entries were moved by the adds: " + moved);
  }

  @Test
  void aSizedFilterAndAHighRateDoubleIncrementallyToo() {
    for (double rate : new double[] {0.25, 0.001}) {
      ExpandableFilter f = ExpandableFilter.builder().fpRate(rate).expectedKeys(3000).create();
      SplittableRandom rnd = new SplittableRandom(7);
      for (int i = 0; i < 60_000; i++) {
        f.addHash(rnd.nextLong());
        assertTrue(f.lastMoved <= ExpandableMigration.STEP, f.toString());
      }
      assertTrue(f.doublings() >= 4, f.toString());
    }
  }

  /**
   * After every add and remove, every key added and not removed (a multiset) is present, through
   * several doublings from the smallest table; duplicates, removes, and at intervals a copy, a
   * union, a compaction and a form's round trip, each checked for every present key too.
   */
  @Test
  void noFalseNegativeAtAnyStepOfADoubling() {
    for (long seed = 1; seed <= 3; seed++) {
      SplittableRandom rnd = new SplittableRandom(seed);
      ExpandableFilter f =
          ExpandableFilter.builder()
              .fpRate(seed == 2 ? 0.2 : 0.01)
              .keyScheme(KeyScheme.XXPH3)
              .create();
      Map<Long, Integer> model = new HashMap<>();
      List<Long> keys = new ArrayList<>();
      int migratingSteps = 0;
      int midChecks = 0;
      for (int op = 0; op < 4_000; op++) {
        int kind = rnd.nextInt(10);
        if (kind < 6 || keys.isEmpty()) {
          long h = rnd.nextLong();
          f.addHash(h);
          model.merge(h, 1, Integer::sum);
          keys.add(h);
        } else if (kind < 8) {
          long h = keys.get(rnd.nextInt(keys.size())); // a duplicate
          f.addHash(h);
          model.merge(h, 1, Integer::sum);
          keys.add(h);
        } else {
          int at = rnd.nextInt(keys.size());
          long h = keys.get(at);
          keys.set(at, keys.get(keys.size() - 1));
          keys.remove(keys.size() - 1);
          assertTrue(f.removeHash(h), "a present key is removed");
          model.merge(h, -1, Integer::sum);
          assertTrue(f.lastMoved <= ExpandableMigration.STEP);
        }
        migratingSteps += f.migration != null ? 1 : 0;
        allPresent(f, model, "seed " + seed + " op " + op);
        if (op % 50 == 25 && f.migration != null) {
          midChecks++;
          ExpandableFilter copy = f.copy();
          assertNotNull(copy.migration, "a copy keeps the doubling under way");
          assertEquals(f, copy);
          allPresent(copy, model, "copy at " + op);
          ExpandableFilter other =
              ExpandableFilter.builder().fpRate(f.fpRate()).keyScheme(KeyScheme.XXPH3).create();
          other.addHash(17);
          copy.union(other);
          assertNull(copy.migration, "a union ends the doubling");
          allPresent(copy, model, "union at " + op);
          assertTrue(copy.mayContainHash(17));
          ExpandableFilter compacted = f.copy();
          compacted.compact();
          assertNull(compacted.migration);
          allPresent(compacted, model, "compact at " + op);
          ExpandableFilter saved = f.copy();
          byte[] bytes = ExpandablePayload.bytes(saved);
          assertNull(saved.migration, "the form is of one table");
          ExpandableFilter read = ExpandableForm.read(ByteBuffer.wrap(bytes), false);
          assertEquals(saved, read);
          allPresent(read, model, "form at " + op);
        }
      }
      assertTrue(migratingSteps > 100, "the checks ran during doublings: " + migratingSteps);
      assertTrue(
          midChecks >= 2, "copies, unions, compactions and saves mid-doubling: " + midChecks);
      assertTrue(f.doublings() >= 4, f.toString());
    }
  }

  @Test
  void theCountsAreThoseOfTheWholeTableRebuild() {
    // a doubling ended at once and one moved by the writes reach the same entries and rate
    SplittableRandom rnd = new SplittableRandom(5);
    ExpandableFilter f = ExpandableFilter.builder().fpRate(0.25).create();
    while (f.doublings() < 3) {
      f.addHash(rnd.nextLong());
    }
    assertNotNull(f.migration);
    ExpandableFilter ended = f.copy();
    ExpandableMigration.finish(ended);
    assertNull(ended.migration);
    assertEquals(ended.entries(), f.entries());
    assertEquals(ended.voidEntries(), f.voidEntries());
    assertEquals(ended.modelledFpRate(), f.modelledFpRate(), 1e-12);
    assertFalse(ended.equals(f), "the state differs while one is under way");
  }

  private static void allPresent(ExpandableFilter f, Map<Long, Integer> model, String where) {
    long[] present =
        model.entrySet().stream()
            .filter(e -> e.getValue() > 0)
            .mapToLong(Map.Entry::getKey)
            .toArray();
    for (long h : present) {
      if (!f.mayContainHash(h)) {
        throw new AssertionError(where + ": a false negative for " + h + " in " + f);
      }
    }
    long[] bits = new long[(present.length + 63) >>> 6];
    assertEquals(present.length, f.mayContainHashes(present, 0, present.length, bits), where);
  }
}
