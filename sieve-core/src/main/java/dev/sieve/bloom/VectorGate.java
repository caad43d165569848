package dev.sieve.bloom;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * The switch from a Bloom filter's scalar probe to its SIMD probe, thrown once the SIMD code has
 * been compiled: the shared gate of {@link VectorLineProbe} (blocked Bloom) and {@link
 * SplitBlockVectorProbe} (split-block Bloom).
 *
 * <h2>Why a gate</h2>
 *
 * Code written against {@code jdk.incubator.vector} is fast only once C2 has compiled it, when
 * every vector operation becomes one or two instructions. Interpreted, each operation allocates a
 * vector object and loops over its lanes in Java, thousands of times the compiled cost; compiled by
 * C1 it is still hundreds of times slower; C2 makes each operation one or two instructions. A JVM
 * that used the SIMD path from its first lookup paid a hundredfold and more over the scalar path
 * for its first thousand lookups (the report's cold-start section measures it). With a gate, the
 * filters run their scalar probe (same answers, bit for bit) until the gate is {@linkplain
 * #isOpen() open}, and the vector probe after.
 *
 * <h2>How it opens</h2>
 *
 * Not when a filter is created, but once heap filters of a kind have answered about {@value
 * #START_LOOKUPS} lookups on the scalar path ({@link #openFor(long)} counts one lookup in 4,096,
 * those whose hash has its low 12 bits zero, so the count costs one test per lookup and a plain
 * increment per 4,096; batches count by length, {@link #openAfter(int)}). The first heap filter of
 * a kind ({@link #watch()}) starts one daemon thread ({@value #THREAD_NAME}, shared by all gates),
 * which sleeps and reads the counts every {@value #POLL_MILLIS} ms at most: the lookups never call
 * into the gate (a call on the counting path, however rare, stayed in C2's code of a caller's loop,
 * which then reloaded the filter's fields and the vector constants every lookup and was not
 * unrolled, also once the gate was open). Until the count is reached nothing of the vector module
 * is loaded or compiled.
 *
 * <p>Why wait: starting at the first filter's creation, the warm-up (loading the vector classes,
 * spinning their method handles, C1 and C2 compiling hundreds of vector methods) competed with the
 * application's own first lookups for the cores and the JIT's queues: with few cores a fresh JVM's
 * lookups 10^3 to 10^4 ran several times slower with the module than without. With {@code
 * -XX:+PrintCompilation} the gate was still shut at lookup 10^5, its thread still initializing the
 * vector classes, and the lookup loop's compiles were queued among those of the method-handle
 * classes that initialization spins: the window paid for the warm-up's start, not for vector code.
 * The warm-up costs 0.2-1.5 s of one core (more wall time where the cores are busy) and the vector
 * probe saves a few nanoseconds a lookup, so it pays only past some 10^7 to 10^8 lookups: a JVM
 * that has not done 10^6 lookups should not pay for it. {@code -Dsieve.vector.warmupAfter=N}
 * changes the count (0: at the thread's first poll). Then the thread warms each due gate in turn
 * ({@link VectorWarmupThread} gives the steps: it opens the gate once the compiled vector kernel is
 * about as fast as the scalar one, and gives up where it never becomes so).
 *
 * <h2>What it costs</h2>
 *
 * The hot path reads one plain boolean per lookup (per chunk of 64 in batches; not a volatile,
 * whose acquire barrier cost the split-block filter's lookups 1.5× in a caller's loop, see {@link
 * #open}), and while it is false tests 12 bits of the hash (the count above); when it turns true,
 * code compiled with the gate shut deoptimizes once and is recompiled with the SIMD probe inlined.
 * A JVM that runs without the module never reads it (the filters test a {@code static final}
 * first). A JVM with the module pays nothing for its first {@value #START_LOOKUPS} lookups (its
 * lookups are the scalar path's, no vector class is loaded); after them, the warm-up thread's CPU
 * time, typically 0.2-1.5 s of one core (most of it C1 and C2 compiling the vector code), while the
 * lookups run scalar until the gate opens, then one deoptimization and recompilation of the
 * callers: with the module, its lookups never cost more than without it but for that switch, and a
 * JVM that exits first simply never ran the SIMD probe. {@code -Dsieve.vector.warmup=false} opens
 * the gate at once (the old behaviour, with its warm-up cliff), for measurements.
 *
 * <p>The answers never depend on the gate: the scalar and the vector probes answer alike, so a
 * lookup answers the same whichever side of the switch it runs on.
 */
final class VectorGate {

  /** The name of the one warm-up thread. */
  static final String THREAD_NAME = "sieve-vector-warmup";

  /** States, in {@link #state()}. */
  static final int IDLE = 0;

  static final int WARMING = 1;
  static final int OPEN = 2;
  static final int GAVE_UP = 3;
  static final int UNSUPPORTED = 4;

  /** Queued: a heap filter exists, the warm-up thread waits for the lookup count. */
  static final int WAITING = 5;

  static final int SAMPLE_CALLS = 16;
  static final int SAMPLES = 3;
  static final int MAX_ROUNDS = 60;
  static final int OPEN_RATIO = 3;
  static final int MAX_WARMUP_SECONDS = 20;

  /** The scalar lookups after which the warm-up starts, by default (see the class comment). */
  static final long START_LOOKUPS = 1L << 20;

  /** {@code sieve.vector.warmupAfter}: the scalar lookups before the warm-up starts. */
  static final long WARMUP_AFTER = warmupAfter();

  /** {@link #openFor} counts the lookups whose hash has these bits zero: one in 4,096. */
  private static final int SAMPLE_MASK = (1 << 12) - 1;

  /** How often the waiting warm-up thread reads the counts, at most. */
  static final long POLL_MILLIS = 20;

  /**
   * A kernel pair to warm: the vector probe and its scalar reference, each on private data. {@link
   * #sampleVector} and {@link #sampleScalar} must each be their own small method calling the kernel
   * {@value #SAMPLE_CALLS} times, so that they never inline the kernel (see the class comment).
   */
  interface Warmup {
    /** Whether the platform runs the vector kernel (loads the vector classes). */
    boolean supported();

    /** Calls the vector kernel and the scalar reference {@code calls} times each. */
    long drive(int calls);

    /**
     * Calls the vector kernel {@value #SAMPLE_CALLS} times (and, where the SIMD path has a batch
     * kernel that is its own compile root, one batch of about as many keys).
     */
    long sampleVector();

    /** Calls the scalar references of {@link #sampleVector}'s calls. */
    long sampleScalar();
  }

  /** Whether {@code jdk.incubator.vector} is in the boot layer and this module reads it. */
  static final boolean MODULE_READABLE = readVectorModule();

  /** Whether to warm up ({@code sieve.vector.warmup}, default true) or open at once. */
  static final boolean WARM_UP =
      !"false".equalsIgnoreCase(System.getProperty("sieve.vector.warmup", "true"));

  /**
   * Whether the filters skip the gate: {@code -Dsieve.vector.warmup=false} on a JVM that runs the
   * vector probes (module readable, 256-bit vectors; checked here, at class initialization, which
   * then loads the vector classes). The filters test it before the gate, as a constant, so this
   * mode is the SIMD path without any per-lookup check (and with the warm-up cliff): the baseline
   * to measure the gate's cost against.
   */
  static final boolean UNGATED =
      !WARM_UP && MODULE_READABLE && VectorLineProbe.Warmup.platformSupported();

  /** The gate of {@link VectorLineProbe}, the blocked Bloom filter's SIMD line test. */
  static final VectorGate BLOCKED_BLOOM =
      new VectorGate("blocked Bloom", new VectorLineProbe.Warmup());

  /** The gate of {@link SplitBlockVectorProbe}, the split-block Bloom filter's SIMD check. */
  static final VectorGate SPLIT_BLOCK =
      new VectorGate("split-block Bloom", new SplitBlockVectorProbe.Warmup());

  private final String name;
  final Warmup warmup;
  private final CountDownLatch settled = new CountDownLatch(1);

  /**
   * Read by every lookup on the SIMD-capable path: a plain field, not a volatile one. A volatile
   * read is an acquire barrier to C2, so in a caller's loop of lookups it made the JIT reload the
   * filter's fields and recheck its array bounds on every lookup (split-block single lookups
   * 1.5-1.7× slower in a same-machine comparison); a plain read costs one load, and the JIT may
   * hoist it out of a loop with the rest. Written before the volatile {@link #state}; a loop
   * compiled while the gate was shut sees the switch when it is next entered (or never, if it never
   * ends: it then keeps the scalar probe). No answer depends on when the switch is seen.
   */
  private boolean open;

  /**
   * The sampled single lookups seen shut ({@link #openFor}); a plain field, written once in 4,096
   * lookups (a lost update between threads only delays the start a little).
   */
  private int sampled;

  /** The lookups seen shut in batches ({@link #openAfter}); plain, as {@link #sampled}. */
  private long batchLookups;

  /** Set by {@link #start()}: warm up now, without waiting for the count. */
  private volatile boolean now;

  volatile int state = IDLE;

  /** The nanoseconds from the warm-up's start to the gate's opening, -1 if it has not opened. */
  volatile long warmupNanos = -1;

  private volatile int rounds;

  VectorGate(String name, Warmup warmup) {
    this.name = name;
    this.warmup = warmup;
  }

  /**
   * Adds the read edge from this module to {@code jdk.incubator.vector} when the JVM has that
   * module in its boot layer ({@code --add-modules jdk.incubator.vector}). The module descriptor
   * does not require it (not even {@code requires static}: that put javac's "using incubating
   * module(s)" warning into every consumer module's build), so on the module path the edge is added
   * here, at run time; on the class path the unnamed module reads every module already. Touches no
   * incubator class.
   */
  private static boolean readVectorModule() {
    java.util.Optional<Module> vector = ModuleLayer.boot().findModule("jdk.incubator.vector");
    if (vector.isEmpty()) {
      return false;
    }
    Module self = VectorGate.class.getModule();
    if (!self.canRead(vector.get())) {
      self.addReads(vector.get());
    }
    return true;
  }

  /** {@return whether the filters use the vector kernel now} One plain read (see {@link #open}). */
  boolean isOpen() {
    return open;
  }

  /**
   * The gate of a single lookup of hash {@code hash}: whether the filter takes the vector probe.
   * While shut, counts the lookup (one in 4,096, by the hash's low 12 bits) and starts the warm-up
   * once about {@link #WARMUP_AFTER} lookups have been counted. Small enough to inline: one plain
   * read when open, one more test when shut.
   */
  boolean openFor(long hash) {
    if (open) {
      return true;
    }
    if (((int) hash & SAMPLE_MASK) == 0) {
      // a plain increment and no call: a call here (even a rare one) made C2 keep it in a caller's
      // loop of lookups, reloading the filter's fields and the vector constants every lookup and
      // not unrolling, also once the gate was open; the warm-up thread polls the count instead
      sampled++;
    }
    return false;
  }

  /**
   * The gate of a batch of {@code lookups}: {@link #openFor(long)} for a batch, which counts all of
   * them.
   */
  boolean openAfter(int lookups) {
    if (open) {
      return true;
    }
    batchLookups += lookups;
    return false;
  }

  /** Whether the warm-up is due: {@link #start()} called, or the lookups counted. */
  boolean due() {
    return now || (long) sampled * (SAMPLE_MASK + 1) + batchLookups >= WARMUP_AFTER;
  }

  private static long warmupAfter() {
    String v = System.getProperty("sieve.vector.warmupAfter");
    if (v == null) {
      return START_LOOKUPS;
    }
    try {
      long n = Long.parseLong(v.trim());
      if (n >= 0) {
        return n;
      }
    } catch (NumberFormatException e) {
      // falls through to the default
    }
    return START_LOOKUPS; // a bad value: the default, as for an absent one
  }

  /** {@return the state: IDLE, WAITING, WARMING, OPEN, GAVE_UP or UNSUPPORTED} */
  int state() {
    return state;
  }

  /** {@return the rounds of driving the warm-up took} */
  int rounds() {
    return rounds;
  }

  /** {@return whether the platform runs this gate's vector kernel} Loads the vector classes. */
  boolean supported() {
    try {
      return MODULE_READABLE && warmup.supported();
    } catch (LinkageError e) {
      return false;
    }
  }

  /**
   * Called by each heap filter's constructor (once per JVM it does something): queues this gate for
   * the warm-up thread, starting that thread if none runs; the thread sleeps, reading the lookup
   * counts every {@value #POLL_MILLIS} ms at most, until they reach {@link #WARMUP_AFTER}. Cheap
   * after the first call (one volatile read). Call only where {@link #MODULE_READABLE} holds.
   */
  void watch() {
    if (state == IDLE) {
      VectorWarmupThread.enqueue(this);
    }
  }

  /**
   * Starts the warm-up now, whatever the lookup count (later calls return at once): {@link
   * #watch()}, and the thread warms this gate at its next poll.
   */
  void start() {
    now = true;
    if (state == IDLE) {
      VectorWarmupThread.enqueue(this);
    }
  }

  /**
   * Starts the warm-up if needed and waits up to {@code timeoutMillis} for it to settle.
   *
   * @return whether the gate is open
   */
  boolean awaitOpen(long timeoutMillis) throws InterruptedException {
    start();
    settled.await(timeoutMillis, TimeUnit.MILLISECONDS);
    return open;
  }

  /**
   * Waits up to {@code timeoutMillis} for a started warm-up to settle, without starting one.
   *
   * @return whether the gate is open
   */
  boolean awaitSettled(long timeoutMillis) throws InterruptedException {
    settled.await(timeoutMillis, TimeUnit.MILLISECONDS);
    return open;
  }

  void settle(int newState, int roundsTaken) {
    rounds = roundsTaken;
    open = newState == OPEN;
    state = newState; // the volatile write publishes open
    settled.countDown();
  }

  @Override
  public String toString() {
    return "VectorGate{" + name + ", state=" + state + ", rounds=" + rounds + "}";
  }
}
