package dev.sieve.bench.jmh;

import dev.sieve.bench.Membership;
import dev.sieve.bench.Structures;
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
import org.openjdk.jmh.annotations.TearDown;

/**
 * Query cost per lookup: present keys ({@link #positive}) and absent keys ({@link #negative}), in
 * batches of {@value #BATCH} independent lookups over a pre-drawn stream of {@value #QUERY_STREAM}
 * keys (read sequentially, so the key stream itself costs no cache misses). The lookups are
 * independent, so the CPU may overlap their memory accesses: this is throughput per lookup, the
 * same for every structure and for the raw random read it is compared with. Each invocation hands
 * the structure one run of {@value #BATCH} keys through {@link Membership#mayContainBatch}: a loop
 * of single lookups for every row but the {@code -batch} rows, which use the filter's batch API.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class QueryBenchmark {
  /** Lookups per benchmark invocation. */
  public static final int BATCH = Membership.BATCH;

  /** Length of the pre-drawn query streams (a power of two). */
  public static final int QUERY_STREAM = 1 << 20;

  @Param("sieve-blocked-bloom")
  public String structure;

  @Param("1000000")
  public int n;

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
    Workload workload = Workload.create(n, seed);
    membership = Structures.byName(structure).build(workload.keys(), bitsPerKey);
    present = workload.presentQueries(QUERY_STREAM);
    absent = workload.absentQueries(QUERY_STREAM);
  }

  /**
   * Warns (in the fork's output, which the report passes on) when a blocked or split-block Bloom
   * row that should have run the SIMD path ended its trial with the warm-up gate still shut: that
   * row measured the scalar probe. Silent otherwise, and for every other structure. (One
   * split-block fork measured 8.5 ns from its first warm-up iteration to its last, the scalar
   * probe's figure, and no warning covered the split-block rows.)
   */
  @TearDown(Level.Trial)
  public void tearDown() {
    boolean blockedShut =
        structure.startsWith("sieve-blocked-bloom")
            && dev.sieve.bloom.BlockedBloomFilter.usesVectorProbe()
            && !dev.sieve.bloom.BlockedBloomFilter.vectorProbeActive();
    boolean splitBlockShut =
        structure.startsWith("sieve-split-block-bloom")
            && dev.sieve.bloom.SplitBlockBloomFilter.usesVectorProbe()
            && !dev.sieve.bloom.SplitBlockBloomFilter.vectorProbeActive();
    if (blockedShut || splitBlockShut) {
      System.out.println(
          "WARNING: "
              + structure
              + " n="
              + n
              + ": the SIMD warm-up gate was still shut at the end of the trial;"
              + " this row measured the scalar probe");
    }
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
