package dev.sieve.stress;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.sieve.internal.AtomicBits;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.atomic.AtomicIntegerArray;
import org.junit.jupiter.api.Test;

/**
 * A repeated (jcstress-style) stress test of the bit-setting primitive {@link AtomicBits#setBit}:
 * in each of many rounds, 4 threads race to set all 256 bits of a fresh 4-word array, each in its
 * own order. Afterwards every bit must be set (no lost update) and, for every bit, exactly one of
 * the racing calls must have reported that it changed the bit (the return value is what {@code
 * addHash} reports as "definitely new"). A plain {@code words[i] |= mask} fails the first check
 * within a few rounds on a multi-core machine; a check-then-set without the atomic OR fails the
 * second.
 */
class AtomicBitsStressTest {
  private static final int THREADS = 4;
  private static final int WORDS = 4;
  private static final int BITS = WORDS * 64;

  @Test
  void everyBitIsSetAndClaimedExactlyOnce() throws Exception {
    int rounds = 2_000;
    long[][] arrays = new long[rounds][WORDS];
    AtomicIntegerArray claims = new AtomicIntegerArray(rounds * BITS);
    CyclicBarrier barrier = new CyclicBarrier(THREADS);
    Thread[] threads = new Thread[THREADS];
    Throwable[] failure = new Throwable[1];
    for (int t = 0; t < THREADS; t++) {
      int thread = t;
      threads[t] =
          new Thread(
              () -> {
                try {
                  for (int r = 0; r < rounds; r++) {
                    barrier.await(); // all threads start each round together
                    long[] words = arrays[r];
                    for (int j = 0; j < BITS; j++) {
                      // each thread walks the bits in a different order (stride coprime to 256)
                      int bit = (j * (2 * thread + 1) + 17 * thread) & (BITS - 1);
                      if (AtomicBits.setBit(words, bit >>> 6, bit & 63)) {
                        claims.incrementAndGet(r * BITS + bit);
                      }
                    }
                  }
                } catch (Throwable e) {
                  failure[0] = e;
                  barrier.reset();
                }
              });
      threads[t].start();
    }
    for (Thread thread : threads) {
      thread.join();
    }
    if (failure[0] != null) {
      throw new AssertionError(failure[0]);
    }
    for (int r = 0; r < rounds; r++) {
      for (int w = 0; w < WORDS; w++) {
        assertEquals(-1L, arrays[r][w], "round " + r + " word " + w + " lost a bit");
      }
      for (int b = 0; b < BITS; b++) {
        assertEquals(1, claims.get(r * BITS + b), "round " + r + " bit " + b + " claims");
      }
    }
  }
}
