package dev.sieve.expand;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * The combined adds of {@link ExpandableCombiner}: an add that finds the write lock taken waits,
 * queued, until the holder applies it, and the holder applies the queue, oldest first, before it
 * lets the lock go; the result is exactly the filter of the same adds made one after the other by
 * one thread (the plain path), before and after the combining loops are compiled. Many writers at
 * once end with every key present and the counts of one writer's fill.
 */
class ExpandableCombinerTest {

  /** Two keys in the same run of the smallest table, so their order shows in its slots. */
  static final long FIRST = 0x0900_0000_0000_0001L;

  static final long SECOND = 0x0A00_0000_0000_0002L;

  static final long OWN = 0x7000_0000_0000_0003L;

  @Test
  void queuedAddsWaitForTheHolderAndAreAppliedInTheirOrder() throws InterruptedException {
    ExpandableFilter f = ExpandableFilter.builder().fpRate(0.01).create();
    assertEquals(
        ExpandableKernel.quotient(FIRST, f.slots), ExpandableKernel.quotient(SECOND, f.slots));
    long stamp = f.lock.writeLock(); // this thread is the holder
    Thread first = queuedAdd(f, FIRST, new AtomicReference<>());
    Thread second = queuedAdd(f, SECOND, new AtomicReference<>());
    ExpandableOps.addAndStep(f, OWN);
    Thread.sleep(20);
    assertTrue(first.isAlive() && second.isAlive(), "an add returned before it was applied");
    assertEquals(1, f.entries());
    f.combiner.applyQueuedAndUnlock(f, stamp);
    first.join();
    second.join();
    assertFalse(f.combiner.queued());
    assertFalse(f.lock.isWriteLocked());
    ExpandableFilter plain = ExpandableFilter.builder().fpRate(0.01).create();
    plain.addHash(OWN);
    plain.addHash(FIRST);
    plain.addHash(SECOND);
    assertEquals(plain, f);
    ExpandableFilter reversed = ExpandableFilter.builder().fpRate(0.01).create();
    reversed.addHash(OWN);
    reversed.addHash(SECOND);
    reversed.addHash(FIRST);
    assertFalse(reversed.equals(f), "the two keys' order does not show: the test cannot fail");
  }

  /** Starts a thread adding {@code hash} and returns once its add is queued behind the holder. */
  private static Thread queuedAdd(ExpandableFilter f, long hash, AtomicReference<Throwable> thrown)
      throws InterruptedException {
    int before = f.combiner.queuedCount();
    Thread t =
        new Thread(
            () -> {
              try {
                f.addHash(hash);
              } catch (RuntimeException e) {
                thrown.set(e);
              }
            });
    t.start();
    while (f.combiner.queuedCount() == before) {
      Thread.sleep(1);
    }
    return t;
  }

  /**
   * A queued add that fails hands its exception to its own writer, not to the holder, and the
   * holder goes on: here the table is taken away while the add is queued, so applying it throws.
   */
  @Test
  void aFailedQueuedAddThrowsInItsOwnThread() throws InterruptedException {
    ExpandableFilter f = ExpandableFilter.builder().fpRate(0.01).create();
    long stamp = f.lock.writeLock();
    AtomicReference<Throwable> thrown = new AtomicReference<>();
    Thread waiter = queuedAdd(f, FIRST, thrown);
    ExpandableSlots.Heap table = f.heap;
    f.heap = null;
    f.combiner.applyQueuedAndUnlock(f, stamp); // returns normally
    waiter.join();
    f.heap = table;
    assertInstanceOf(NullPointerException.class, thrown.get());
    assertEquals(0, f.numKeys());
    f.addHash(SECOND);
    assertTrue(f.mayContainHash(SECOND));
    assertFalse(f.lock.isWriteLocked());
  }

  /**
   * Four writers add disjoint keys at once through several doublings (long enough for the combining
   * loops to be compiled): every key is present, every add counted, and the filter's size and rate
   * are those of the same keys added by one thread.
   */
  @Test
  void concurrentWritersEndAsOneWriterWould() throws InterruptedException {
    int writers = 4;
    int perWriter = 100_000;
    for (int round = 0; round < 3; round++) { // the later rounds run compiled
      ExpandableFilter f = ExpandableFilter.builder().fpRate(0.01).create();
      Thread[] threads = new Thread[writers];
      for (int t = 0; t < writers; t++) {
        long base = (long) t * perWriter;
        threads[t] =
            new Thread(
                () -> {
                  for (long i = 0; i < perWriter; i++) {
                    f.addHash(ExpandableGrowthTest.keyHash(base + i));
                  }
                });
        threads[t].start();
      }
      for (Thread t : threads) {
        t.join();
      }
      ExpandableFilter one = ExpandableFilter.builder().fpRate(0.01).create();
      for (long k = 0; k < (long) writers * perWriter; k++) {
        one.addHash(ExpandableGrowthTest.keyHash(k));
        assertTrue(f.mayContainHash(ExpandableGrowthTest.keyHash(k)), "missed key " + k);
      }
      assertEquals(one.numKeys(), f.numKeys());
      assertEquals(one.entries(), f.entries());
      assertEquals(one.doublings(), f.doublings());
      assertEquals(one.sizeInBits(), f.sizeInBits());
      assertEquals(one.modelledFpRate(), f.modelledFpRate(), 1e-12);
      assertFalse(f.combiner.queued());
    }
  }
}
