package dev.sieve.expand;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * Equal keys cost a bounded run: a run keeps at most {@link ExpandableDuplicates#MAX_COPIES} copies
 * of one entry, so a build of a million equal keys is linear, and a remove never takes the copy
 * that a key still added needs.
 */
class ExpandableDuplicatesTest {

  @Test
  void aMillionEqualKeysBuildIntoABoundedRun() {
    long[] keys = new long[1_000_000];
    Arrays.fill(keys, 42L);
    // a hang guard, not a timing: a run as long as the adds took minutes to build
    ExpandableFilter f =
        assertTimeoutPreemptively(
            Duration.ofSeconds(20), () -> ExpandableFilter.builder().build(keys));
    assertTrue(f.mayContain(42L));
    assertEquals(1_000_000, f.numKeys());
    assertTrue(
        f.entries() <= ExpandableDuplicates.MAX_COPIES,
        "entries of one key: " + f.entries() + " > " + ExpandableDuplicates.MAX_COPIES);
  }

  /**
   * Hashes that agree on their quotient and fingerprint (the low bits differ only), added one at a
   * time: the run of their quotient never holds more than the bound, whatever the adds.
   */
  @Test
  void lowEntropyHashesNeverGrowARunPastTheBound() {
    ExpandableFilter f = ExpandableFilter.builder().fpRate(0.01).create();
    SplittableRandom rnd = new SplittableRandom(7);
    long top = 0x5A5A_5A5A_0000_0000L;
    for (int i = 0; i < 200_000; i++) {
      f.addHash(top | (rnd.nextLong() & 0xFFFF));
      assertTrue(f.entries() <= ExpandableDuplicates.MAX_COPIES, "entries after add " + i);
    }
    for (int i = 0; i < 1000; i++) {
      assertTrue(f.mayContainHash(top | (rnd.nextLong() & 0xFFFF)));
    }
  }

  /** A key added past the bound keeps another present key present through all its removes. */
  @Test
  void removesOfASaturatedKeyNeverTakeAnotherKeysEntry() {
    ExpandableFilter f = ExpandableFilter.builder().fpRate(0.01).create();
    long x = 0x1234_5678_9ABC_DEF0L;
    int adds = 3 * ExpandableDuplicates.MAX_COPIES;
    for (int i = 0; i < adds; i++) {
      f.addHash(x);
    }
    long y = x ^ 0xFF; // the same quotient and fingerprint: the same entry value as x
    f.addHash(y);
    for (int i = 0; i < adds; i++) {
      assertTrue(f.removeHash(x), "remove " + i);
      assertTrue(f.mayContainHash(y), "y after remove " + i + " of x");
    }
    assertEquals(1, f.numKeys());
  }

  /** Below the bound the multiset holds: a key added twice stays until removed twice. */
  @Test
  void belowTheBoundAKeyAddedTwiceStaysUntilRemovedTwice() {
    ExpandableFilter f = ExpandableFilter.builder().fpRate(0.01).create();
    long x = 0x0F0F_0F0F_0F0F_0F0FL;
    f.addHash(x);
    f.addHash(x);
    assertEquals(2, f.entries());
    assertTrue(f.removeHash(x));
    assertTrue(f.mayContainHash(x));
    assertTrue(f.removeHash(x));
    assertEquals(0, f.entries());
  }
}
