package dev.sieve.bench.jmh;

import dev.sieve.range.GrafiteFilter;
import dev.sieve.range.PrefixBloomRangeFilter;
import dev.sieve.range.RangeFilter;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * The range filters' query cost: the time of one range query ({@code mayContainRange}) of a {@link
 * GrafiteFilter} ({@code structure=grafite}) or the {@link PrefixBloomRangeFilter} baseline at the
 * same bits per key ({@code prefix-bloom}) over {@code n} uniform keys, ranges of {@code length}
 * values, uniform ({@code workload=uniform}) or starting just after a key ({@code correlated}),
 * {@value #BATCH} independent queries per invocation from a pre-drawn stream, asked one at a time
 * ({@code call=single}: {@code mayContainRange} in a loop) or as one batch ({@code call=batch}:
 * {@code mayContainRanges}, which Grafite stages so that the ranges' memory reads overlap). Target:
 * at most 100 ns per range at 10^7 keys. Run: {@code java -cp
 * sieve-bench/target/sieve-bench-all.jar org.openjdk.jmh.Main RangeQueryBenchmark -p n=10000000
 * -jvmArgs -Xmx6g -f 1 -wi 3 -i 5}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class RangeQueryBenchmark {
  /** Queries per invocation. */
  public static final int BATCH = 1024;

  private static final int STREAM = 1 << 20;

  @Param({"grafite", "prefix-bloom"})
  public String structure;

  @Param("10000000")
  public int n;

  @Param({"16", "1024"})
  public long length;

  @Param({"uniform", "correlated"})
  public String workload;

  @Param("16")
  public double bitsPerKey;

  @Param({"single", "batch"})
  public String call;

  private RangeFilter filter;
  private long[] lo;
  private long[] hi;
  private final long[] bits = new long[BATCH / 64];
  private int at;

  @Setup
  public void setup() {
    long[] keys = new SplittableRandom(25).longs(n).toArray();
    GrafiteFilter g =
        GrafiteFilter.builder().maxRangeLength(length).bitsPerKey(bitsPerKey).buildFromKeys(keys);
    filter =
        switch (structure) {
          case "grafite" -> g;
          case "prefix-bloom" ->
              PrefixBloomRangeFilter.builder()
                  .maxRangeLength(length)
                  .bitsPerKey((double) g.memoryBits() / n)
                  .buildFromKeys(keys);
          default -> throw new IllegalArgumentException("structure " + structure);
        };
    SplittableRandom rnd = new SplittableRandom(7);
    lo = new long[STREAM];
    hi = new long[STREAM];
    for (int i = 0; i < STREAM; i++) {
      long l =
          workload.equals("correlated")
              ? keys[rnd.nextInt(n)] + 1 + rnd.nextInt(16)
              : rnd.nextLong();
      long h = l + length - 1;
      if (Long.compareUnsigned(l, h) > 0) {
        h = -1L;
      }
      lo[i] = l;
      hi[i] = h;
    }
  }

  @Benchmark
  @OperationsPerInvocation(BATCH)
  public int query() {
    int a = at;
    if (call.equals("batch")) {
      at = (a + BATCH) & (STREAM - 1);
      return filter.mayContainRanges(lo, hi, a, BATCH, bits);
    }
    int hits = 0;
    for (int i = 0; i < BATCH; i++) {
      int j = (a + i) & (STREAM - 1);
      hits += filter.mayContainRange(lo[j], hi[j]) ? 1 : 0;
    }
    at = (a + BATCH) & (STREAM - 1);
    return hits;
  }
}
