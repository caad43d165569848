package dev.sieve.bloom;

import static dev.sieve.bloom.VectorGate.GAVE_UP;
import static dev.sieve.bloom.VectorGate.IDLE;
import static dev.sieve.bloom.VectorGate.MAX_ROUNDS;
import static dev.sieve.bloom.VectorGate.MAX_WARMUP_SECONDS;
import static dev.sieve.bloom.VectorGate.OPEN;
import static dev.sieve.bloom.VectorGate.OPEN_RATIO;
import static dev.sieve.bloom.VectorGate.POLL_MILLIS;
import static dev.sieve.bloom.VectorGate.SAMPLES;
import static dev.sieve.bloom.VectorGate.THREAD_NAME;
import static dev.sieve.bloom.VectorGate.UNSUPPORTED;
import static dev.sieve.bloom.VectorGate.WAITING;
import static dev.sieve.bloom.VectorGate.WARMING;
import static dev.sieve.bloom.VectorGate.WARM_UP;

import java.util.ArrayDeque;
import java.util.concurrent.TimeUnit;

/**
 * The one warm-up thread of the {@link VectorGate}s ({@value VectorGate#THREAD_NAME}, a daemon at
 * the lowest priority): it sleeps, polling the queued gates' lookup counts, and warms each gate
 * once it is due, in turn; it ends when no gate is left to warm. For each gate it
 *
 * <ol>
 *   <li>loads the vector classes and checks that the platform has 256-bit vectors (otherwise the
 *       gate stays shut: {@link VectorGate#UNSUPPORTED});
 *   <li>drives the vector kernel and its scalar reference on private lines (no filter's data is
 *       read) in time slices of 5 ms, doubling up to 100 ms, so that the JIT compiles both with
 *       every branch of the kernel profiled (probe counts 1..30, both answers);
 *   <li>after each slice, times {@value VectorGate#SAMPLE_CALLS} calls of each kernel from a call
 *       site that never inlines the kernel (a method invoked {@value VectorGate#SAMPLES} times a
 *       round, {@value VectorGate#MAX_ROUNDS} rounds at most: at most interpreted or C1-compiled,
 *       and C1 does not inline a method the kernel's size; C2's threshold, thousands of
 *       invocations, is never reached), so the time is that of the kernel's own compiled code, the
 *       code a filter's not-yet-recompiled caller reaches, not that of a copy inlined into the
 *       driving loop; the best of {@value VectorGate#SAMPLES} samples each;
 *   <li>opens the gate once the vector kernel's sample costs at most {@value
 *       VectorGate#OPEN_RATIO}× the scalar kernel's: the C1 and interpreted vector code are
 *       20-1000× slower than any scalar code, the C2 code about as fast, so the ratio tells them
 *       apart on any machine speed;
 *   <li>gives up (the gate stays shut, the scalar probe stays in use: {@link VectorGate#GAVE_UP})
 *       after {@value VectorGate#MAX_ROUNDS} rounds or {@value VectorGate#MAX_WARMUP_SECONDS} s, as
 *       under {@code -Xint} or {@code -XX:TieredStopAtLevel=1}, where the vector code never becomes
 *       fast. Under {@code -Xint} (the VM says "interpreted mode") it gives up without starting the
 *       thread.
 * </ol>
 */
final class VectorWarmupThread {
  private VectorWarmupThread() {}

  private static final long FIRST_SLICE_NANOS = 5_000_000L;
  private static final long MAX_SLICE_NANOS = 100_000_000L;

  private static final Object LOCK = new Object();
  private static final ArrayDeque<VectorGate> QUEUE = new ArrayDeque<>(); // guarded by LOCK
  private static Thread worker; // guarded by LOCK

  // written by the warm-up loops so the JIT cannot drop them as dead code
  @SuppressWarnings("UnusedVariable")
  private static volatile long sink;

  /**
   * Queues {@code gate} for the thread, starting the thread if none runs (see {@link
   * VectorGate#watch()}).
   */
  @SuppressWarnings("ThreadPriorityCheck") // the warm-up thread must yield to application threads
  static void enqueue(VectorGate gate) {
    synchronized (LOCK) {
      if (gate.state != IDLE) {
        return;
      }
      if (!WARM_UP) {
        gate.settle(gate.supported() ? OPEN : UNSUPPORTED, 0);
        return;
      }
      if (System.getProperty("java.vm.info", "").contains("interpreted mode")) {
        gate.settle(GAVE_UP, 0); // -Xint: the vector code would never be compiled
        return;
      }
      gate.state = WAITING;
      QUEUE.add(gate);
      if (worker == null) {
        Thread t = new Thread(VectorWarmupThread::work, THREAD_NAME);
        t.setDaemon(true);
        t.setPriority(Thread.MIN_PRIORITY);
        t.setContextClassLoader(null); // holds no application class loader alive
        try {
          t.start();
          worker = t;
        } catch (Throwable e) { // no thread to be had: stay on the scalar probe
          QUEUE.remove(gate);
          gate.settle(GAVE_UP, 0);
        }
      }
    }
  }

  /**
   * The warm-up thread: warms each queued gate once it is {@linkplain VectorGate#due() due},
   * sleeping between polls (1 ms, doubling to {@value VectorGate#POLL_MILLIS} ms); ends when no
   * gate is queued.
   */
  private static void work() {
    long sleep = 1;
    while (true) {
      VectorGate gate = null;
      synchronized (LOCK) {
        if (QUEUE.isEmpty()) {
          worker = null;
          return;
        }
        for (VectorGate g : QUEUE) {
          if (g.due()) {
            gate = g;
            break;
          }
        }
        if (gate != null) {
          QUEUE.remove(gate);
        }
      }
      if (gate != null) {
        warmUp(gate);
        sleep = 1;
        continue;
      }
      try {
        Thread.sleep(sleep);
      } catch (InterruptedException e) { // not ours to interrupt: the queued gates stay shut
        synchronized (LOCK) {
          for (VectorGate g : QUEUE) {
            g.settle(GAVE_UP, 0);
          }
          QUEUE.clear();
          worker = null;
        }
        Thread.currentThread().interrupt();
        return;
      }
      sleep = Math.min(2 * sleep, POLL_MILLIS);
    }
  }

  private static void warmUp(VectorGate gate) {
    gate.state = WARMING;
    long begin = System.nanoTime();
    try {
      if (!gate.supported()) {
        gate.settle(UNSUPPORTED, 0);
        return;
      }
      long acc = 0;
      for (int round = 0; round < MAX_ROUNDS; round++) {
        if (System.nanoTime() - begin > TimeUnit.SECONDS.toNanos(MAX_WARMUP_SECONDS)) {
          break;
        }
        acc +=
            driveFor(
                gate.warmup, Math.min(FIRST_SLICE_NANOS << Math.min(round, 8), MAX_SLICE_NANOS));
        long vector = Long.MAX_VALUE;
        long scalar = Long.MAX_VALUE;
        for (int s = 0; s < SAMPLES; s++) {
          long t0 = System.nanoTime();
          acc += gate.warmup.sampleVector();
          long t1 = System.nanoTime();
          acc += gate.warmup.sampleScalar();
          long t2 = System.nanoTime();
          vector = Math.min(vector, t1 - t0);
          scalar = Math.min(scalar, t2 - t1);
        }
        if (vector <= OPEN_RATIO * Math.max(scalar, 1)) {
          sink = acc;
          gate.warmupNanos = System.nanoTime() - begin;
          gate.settle(OPEN, round + 1);
          return;
        }
      }
      sink = acc;
      gate.settle(GAVE_UP, MAX_ROUNDS);
    } catch (Throwable e) { // a linkage or resource failure: stay on the scalar probe
      gate.settle(GAVE_UP, 0);
    }
  }

  /** Drives both kernels for about {@code nanos}, in chunks of 256 calls. */
  private static long driveFor(VectorGate.Warmup warmup, long nanos) {
    long begin = System.nanoTime();
    long acc = 0;
    do {
      acc += warmup.drive(256);
    } while (System.nanoTime() - begin < nanos);
    return acc;
  }
}
