package dev.sieve.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sieve.bloom.BlockedBloomFilter;
import dev.sieve.hash.KeyHash;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The SIMD experiment answers exactly as the library's blocked Bloom filter, at 1 to 24 probes. */
class VectorBlockedBloomTest {

  @Test
  void answersAsTheLibraryAtEveryProbeCountItHolds() {
    assertTrue(Diagnostics.vectorModulePresent(), "the bench tests run with jdk.incubator.vector");
    Workload w = Workload.create(20_000, 5);
    SplittableRandom random = new SplittableRandom(8);
    for (double bitsPerKey : new double[] {1, 3, 5, 7, 8, 10, 11.5, 13, 16, 22, 40, 100}) {
      VectorBlockedBloom vector = VectorBlockedBloom.build(w.keys(), bitsPerKey);
      BlockedBloomFilter scalar =
          BlockedBloomFilter.builder().bitsPerKey(bitsPerKey).build(w.keys());
      int maybes = 0;
      for (int i = 0; i < 100_000; i++) {
        long hash = i < w.size() ? KeyHash.hash64(w.keys()[i]) : random.nextLong();
        boolean expected = scalar.mayContainHash(hash);
        assertEquals(expected, vector.mayContainHash(hash), "bits/key " + bitsPerKey + " #" + i);
        maybes += expected ? 1 : 0;
      }
      assertTrue(maybes >= w.size(), "every key present");
    }
  }
}
