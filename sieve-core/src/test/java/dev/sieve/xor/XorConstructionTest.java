package dev.sieve.xor;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sieve.Filter;
import dev.sieve.SieveException;
import java.time.Duration;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Termination and robustness of the peeling construction: adversarial inputs finish (the classic
 * endless loops of xor constructions come from duplicates), and the retry bound really bounds. The
 * preemptive timeouts are deadlock guards of a minute, far above the expected sub-second runs; they
 * assert termination, not speed.
 */
class XorConstructionTest {
  private static final Duration GUARD = Duration.ofSeconds(60);

  @ParameterizedTest
  @MethodSource("dev.sieve.xor.StaticFilterCase#all")
  void allKeysEqualFinishes(StaticFilterCase kind) {
    long[] same = new long[1_000_000];
    Arrays.fill(same, 0x1234_5678_9ABC_DEF0L);
    Filter f = assertTimeoutPreemptively(GUARD, () -> kind.build(same));
    assertEquals(1, f.numKeys());
    assertTrue(f.mayContainHash(0x1234_5678_9ABC_DEF0L));
  }

  @ParameterizedTest
  @MethodSource("dev.sieve.xor.StaticFilterCase#all")
  void millionCopiesOfThreeKeysFinish(StaticFilterCase kind) {
    long[] keys = new long[1_000_000];
    for (int i = 0; i < keys.length; i++) {
      keys[i] = new long[] {-1L, 0L, 42L}[i % 3];
    }
    Filter f = assertTimeoutPreemptively(GUARD, () -> kind.build(keys));
    assertEquals(3, f.numKeys());
    assertTrue(f.mayContainHash(-1L) && f.mayContainHash(0L) && f.mayContainHash(42L));
    // the multiset gives the filter of its set
    assertArrayEquals(kind.toBytes(kind.build(new long[] {42L, 0L, -1L})), kind.toBytes(f));
  }

  /** Sequential raw hashes 0..n-1 (unmixed input: the seeded remix must spread them). */
  @ParameterizedTest
  @MethodSource("dev.sieve.xor.StaticFilterCase#all")
  void sequentialKeysFinish(StaticFilterCase kind) {
    long[] keys = new long[500_000];
    for (int i = 0; i < keys.length; i++) {
      keys[i] = i;
    }
    Filter f = assertTimeoutPreemptively(GUARD, () -> kind.build(keys));
    assertEquals(keys.length, f.numKeys());
    for (long k : keys) {
      assertTrue(f.mayContainHash(k));
    }
    // sequential values that differ only in high bits
    for (int i = 0; i < keys.length; i++) {
      keys[i] = (long) i << 40;
    }
    Filter g = assertTimeoutPreemptively(GUARD, () -> kind.build(keys));
    for (long k : keys) {
      assertTrue(g.mayContainHash(k));
    }
  }

  /** Many tiny sets: every size 1..64, 200 key sets each, all build and keep their keys. */
  @ParameterizedTest
  @MethodSource("dev.sieve.xor.StaticFilterCase#all")
  void tinySetsAlwaysBuild(StaticFilterCase kind) {
    for (int n = 1; n <= 64; n++) {
      for (int t = 0; t < 200; t++) {
        long[] keys = Keys.random(n, n * 1000L + t);
        Filter f = kind.build(keys);
        for (long k : keys) {
          assertTrue(f.mayContainHash(k), kind + " n=" + n + " t=" + t);
        }
      }
    }
  }

  @ParameterizedTest
  @MethodSource("dev.sieve.xor.StaticFilterCase#all")
  void emptyFilterRejectsEverything(StaticFilterCase kind) {
    Filter f = kind.build(new long[0]);
    assertEquals(0, f.numKeys());
    assertEquals(0, f.sizeInBits());
    assertEquals(0.0, f.modelledFpRate());
    for (long h : Keys.random(1000, 5)) {
      assertFalse(f.mayContainHash(h));
    }
  }

  /** A layout that can never peel (3 slots for 10 keys): the build must stop with an error. */
  @Test
  void impossibleLayoutFailsAfterTheAttemptBound() {
    int[] calls = {0};
    XorConstruction.LayoutFactory tooSmall =
        (keys, growth) -> {
          calls[0]++;
          return new XorLayout(1);
        };
    long[] keys = Keys.random(10, 3);
    SieveException e =
        assertThrows(
            SieveException.class,
            () -> XorConstruction.peel(keys, keys.length, SeededHash.DEFAULT_SEED, tooSmall));
    assertTrue(e.getMessage().contains("64 seeds"), e.getMessage());
    // one layout at the start, one per growth round (after every 8 failures)
    assertEquals(1 + XorConstruction.MAX_ATTEMPTS / XorConstruction.ATTEMPTS_PER_SIZE, calls[0]);
  }

  /** Duplicates cost one deduplication and then build at the size of the distinct set. */
  @Test
  void duplicatesAreDroppedAndSizedAsTheirSet() {
    long[] distinct = Keys.random(10_000, 9);
    long[] doubled = new long[20_000];
    System.arraycopy(distinct, 0, doubled, 0, 10_000);
    System.arraycopy(distinct, 0, doubled, 10_000, 10_000);
    XorConstruction.Peeled p =
        XorConstruction.peel(
            doubled,
            doubled.length,
            SeededHash.DEFAULT_SEED,
            (n, g) -> FuseLayout.forKeys(3, n, g));
    assertEquals(10_000, p.numKeys);
    assertEquals(FuseLayout.forKeys(3, 10_000, 0).length(), p.layout.length());
  }

  @Test
  void sortUniqueKeepsEachValueOnce() {
    long[] a = {5, -1, 5, 3, -1, Long.MIN_VALUE, Long.MAX_VALUE, 3, 99};
    int n = XorConstruction.sortUnique(a, 8); // the last entry is outside the range
    assertEquals(5, n);
    assertArrayEquals(new long[] {Long.MIN_VALUE, -1, 3, 5, Long.MAX_VALUE}, Arrays.copyOf(a, n));
    assertEquals(99, a[8]);
    assertEquals(0, XorConstruction.sortUnique(new long[0], 0));
    assertEquals(1, XorConstruction.sortUnique(new long[] {7}, 1));
  }

  /** The layouts' slots are pairwise distinct and in range, including at the largest segments. */
  @Test
  void layoutPositionsAreDistinctAndInRange() {
    PeelingLayout[] layouts = {
      new XorLayout(1),
      new XorLayout(1_000_003),
      new FuseLayout(3, 4, 1),
      new FuseLayout(4, 4, 1),
      new FuseLayout(3, 1 << 18, 5000),
      new FuseLayout(4, 1 << 18, 3),
      new FuseLayout(3, 1024, 77)
    };
    int[] pos = new int[4];
    for (PeelingLayout layout : layouts) {
      for (long h : Keys.random(20_000, layout.length())) {
        layout.positions(h, pos);
        for (int i = 0; i < layout.arity(); i++) {
          assertTrue(pos[i] >= 0 && pos[i] < layout.length(), "slot " + pos[i]);
          for (int j = 0; j < i; j++) {
            assertTrue(pos[i] != pos[j], "slots must differ");
          }
        }
      }
    }
  }

  /** The first Binary Fuse slot is the unsigned high half of {@code h · segmentCountLength}. */
  @Test
  void fuseFirstSlotIsTheUnsignedMultiplyHigh() {
    long[] lengths = {12, 1L << 18, 342L * (1 << 15), 7_000L * (1 << 18)};
    java.math.BigInteger two64 = java.math.BigInteger.ONE.shiftLeft(64);
    for (long scl : lengths) {
      for (long h : Keys.random(2000, scl)) {
        java.math.BigInteger u = java.math.BigInteger.valueOf(h);
        if (h < 0) {
          u = u.add(two64);
        }
        long expected =
            u.multiply(java.math.BigInteger.valueOf(scl)).shiftRight(64).longValueExact();
        assertEquals(expected, FuseLayout.h0(h, scl));
      }
      assertEquals(scl - 1, FuseLayout.h0(-1L, scl)); // the largest hash maps to the last slot
      assertEquals(0, FuseLayout.h0(0L, scl));
    }
  }

  /** Too many keys for one Java array: a parameter error naming the limit, before allocating. */
  @Test
  void oversizedKeyCountsAreRejectedBeforeAllocating() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class, () -> BinaryFuse8Filter.slotsFor(3, 2_000_000_000L));
    assertTrue(e.getMessage().contains(String.valueOf(XorConstruction.MAX_SLOTS)), e.getMessage());
    assertThrows(IllegalArgumentException.class, () -> XorLayout.forKeys(1_800_000_000L, 0));
    assertThrows(IllegalArgumentException.class, () -> BinaryFuse8Filter.slotsFor(5, 1000));
    // the largest sets that fit are sized without error
    assertTrue(BinaryFuse8Filter.slotsFor(3, 1_800_000_000L) <= XorConstruction.MAX_SLOTS);
    assertTrue(XorLayout.forKeys(1_700_000_000L, 0).length() <= XorConstruction.MAX_SLOTS);
  }

  @Test
  void seedsAreExplicitAndChangeTheFilter() {
    long[] keys = Keys.random(1000, 11);
    Xor8Filter a = Xor8Filter.builder().buildFromHashes(keys);
    Xor8Filter b = Xor8Filter.builder().seed(12345).buildFromHashes(keys);
    boolean fromTheSequence = false;
    for (int i = 0; i < XorConstruction.MAX_ATTEMPTS; i++) {
      fromTheSequence |= a.seed() == SeededHash.attemptSeed(SeededHash.DEFAULT_SEED, i);
    }
    assertTrue(fromTheSequence, "the seed comes from the default seed's attempt sequence");
    assertFalse(Arrays.equals(a.toByteArray(), b.toByteArray()));
    assertArrayEquals(a.toByteArray(), Xor8Filter.builder().buildFromHashes(keys).toByteArray());
    assertThrows(IllegalArgumentException.class, () -> BinaryFuse8Filter.builder().arity(5));
    assertThrows(IllegalArgumentException.class, () -> BinaryFuse16Filter.builder().arity(2));
  }
}
