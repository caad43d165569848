package dev.sieve.bench.jmh;

import dev.sieve.bloom.SplitBlockBloomFilter;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * The split-block Bloom filter's check alone: "is this 64-bit hash in the filter", with no key hash
 * and no adapter between the benchmark and the filter. The filter holds {@code n} random hashes at
 * {@code bitsPerKey} (whole 32-byte blocks: 125 KB at 10^5 keys and 10 bits per key, 1.25 MB at
 * 10^6, both in cache after the warm-up); the queries are a pre-drawn stream of {@value
 * #QUERY_STREAM} other random hashes (absent but for the false positives), read in order {@value
 * #BATCH} at a time, so the stream itself costs no cache misses. Two forms: {@link #single} calls
 * {@link SplitBlockBloomFilter#mayContainHash} per hash and counts the maybes, {@link #batch} hands
 * each run of {@value #BATCH} to {@link SplitBlockBloomFilter#mayContainHashes}. Every invocation
 * reads the next run of the stream and returns its count, so no check can be hoisted or dropped by
 * the JIT.
 *
 * <p>Without a JVM flag the filter runs its scalar check; with {@code -jvmArgsAppend '--add-modules
 * jdk.incubator.vector'} its SIMD check once the warm-up gate has opened (keep the warm-up at 3 s
 * or more; the tear-down warns when a fork ended with the gate shut). Run: {@code java -cp
 * sieve-bench/target/sieve-bench-all.jar org.openjdk.jmh.Main SplitBlockHashCheckBenchmark -f 1 -wi
 * 3 -w 1s -i 3 -r 1s}, once without and once with the module.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class SplitBlockHashCheckBenchmark {
  /** Checks per benchmark invocation. */
  public static final int BATCH = 1024;

  /** Length of the pre-drawn query stream (a power of two, a multiple of {@value #BATCH}). */
  public static final int QUERY_STREAM = 1 << 16;

  @Param({"100000", "1000000"})
  public int n;

  @Param("10")
  public double bitsPerKey;

  @Param("20260512")
  public long seed;

  private SplitBlockBloomFilter filter;
  private long[] queries;
  private final long[] resultBits = new long[BATCH / 64];
  private int cursor;

  @Setup(Level.Trial)
  public void setUp() {
    SplittableRandom random = new SplittableRandom(seed);
    long[] hashes = new long[n];
    for (int i = 0; i < n; i++) {
      hashes[i] = random.nextLong();
    }
    filter = SplitBlockBloomFilter.builder().bitsPerKey(bitsPerKey).buildFromHashes(hashes);
    queries = new long[QUERY_STREAM];
    for (int i = 0; i < QUERY_STREAM; i++) {
      queries[i] = random.nextLong();
    }
    cursor = 0;
  }

  /** Warns when a fork that should have run the SIMD check ended with the warm-up gate shut. */
  @TearDown(Level.Trial)
  public void tearDown() {
    if (SplitBlockBloomFilter.usesVectorProbe() && !SplitBlockBloomFilter.vectorProbeActive()) {
      System.out.println(
          "WARNING: split-block n="
              + n
              + ": the SIMD warm-up gate was still shut at the end of the trial;"
              + " this run measured the scalar check");
    }
  }

  /** The filter under test. */
  SplitBlockBloomFilter filter() {
    return filter;
  }

  /** {@value #BATCH} single checks over the next run of the stream: the number of maybes. */
  @Benchmark
  @OperationsPerInvocation(BATCH)
  public int single() {
    int c = cursor;
    long[] q = queries;
    SplitBlockBloomFilter f = filter;
    int hits = 0;
    for (int i = 0; i < BATCH; i++) {
      if (f.mayContainHash(q[c + i])) {
        hits++;
      }
    }
    cursor = (c + BATCH) & (QUERY_STREAM - 1);
    return hits;
  }

  /** One batch check of the next run of the stream: the number of maybes. */
  @Benchmark
  @OperationsPerInvocation(BATCH)
  public int batch() {
    int c = cursor;
    int hits = filter.mayContainHashes(queries, c, BATCH, resultBits);
    cursor = (c + BATCH) & (QUERY_STREAM - 1);
    return hits;
  }
}
