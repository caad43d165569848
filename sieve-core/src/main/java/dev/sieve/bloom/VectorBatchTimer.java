package dev.sieve.bloom;

/**
 * An open {@link VectorGate}'s check of its callers' batches: a few batches of each path are timed
 * where the callers' compiled code runs them, and the batches go back to the scalar path while the
 * SIMD one measures much slower there.
 *
 * <h2>Why</h2>
 *
 * The warm-up times its own kernel, not the callers' code, and a caller's loop is recompiled when
 * the gate opens. In about one JVM in six the recompiled batch loop of the blocked Bloom filter ran
 * the SIMD line test thirty times slower than the scalar loop (250 ns a lookup instead of 8, with
 * no allocation, so neither the interpreter nor unboxed vectors) and stayed so for the JVM's life.
 * No answer was wrong; only the speed the gate exists for was lost.
 *
 * <h2>How</h2>
 *
 * One batch call in 8,192 is timed, picked by its first hash (bits 40 to 52 zero; {@link #sample}),
 * half of them on the SIMD path at its one call site (the clock read around it only when sampled,
 * so the code timed is the code that runs) and half on the scalar path in its place (by bit 53).
 * {@link #record} keeps the fastest of a window of {@value #WINDOW} timings of each path, so a
 * preempted batch raises only its own figure, and switches the batches to the scalar path when the
 * SIMD one is more than {@value #SLOW_RATIO} times the scalar one in two windows running, back when
 * it is at most {@value #FAST_RATIO} times it in two windows running. The timed batches go on
 * either way, so a caller recompiled into good code gets the SIMD path back. A window takes about 8
 * · 8,192 batch calls, a fraction of a second of lookups.
 *
 * <p>The cost: one test of the first hash per batch call, a plain read of {@link #slow}, two clock
 * reads per timed batch. The answers are the same on either path. The fields are plain: threads
 * racing here blur one window's figures, never an answer.
 */
final class VectorBatchTimer {
  /** The batches whose first hash has these bits (40 to 52) zero are timed. */
  private static final long SAMPLE_MASK = (1L << 13) - 1;

  /** Timed batches of each path per window. */
  static final int WINDOW = 4;

  /** The SIMD batch more than this many times the scalar one: slow. */
  static final int SLOW_RATIO = 4;

  /** The SIMD batch at most this many times the scalar one: fast again. */
  static final int FAST_RATIO = 2;

  /** Whether the batches take the scalar path for now (but the timed SIMD ones). */
  private boolean slow;

  /** The fastest timing of the window, nanoseconds per 64 lookups, and the timings taken. */
  private long vectorBest = Long.MAX_VALUE;

  private long scalarBest = Long.MAX_VALUE;
  private int vectorTimed;
  private int scalarTimed;

  /** Windows in a row that called for switching the path. */
  private int verdicts;

  private int switches;

  /**
   * {@return which batch to time, from its first hash} 0 none (8,191 in 8,192), 1 the SIMD batch, 2
   * the scalar one. Never a timing where the gate is bypassed ({@link VectorGate#UNGATED}).
   */
  int sample(long firstHash) {
    if (VectorGate.UNGATED || ((firstHash >>> 40) & SAMPLE_MASK) != 0) {
      return 0;
    }
    return (firstHash & (1L << 53)) == 0 ? 1 : 2;
  }

  /** {@return whether the batches take the scalar path for now} */
  boolean slow() {
    return slow;
  }

  /** {@return how often the batches switched path} */
  int switches() {
    return switches;
  }

  /** Records a timed batch of {@code lookups} on the SIMD ({@code vector}) or the scalar path. */
  void record(boolean vector, long nanos, int lookups) {
    long perChunk = Math.max(nanos, 0) * 64 / Math.max(lookups, 1);
    if (vector) {
      vectorBest = Math.min(vectorBest, perChunk);
      vectorTimed++;
    } else {
      scalarBest = Math.min(scalarBest, perChunk);
      scalarTimed++;
    }
    if (vectorTimed < WINDOW || scalarTimed < WINDOW) {
      return;
    }
    long scalar = Math.max(scalarBest, 1);
    boolean switchPath =
        slow ? vectorBest <= FAST_RATIO * scalar : vectorBest > SLOW_RATIO * scalar;
    verdicts = switchPath ? verdicts + 1 : 0;
    if (verdicts >= 2) {
      slow = !slow;
      switches++;
      verdicts = 0;
    }
    vectorBest = Long.MAX_VALUE;
    scalarBest = Long.MAX_VALUE;
    vectorTimed = 0;
    scalarTimed = 0;
  }

  @Override
  public String toString() {
    return slow ? "batches scalar" : "batches SIMD";
  }
}
