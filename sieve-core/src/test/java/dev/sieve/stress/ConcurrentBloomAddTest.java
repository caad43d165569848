package dev.sieve.stress;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sieve.MutableFilter;
import dev.sieve.bloom.BlockedBloomFilter;
import dev.sieve.bloom.StandardBloomFilter;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.function.LongFunction;
import org.junit.jupiter.api.Test;

/**
 * Concurrent {@code add} on the Bloom filters loses no key: 8 threads add 10^6 distinct keys each
 * at once, then every one of the 8·10^6 keys must be reported present. A lost update (a plain
 * read-modify-write of a word racing another thread's) would clear a bit another thread set and
 * show up here as a false negative. The second test squeezes the same number of threads into a tiny
 * filter so that every add contends on the same few words.
 */
class ConcurrentBloomAddTest {
  private static final int THREADS = 8;

  static long key(int thread, int i) {
    return ((long) thread << 40) ^ (i * 0x9E3779B97F4A7C15L);
  }

  /** Runs the adds on {@code THREADS} threads released together; returns the number of misses. */
  static long addConcurrentlyThenCountMisses(MutableFilter filter, int perThread) throws Exception {
    CyclicBarrier start = new CyclicBarrier(THREADS);
    List<Thread> threads = new ArrayList<>();
    List<Throwable> errors = new ArrayList<>();
    for (int t = 0; t < THREADS; t++) {
      int thread = t;
      Thread worker =
          new Thread(
              () -> {
                try {
                  start.await();
                  for (int i = 0; i < perThread; i++) {
                    filter.add(key(thread, i));
                  }
                } catch (Throwable e) {
                  synchronized (errors) {
                    errors.add(e);
                  }
                }
              });
      threads.add(worker);
      worker.start();
    }
    for (Thread worker : threads) {
      worker.join(); // happens-before: every add is visible below
    }
    assertTrue(errors.isEmpty(), () -> "worker failed: " + errors);
    long misses = 0;
    for (int t = 0; t < THREADS; t++) {
      for (int i = 0; i < perThread; i++) {
        if (!filter.mayContain(key(t, i))) {
          misses++;
        }
      }
    }
    return misses;
  }

  @Test
  void eightThreadsTimesAMillionKeysLoseNothing() throws Exception {
    int perThread = 1_000_000;
    long n = (long) THREADS * perThread;
    assertEquals(
        0,
        addConcurrentlyThenCountMisses(BlockedBloomFilter.createWithBitsPerKey(n, 10), perThread));
    assertEquals(
        0,
        addConcurrentlyThenCountMisses(StandardBloomFilter.createWithBitsPerKey(n, 10), perThread));
  }

  @Test
  void heavyContentionOnAFewWordsLosesNothing() throws Exception {
    // 2 blocks (16 words) and 1024 bits: every add races the others on the same cache lines
    for (int round = 0; round < 20; round++) {
      LongFunction<MutableFilter> fresh =
          r ->
              r % 2 == 0
                  ? BlockedBloomFilter.withShape(128, 6)
                  : StandardBloomFilter.withShape(1024, 3);
      assertEquals(0, addConcurrentlyThenCountMisses(fresh.apply(round), 2_000), "round " + round);
    }
  }
}
