package dev.sieve.expand;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * A query that reads the table optimistically (a seqlock) may see metadata half written; the probe
 * and the batch probe must still end (bounded by the table, not by what the metadata says), so that
 * the seqlock validation fails and the query is asked again under the lock. Tables crafted
 * inconsistent on purpose: run ends missing, offsets pointing past the table's end, random words.
 * Every probe must return within a generous bound; the only exception allowed is the kernel's own
 * check of a table whose every block offset is saturated ({@link IllegalStateException}), which the
 * filter's optimistic path also treats as a torn read.
 */
class ExpandableTornReadTest {
  private static final Duration BOUND = Duration.ofSeconds(20);

  /** The shapes: one block; a right-sized table with a partial last block; several blocks. */
  private static final long[][] SHAPES = {{64, 12}, {300, 12}, {4096, 13}, {1024, 30}};

  private static long[] table(long n, int width) {
    return new long[(int) ExpandableSlots.wordsFor(n, width)];
  }

  /** Every quotient occupied, no run end anywhere: before the fix the select never ended. */
  @Test
  void noRunEndsAtAll() {
    for (long[] shape : SHAPES) {
      long n = shape[0];
      int width = (int) shape[1];
      long[] t = table(n, width);
      for (long i = 0; i < n; i++) {
        ExpandableSlots.setOccupied(t, width, i, true);
      }
      probeAll(t, n, width, 1);
    }
  }

  /** Block offsets pointing far past the table's end (below saturation), run ends sparse. */
  @Test
  void offsetsPastTheEndAndTooFewRunEnds() {
    SplittableRandom rnd = new SplittableRandom(23);
    for (long[] shape : SHAPES) {
      long n = shape[0];
      int width = (int) shape[1];
      long[] t = table(n, width);
      for (long i = 0; i < n; i++) {
        ExpandableSlots.setOccupied(t, width, i, true);
        ExpandableSlots.setRunend(t, width, i, rnd.nextInt(64) == 0);
      }
      for (long b = 0; b < ExpandableSlots.blocks(n); b++) {
        ExpandableSlots.setOffset(
            t, width, b, n + rnd.nextInt((int) (ExpandableSlots.SATURATED - n)));
      }
      probeAll(t, n, width, 2);
    }
  }

  /** Random words, metadata and values alike (bits past the last slot too). */
  @Test
  void randomWords() {
    SplittableRandom rnd = new SplittableRandom(2023);
    for (int trial = 0; trial < 200; trial++) {
      long[] shape = SHAPES[trial % SHAPES.length];
      long n = shape[0];
      int width = (int) shape[1];
      long[] t = table(n, width);
      for (int i = 0; i < t.length; i++) {
        t[i] = rnd.nextLong() & rnd.nextLong() | (trial % 3 == 0 ? rnd.nextLong() : 0);
      }
      probeAll(t, n, width, trial);
    }
  }

  /** The single and the batch probe of 512 keys over the table: each ends, the two agree. */
  private static void probeAll(long[] t, long n, int width, long seed) {
    ExpandableSlots.Words w = new ExpandableSlots.Heap(t);
    SplittableRandom rnd = new SplittableRandom(seed);
    long[] hashes = new long[64];
    assertTimeoutPreemptively(
        BOUND,
        () -> {
          for (int round = 0; round < 8; round++) {
            for (int i = 0; i < hashes.length; i++) {
              hashes[i] = rnd.nextLong();
            }
            long single = 0;
            boolean saturated = false;
            for (int i = 0; i < hashes.length; i++) {
              try {
                if (ExpandableKernel.mayContain(w, n, width, hashes[i])) {
                  single |= 1L << i;
                }
              } catch (IllegalStateException e) {
                assertTrue(e.getMessage().contains("saturated"), e.getMessage());
                saturated = true;
              }
            }
            if (!saturated) {
              assertEquals(single, ExpandableKernel.probeChunk(w, n, width, hashes, 0, 64));
            }
          }
        },
        "a probe of an inconsistent table of " + n + " slots, width " + width + " did not end");
  }

  /** The bounded select: one turn of the table, then the start slot; a run end past n too. */
  @Test
  void selectRunendEndsAfterOneTurn() {
    long n = 300;
    int width = 12;
    long[] t = table(n, width);
    ExpandableSlots.Words w = new ExpandableSlots.Heap(t);
    assertEquals(17, ExpandableRank.selectRunend(w, n, width, 17, 3));
    ExpandableSlots.setRunend(t, width, 5, true);
    assertEquals(5, ExpandableRank.selectRunend(w, n, width, 17, 1));
    assertEquals(5, ExpandableRank.selectRunend(w, n, width, 5, 1));
    assertEquals(40, ExpandableRank.selectRunend(w, n, width, 40, 2)); // only one in the table
    ExpandableSlots.setRunend(t, width, 310, true); // past the last slot: torn
    assertEquals(299, ExpandableRank.selectRunend(w, n, width, 299, 1));
  }
}
