package dev.sieve.bench.jmh;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sieve.MutableFilter;
import org.junit.jupiter.api.Test;

/**
 * {@link ConcurrentWritersBenchmark}'s fill, run once per structure without JMH: three writers at
 * once leave every key present, and the expandable filter, which counts exactly, counts them all.
 */
class ConcurrentWritersBenchmarkTest {
  @Test
  void everyWriterAddsItsSliceOfTheKeys() throws Exception {
    for (String structure : new String[] {"expandable", "expandable-hinted", "scalable"}) {
      ConcurrentWritersBenchmark b = new ConcurrentWritersBenchmark();
      b.structure = structure;
      b.writers = 3;
      b.n = 60_001;
      b.fpRate = 0.01;
      b.drawKeys();
      try {
        b.freshFilter();
        MutableFilter f = b.fill();
        long[] keys = new java.util.SplittableRandom(1).longs(b.n).toArray();
        for (long k : keys) {
          assertTrue(f.mayContainHash(k), structure + ": a key added by a writer is absent");
        }
        if (structure.startsWith("expandable")) {
          assertEquals(b.n, f.numKeys(), structure);
        }
      } finally {
        b.stopPool();
      }
    }
  }
}
