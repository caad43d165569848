package dev.sieve.jcstress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.sieve.expand.ExpandableFilter;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.ZZZ_Result;

/**
 * {@link ExpandableFilter}'s promise to concurrent writers ("Threads" in its Javadoc): adds are
 * combined (a writer that finds the write lock taken queues its add, and the holder applies it
 * before it lets the lock go), and an add returns only once its key is in the table. So each writer
 * finds its own key when its add has returned, a writer that has seen the other's volatile flag
 * (set after the other's add returned) finds the other's key too, and both keys are present and
 * counted at the end. Every outcome with a false negative is forbidden.
 *
 * <p>Both tests start from a copy of {@link ExpandableTests#FULL}, one add short of the first
 * doubling: the first add allocates the new table, so the other writer's add likely finds the lock
 * taken and is applied by the holder (the combined path), and the adds after it move the old
 * table's entries while the other writer waits.
 */
public final class ExpandableWriterTests {
  private ExpandableWriterTests() {}

  /** The keys of the two writers (distinct from each other and from the filled ones). */
  static final long FIRST = 0x5EC0_0000_0000_0001L;

  static final long SECOND = 0x5EC0_0000_0000_0002L;

  /**
   * Whether {@code mine} is present, and {@code theirs} too when its writer's flag was seen (read
   * before the query): the writer's view, {@code false} only for a false negative.
   */
  static boolean sees(ExpandableFilter f, long mine, boolean sawTheirs, long theirs) {
    return f.mayContain(mine) && (!sawTheirs || f.mayContain(theirs));
  }

  /**
   * Two writers add one key each at once (one of the adds doubles the table), set a volatile flag,
   * read the other's flag and query both keys. Columns: the first writer's view, the second's (see
   * {@link #sees}); the arbiter's: both keys present, both counted, the table doubled once and
   * every earlier key present.
   */
  @JCStressTest
  @Outcome(
      id = "true, true, true",
      expect = ACCEPTABLE,
      desc = "Each writer found its own key, and the other's once it had seen its flag.")
  @Outcome(
      expect = FORBIDDEN,
      desc = "A false negative: a key missed after its add returned, or a wrong end state.")
  @State
  public static class TwoAdders {
    final ExpandableFilter filter = ExpandableTests.FULL.copy();
    volatile boolean firstAdded;
    volatile boolean secondAdded;

    @Actor
    public void first(ZZZ_Result r) {
      filter.add(FIRST);
      firstAdded = true;
      r.r1 = sees(filter, FIRST, secondAdded, SECOND);
    }

    @Actor
    public void second(ZZZ_Result r) {
      filter.add(SECOND);
      secondAdded = true;
      r.r2 = sees(filter, SECOND, firstAdded, FIRST);
    }

    @Arbiter
    public void arbiter(ZZZ_Result r) {
      r.r3 =
          filter.mayContain(FIRST)
              && filter.mayContain(SECOND)
              && filter.numKeys() == ExpandableTests.FILL + 2
              && filter.doublings() == 1
              && ExpandableTests.allFillPresent(filter);
    }
  }

  /** The adds of the busy writer after its first: a few doubling steps' worth. */
  static final int BUSY_ADDS = 32;

  /**
   * One writer adds one key while the other adds {@value #BUSY_ADDS} more (the first of them
   * doubling the table, the rest moving the old table's entries), so the one add is likely queued
   * behind the busy writer and applied by it. Each sets a volatile flag when done and checks the
   * other's keys after seeing the other's flag. Columns: the single writer's view, the busy
   * writer's (see {@link #sees}; the busy writer checks every key it added); the arbiter's: every
   * key present and counted.
   */
  @JCStressTest
  @Outcome(
      id = "true, true, true",
      expect = ACCEPTABLE,
      desc = "Each writer found its own keys, and the other's once it had seen its flag.")
  @Outcome(
      expect = FORBIDDEN,
      desc = "A false negative: a key missed after its add returned, or a wrong end state.")
  @State
  public static class AdderBesideBusyWriter {
    final ExpandableFilter filter = ExpandableTests.FULL.copy();
    volatile boolean singleAdded;
    volatile boolean busyAdded;

    @Actor
    public void single(ZZZ_Result r) {
      filter.add(FIRST);
      singleAdded = true;
      boolean sawBusy = busyAdded;
      boolean all = sees(filter, FIRST, false, 0);
      for (int i = 0; sawBusy && i <= BUSY_ADDS; i++) {
        all &= filter.mayContain(SECOND + i);
      }
      r.r1 = all;
    }

    @Actor
    public void busy(ZZZ_Result r) {
      for (int i = 0; i <= BUSY_ADDS; i++) {
        filter.add(SECOND + i);
      }
      busyAdded = true;
      boolean all = sees(filter, SECOND, singleAdded, FIRST);
      for (int i = 1; i <= BUSY_ADDS; i++) {
        all &= filter.mayContain(SECOND + i);
      }
      r.r2 = all;
    }

    @Arbiter
    public void arbiter(ZZZ_Result r) {
      boolean all = filter.mayContain(FIRST) && ExpandableTests.allFillPresent(filter);
      for (int i = 0; i <= BUSY_ADDS; i++) {
        all &= filter.mayContain(SECOND + i);
      }
      r.r3 = all && filter.numKeys() == ExpandableTests.FILL + BUSY_ADDS + 2;
    }
  }
}
