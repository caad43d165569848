package dev.sieve.bloom;

import jdk.incubator.vector.IntVector;
import jdk.incubator.vector.LongVector;
import jdk.incubator.vector.VectorMask;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorShuffle;
import jdk.incubator.vector.VectorSpecies;

/**
 * The FastLocalBloom line test with eight probes per vector operation, through {@code
 * jdk.incubator.vector}: the SIMD path of {@link BlockedBloomFilter}, in the manner of RocksDB's
 * AVX2 code in util/bloom_impl.h.
 *
 * <h2>The idea</h2>
 *
 * A scalar query computes probe {@code i}'s position {@code (h2 · 0x9e3779b9^i) >>> 23}, loads its
 * word and tests its bit, one probe after another: about ten dependent instructions a probe. Here
 * the eight positions {@code h2 · m_i >>> 23} (with {@code m_i = 0x9e3779b9^i}, a constant vector)
 * come from one broadcast, one multiply and one shift; the 512-bit line is two 256-bit vectors of
 * eight 32-bit words; each lane picks its word (position {@code >>> 5}, 0..15) from the low vector
 * or the high one by a one-vector rearrange of each and a blend; one AND with {@code 1 << (pos &
 * 31)} and one mask test answer all eight probes. Probe counts above eight take further groups of
 * eight ({@code h2 · 0x9e3779b9^8} per group); lanes past the last probe count as set. The answers
 * are the scalar path's bit for bit (the probe positions are the same numbers; a 32-bit word of the
 * little-endian line is the same bits as half a 64-bit word).
 *
 * <h2>Why this form</h2>
 *
 * The one-operation two-vector {@code low.rearrange(shuffle, high)} (indexes 8..15 taken from the
 * second vector) gave false negatives on JDK 17.0.15 once C2 had compiled it (after some 10^4
 * queries); the two rearranges and a blend do not, and {@code VectorProbeTest} compares every
 * answer with the scalar path's after the JIT has compiled both.
 *
 * <h2>When it is used</h2>
 *
 * Only when the module {@code jdk.incubator.vector} is in the boot layer (the JVM was started with
 * {@code --add-modules jdk.incubator.vector}) and the platform has 256-bit vectors; then {@link
 * BlockedBloomFilter} takes it for heap-resident filters once {@link VectorGate#BLOCKED_BLOOM} is
 * open: after about 2^20 scalar lookups ({@link VectorGate#WARMUP_AFTER}) a daemon thread drives
 * this code ({@link Warmup}) until it measures it compiled, and the scalar loop answers until then
 * (the interpreted vector code costs a hundredfold and more of the scalar loop over a fresh JVM's
 * first lookups). Only that thread and the gated branch touch this class, so without the module no
 * incubator class is loaded. Wrapped (memory-mapped) filters keep the scalar loop. The measured
 * figures are in docs/journal.md.
 */
final class VectorLineProbe {
  private static final VectorSpecies<Integer> INTS = IntVector.SPECIES_256;
  private static final VectorSpecies<Long> LONGS = LongVector.SPECIES_256;

  /** {@code 0x9e3779b9^i} for lanes i = 0..7. */
  private static final IntVector MULTIPLIERS;

  /** {@code 0x9e3779b9^8}: from one group of eight probes to the next. */
  private static final int GROUP_STEP;

  /** {@code UNUSED_LANES[c]}: the lanes {@code c..7}, which a group of {@code c} probes ignores. */
  private static final VectorMask<Integer>[] UNUSED_LANES;

  static {
    int[] m = new int[8];
    int x = 1;
    for (int i = 0; i < 8; i++) {
      m[i] = x;
      x *= 0x9e3779b9;
    }
    MULTIPLIERS = IntVector.fromArray(INTS, m, 0);
    GROUP_STEP = x;
    @SuppressWarnings({"unchecked", "rawtypes"}) // no generic array creation in Java
    VectorMask<Integer>[] unused = new VectorMask[9];
    for (int c = 0; c <= 8; c++) {
      boolean[] lanes = new boolean[8];
      for (int i = c; i < 8; i++) {
        lanes[i] = true;
      }
      unused[c] = VectorMask.fromArray(INTS, lanes, 0);
    }
    UNUSED_LANES = unused;
  }

  private VectorLineProbe() {}

  /** Whether this platform's preferred vectors hold the eight 32-bit lanes this test needs. */
  static boolean wideEnough() {
    return IntVector.SPECIES_PREFERRED.vectorBitSize() >= INTS.vectorBitSize();
  }

  /**
   * Whether all {@code numProbes} probe bits of {@code h2} are set in the line of eight words at
   * {@code w[base..base+8)}: {@link #oneGroup} for up to eight probes, {@link #groups} above.
   * Callers on a hot path make this choice themselves (see {@link #oneGroup}).
   */
  static boolean mayContain(long[] w, int base, int h2, int numProbes) {
    return numProbes <= 8 ? oneGroup(w, base, h2, numProbes) : groups(w, base, h2, numProbes);
  }

  /**
   * The line test for {@code numProbes} from 1 to 8: one group of lanes, no loop and no branch but
   * the answer (lanes from {@code numProbes} on count as set, {@code UNUSED_LANES[8]} is empty).
   * Its own method, so that its profile is its own: the warm-up drives it with every probe count
   * from 1 to 8 and {@link #groups} with the counts above, and a filter's lookup, which picks one
   * of the two by its own probe count, inlines a kernel whose profile no other probe count has bent
   * (one shared kernel with a group loop, driven by the warm-up with counts 1..30, had C2 compile a
   * filter's six-probe lookup 1.3× slower in some JVMs than in others).
   */
  static boolean oneGroup(long[] w, int base, int h2, int numProbes) {
    IntVector low = LongVector.fromArray(LONGS, w, base).reinterpretAsInts();
    IntVector high = LongVector.fromArray(LONGS, w, base + 4).reinterpretAsInts();
    IntVector pos =
        IntVector.broadcast(INTS, h2).mul(MULTIPLIERS).lanewise(VectorOperators.LSHR, 23);
    IntVector word = pos.lanewise(VectorOperators.LSHR, 5);
    IntVector bit = IntVector.broadcast(INTS, 1).lanewise(VectorOperators.LSHL, pos.and(31));
    VectorShuffle<Integer> pick = word.and(7).toShuffle();
    IntVector selected =
        low.rearrange(pick).blend(high.rearrange(pick), word.compare(VectorOperators.GE, 8));
    return selected.and(bit).compare(VectorOperators.NE, 0).or(UNUSED_LANES[numProbes]).allTrue();
  }

  /**
   * The line test for more than eight probes: groups of eight, the last group's spare lanes set.
   */
  static boolean groups(long[] w, int base, int h2, int numProbes) {
    IntVector low = LongVector.fromArray(LONGS, w, base).reinterpretAsInts();
    IntVector high = LongVector.fromArray(LONGS, w, base + 4).reinterpretAsInts();
    int h = h2;
    for (int left = numProbes; left > 0; left -= 8) {
      IntVector pos =
          IntVector.broadcast(INTS, h).mul(MULTIPLIERS).lanewise(VectorOperators.LSHR, 23);
      IntVector word = pos.lanewise(VectorOperators.LSHR, 5);
      IntVector bit = IntVector.broadcast(INTS, 1).lanewise(VectorOperators.LSHL, pos.and(31));
      VectorShuffle<Integer> pick = word.and(7).toShuffle();
      IntVector selected =
          low.rearrange(pick).blend(high.rearrange(pick), word.compare(VectorOperators.GE, 8));
      VectorMask<Integer> set = selected.and(bit).compare(VectorOperators.NE, 0);
      if (left < 8) {
        set = set.or(UNUSED_LANES[left]);
      }
      if (!set.allTrue()) {
        return false;
      }
      h *= GROUP_STEP;
    }
    return true;
  }

  /**
   * The warm-up of this kernel for {@link VectorGate#BLOCKED_BLOOM}: four private lines (full,
   * three quarters, half and none of their bits set), every probe count from 1 to 30, so that both
   * answers and every branch of {@link #mayContain} are profiled before C2 compiles it. Loading
   * this nested class does not initialize {@link VectorLineProbe}; its first call does, on the
   * warm-up thread.
   */
  static final class Warmup implements VectorGate.Warmup {
    private final long[] lines = privateLines();
    private int h = 0x2545f491;
    private int k;

    private static long[] privateLines() {
      long[] w = new long[32];
      long x = 0x9e3779b97f4a7c15L;
      for (int i = 0; i < w.length; i++) {
        x = x * 6364136223846793005L + 1442695040888963407L;
        long r = x ^ (x >>> 29);
        long s = (x * 0xbf58476d1ce4e5b9L) ^ (x >>> 31);
        int line = i / 8;
        w[i] = line == 0 ? -1L : line == 1 ? r | s : line == 2 ? r : 0L;
      }
      return w;
    }

    @Override
    public boolean supported() {
      return wideEnough();
    }

    /** {@link #wideEnough()}, false where the vector classes fail to link. */
    static boolean platformSupported() {
      try {
        return wideEnough();
      } catch (LinkageError e) {
        return false;
      }
    }

    @Override
    public long drive(int calls) {
      long acc = 0;
      for (int i = 0; i < calls; i++) {
        h = h * 0x9e3779b9 + 0x7f4a7c15;
        k = k == 30 ? 1 : k + 1;
        int base = (h >>> 30) * 8;
        acc += (k <= 8 ? oneGroup(lines, base, h, k) : groups(lines, base, h, k)) ? 1 : 0;
        acc += scalar(lines, base, h, k) ? 2 : 0;
      }
      return acc;
    }

    @Override
    public long sampleVector() {
      long acc = 0;
      for (int i = 0; i < VectorGate.SAMPLE_CALLS; i++) {
        acc += oneGroup(lines, (i & 3) * 8, h + i * 0x9e3779b9, 1 + (i & 7)) ? 1 : 0;
      }
      return acc;
    }

    @Override
    public long sampleScalar() {
      long acc = 0;
      for (int i = 0; i < VectorGate.SAMPLE_CALLS; i++) {
        acc += scalar(lines, (i & 3) * 8, h + i * 0x9e3779b9, 1 + (i & 7)) ? 1 : 0;
      }
      return acc;
    }

    /** The scalar line test (the early-exit loop), the reference the warm-up times against. */
    static boolean scalar(long[] w, int base, int h, int numProbes) {
      for (int i = 0; i < numProbes; i++) {
        int p = h >>> 23;
        if ((w[base + (p >>> 6)] & (1L << p)) == 0) {
          return false;
        }
        h *= 0x9e3779b9;
      }
      return true;
    }
  }
}
