package dev.sieve.expand;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * The kernel against a model: the table decoded run by run ({@link ExpandableWrites#forEachRun})
 * must hold exactly the multiset of (quotient, value) entries inserted and not deleted, whatever
 * the runs, shifts across blocks and wrap-around past the last slot; queries must find every entry;
 * a rebuild must move every entry to its new run, void entries to both.
 */
class ExpandableKernelTest {

  /**
   * A hash whose top {@code log} bits are {@code q}, next {@code r} bits {@code fp}, rest random.
   */
  static long hashOf(int log, long q, int r, long fp, long low) {
    long h = q << (64 - log);
    if (r > 0) {
      h |= fp << (64 - log - r);
    }
    long lowMask = (1L << (64 - log - r)) - 1;
    return h | (low & lowMask);
  }

  /** Decodes the table into a sorted multiset "q:value" → count, checking the layout as it goes. */
  static TreeMap<String, Integer> decode(long[] t, int log, int width) {
    TreeMap<String, Integer> out = new TreeMap<>();
    long mask = (1L << log) - 1;
    int[] total = {0};
    ExpandableSlots.Words w = new ExpandableSlots.Heap(t);
    ExpandableWrites.forEachRun(
        w,
        1L << log,
        width,
        (q, first, length) -> {
          assertTrue(ExpandableSlots.occupied(w, width, q), "run " + q + " has its occupied bit");
          for (int k = 0; k < length; k++) {
            long v = ExpandableKernel.valueAt(w, width, (first + k) & mask);
            assertTrue(v != 0, "entry in an empty slot");
            out.merge(q + ":" + v, 1, Integer::sum);
            total[0]++;
          }
        });
    long nonEmpty = 0;
    long occupied = 0;
    for (long i = 0; i <= mask; i++) {
      if (ExpandableKernel.valueAt(w, width, i) != 0) {
        nonEmpty++;
      }
      occupied += ExpandableSlots.occupied(w, width, i) ? 1 : 0;
    }
    assertEquals(nonEmpty, total[0], "every non-empty slot is in a run");
    assertEquals(occupied, out.keySet().stream().map(k -> k.split(":")[0]).distinct().count());
    return out;
  }

  static long[] table(int log, int width) {
    return new long[(int) ExpandableSlots.wordsFor(1L << log, width)];
  }

  @Test
  void fieldsStraddleWords() {
    for (int width : new int[] {3, 7, 13, 31, 57}) {
      long[] t = table(8, width);
      ExpandableSlots.Words w = new ExpandableSlots.Heap(t);
      SplittableRandom r = new SplittableRandom(width);
      long[] want = new long[256];
      for (int i = 0; i < 256; i++) {
        want[i] = r.nextLong() & ((1L << (width - 2)) - 1);
        ExpandableSlots.setValue(t, width, i, want[i]);
      }
      long[] occupieds = new long[4];
      long[] runends = new long[4];
      for (int b = 0; b < 4; b++) {
        occupieds[b] = r.nextLong();
        runends[b] = r.nextLong();
        for (int j = 0; j < 64; j++) {
          ExpandableSlots.setOccupied(t, width, b * 64 + j, (occupieds[b] >>> j & 1) != 0);
          ExpandableSlots.setRunend(t, width, b * 64 + j, (runends[b] >>> j & 1) != 0);
        }
        ExpandableSlots.setOffset(t, width, b, 1000L * b + width);
      }
      for (int i = 0; i < 256; i++) {
        assertEquals(want[i], ExpandableSlots.value(w, width, i), "width " + width + " slot " + i);
      }
      for (int b = 0; b < 4; b++) {
        assertEquals(occupieds[b], ExpandableSlots.occupieds(w, width, b));
        assertEquals(runends[b], ExpandableSlots.runends(w, width, b));
        assertEquals(1000L * b + width, ExpandableSlots.offset(w, width, b));
      }
      ExpandableSlots.setOffset(t, width, 2, 1 << 20);
      assertEquals(ExpandableSlots.SATURATED, ExpandableSlots.offset(w, width, 2), "saturates");
    }
  }

  @Test
  void runsShiftAndWrapAround() {
    int log = 4;
    int width = 3 + 6;
    long[] t = table(log, width);
    TreeMap<String, Integer> model = new TreeMap<>();
    List<Long> hashes = new ArrayList<>();
    // three entries at the last slot wrap into slots 0 and 1; then runs at 0 and 1 shift behind
    // them
    long[][] entries = {{15, 5}, {15, 9}, {15, 33}, {0, 7}, {1, 2}, {0, 63}, {14, 1}, {3, 4}};
    for (long[] e : entries) {
      long value = (1L << 6) | e[1];
      ExpandableWrites.insert(t, 1L << log, width, e[0], value);
      model.merge(e[0] + ":" + value, 1, Integer::sum);
      hashes.add(hashOf(log, e[0], 6, e[1], 12345));
      assertEquals(model, decode(t, log, width));
    }
    for (long h : hashes) {
      assertTrue(ExpandableKernel.mayContain(t, 1L << log, width, h));
    }
    // quotient 2 has no run; quotient 0 has a run but not this fingerprint
    assertFalse(ExpandableKernel.mayContain(t, 1L << log, width, hashOf(log, 2, 6, 7, 0)));
    assertFalse(ExpandableKernel.mayContain(t, 1L << log, width, hashOf(log, 0, 6, 8, 0)));
    // slot 0 holds a wrapped entry of run 15, so run 0 ends later
    assertTrue(ExpandableRank.runEnd(new ExpandableSlots.Heap(t), 1L << log, width, 0) > 1);
    // delete the wrapped entries first: the runs of 0 and 1 move back to their canonical slots
    for (long[] e : new long[][] {{15, 5}, {15, 33}, {0, 7}, {15, 9}}) {
      long value = (1L << 6) | e[1];
      assertEquals(6, ExpandableWrites.remove(t, 1L << log, width, hashOf(log, e[0], 6, e[1], 99)));
      model.merge(e[0] + ":" + value, -1, Integer::sum);
      model.remove(e[0] + ":" + value, 0);
      assertEquals(model, decode(t, log, width));
    }
    assertEquals(0, ExpandableRank.runEnd(new ExpandableSlots.Heap(t), 1L << log, width, 0));
    assertEquals(-1, ExpandableWrites.remove(t, 1L << log, width, hashOf(log, 15, 6, 5, 0)));
    assertEquals(-1, ExpandableWrites.remove(t, 1L << log, width, hashOf(log, 0, 6, 8, 0)));
  }

  @Test
  void randomInsertsAndDeletesMatchTheModel() {
    SplittableRandom rnd = new SplittableRandom(7);
    for (int round = 0; round < 200; round++) {
      int log = 3 + rnd.nextInt(4);
      int bits = 1 + rnd.nextInt(8);
      int width = bits + 3;
      long slots = 1L << log;
      long[] t = table(log, width);
      TreeMap<String, Integer> model = new TreeMap<>();
      List<long[]> present = new ArrayList<>();
      for (int step = 0; step < 300; step++) {
        boolean insert = present.isEmpty() || (present.size() < slots - 1 && rnd.nextInt(5) < 3);
        if (insert) {
          // clustered quotients so runs and blocks are long
          long q = (slots - 2 + rnd.nextInt(5)) & (slots - 1);
          int r = rnd.nextInt(bits + 1);
          long fp = r == 0 ? 0 : rnd.nextLong() & ((1L << r) - 1);
          long value = (1L << r) | fp;
          ExpandableWrites.insert(t, 1L << log, width, q, value);
          model.merge(q + ":" + value, 1, Integer::sum);
          present.add(new long[] {q, r, fp});
        } else {
          long[] e = present.remove(rnd.nextInt(present.size()));
          long h = hashOf(log, e[0], (int) e[1], e[2], rnd.nextLong());
          int removed = ExpandableWrites.remove(t, 1L << log, width, h);
          assertTrue(removed >= 0, "a present entry is found");
          // the longest matching entry went: find it in the model (it matches h)
          String gone = null;
          for (String key : model.keySet()) {
            String[] p = key.split(":");
            long v = Long.parseLong(p[1]);
            if (Long.parseLong(p[0]) == e[0]
                && ExpandableKernel.length(v) == removed
                && ExpandableKernel.matches(v, h * (1L << log))) {
              gone = key;
              break;
            }
          }
          assertTrue(gone != null);
          model.merge(gone, -1, Integer::sum);
          model.remove(gone, 0);
          // the entry model removed may be another one than e, of the same length and match: keep
          // the list in step with the table by swapping e for that entry
          String[] p = gone.split(":");
          long v = Long.parseLong(p[1]);
          long[] other = {e[0], removed, v & ((1L << removed) - 1)};
          if (other[1] != e[1] || other[2] != e[2]) {
            for (int i = 0; i < present.size(); i++) {
              long[] x = present.get(i);
              if (x[0] == other[0] && x[1] == other[1] && x[2] == other[2]) {
                present.set(i, e);
                break;
              }
            }
          }
        }
        assertEquals(model, decode(t, log, width), "round " + round + " step " + step);
        for (long[] e : present) {
          assertTrue(
              ExpandableKernel.mayContain(
                  t, 1L << log, width, hashOf(log, e[0], (int) e[1], e[2], rnd.nextLong())));
        }
      }
    }
  }

  @Test
  void voidEntriesMatchTheirRunAndSplitIntoBoth() {
    int log = 4;
    int width = 3 + 4;
    long[] t = table(log, width);
    ExpandableWrites.insert(t, 1L << log, width, 5, 1); // void
    ExpandableWrites.insert(t, 1L << log, width, 5, (1L << 4) | 0b1010);
    ExpandableWrites.insert(t, 1L << log, width, 6, (1L << 1) | 1);
    for (long fp = 0; fp < 16; fp++) {
      assertTrue(ExpandableKernel.mayContain(t, 1L << log, width, hashOf(log, 5, 4, fp, fp * 31)));
    }
    assertFalse(ExpandableKernel.mayContain(t, 1L << log, width, hashOf(log, 6, 1, 0, 0)));
    // the longest match goes first, then the void entry
    long h = hashOf(log, 5, 4, 0b1010, 0);
    assertEquals(4, ExpandableWrites.remove(t, 1L << log, width, h));
    assertEquals(0, ExpandableWrites.remove(t, 1L << log, width, h));
    assertEquals(-1, ExpandableWrites.remove(t, 1L << log, width, h));

    ExpandableWrites.insert(t, 1L << log, width, 5, 1);
    long[] doubled = table(log + 1, width);
    assertEquals(3, ExpandableWrites.rebuild(t, 1L << log, width, doubled, 2L << log, width));
    TreeMap<String, Integer> want = new TreeMap<>();
    want.put("10:1", 1);
    want.put("11:1", 1);
    want.put("13:1", 1); // 6:(1<<1|1) -> quotient 13, void
    assertEquals(want, decode(doubled, log + 1, width));
  }

  @Test
  void doublingMovesTheTopFingerprintBitIntoTheQuotient() {
    SplittableRandom rnd = new SplittableRandom(11);
    for (int round = 0; round < 100; round++) {
      int log = 3 + rnd.nextInt(6);
      int bits = 1 + rnd.nextInt(10);
      int width = bits + 3;
      long slots = 1L << log;
      long[] t = table(log, width);
      List<Long> hashes = new ArrayList<>();
      long n = rnd.nextLong((long) (slots * 0.9) + 1);
      for (long i = 0; i < n; i++) {
        long h = rnd.nextLong();
        if (rnd.nextInt(4) == 0) {
          h = (slots - 1) << (64 - log) | (h >>> log); // crowd the last slot: wrap-around
        }
        ExpandableWrites.insert(
            t,
            1L << log,
            width,
            ExpandableKernel.quotient(h, 1L << log),
            ExpandableKernel.entryValue(h, 1L << log, bits));
        hashes.add(h);
      }
      int newWidth = width + rnd.nextInt(2);
      long[] doubled = table(log + 1, newWidth);
      long written = ExpandableWrites.rebuild(t, 1L << log, width, doubled, 2L << log, newWidth);
      TreeMap<String, Integer> want = new TreeMap<>();
      for (long h : hashes) {
        // an entry of `bits` bits at log knows log + bits bits: at log + 1 it has bits − 1
        want.merge(
            ExpandableKernel.quotient(h, 2L << log)
                + ":"
                + ExpandableKernel.entryValue(h, 2L << log, bits - 1),
            1,
            Integer::sum);
      }
      if (bits - 1 == 0) {
        // they were 1-bit: every entry becomes void at its own quotient only (it had its bit)
        assertEquals(n, written);
      }
      assertEquals(want, decode(doubled, log + 1, newWidth), "round " + round);
      for (long h : hashes) {
        assertTrue(ExpandableKernel.mayContain(doubled, 2L << log, newWidth, h));
      }
      // rewidening at the same size keeps every entry where it was
      long[] wider = table(log, width + 2);
      assertEquals(n, ExpandableWrites.rebuild(t, 1L << log, width, wider, 1L << log, width + 2));
      assertEquals(decode(t, log, width), decode(wider, log, width + 2));
    }
  }

  @Test
  void tablesOfAnySlotCountInsertRemoveAndDouble() {
    SplittableRandom rnd = new SplittableRandom(2023);
    for (int round = 0; round < 40; round++) {
      long n = 64 + rnd.nextInt(2000); // not a power of two, mostly
      int bits = 2 + rnd.nextInt(10);
      int width = bits + 3;
      long[] t = new long[(int) ExpandableSlots.wordsFor(n, width)];
      List<Long> hashes = new ArrayList<>();
      long count = (long) (n * 0.85);
      for (long i = 0; i < count; i++) {
        long h = rnd.nextLong();
        if (rnd.nextInt(5) == 0) {
          h = -1L - rnd.nextInt(1 << 20); // crowd the last slot: wrap-around
        }
        long q = ExpandableKernel.quotient(h, n);
        assertTrue(q >= 0 && q < n, "quotient " + q + " of " + n);
        ExpandableWrites.insert(t, n, width, q, ExpandableKernel.entryValue(h, n, bits));
        hashes.add(h);
      }
      for (int i = 0; i < hashes.size() / 3; i++) {
        long h = hashes.remove(rnd.nextInt(hashes.size()));
        assertEquals(bits, ExpandableWrites.remove(t, n, width, h), "round " + round);
      }
      for (long h : hashes) {
        assertTrue(ExpandableKernel.mayContain(t, n, width, h), "round " + round);
      }
      long[] doubled = new long[(int) ExpandableSlots.wordsFor(2 * n, width)];
      assertEquals(hashes.size(), ExpandableWrites.rebuild(t, n, width, doubled, 2 * n, width));
      for (long h : hashes) {
        assertTrue(ExpandableKernel.mayContain(doubled, 2 * n, width, h), "round " + round);
        // the doubled entry is the one the key would get in the doubled table
        assertTrue(
            ExpandableKernel.matches(
                ExpandableKernel.entryValue(h, 2 * n, bits - 1),
                ExpandableKernel.position(h, 2 * n)));
      }
      // an absent key matches about count · 2^(−bits) / n of the time: far below 1 for long ones
      if (bits >= 8) {
        int fp = 0;
        for (int q = 0; q < 20_000; q++) {
          fp += ExpandableKernel.mayContain(doubled, 2 * n, width, rnd.nextLong()) ? 1 : 0;
        }
        assertTrue(fp < 20_000 * 4.0 / (1 << (bits - 1)), fp + " false positives");
      }
    }
  }
}
