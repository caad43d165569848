package dev.sieve.expand;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.Executors;

/**
 * The next table of a large expandable filter, allocated ahead of its doubling on a background
 * thread, so that the add which begins the doubling finds the table ready instead of having the JVM
 * zero twice the table's memory on the caller's thread.
 *
 * <h2>Why</h2>
 *
 * A doubling is incremental ({@code ExpandableMigration}): each write moves at most 16 of the old
 * table's entries. What remained for the add that begins it was the allocation of the new table:
 * the JVM zeroes every word, a cost that grows with the table (a few milliseconds per 30 MB of
 * table, so tens of milliseconds past 10^8 keys), the one pause a writer still paid.
 *
 * <h2>How</h2>
 *
 * When an add to a filter that has doubled before (one filled to its {@code expectedKeys} hint is
 * left as large as it asked for) leaves room for fewer than {@code slots / 32} more entries before
 * the doubling is due (the load within about 0.03 of its highest), and the next table has at least
 * {@value #MIN_WORDS} words (smaller ones are zeroed in well under a millisecond), the add (under
 * the write lock) asks the allocator, one daemon thread ({@value #THREAD_NAME}) shared by every
 * filter and started at the first request, for an array of the words the doubling would take if it
 * began now. The add that begins the doubling takes that array if it is ready and has the length
 * the doubling takes, and otherwise allocates its own: when the slots widen at that doubling (a
 * fingerprint bit more, every few doublings; see the filter's class comment), or when adds come
 * faster than the allocator zeroes. Either way the new table is all zeros: the answers, the table
 * and its bytes never depend on which.
 *
 * <h2>What it costs</h2>
 *
 * Memory: the spare is the filter's from the moment it is ready, and {@link
 * ExpandableFilter#sizeInBits()} counts it from then (about {@code 1/32} of the table's adds before
 * the doubling, where the filter would otherwise hold one table). A compact or a union, which shape
 * the table otherwise, drops it. Per add: one field read while no request is pending.
 */
final class ExpandableSpare {
  /** The smallest next table allocated ahead: 1 MiB of words. */
  static final long MIN_WORDS = 1L << 17;

  /** The allocator thread's name. */
  static final String THREAD_NAME = "sieve-expandable-allocator";

  private CompletableFuture<long[]> pending; // written under the filter's write lock

  /**
   * Asks for the next table when the doubling is near and the table is large; the caller holds the
   * write lock, and no doubling is under way.
   */
  void prepare(ExpandableFilter f) {
    if (pending != null || f.log == f.startLog) {
      return; // a table that never doubled is as large as its hint asked for
    }
    long room = ExpandableMath.maxEntries(f.slots) - f.used;
    if (room > f.slots >>> 5 || f.log >= ExpandableMath.MAX_LOG_SLOTS) {
      return;
    }
    long next = ExpandableGrowth.wordCount(ExpandableMath.slots(f.log + 1, f.mant), nextWidth(f));
    if (next < MIN_WORDS || next > Integer.MAX_VALUE - 8) {
      return;
    }
    int n = (int) next;
    pending = CompletableFuture.supplyAsync(() -> new long[n], Allocator.EXECUTOR);
  }

  /** The width the doubling would give the table if it began now. */
  private static int nextWidth(ExpandableFilter f) {
    return Math.max(f.width, ExpandableGrowth.nextBits(f) + ExpandableMath.SLOT_OVERHEAD_BITS);
  }

  /**
   * {@return an all-zero table of {@code n} words: the spare when it is ready and that long, else a
   * new array} The spare is dropped either way.
   */
  long[] take(int n) {
    long[] ready = readyOf(pending);
    pending = null;
    return ready != null && ready.length == n ? ready : new long[n];
  }

  /**
   * The array once allocated; null while under way, or when the allocation failed (then the add
   * allocates).
   */
  private static long[] readyOf(CompletableFuture<long[]> p) {
    return p != null && p.isDone() && !p.isCompletedExceptionally() ? p.join() : null;
  }

  /** Drops the spare: the table is about to change shape otherwise. */
  void drop() {
    pending = null;
  }

  /** {@return the bits of the spare the filter holds: its size once ready, else 0} */
  long readyBits() {
    long[] ready = readyOf(pending);
    return ready == null ? 0 : 64L * ready.length;
  }

  /** {@return the spare's array if it is ready, else null: for the package's tests} */
  long[] ready() {
    return readyOf(pending);
  }

  /** Whether a spare has been asked for and not yet taken or dropped. */
  boolean requested() {
    return pending != null;
  }

  /** The shared allocator thread, started by the first request. */
  private static final class Allocator {
    static final Executor EXECUTOR =
        Executors.newSingleThreadExecutor(
            r -> {
              Thread t = new Thread(r, THREAD_NAME);
              t.setDaemon(true);
              return t;
            });
  }
}
