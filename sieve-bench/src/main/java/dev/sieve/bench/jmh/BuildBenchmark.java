package dev.sieve.bench.jmh;

import dev.sieve.bench.Membership;
import dev.sieve.bench.StructureKind;
import dev.sieve.bench.Structures;
import dev.sieve.bench.Workload;
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

/**
 * Build cost: the average time of one whole build of {@code n} keys, allocation and GC included.
 * The report runs several warm-up iterations of builds first (each iteration at least one whole
 * build), so the figure is a warmed-up build rather than JIT compilation; it divides by {@code n}
 * for ns/key.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class BuildBenchmark {
  @Param("sieve-blocked-bloom")
  public String structure;

  @Param("1000000")
  public int n;

  @Param("10")
  public double bitsPerKey;

  @Param("" + Workload.DEFAULT_SEED)
  public long seed;

  private StructureKind kind;
  private long[] keys;

  @Setup(Level.Trial)
  public void setUp() {
    kind = Structures.byName(structure);
    keys = Workload.create(n, seed).keys();
  }

  @Benchmark
  public Membership build() {
    return kind.build(keys, bitsPerKey);
  }
}
