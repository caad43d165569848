package dev.sieve.bench.jmh;

import dev.sieve.MutableFilter;
import dev.sieve.bloom.BlockedBloomFilter;
import dev.sieve.bloom.ScalableBloomFilter;
import dev.sieve.expand.ExpandableFilter;
import java.util.SplittableRandom;
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
 * The insert cost of a growable filter: the amortized cost of filling a fresh filter with {@code n}
 * keys ({@code addHash} over a pre-drawn stream of random 64-bit hashes, so the key hash is not in
 * the figure). The structures are {@link GrowthQueryBenchmark#create}'s: {@code expandable} (an
 * {@link ExpandableFilter} grown from a hint of {@code guess} keys, {@code -p guess=0}: from its
 * smallest table with no hint), {@code expandable-hinted} ({@code expectedKeys(n)}), {@code
 * scalable} (a {@link ScalableBloomFilter} from a guess of {@code guess} keys, 1,000 when 0) and
 * {@code rightsized} (a {@link BlockedBloomFilter} sized for {@code n} at the same rate: the
 * blocked Bloom filter's {@code add} that the growth report's timings compare with).
 *
 * <p>One invocation is one whole fill, {@code n} adds into a filter made empty just before it
 * ({@code @Setup(Level.Invocation)}, outside the timing; a single shot of at least milliseconds, so
 * the setup's timestamps do not disturb it), so every doubling or stage the growth from a tiny
 * start to {@code n} takes is in every measurement, once. The score is milliseconds per fill; <b>ns
 * per insert = score × 10^6 / n</b>. The growth report's timings hold {@code expandable} to at most
 * twice {@code rightsized}. Run: {@code java -cp sieve-bench/target/sieve-bench-all.jar
 * org.openjdk.jmh.Main GrowthInsertBenchmark -p
 * structure=expandable,expandable-hinted,scalable,rightsized -p n=10000000,100000000 -p guess=0
 * -jvmArgs -Xmx8g -f 1 -wi 3 -i 10}.
 *
 * <p>JMH gives no maximum, so the worst single insert (the doubling) is measured by {@link
 * GrowthInsertLatency}, which times every insert of a fill in a warmed JVM and prints the maximum,
 * the 99.99th and 99.9th percentiles and where the maximum fell.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
public class GrowthInsertBenchmark {
  @Param({"expandable", "expandable-hinted", "scalable", "rightsized"})
  public String structure;

  @Param("10000000")
  public long n;

  @Param("0.01")
  public double fpRate;

  @Param("0")
  public long guess;

  private long[] keys;
  private MutableFilter filter;

  @Setup(Level.Trial)
  public void drawKeys() {
    if (n < 1 || n > Integer.MAX_VALUE - 8) {
      throw new IllegalArgumentException("n=" + n + ": between 1 and 2^31 - 9 (a key array)");
    }
    keys = new SplittableRandom(1).longs(n).toArray();
  }

  @Setup(Level.Invocation)
  public void freshFilter() {
    filter = null; // the previous fill can be collected before the next is allocated
    filter = GrowthQueryBenchmark.create(structure, n, fpRate, guess);
  }

  /** {@return the filter after {@code n} adds (returned so that the adds are not dead code)} */
  @Benchmark
  public MutableFilter fill() {
    MutableFilter f = filter;
    for (long k : keys) {
      f.addHash(k);
    }
    return f;
  }
}
