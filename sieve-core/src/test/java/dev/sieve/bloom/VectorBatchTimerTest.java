package dev.sieve.bloom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The open gate's timing of its callers' batches ({@link VectorBatchTimer}): which batches are
 * timed, and when the batches switch to the scalar path and back.
 */
class VectorBatchTimerTest {

  /** One window of timings, {@code vector} and {@code scalar} nanoseconds per 64 lookups. */
  private static void window(VectorBatchTimer t, long vector, long scalar) {
    for (int i = 0; i < VectorBatchTimer.WINDOW; i++) {
      t.record(true, vector, 64);
      t.record(false, scalar, 64);
    }
  }

  @Test
  void aSimdBatchFourTimesSlowerInTwoWindowsRunningSendsTheBatchesToTheScalarPathAndBack() {
    VectorBatchTimer t = new VectorBatchTimer();
    assertFalse(t.slow());
    window(t, 10_000, 600);
    assertFalse(t.slow(), "one slow window is not enough");
    window(t, 500, 600);
    window(t, 10_000, 600);
    assertFalse(t.slow(), "the slow windows must run in a row");
    window(t, 10_000, 600);
    assertTrue(t.slow(), "two slow windows in a row");
    assertEquals(1, t.switches());
    window(t, 1_000, 600);
    assertTrue(t.slow(), "one fast window is not enough to switch back");
    window(t, 1_200, 600);
    assertFalse(t.slow(), "two windows at most twice the scalar batch: back to SIMD");
    assertEquals(2, t.switches());
  }

  @Test
  void aPathMeasuresByItsFastestTimingInTheWindowSoOnePreemptedBatchChangesNothing() {
    VectorBatchTimer t = new VectorBatchTimer();
    for (int w = 0; w < 10; w++) {
      t.record(true, 5_000_000, 64); // one SIMD batch preempted for milliseconds
      for (int i = 1; i < VectorBatchTimer.WINDOW; i++) {
        t.record(true, 500, 64);
      }
      window(t, 450, 700);
    }
    assertFalse(t.slow());
    assertEquals(0, t.switches());
    // a slow path by the ratio alone: 4 times is not slow, more than 4 times is
    VectorBatchTimer edge = new VectorBatchTimer();
    window(edge, 2_400, 600);
    window(edge, 2_400, 600);
    assertFalse(edge.slow(), "exactly four times");
    window(edge, 2_401, 600);
    window(edge, 2_401, 600);
    assertTrue(edge.slow(), "past four times");
  }

  @Test
  void timingsAreNormalizedPerSixtyFourLookups() {
    VectorBatchTimer t = new VectorBatchTimer();
    for (int w = 0; w < 2; w++) {
      for (int i = 0; i < VectorBatchTimer.WINDOW; i++) {
        t.record(true, 16 * 1_000, 16 * 64); // 1,000 ns per 64 lookups
        t.record(false, 100, 16); // 400 ns per 64 lookups
      }
    }
    assertFalse(t.slow(), "2.5 times the scalar batch per lookup is not slow");
  }

  @Test
  void aboutOneBatchIn8192IsTimedHalfOnEachPath() {
    VectorBatchTimer t = new VectorBatchTimer();
    SplittableRandom random = new SplittableRandom(7);
    int draws = 1 << 23;
    int[] counts = new int[3];
    for (int i = 0; i < draws; i++) {
      counts[t.sample(random.nextLong())]++;
    }
    // 1,024 expected timed; 99.9% bounds of a binomial of this size are about ±100
    int timed = counts[1] + counts[2];
    assertTrue(timed > 900 && timed < 1_150, "timed " + timed);
    assertTrue(
        Math.abs(counts[1] - counts[2]) < 150, "SIMD " + counts[1] + ", scalar " + counts[2]);
    assertEquals(1, t.sample(0L), "bits 40 to 53 zero: a SIMD timing");
    assertEquals(2, t.sample(1L << 53), "bit 53 set: a scalar timing");
    assertEquals(0, t.sample(1L << 40), "bit 40 set: not timed");
  }
}
