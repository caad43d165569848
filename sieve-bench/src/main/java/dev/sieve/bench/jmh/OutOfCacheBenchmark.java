package dev.sieve.bench.jmh;

import dev.sieve.bench.KeyStream;
import dev.sieve.bench.Membership;
import dev.sieve.bench.StreamedStructures;
import dev.sieve.bench.Workload;
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

/**
 * Lookups far out of cache (10^8 and 10^9 keys), measured as {@link QueryBenchmark} measures them
 * but with no array of the keys: every structure ({@link StreamedStructures}) is built, in the
 * trial's setup and so outside the timing, from one seeded {@link KeyStream} added key by key, and
 * asked the same two pre-drawn streams of {@value #QUERY_STREAM} queries (present: keys of random
 * indices below {@code n}; absent: keys of indices at or above it, so absent by construction), read
 * sequentially, {@value #BATCH} independent lookups per invocation. Throughput per lookup, as the
 * query benchmark's, beside the raw random read over the blocked Bloom filter's footprint.
 *
 * <p>{@code sieve-bench/scripts/out-of-cache.sh} runs the rows at 10^8 and 10^9 keys, each size in
 * its own JMH run and each row in its own fork, with the heap each size needs. The experiment rows
 * {@code two-word-form-*} ({@link dev.sieve.bench.TwoWordProbeForms}) ask a copy of the two-word
 * filter's words by one probe form each (block-aligned or not, early exit or both words).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class OutOfCacheBenchmark {
  /** Lookups per benchmark invocation. */
  public static final int BATCH = Membership.BATCH;

  /** Length of the pre-drawn query streams (a power of two, a multiple of {@link #BATCH}). */
  public static final int QUERY_STREAM = 1 << 20;

  @Param("sieve-two-word-bloom")
  public String structure;

  @Param("100000000")
  public long n;

  @Param("10")
  public double bitsPerKey;

  @Param("" + Workload.DEFAULT_SEED)
  public long seed;

  private Membership membership;
  private long[] present;
  private long[] absent;
  private int cursor;

  @Setup(Level.Trial)
  public void setUp() {
    StreamedStructures.Builder builder = StreamedStructures.byName(structure);
    KeyStream keys = KeyStream.of(n, seed);
    membership = builder.build(keys, bitsPerKey);
    present = keys.presentQueries(QUERY_STREAM);
    absent = keys.absentQueries(QUERY_STREAM);
  }

  @Benchmark
  @OperationsPerInvocation(BATCH)
  public int positive() {
    return run(present);
  }

  @Benchmark
  @OperationsPerInvocation(BATCH)
  public int negative() {
    return run(absent);
  }

  private int run(long[] stream) {
    // BATCH divides QUERY_STREAM, so [c, c + BATCH) never wraps
    int c = cursor;
    int hits = membership.mayContainBatch(stream, c, BATCH);
    cursor = (c + BATCH) & (QUERY_STREAM - 1);
    return hits;
  }
}
