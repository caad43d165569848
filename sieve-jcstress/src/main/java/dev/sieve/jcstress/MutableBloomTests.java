package dev.sieve.jcstress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.sieve.MutableFilter;
import dev.sieve.bloom.BlockedBloomFilter;
import dev.sieve.bloom.ScalableBloomFilter;
import dev.sieve.bloom.SplitBlockBloomFilter;
import dev.sieve.bloom.StandardBloomFilter;
import dev.sieve.bloom.TwoWordBloomFilter;
import dev.sieve.format.SieveFormat;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IIIII_Result;
import org.openjdk.jcstress.infra.results.ZZZZZZ_Result;
import org.openjdk.jcstress.infra.results.ZZZ_Result;

/**
 * {@code MutableFilter}'s promise for the Bloom filters, tested on all five at once: adds are
 * lock-free and no concurrently added key is lost, and once an {@code add} has returned and that is
 * visible to a querying thread (here through a volatile write and read), the key is reported
 * present.
 *
 * <p>The filters are as small as each type makes them (a blocked Bloom filter of one 64-byte block,
 * a standard one of a word or two, a split-block one of one 32-byte block, a scalable one whose
 * first stage holds two keys, a two-word one of one 64-byte block), so two keys added together
 * write the same words. The result has one column per type, in the order blocked, standard,
 * split-block, scalable, two-word. The scalable filter is read from a container made once: creating
 * one sizes its first stage by a model search that takes milliseconds, which would leave a test
 * only a few samples. {@link ScalableStageSwitch} is the scalable filter's own test, of two adds
 * racing over a stage switch.
 */
public final class MutableBloomTests {
  private MutableBloomTests() {}

  static final long KEY1 = 0x5EED_0001L;
  static final long KEY2 = 0x5EED_0002L;

  /** An empty scalable filter whose first stage holds two keys. */
  static final byte[] SCALABLE_2 =
      SieveFormat.toBytes(ScalableBloomFilter.builder().expectedKeys(2).create());

  /** An empty scalable filter whose first stage holds one key: the second key opens a stage. */
  static final byte[] SCALABLE_1 =
      SieveFormat.toBytes(ScalableBloomFilter.builder().expectedKeys(1).create());

  /** One of each mutable Bloom type, as small as it gets. */
  static MutableFilter[] smallFilters() {
    return new MutableFilter[] {
      BlockedBloomFilter.builder().expectedKeys(2).create(),
      StandardBloomFilter.builder().expectedKeys(2).create(),
      SplitBlockBloomFilter.builder().expectedKeys(2).create(),
      SieveFormat.read(SCALABLE_2, ScalableBloomFilter.class),
      TwoWordBloomFilter.builder().expectedKeys(2).create()
    };
  }

  /** Bit 0: {@code KEY1} reported present; bit 1: {@code KEY2}. */
  static int presence(MutableFilter filter) {
    return (filter.mayContain(KEY1) ? 1 : 0) | (filter.mayContain(KEY2) ? 2 : 0);
  }

  /**
   * Two threads add different keys to the same filters at once: afterwards both keys are present in
   * each (3 = both; 1 or 2 = a key lost to the other thread's writes).
   */
  @JCStressTest
  @Outcome(
      id = "3, 3, 3, 3, 3",
      expect = ACCEPTABLE,
      desc =
          "Both keys present in every filter (blocked, standard, split-block, scalable, two-word).")
  @Outcome(
      expect = FORBIDDEN,
      desc = "A filter (the column: 1 = only the first key, 2 = only the second) lost a key.")
  @State
  public static class ConcurrentAdds {
    final MutableFilter[] filters = smallFilters();

    @Actor
    public void actor1() {
      for (MutableFilter f : filters) {
        f.add(KEY1);
      }
    }

    @Actor
    public void actor2() {
      for (MutableFilter f : filters) {
        f.add(KEY2);
      }
    }

    @Arbiter
    public void arbiter(IIIII_Result r) {
      r.r1 = presence(filters[0]);
      r.r2 = presence(filters[1]);
      r.r3 = presence(filters[2]);
      r.r4 = presence(filters[3]);
      r.r5 = presence(filters[4]);
    }
  }

  /**
   * One thread adds a key to each filter and then sets a volatile flag; the other reads the flag
   * and then queries the key. A query that runs before the add has returned may answer either way;
   * one that saw the flag must find the key in every filter.
   */
  @JCStressTest
  @Outcome(
      id = "false, .*",
      expect = ACCEPTABLE,
      desc = "The flag was not seen yet: the query raced the add, any answer.")
  @Outcome(
      id = "true, true, true, true, true, true",
      expect = ACCEPTABLE,
      desc = "The flag was seen and every filter reports the key.")
  @Outcome(
      expect = FORBIDDEN,
      desc = "The flag was seen but a filter (false column) missed the key added before it.")
  @State
  public static class AddHappensBeforeQuery {
    final MutableFilter[] filters = smallFilters();
    volatile boolean added;

    @Actor
    public void writer() {
      for (MutableFilter f : filters) {
        f.add(KEY1);
      }
      added = true;
    }

    @Actor
    public void reader(ZZZZZZ_Result r) {
      r.r1 = added;
      r.r2 = filters[0].mayContain(KEY1);
      r.r3 = filters[1].mayContain(KEY1);
      r.r4 = filters[2].mayContain(KEY1);
      r.r5 = filters[3].mayContain(KEY1);
      r.r6 = filters[4].mayContain(KEY1);
    }
  }

  /**
   * Two threads add different keys to a scalable filter whose first stage holds one key, so one of
   * the adds finds the stage full and opens the next one (or waits for the other thread to open it)
   * while the other may still be setting its bits in the first: afterwards both keys are present
   * and the filter has two stages. Opening a stage takes milliseconds (its sizing), so this test
   * gets few samples per second; the longer modes give it more.
   */
  @JCStressTest
  @Outcome(
      id = "true, true, true",
      expect = ACCEPTABLE,
      desc = "Both keys present; the second stage is open.")
  @Outcome(
      expect = FORBIDDEN,
      desc = "A key was lost across the stage switch, or no second stage was opened.")
  @State
  public static class ScalableStageSwitch {
    final ScalableBloomFilter filter = SieveFormat.read(SCALABLE_1, ScalableBloomFilter.class);

    @Actor
    public void actor1() {
      filter.add(KEY1);
    }

    @Actor
    public void actor2() {
      filter.add(KEY2);
    }

    @Arbiter
    public void arbiter(ZZZ_Result r) {
      r.r1 = filter.mayContain(KEY1);
      r.r2 = filter.mayContain(KEY2);
      r.r3 = filter.numStages() == 2;
    }
  }
}
