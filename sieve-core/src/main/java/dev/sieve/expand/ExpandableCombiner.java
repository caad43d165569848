package dev.sieve.expand;

import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.StampedLock;

/**
 * The adds of an {@link ExpandableFilter} by flat combining: a writer that finds the write lock
 * free takes it, adds its key, then applies every add other writers queued meanwhile before it lets
 * the lock go; a writer that finds it taken queues its hash and waits until the holder has applied
 * it, or takes the lock itself when it comes free (and then applies the queue, its own add
 * included). One thread so does the writes of several in a row, with the table, the counts and the
 * lock word in its own cache, instead of the writers handing the lock and those lines to each other
 * on every add; the writers' adds are still applied one at a time, as under the plain lock.
 *
 * <p>An add returns only once its key is in the table: the holder applies a queued add under the
 * write lock and then publishes it done (a volatile write the waiter reads), so a query begun after
 * the add returned either finds the lock held (and asks again under the read lock, after the
 * holder's unlock) or reads the table with the key in it. An add that fails (a full or saturated
 * table) hands its exception to its own writer; the holder goes on with the others.
 *
 * <p>No waiter is left behind: a waiter tries the lock after queuing, and a holder, after letting
 * the lock go, wakes the newest waiter if one is queued and asleep; as both sides write first
 * (queue, then lock; lock, then read the queue) and read the other's write after, through volatile
 * fields, one of them sees the other. A waiter first spins (an add takes well under a microsecond)
 * and then sleeps in bounded naps, each ended early by the holder that applied its add.
 */
final class ExpandableCombiner {

  /** Spins before a waiter sleeps: a few microseconds, the time of a few queued adds. */
  private static final int SPINS = 1 << 8;

  /** A sleeping waiter's longest nap before it looks at the lock again. */
  private static final long NAP_NANOS = 50_000;

  /**
   * Rounds of the queue a holder applies before it lets the lock go: a bound on the adds it does
   * for others, so that writers who keep queuing cannot hold its own caller back without end (what
   * it leaves, a waiter or the next holder applies).
   */
  private static final int ROUNDS = 4;

  /** One queued add: the hash, its writer, and the outcome. */
  static final class Node {
    final long hash;
    final Thread waiter;
    Node next; // the one queued before it (written before the node is published)
    volatile boolean done;
    volatile boolean asleep;
    Throwable failure;

    Node(long hash, Thread waiter) {
      this.hash = hash;
      this.waiter = waiter;
    }
  }

  /** The queued adds, newest first (a Treiber stack; a holder takes all of it at once). */
  private final AtomicReference<Node> queue = new AtomicReference<>();

  /** {@return whether an add is queued, for the package's tests} */
  boolean queued() {
    return queue.get() != null;
  }

  /** {@return the adds queued now, for the package's tests} */
  int queuedCount() {
    int c = 0;
    for (Node n = queue.get(); n != null; n = n.next) {
      c++;
    }
    return c;
  }

  /**
   * {@link ExpandableFilter#addHash}: under the write lock if it is free, else queued for its
   * holder. Returns once the key is in the table.
   */
  static void add(ExpandableFilter f, long hash) {
    StampedLock lock = f.lock;
    long stamp = lock.tryWriteLock();
    if (stamp != 0) {
      try {
        ExpandableOps.addAndStep(f, hash);
      } finally {
        f.combiner.applyQueuedAndUnlock(f, stamp);
      }
      return;
    }
    f.combiner.await(f, hash);
  }

  /**
   * Queues {@code hash} and waits until it is applied, applying the queue when the lock is free.
   */
  private void await(ExpandableFilter f, long hash) {
    Node node = new Node(hash, Thread.currentThread());
    Node head;
    do {
      head = queue.get();
      node.next = head;
    } while (!queue.compareAndSet(head, node));
    StampedLock lock = f.lock;
    for (int spins = 0; !node.done; spins++) {
      long stamp = lock.tryWriteLock();
      if (stamp != 0) {
        applyQueuedAndUnlock(f, stamp); // the queue holds this node until a holder takes it
      } else if (spins < SPINS) {
        Thread.onSpinWait();
      } else {
        node.asleep = true;
        if (!node.done && lock.isWriteLocked()) {
          LockSupport.parkNanos(this, NAP_NANOS);
        }
        node.asleep = false;
        if (!node.done && lock.isReadLocked()) { // a copy or a form being written: may be long
          applyQueuedAndUnlock(f, lock.writeLock()); // blocks, as the plain lock would
        }
      }
    }
    Throwable failure = node.failure;
    if (failure instanceof RuntimeException e) {
      throw e;
    }
    if (failure instanceof Error e) {
      throw e;
    }
  }

  /**
   * Applies the queued adds (up to {@link #ROUNDS} takes of the queue, each in the order queued),
   * then lets the write lock {@code stamp} go and wakes the newest waiter if one is asleep.
   */
  void applyQueuedAndUnlock(ExpandableFilter f, long stamp) {
    try {
      for (int round = 0; round < ROUNDS; round++) {
        if (queue.get() == null) { // a plain read first: the lone writer pays no atomic swap
          break;
        }
        applyOldestFirst(f, queue.getAndSet(null));
      }
    } finally {
      f.lock.unlockWrite(stamp);
    }
    Node newest = queue.get();
    if (newest != null && newest.asleep) {
      LockSupport.unpark(newest.waiter);
    }
  }

  /** Applies the adds of {@code newest} and those queued before it, the oldest first. */
  private static void applyOldestFirst(ExpandableFilter f, Node newest) {
    Node oldest = null;
    for (Node n = newest; n != null; ) { // reverse the links: oldest first
      Node before = n.next;
      n.next = oldest;
      oldest = n;
      n = before;
    }
    for (Node n = oldest; n != null; ) {
      Node after = n.next;
      try {
        ExpandableOps.addAndStep(f, n.hash);
      } catch (RuntimeException | Error e) {
        n.failure = e; // the waiter's own exception; the others' adds go on
      }
      n.done = true; // after the add's writes: the waiter returns to a table with its key
      if (n.asleep) {
        LockSupport.unpark(n.waiter);
      }
      n = after;
    }
  }
}
