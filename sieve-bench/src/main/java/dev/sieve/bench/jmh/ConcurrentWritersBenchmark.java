package dev.sieve.bench.jmh;

import dev.sieve.MutableFilter;
import dev.sieve.bloom.ScalableBloomFilter;
import dev.sieve.expand.ExpandableFilter;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * What concurrent writers get, measured: the time to fill a fresh filter with {@code n} keys split
 * among {@code writers} threads adding at once (each {@code addHash} over its own slice of a
 * pre-drawn stream of random hashes). An {@link ExpandableFilter} serializes its writers with a
 * lock ({@code StampedLock}, its class comment's "Threads"), so more writers cannot fill it faster
 * and contention can make them slower; a {@link ScalableBloomFilter} adds lock-free (a lock only at
 * a stage switch). The structures are {@link GrowthQueryBenchmark#create}'s ({@code expandable},
 * {@code expandable-hinted}, {@code scalable}; {@code rightsized}, a blocked Bloom with lock-free
 * adds, is accepted too).
 *
 * <p>One invocation is one whole fill by {@code writers} threads of a pool started once per trial,
 * into a filter made empty just before it ({@code @Setup(Level.Invocation)}, outside the timing),
 * as in {@link GrowthInsertBenchmark}; the score is milliseconds per fill; <b>adds per second = n ×
 * 1000 / score</b>, and the ratio of a score at {@code writers=k} to the one at {@code writers=1}
 * is what {@code k} concurrent writers get. The machine needs at least {@code writers} free cores
 * for the figure to mean that. Run: {@code java -cp sieve-bench/target/sieve-bench-all.jar
 * org.openjdk.jmh.Main ConcurrentWritersBenchmark -p
 * structure=expandable,expandable-hinted,scalable -p writers=1,2,4 -p n=10000000 -jvmArgs -Xmx4g -f
 * 1 -wi 3 -i 10}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
public class ConcurrentWritersBenchmark {
  @Param({"expandable", "expandable-hinted", "scalable"})
  public String structure;

  @Param({"1", "2", "4"})
  public int writers;

  @Param("10000000")
  public long n;

  @Param("0.01")
  public double fpRate;

  private long[] keys;
  private ExecutorService pool;
  private MutableFilter filter;

  @Setup(Level.Trial)
  public void drawKeys() {
    if (n < 1 || n > Integer.MAX_VALUE - 8) {
      throw new IllegalArgumentException("n=" + n + ": between 1 and 2^31 - 9 (a key array)");
    }
    if (writers < 1 || writers > 256) {
      throw new IllegalArgumentException("writers=" + writers + ": between 1 and 256");
    }
    keys = new SplittableRandom(1).longs(n).toArray();
    pool = Executors.newFixedThreadPool(writers);
  }

  @TearDown(Level.Trial)
  public void stopPool() {
    pool.shutdownNow();
  }

  @Setup(Level.Invocation)
  public void freshFilter() {
    filter = null; // the previous fill can be collected before the next is allocated
    filter = GrowthQueryBenchmark.create(structure, n, fpRate, 0);
  }

  /** {@return the filter after {@code n} adds by {@code writers} threads at once} */
  @Benchmark
  public MutableFilter fill() throws InterruptedException, ExecutionException {
    return fill(filter, keys, writers, pool);
  }

  /**
   * Adds {@code keys} to {@code f} from {@code writers} tasks of {@code pool} at once, thread
   * {@code t} the slice {@code [t·len/writers, (t+1)·len/writers)}; returns when all are done.
   */
  static MutableFilter fill(MutableFilter f, long[] keys, int writers, ExecutorService pool)
      throws InterruptedException, ExecutionException {
    List<Future<?>> done = new ArrayList<>(writers);
    for (int t = 0; t < writers; t++) {
      int from = (int) ((long) keys.length * t / writers);
      int to = (int) ((long) keys.length * (t + 1) / writers);
      done.add(
          pool.submit(
              () -> {
                for (int i = from; i < to; i++) {
                  f.addHash(keys[i]);
                }
              }));
    }
    for (Future<?> d : done) {
      d.get();
    }
    return f;
  }
}
