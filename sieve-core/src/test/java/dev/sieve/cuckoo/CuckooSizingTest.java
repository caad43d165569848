package dev.sieve.cuckoo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sieve.hash.KeyHash;
import org.junit.jupiter.api.Test;

/**
 * Pins the figures the class comment states: the minimum of 16 buckets, the loads the sizing gives
 * (0.125 at 8 keys, 0.55 at 64, 0.76 at 512, 0.91 at 16,384, 0.945 at 10^6, 0.6% more space than
 * the plain design load there), and the builder's promise that a build never fails and stores a
 * repeated key once.
 */
class CuckooSizingTest {

  private static double load(long n) {
    return (double) n / (CuckooFilter.SLOTS_PER_BUCKET * (long) CuckooBuild.bucketsFor(n));
  }

  @Test
  void theStatedSizingFigures() {
    assertEquals(16, CuckooBuild.MIN_BUCKETS);
    assertEquals(16, CuckooBuild.bucketsFor(0));
    assertEquals(16, CuckooBuild.bucketsFor(8));
    assertEquals(0.125, load(8), 0.0005);
    assertEquals(0.55, load(64), 0.005);
    assertEquals(0.76, load(512), 0.005);
    assertEquals(0.91, load(16_384), 0.005);
    assertEquals(0.945, load(1_000_000), 0.0005);
    assertEquals(1.006, CuckooFilter.DESIGN_LOAD / load(1_000_000), 0.001);
  }

  @Test
  void aBuildNeverFailsAndStoresARepeatOnce() {
    long[] keys = new long[20_000];
    for (int i = 0; i < keys.length; i++) {
      keys[i] = i % 1000; // every key twenty times: a ninth copy would not fit with plain adds
    }
    CuckooFilter f = CuckooFilter.builder().fingerprintBits(12).build(keys);
    assertTrue(f.numKeys() <= 1000 && f.numKeys() > 990, "stored " + f.numKeys());
    assertEquals(0, f.failedAdds());
    for (int k = 0; k < 1000; k++) {
      assertTrue(f.mayContain((long) k));
    }
    // a tiny table of 4-bit fingerprints, where repeats of a fingerprint are likely, holds them all
    long[] crowded = new long[64];
    for (int i = 0; i < crowded.length; i++) {
      crowded[i] = KeyHash.mix64(i);
    }
    CuckooFilter small = CuckooFilter.builder().fingerprintBits(4).buildFromHashes(crowded);
    for (long h : crowded) {
      assertTrue(small.mayContainHash(h));
    }
    assertFalse(small.failedAdds() > 0);
  }
}
