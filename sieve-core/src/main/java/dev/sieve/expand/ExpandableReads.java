package dev.sieve.expand;

import java.util.concurrent.locks.StampedLock;

/**
 * The lookups of an {@link ExpandableFilter} past its single optimistic one: the batch form's chunk
 * (read optimistically as a single lookup is, again under the read lock if a writer came between)
 * and the lookup under the read lock. See "Threads" in the filter's class comment.
 */
final class ExpandableReads {
  private ExpandableReads() {}

  /**
   * Rethrows {@code torn} if no writer took the lock since {@code stamp}: then it is the kernel's
   * own; otherwise it came from half-written metadata read optimistically and the lookup is asked
   * again under the lock.
   */
  static void rethrowIfUntouched(StampedLock lock, long stamp, RuntimeException torn) {
    if (lock.validate(stamp)) {
      throw torn;
    }
  }

  /** {@return {@link ExpandableFilter#mayContainHash} under the read lock} */
  static boolean mayContainLocked(ExpandableFilter f, long hash64) {
    long stamp = f.lock.readLock();
    try {
      ExpandableMigration m = f.migration;
      return m == null
          ? ExpandableKernel.mayContain(f.heap, f.slots, f.width, hash64)
          : m.mayContain(f.heap, f.slots, f.width, hash64);
    } finally {
      f.lock.unlockRead(stamp);
    }
  }

  /** {@return the answers of the chunk {@code hashes[at, at + chunk)}, bit {@code i} for key i} */
  static long probeChunk(ExpandableFilter f, long[] hashes, int at, int chunk) {
    if (f.words == null) {
      return ExpandableKernel.probeChunk(f.wrappedWords, f.slots, f.width, hashes, at, chunk);
    }
    StampedLock lock = f.lock;
    long stamp = lock.tryOptimisticRead();
    ExpandableSlots.Heap w = f.heap;
    long n = f.slots;
    int wd = f.width;
    ExpandableMigration m = f.migration;
    if (lock.validate(stamp)) {
      try {
        long found = probe(m, w, n, wd, hashes, at, chunk);
        if (lock.validate(stamp)) {
          return found;
        }
      } catch (RuntimeException torn) {
        rethrowIfUntouched(lock, stamp, torn);
      }
    }
    stamp = lock.readLock();
    try {
      return probe(f.migration, f.heap, f.slots, f.width, hashes, at, chunk);
    } finally {
      lock.unlockRead(stamp);
    }
  }

  /** The chunk's answers: the kernel's two passes, or key by key during a doubling. */
  private static long probe(
      ExpandableMigration m,
      ExpandableSlots.Heap w,
      long n,
      int wd,
      long[] hashes,
      int at,
      int chunk) {
    if (m == null) {
      return ExpandableKernel.probeChunk(w, n, wd, hashes, at, chunk);
    }
    long found = 0;
    for (int i = 0; i < chunk; i++) {
      if (m.mayContain(w, n, wd, hashes[at + i])) {
        found |= 1L << i;
      }
    }
    return found;
  }
}
