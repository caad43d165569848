package dev.sieve.bench.jmh;

import dev.sieve.bench.RangeCells;
import dev.sieve.range.GrafiteFilter;
import dev.sieve.range.RangeFilter;
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
 * The report's range section timed in one fork per filter: every cell (range length × workload,
 * {@link RangeCells}) of one structure, the cells taking turns one iteration each. Iteration {@code
 * k} of the fork (warm-up iterations counted) times cell {@code k mod C} of the {@code C =
 * 2·lengths} cells, in the order length-major, uniform before correlated; the report asks for a
 * multiple of {@code C} warm-up iterations, so measured iteration {@code i} is cell {@code i mod
 * C}. One fork per filter instead of one per cell keeps the section within its time (a fork costs
 * about a second before its first iteration); the filters of every length live in the fork, so the
 * query call site is profiled for that filter type alone, as each point-lookup row's is.
 *
 * <p>{@value #BATCH} independent ranges per invocation from a pre-drawn stream of {@value #STREAM}
 * per cell. {@code prefixBitsPerKey} ("," separated, one per length) gives the prefix-Bloom
 * baseline the memory of Grafite measured by the report; {@code auto} builds Grafite here to learn
 * it.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class RangeCellsBenchmark {
  /** Ranges per invocation. */
  public static final int BATCH = 1024;

  /** Ranges per cell's stream (a power of two). */
  public static final int STREAM = 1 << 18;

  @Param("grafite")
  public String structure;

  @Param("1000000")
  public int n;

  @Param("16")
  public double bitsPerKey;

  @Param("1,16,1024,1048576")
  public String lengths;

  @Param("auto")
  public String prefixBitsPerKey;

  @Param("25")
  public long seed;

  private RangeFilter[] filters;
  private long[][] lo;
  private long[][] hi;
  private int cell = -1;
  private RangeFilter current;
  private long[] curLo;
  private long[] curHi;
  private int at;

  /** {@return the lengths of a comma-separated list} */
  public static long[] parseLengths(String s) {
    String[] parts = s.split(",");
    long[] out = new long[parts.length];
    for (int i = 0; i < parts.length; i++) {
      out[i] = Long.parseLong(parts[i].trim());
    }
    return out;
  }

  @Setup(Level.Trial)
  public void setup() {
    long[] lens = parseLengths(lengths);
    RangeCells.Structure s = RangeCells.Structure.of(structure);
    String[] pb = prefixBitsPerKey.equals("auto") ? null : prefixBitsPerKey.split(",");
    if (pb != null && pb.length != lens.length) {
      throw new IllegalArgumentException(
          "prefixBitsPerKey has " + pb.length + " entries for " + lens.length + " lengths");
    }
    long[] keys = RangeCells.keys(n, seed);
    RangeCells.Workload[] workloads = RangeCells.Workload.values();
    filters = new RangeFilter[lens.length];
    lo = new long[lens.length * workloads.length][];
    hi = new long[lens.length * workloads.length][];
    for (int i = 0; i < lens.length; i++) {
      if (s == RangeCells.Structure.GRAFITE) {
        filters[i] = RangeCells.grafite(keys, lens[i], bitsPerKey);
      } else {
        double bits;
        if (pb == null) {
          GrafiteFilter g = RangeCells.grafite(keys, lens[i], bitsPerKey);
          bits = RangeCells.memoryBitsPerKey(g, n);
        } else {
          bits = Double.parseDouble(pb[i].trim());
        }
        filters[i] = RangeCells.prefixBloom(keys, lens[i], bits);
      }
      for (RangeCells.Workload w : workloads) {
        int c = i * workloads.length + w.ordinal();
        long[][] stream =
            RangeCells.stream(w, keys, lens[i], STREAM, RangeCells.streamSeed(seed, lens[i], w));
        lo[c] = stream[0];
        hi[c] = stream[1];
      }
    }
  }

  /** The next cell: one per iteration, in turn. */
  @Setup(Level.Iteration)
  public void nextCell() {
    cell = (cell + 1) % lo.length;
    current = filters[cell / RangeCells.Workload.values().length];
    curLo = lo[cell];
    curHi = hi[cell];
    at = 0;
  }

  @Benchmark
  @OperationsPerInvocation(BATCH)
  public int query() {
    int a = at;
    int hits = RangeCells.query(current, curLo, curHi, a, BATCH);
    at = (a + BATCH) & (STREAM - 1);
    return hits;
  }
}
