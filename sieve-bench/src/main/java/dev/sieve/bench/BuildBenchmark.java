package dev.sieve.bench;

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
 * Build cost: one whole build of {@code n} keys per measured shot (single-shot time, so each shot
 * pays what one real build pays, allocation and GC included). The report divides by {@code n} for
 * ns/key.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SingleShotTime)
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
