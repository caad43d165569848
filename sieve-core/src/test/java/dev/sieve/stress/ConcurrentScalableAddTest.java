package dev.sieve.stress;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sieve.bloom.ScalableBloomFilter;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * {@link ScalableBloomFilter} under concurrent adds, across stage switches: no key is lost, a key
 * whose add has returned is visible to every later query (also while stages open), and every add
 * that reported a change is counted exactly once.
 */
class ConcurrentScalableAddTest {

  private static long key(int thread, long i) {
    return ((long) thread << 40) ^ (i * 0x9E3779B97F4A7C15L);
  }

  /**
   * Six writers add 2·10^5 keys each to a filter guessed at 100 keys (about 14 stage switches, all
   * under contention) while a reader repeatedly picks a writer, reads how far it has got (a
   * volatile counter the writer sets after each add returns) and asserts that key present. Then
   * every key must be present, and the key count must equal the number of adds that returned {@code
   * true} (a ticket lost or counted twice at a switch would show here).
   */
  @Test
  void noKeyIsLostAcrossConcurrentStageSwitches() throws Exception {
    int writers = 6;
    long perWriter = 200_000;
    ScalableBloomFilter filter = ScalableBloomFilter.builder().expectedKeys(100).create();
    AtomicLongArray progress = new AtomicLongArray(writers);
    AtomicLong changed = new AtomicLong();
    AtomicReference<Throwable> failure = new AtomicReference<>();
    CyclicBarrier start = new CyclicBarrier(writers + 1);
    List<Thread> threads = new ArrayList<>();
    for (int t = 0; t < writers; t++) {
      int id = t;
      threads.add(
          new Thread(
              () -> {
                try {
                  start.await();
                  long mine = 0;
                  for (long i = 0; i < perWriter; i++) {
                    if (filter.add(key(id, i))) {
                      mine++;
                    }
                    progress.set(id, i + 1);
                  }
                  changed.addAndGet(mine);
                } catch (Throwable e) {
                  failure.compareAndSet(null, e);
                }
              }));
    }
    Thread reader =
        new Thread(
            () -> {
              try {
                start.await();
                long checks = 0;
                boolean allDone = false;
                while (!allDone && failure.get() == null) {
                  allDone = true;
                  for (int t = 0; t < writers; t++) {
                    long done = progress.get(t);
                    allDone &= done == perWriter;
                    if (done > 0 && !filter.mayContain(key(t, done - 1))) {
                      throw new AssertionError("a returned add of writer " + t + " is not visible");
                    }
                    checks++;
                  }
                }
                assertTrue(checks > 0);
              } catch (Throwable e) {
                failure.compareAndSet(null, e);
              }
            });
    threads.forEach(Thread::start);
    reader.start();
    for (Thread th : threads) {
      th.join();
    }
    reader.join();
    if (failure.get() != null) {
      throw new AssertionError(failure.get());
    }
    for (int t = 0; t < writers; t++) {
      for (long i = 0; i < perWriter; i++) {
        assertTrue(filter.mayContain(key(t, i)), "lost key " + i + " of writer " + t);
      }
    }
    assertEquals(changed.get(), filter.numKeys());
    assertTrue(filter.numStages() >= 13, "stages: " + filter.numStages());
    for (int i = 0; i < filter.numStages(); i++) {
      assertTrue(filter.stageKeys(i) <= filter.stageCapacity(i));
    }
    // the counts are exact: no stage below the last was left with room by more than the adds
    // that gave their ticket back
    for (int i = 0; i < filter.numStages() - 1; i++) {
      assertTrue(
          filter.stageKeys(i) >= filter.stageCapacity(i) - writers,
          "stage " + i + " closed at " + filter.stageKeys(i) + " of " + filter.stageCapacity(i));
    }
  }

  /**
   * 300 rounds of 4 threads racing through the first switches of a filter of capacity 1, growth
   * 1.25 (stages of 1, 2, 3, 4, 5, 7 ... keys): every switch is contended. All keys present after.
   */
  @Test
  void tinyStagesUnderContention() throws Exception {
    for (int round = 0; round < 300; round++) {
      ScalableBloomFilter filter =
          ScalableBloomFilter.builder().expectedKeys(1).growthFactor(1.25).create();
      int threads = 4;
      int per = 40;
      CyclicBarrier start = new CyclicBarrier(threads);
      AtomicReference<Throwable> failure = new AtomicReference<>();
      Thread[] ts = new Thread[threads];
      int r = round;
      for (int t = 0; t < threads; t++) {
        int id = t;
        ts[t] =
            new Thread(
                () -> {
                  try {
                    start.await();
                    for (int i = 0; i < per; i++) {
                      filter.add(key(id, i + 1000L * r));
                    }
                  } catch (Throwable e) {
                    failure.compareAndSet(null, e);
                  }
                });
        ts[t].start();
      }
      for (Thread t : ts) {
        t.join();
      }
      if (failure.get() != null) {
        throw new AssertionError(failure.get());
      }
      for (int t = 0; t < threads; t++) {
        for (int i = 0; i < per; i++) {
          assertTrue(filter.mayContain(key(t, i + 1000L * r)), "round " + round + " lost a key");
        }
      }
    }
  }
}
