package dev.sieve.jcstress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.sieve.internal.AtomicBits;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.ZZJ_Result;
import org.openjdk.jcstress.infra.results.ZZZZ_Result;
import org.openjdk.jcstress.infra.results.ZZ_Result;

/**
 * What {@link AtomicBits} promises when two threads write one word at once. {@code setBit} and
 * {@code orWord} first test the word with a plain read and only a clear bit pays for the atomic
 * {@code getAndBitwiseOr}; the tests pin that this shortcut neither loses a bit (a plain
 * read-modify-write would: both threads read the old word and the second store wins) nor reports
 * one change twice or not at all (the return value is what {@code addHash} reports as "definitely
 * new"), and that a {@code false} from the pre-read is one the calling thread can rely on.
 *
 * <p>Every test writes a one-word array, so the two actors always meet on the same word.
 */
public final class AtomicBitsTests {
  private AtomicBitsTests() {}

  private static boolean has(long[] words, int index, int bit) {
    return (words[index] & (1L << bit)) != 0;
  }

  /** Two threads set different bits of one word: both stay set, and each call reports its own. */
  @JCStressTest
  @Outcome(
      id = "true, true, true, true",
      expect = ACCEPTABLE,
      desc = "Both bits set, each call reports that it changed its bit.")
  @Outcome(
      expect = FORBIDDEN,
      desc = "A bit was lost (a racing write overwrote it) or a change was not reported.")
  @State
  public static class SetBitDisjoint {
    final long[] words = new long[1];

    @Actor
    public void actor1(ZZZZ_Result r) {
      r.r1 = AtomicBits.setBit(words, 0, 3);
    }

    @Actor
    public void actor2(ZZZZ_Result r) {
      r.r2 = AtomicBits.setBit(words, 0, 41);
    }

    @Arbiter
    public void arbiter(ZZZZ_Result r) {
      r.r3 = has(words, 0, 3);
      r.r4 = has(words, 0, 41);
    }
  }

  /**
   * Two threads set the same bit: exactly one call claims it ({@code true}), and each thread sees
   * the bit set once its call has returned, whichever way the plain pre-read went.
   */
  @JCStressTest
  @Outcome(
      id = "true, false, true, true",
      expect = ACCEPTABLE,
      desc = "actor1 claimed the bit; actor2 found it set.")
  @Outcome(
      id = "false, true, true, true",
      expect = ACCEPTABLE,
      desc = "actor2 claimed the bit; actor1 found it set.")
  @Outcome(id = "true, true, .*", expect = FORBIDDEN, desc = "Both calls claimed the one bit.")
  @Outcome(id = "false, false, .*", expect = FORBIDDEN, desc = "Neither call claimed the bit.")
  @Outcome(expect = FORBIDDEN, desc = "A thread's own read after its setBit found the bit clear.")
  @State
  public static class SetBitSameBit {
    final long[] words = new long[1];

    @Actor
    public void actor1(ZZZZ_Result r) {
      r.r1 = AtomicBits.setBit(words, 0, 17);
      r.r3 = has(words, 0, 17);
    }

    @Actor
    public void actor2(ZZZZ_Result r) {
      r.r2 = AtomicBits.setBit(words, 0, 17);
      r.r4 = has(words, 0, 17);
    }
  }

  /**
   * The plain pre-read's answer: actor1 sets a bit atomically while actor2 sets the same bit and
   * then reads the word again with a plain read, as its own next query would. When actor2's call
   * returned {@code false} (its pre-read saw actor1's bit and it skipped the atomic), its next read
   * must still see the bit: that is {@code MutableFilter}'s promise that a key whose {@code add}
   * has returned is reported present. (The Java memory model alone would allow the stale read here,
   * since a plain read of a racy write orders nothing; the primitive relies on the second read not
   * going back in time, which a changed pre-read, e.g. one on a copied word, would break.)
   */
  @JCStressTest
  @Outcome(
      id = "true, true",
      expect = ACCEPTABLE,
      desc = "actor2's call set the bit (its pre-read came first), and it then sees it.")
  @Outcome(
      id = "false, true",
      expect = ACCEPTABLE,
      desc = "actor2's pre-read saw actor1's bit, skipped the atomic, and then sees it.")
  @Outcome(expect = FORBIDDEN, desc = "actor2's own read after its setBit found the bit clear.")
  @State
  public static class SetBitThenRead {
    final long[] words = new long[1];

    @Actor
    public void actor1() {
      AtomicBits.setBit(words, 0, 62);
    }

    @Actor
    public void actor2(ZZ_Result r) {
      r.r1 = AtomicBits.setBit(words, 0, 62);
      r.r2 = has(words, 0, 62);
    }
  }

  /**
   * Two threads OR overlapping masks (bits 0-1 and 1-2) into one word: all three bits stay set, and
   * both calls report a change (each has a bit only it sets).
   */
  @JCStressTest
  @Outcome(
      id = "true, true, 7",
      expect = ACCEPTABLE,
      desc = "All three bits set, both calls report a change.")
  @Outcome(expect = FORBIDDEN, desc = "A bit was lost or a change was not reported.")
  @State
  public static class OrWordOverlap {
    final long[] words = new long[1];

    @Actor
    public void actor1(ZZJ_Result r) {
      r.r1 = AtomicBits.orWord(words, 0, 0b011L);
    }

    @Actor
    public void actor2(ZZJ_Result r) {
      r.r2 = AtomicBits.orWord(words, 0, 0b110L);
    }

    @Arbiter
    public void arbiter(ZZJ_Result r) {
      r.r3 = words[0];
    }
  }

  /** Two threads OR the same mask into one word: exactly one call reports the change. */
  @JCStressTest
  @Outcome(
      id = "true, false, -9223372036854775807",
      expect = ACCEPTABLE,
      desc = "actor1 set the bits; actor2 found them set.")
  @Outcome(
      id = "false, true, -9223372036854775807",
      expect = ACCEPTABLE,
      desc = "actor2 set the bits; actor1 found them set.")
  @Outcome(
      expect = FORBIDDEN,
      desc = "Both or neither call reported the change, or a bit was lost.")
  @State
  public static class OrWordSameMask {
    /** The top and the bottom bit: a sign-bit mistake would show. */
    static final long MASK = Long.MIN_VALUE | 1L;

    final long[] words = new long[1];

    @Actor
    public void actor1(ZZJ_Result r) {
      r.r1 = AtomicBits.orWord(words, 0, MASK);
    }

    @Actor
    public void actor2(ZZJ_Result r) {
      r.r2 = AtomicBits.orWord(words, 0, MASK);
    }

    @Arbiter
    public void arbiter(ZZJ_Result r) {
      r.r3 = words[0];
    }
  }

  /**
   * A bit set with {@code setBit} publishes what its thread wrote before it: actor1 sets a data bit
   * in word 0, then a flag bit in word 1; actor2 reads the flag with {@link AtomicBits#getVolatile}
   * and then the data word with a plain read, as a query does. Seeing the flag but not the data
   * would mean the atomic OR does not order the writes before it.
   */
  @JCStressTest
  @Outcome(id = "false, false", expect = ACCEPTABLE, desc = "Read before both writes.")
  @Outcome(id = "false, true", expect = ACCEPTABLE, desc = "Read between the two writes.")
  @Outcome(id = "true, true", expect = ACCEPTABLE, desc = "Read after both writes.")
  @Outcome(
      id = "true, false",
      expect = FORBIDDEN,
      desc = "The flag bit was seen before the data bit set earlier.")
  @State
  public static class SetBitPublishes {
    final long[] words = new long[2];

    @Actor
    public void actor1() {
      AtomicBits.setBit(words, 0, 9);
      AtomicBits.setBit(words, 1, 0);
    }

    @Actor
    public void actor2(ZZ_Result r) {
      r.r1 = (AtomicBits.getVolatile(words, 1) & 1L) != 0;
      r.r2 = has(words, 0, 9);
    }
  }
}
