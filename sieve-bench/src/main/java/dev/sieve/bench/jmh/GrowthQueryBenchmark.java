package dev.sieve.bench.jmh;

import dev.sieve.MutableFilter;
import dev.sieve.bench.ScalableQueryForms;
import dev.sieve.bloom.BlockedBloomFilter;
import dev.sieve.bloom.ScalableBloomFilter;
import dev.sieve.expand.ExpandableFilter;
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

/**
 * The growable filters' lookup cost: single lookups ({@code mayContainHash}, the hash pre-computed,
 * so the key hash is not in the figure) of a {@link ScalableBloomFilter} grown key by key from a
 * guess of {@code guess} keys to {@code n} keys, against a {@link BlockedBloomFilter} sized right
 * for {@code n} at the same rate ({@code structure=scalable} or {@code rightsized}). The {@link
 * ExpandableFilter} at the same rate: {@code expandable} grown key by key from a hint of {@code
 * guess} keys ({@code -p guess=0}: no hint, from its smallest table), and {@code expandable-hinted}
 * built with {@code expectedKeys(n)} and filled with the same keys. Present and absent keys,
 * {@value #BATCH} independent lookups per invocation from a pre-drawn stream. Run: {@code java -cp
 * sieve-bench/target/sieve-bench-all.jar org.openjdk.jmh.Main GrowthQueryBenchmark -p n=100000000
 * -jvmArgs -Xmx6g -f 1 -wi 3 -i 5}; the expandable filter beside the others: {@code ...
 * GrowthQueryBenchmark -p structure=expandable,expandable-hinted,scalable,rightsized -p
 * n=10000000,100000000 -p guess=0 -jvmArgs -Xmx6g -f 1 -wi 3 -i 5} (the scalable Bloom needs a
 * guess of at least 1: with {@code guess=0} it starts from 1,000, its usual guess).
 *
 * <p>A structure name with the suffix {@value #BATCH_SUFFIX} ({@code expandable-batch}, {@code
 * expandable-hinted-batch}, {@code rightsized-batch}, …) is the same filter asked through its batch
 * form, {@code mayContainHashes} over the invocation's {@value #BATCH} hashes (the expandable
 * filter's two passes per chunk of 64; the blocked Bloom's own batch): {@code ...
 * GrowthQueryBenchmark -p
 * structure=expandable,expandable-batch,expandable-hinted,expandable-hinted-batch,rightsized,rightsized-batch
 * -p guess=0 -p n=10000000}.
 *
 * <p>The experiment {@code -p structure=scalable -p queryForm=loop,twopass,branchfree} asks the
 * grown filter's stages by the two query forms that were measured and not shipped ({@link
 * ScalableQueryForms}) besides the library's own stage loop ({@code loop}, the default).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class GrowthQueryBenchmark {
  /** Lookups per invocation. */
  public static final int BATCH = 1024;

  private static final int STREAM = 1 << 20;

  /** The suffix of a structure name asked through the batch form. */
  public static final String BATCH_SUFFIX = "-batch";

  @Param({"scalable", "rightsized", "expandable", "expandable-hinted"})
  public String structure;

  @Param("100000000")
  public long n;

  @Param("0.01")
  public double fpRate;

  @Param("1000")
  public long guess;

  /**
   * {@code loop} (the library's lookup), or {@code twopass} or {@code branchfree}: scalable only.
   */
  @Param(ScalableQueryForms.LOOP)
  public String queryForm;

  private MutableFilter filter;
  private ScalableQueryForms forms; // null for the loop
  private boolean twoPass;
  private long[] resultBits; // non-null: the batch form
  private long[] present;
  private long[] absent;
  private int cursor;

  @Setup(Level.Trial)
  public void setUp() {
    String form = ScalableQueryForms.form(queryForm);
    if (!form.equals(ScalableQueryForms.LOOP) && !structure.equals("scalable")) {
      throw new IllegalArgumentException("queryForm=" + form + " is for structure=scalable");
    }
    boolean batch = structure.endsWith(BATCH_SUFFIX);
    if (batch && !form.equals(ScalableQueryForms.LOOP)) {
      throw new IllegalArgumentException("queryForm=" + form + " has no batch form");
    }
    filter =
        create(
            batch ? structure.substring(0, structure.length() - BATCH_SUFFIX.length()) : structure,
            n,
            fpRate,
            guess);
    resultBits = batch ? new long[BATCH / 64] : null;
    // the keys are random 64-bit hashes: key i is the i-th of seed 1's stream
    SplittableRandom keys = new SplittableRandom(1);
    present = new long[STREAM];
    long stride = Math.max(1, n / STREAM);
    for (long i = 0; i < n; i++) {
      long h = keys.nextLong();
      filter.addHash(h);
      if (i % stride == 0 && i / stride < STREAM) {
        present[(int) (i / stride)] = h;
      }
    }
    int filled = (int) Math.min(STREAM, (n + stride - 1) / stride);
    for (int i = filled; i < STREAM; i++) {
      present[i] = present[i % filled]; // fewer keys than the stream: repeat them
    }
    SplittableRandom shuffle = new SplittableRandom(2);
    for (int i = STREAM - 1; i > 0; i--) {
      int j = shuffle.nextInt(i + 1);
      long t = present[i];
      present[i] = present[j];
      present[j] = t;
    }
    absent = new SplittableRandom(3).longs(STREAM).toArray();
    if (!form.equals(ScalableQueryForms.LOOP)) {
      forms = ScalableQueryForms.of((ScalableBloomFilter) filter);
      twoPass = form.equals(ScalableQueryForms.TWO_PASS);
    }
  }

  /**
   * An empty filter of the structure: {@code scalable} from a guess of {@code guess} keys (1,000
   * when {@code guess} is 0), {@code rightsized} a blocked Bloom for {@code n}, {@code expandable}
   * from a hint of {@code guess} keys (none when 0), {@code expandable-hinted} with {@code
   * expectedKeys(n)}.
   */
  public static MutableFilter create(String structure, long n, double fpRate, long guess) {
    return switch (structure) {
      case "scalable" ->
          ScalableBloomFilter.builder()
              .expectedKeys(guess > 0 ? guess : 1_000)
              .fpRate(fpRate)
              .create();
      case "rightsized" ->
          BlockedBloomFilter.createWithBitsPerKey(
              n, ScalableBloomFilter.stageMillibitsPerKey(fpRate) / 1000.0);
      case "expandable" ->
          guess > 0
              ? ExpandableFilter.builder().fpRate(fpRate).expectedKeys(guess).create()
              : ExpandableFilter.builder().fpRate(fpRate).create();
      case "expandable-hinted" ->
          ExpandableFilter.builder().fpRate(fpRate).expectedKeys(n).create();
      default ->
          throw new IllegalArgumentException(
              "structure="
                  + structure
                  + ": one of scalable, rightsized, expandable, expandable-hinted");
    };
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
    if (forms != null) {
      return runForms(stream);
    }
    int c = cursor;
    if (resultBits != null) {
      cursor = (c + BATCH) & (STREAM - 1); // c is a multiple of BATCH: the range is in the stream
      return filter.mayContainHashes(stream, c, BATCH, resultBits);
    }
    int hits = 0;
    for (int i = 0; i < BATCH; i++) {
      if (filter.mayContainHash(stream[(c + i) & (STREAM - 1)])) {
        hits++;
      }
    }
    cursor = (c + BATCH) & (STREAM - 1);
    return hits;
  }

  /** {@link #run} by one of the experiment's forms (a branch every lookup, always predicted). */
  private int runForms(long[] stream) {
    int c = cursor;
    int hits = 0;
    for (int i = 0; i < BATCH; i++) {
      long h = stream[(c + i) & (STREAM - 1)];
      if (twoPass ? forms.twoPassMayContain(h) : forms.branchFreeMayContain(h)) {
        hits++;
      }
    }
    cursor = (c + BATCH) & (STREAM - 1);
    return hits;
  }
}
