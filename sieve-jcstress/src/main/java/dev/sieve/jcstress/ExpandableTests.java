package dev.sieve.jcstress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.sieve.expand.ExpandableFilter;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.ZZZZ_Result;
import org.openjdk.jcstress.infra.results.ZZZ_Result;

/**
 * {@link ExpandableFilter}'s promise to one writer and its readers ("Threads" in its Javadoc): a
 * query never misses a key whose {@code add} returned before the query began, while the writer adds
 * (here the add that begins a doubling, which allocates the new table, and the writes after it,
 * each of which moves a few of the old table's entries into the new one) or removes another key
 * (which shifts entries in place). Queries read optimistically, as a seqlock, and are repeated
 * under the read lock when a writer overlapped them; these tests check that no torn read of the
 * arrays, the slot counts, the widths and the doubling's cursor is ever kept.
 *
 * <p>Every test starts from a copy of {@link #FULL}: a filter (target rate 1%, no key-count hint)
 * holding the keys {@code fill(0) … fill(FILL − 1)}, where {@code FILL} is found through the public
 * API (adding to a fresh filter until {@link ExpandableFilter#doublings()} turns 1), so the next
 * add doubles the table. The keys already in the filter were added before the actors started
 * (jcstress publishes the state to the actors), so a query for any of them must say present at any
 * moment; a key the writer adds is owed to the reader once the reader has seen the volatile flag
 * the writer sets after its {@code add} returned.
 */
public final class ExpandableTests {
  private ExpandableTests() {}

  /** The key whose add doubles the table. */
  static final long KEY = 0x7E57_0000_0000_0001L;

  /** The keys added before a test starts: one add short of the first doubling. */
  static final int FILL;

  /** A filter holding {@code fill(0) … fill(FILL − 1)}, with {@code doublings() == 0}. */
  static final ExpandableFilter FULL;

  static {
    ExpandableFilter probe = ExpandableFilter.builder().fpRate(0.01).create();
    int added = 0;
    while (probe.doublings() == 0) {
      probe.add(fill(added));
      added++;
    }
    FILL = added - 1; // the last add doubled the table
    ExpandableFilter full = ExpandableFilter.builder().fpRate(0.01).create();
    for (int i = 0; i < FILL; i++) {
      full.add(fill(i));
    }
    if (full.doublings() != 0 || full.entries() != FILL) {
      throw new IllegalStateException("the filled filter doubled early: " + full);
    }
    ExpandableFilter check = full.copy();
    check.add(KEY);
    if (check.doublings() != 1) {
      throw new IllegalStateException("the next add does not double the table: " + check);
    }
    FULL = full;
  }

  /** The {@code i}-th key added before the test (distinct from {@link #KEY}). */
  static long fill(int i) {
    return 0x0F11_0000_0000_0000L + i * 0x9E37_79B9_7F4A_7C15L;
  }

  /** {@return whether every key {@code fill(i)}, {@code i < FILL}, is reported present} */
  static boolean allFillPresent(ExpandableFilter f) {
    boolean all = true;
    for (int i = 0; i < FILL; i++) {
      all &= f.mayContain(fill(i));
    }
    return all;
  }

  /** {@return whether every key {@code fill(i)} with {@code i} even is reported present} */
  static boolean evenFillPresent(ExpandableFilter f) {
    boolean all = true;
    for (int i = 0; i < FILL; i += 2) {
      all &= f.mayContain(fill(i));
    }
    return all;
  }

  /**
   * Removes every key {@code fill(i)} with {@code i} odd; in a table at load 0.85 the clusters are
   * long, so each removal shifts many entries back in place while the reader walks them.
   *
   * @return whether every removal found its key
   */
  static boolean removeOdd(ExpandableFilter f) {
    boolean all = true;
    for (int i = 1; i < FILL; i += 2) {
      all &= f.remove(fill(i));
    }
    return all;
  }

  /**
   * The writer's add doubles the table, then the writer sets a volatile flag; the reader reads the
   * flag, queries the new key, and queries every key added before the test. Columns: flag seen, new
   * key present, every earlier key present; the arbiter's column: the table doubled.
   */
  @JCStressTest
  @Outcome(
      id = "false, false, true, true",
      expect = ACCEPTABLE,
      desc = "The flag was not seen; the query raced the add and did not find the new key.")
  @Outcome(
      id = "false, true, true, true",
      expect = ACCEPTABLE,
      desc = "The flag was not seen; the new key was found (already added).")
  @Outcome(
      id = "true, true, true, true",
      expect = ACCEPTABLE,
      desc = "The flag was seen and the new key was found.")
  @Outcome(
      expect = FORBIDDEN,
      desc =
          "A false negative: the new key missed after the flag, an earlier key missed during the"
              + " doubling, or the table did not double.")
  @State
  public static class AddDuringDoubling {
    final ExpandableFilter filter = FULL.copy();
    volatile boolean added;

    @Actor
    public void writer() {
      filter.add(KEY);
      added = true;
    }

    @Actor
    public void reader(ZZZZ_Result r) {
      r.r1 = added;
      r.r2 = filter.mayContain(KEY);
      r.r3 = allFillPresent(filter);
    }

    @Arbiter
    public void arbiter(ZZZZ_Result r) {
      r.r4 = filter.doublings() == 1 && filter.mayContain(KEY);
    }
  }

  /**
   * The writer removes the keys {@code fill(i)}, {@code i} odd, one by one (entries after each in
   * its cluster shift back in place); the reader queries the keys with {@code i} even. Columns: the
   * even keys all present (while the removals ran), every removal found its key (arbiter), the even
   * keys all present afterwards (arbiter).
   */
  @JCStressTest
  @Outcome(
      id = "true, true, true",
      expect = ACCEPTABLE,
      desc = "Every key not removed was found during and after the removals.")
  @Outcome(
      expect = FORBIDDEN,
      desc = "A false negative for a key not removed, or a removal found nothing.")
  @State
  public static class RemoveOthers {
    final ExpandableFilter filter = FULL.copy();
    boolean removed;

    @Actor
    public void writer() {
      removed = removeOdd(filter);
    }

    @Actor
    public void reader(ZZZ_Result r) {
      r.r1 = evenFillPresent(filter);
    }

    @Arbiter
    public void arbiter(ZZZ_Result r) {
      r.r2 = removed;
      r.r3 = evenFillPresent(filter);
    }
  }

  /**
   * The writer's add doubles the table, it sets a volatile flag, and then it removes the earlier
   * keys {@code fill(i)}, {@code i} odd, from the new table; the reader reads the flag, queries the
   * new key and the earlier keys with {@code i} even. Columns: flag seen, new key present, the even
   * earlier keys all present; the arbiter's column: the table doubled, every removal found its key,
   * and both the new key and the even keys are present at the end.
   */
  @JCStressTest
  @Outcome(
      id = "false, false, true, true",
      expect = ACCEPTABLE,
      desc = "The flag was not seen; the query raced the add and did not find the new key.")
  @Outcome(
      id = "false, true, true, true",
      expect = ACCEPTABLE,
      desc = "The flag was not seen; the new key was found (already added).")
  @Outcome(
      id = "true, true, true, true",
      expect = ACCEPTABLE,
      desc = "The flag was seen and the new key was found.")
  @Outcome(
      expect = FORBIDDEN,
      desc =
          "A false negative: the new key missed after the flag, or a key not removed missed during"
              + " the doubling or the removals; or the end state is wrong.")
  @State
  public static class DoublingThenRemove {
    final ExpandableFilter filter = FULL.copy();
    volatile boolean added;
    boolean removed;

    @Actor
    public void writer() {
      filter.add(KEY);
      added = true;
      removed = removeOdd(filter);
    }

    @Actor
    public void reader(ZZZZ_Result r) {
      r.r1 = added;
      r.r2 = filter.mayContain(KEY);
      r.r3 = evenFillPresent(filter);
    }

    @Arbiter
    public void arbiter(ZZZZ_Result r) {
      r.r4 =
          filter.doublings() == 1 && removed && filter.mayContain(KEY) && evenFillPresent(filter);
    }
  }

  /**
   * The writer's add begins a doubling, it sets a volatile flag, and then it adds more keys, each
   * add moving a few of the old table's entries into the new one, until the doubling has ended; the
   * reader reads the flag, queries the first new key and every key added before the test while the
   * entries move. Columns: flag seen, new key present, every earlier key present; the arbiter's
   * column: the table doubled and every key is present at the end.
   */
  @JCStressTest
  @Outcome(
      id = "false, false, true, true",
      expect = ACCEPTABLE,
      desc = "The flag was not seen; the query raced the add and did not find the new key.")
  @Outcome(
      id = "false, true, true, true",
      expect = ACCEPTABLE,
      desc = "The flag was not seen; the new key was found (already added).")
  @Outcome(
      id = "true, true, true, true",
      expect = ACCEPTABLE,
      desc = "The flag was seen and the new key was found.")
  @Outcome(
      expect = FORBIDDEN,
      desc =
          "A false negative: the new key missed after the flag, or an earlier key missed while"
              + " the doubling moved entries; or the end state is wrong.")
  @State
  public static class AddsWhileDoubling {
    final ExpandableFilter filter = FULL.copy();
    volatile boolean added;

    @Actor
    public void writer() {
      filter.add(KEY);
      added = true;
      for (int i = 0; i < FILL / 2; i++) { // enough to end the doubling, too few for another
        filter.add(KEY + 1 + i); // each add moves a share of the old table's entries
      }
    }

    @Actor
    public void reader(ZZZZ_Result r) {
      r.r1 = added;
      r.r2 = filter.mayContain(KEY);
      r.r3 = allFillPresent(filter);
    }

    @Arbiter
    public void arbiter(ZZZZ_Result r) {
      boolean all = filter.doublings() == 1 && filter.mayContain(KEY) && allFillPresent(filter);
      for (int i = 0; i < FILL / 2; i++) {
        all &= filter.mayContain(KEY + 1 + i);
      }
      r.r4 = all;
    }
  }
}
