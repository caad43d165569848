package dev.sieve.ribbon;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.sieve.KeyScheme;
import java.nio.ByteBuffer;
import java.util.SplittableRandom;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.DoubleRange;
import net.jqwik.api.constraints.IntRange;

/**
 * The contract as a property: every added key is reported present by the built Bumped Ribbon
 * filter, by the filter read back from its bytes and by the filter wrapping them, for arbitrary key
 * sets (with repeated keys), sizes 0 to 10^6, result bits in [1, 32] and seeds. Sizes are mostly
 * small, occasionally up to 10^6, so the default run stays short.
 */
class BumpedRibbonNoFalseNegativeProperties {

  @Provide
  Arbitrary<Integer> sizes() {
    return Arbitraries.frequencyOf(
        net.jqwik.api.Tuple.of(12, Arbitraries.integers().between(0, 3000)),
        net.jqwik.api.Tuple.of(3, Arbitraries.integers().between(3000, 60_000)),
        net.jqwik.api.Tuple.of(1, Arbitraries.integers().between(60_000, 1_000_000)));
  }

  @Property(tries = 60)
  void everyAddedKeyIsPresent(
      @ForAll("sizes") int size,
      @ForAll @IntRange(min = 0, max = 30) int dupPercent,
      @ForAll @DoubleRange(min = 1.0, max = 32.0) double resultBits,
      @ForAll long seed) {
    SplittableRandom rnd = new SplittableRandom(seed);
    long[] h = new long[size];
    for (int i = 0; i < size; i++) {
      h[i] = i > 0 && rnd.nextInt(100) < dupPercent ? h[rnd.nextInt(i)] : rnd.nextLong();
    }
    BumpedRibbonFilter f =
        BumpedRibbonFilter.builder().resultBits(resultBits).seed(seed).buildFromHashes(h);
    assertEquals(size, f.numKeys());
    byte[] bytes = f.toByteArray();
    BumpedRibbonFilter read = BumpedRibbonFilter.fromByteArray(bytes, KeyScheme.XXPH3);
    BumpedRibbonFilter wrapped = BumpedRibbonFilter.wrap(ByteBuffer.wrap(bytes), KeyScheme.XXPH3);
    assertArrayEquals(bytes, read.toByteArray());
    for (long x : h) {
      if (!f.mayContainHash(x) || !read.mayContainHash(x) || !wrapped.mayContainHash(x)) {
        throw new AssertionError("false negative for hash " + x + " in " + f);
      }
    }
  }

  /** Low-entropy hashes (0, 1, 2, ...), which a weak layer hash would pile into a few buckets. */
  @Property(tries = 20)
  void sequentialHashesArePresent(
      @ForAll @IntRange(min = 0, max = 100_000) int size, @ForAll long seed) {
    long[] h = new long[size];
    for (int i = 0; i < size; i++) {
      h[i] = i;
    }
    BumpedRibbonFilter f = BumpedRibbonFilter.builder().seed(seed).buildFromHashes(h);
    for (long x : h) {
      if (!f.mayContainHash(x)) {
        throw new AssertionError("false negative for hash " + x + " in " + f);
      }
    }
  }
}
