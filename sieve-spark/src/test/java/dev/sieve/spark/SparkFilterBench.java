package dev.sieve.spark;

import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.udf;

import dev.sieve.Filter;
import dev.sieve.registry.FilterType;
import java.util.Locale;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.api.java.UDF1;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.util.sketch.BloomFilter;

/**
 * Side by side on one local Spark: Sieve's filters built on Spark against Spark's own {@code
 * df.stat().bloomFilter} ({@link BloomFilter}), over {@code n} generated {@code bigint} keys
 * (default 10^7). Not a unit test (surefire does not run it); run it with {@code
 * sieve-spark/bench.sh [n] [master]}. For each filter: build time (the Spark job, collect
 * included), filter bytes, FPR measured on 10^6 absent keys in the driver, the driver's query time
 * per key over those keys (best of three passes), and the time of a semi-join pre-filter: {@code
 * count()} of the rows of an {@code n}-row probe table (half its keys present) that the broadcast
 * filter keeps.
 *
 * <p>Timings on a shared or busy machine are noisy; each job runs once after one warm-up build at
 * {@code n/10}.
 */
public final class SparkFilterBench {
  private static final int ABSENT = 1_000_000;

  private SparkFilterBench() {}

  interface Build {
    Object run(Dataset<Row> df, long n);
  }

  public static void main(String[] args) {
    if (args.length > 0 && args[0].equals("scale")) {
      scale(args);
      return;
    }
    long n = args.length > 0 ? Long.parseLong(args[0]) : 10_000_000L;
    String master = args.length > 1 ? args[1] : "local[2]";
    double fpp = 0.01;
    SparkSession spark =
        SparkSession.builder()
            .master(master)
            .appName("sieve-spark-bench")
            .config("spark.ui.enabled", "false")
            .config("spark.sql.shuffle.partitions", "8")
            .config("spark.driver.bindAddress", "127.0.0.1")
            .config("spark.driver.host", "127.0.0.1")
            .getOrCreate();
    spark.sparkContext().setLogLevel("ERROR");
    int parts = 8;
    Dataset<Row> build = spark.range(0, n, 1, parts).toDF("id");
    Dataset<Row> probe = spark.range(n / 2, n / 2 + n, 1, parts).toDF("id");
    Dataset<Row> warm = spark.range(0, n / 10, 1, parts).toDF("id");

    System.out.printf(
        Locale.ROOT,
        "n = %,d keys, master %s, target fpp %.3f (Ribbon and Binary Fuse at their own rates)%n",
        n,
        master,
        fpp);
    System.out.printf(
        Locale.ROOT,
        "%-34s %10s %12s %8s %10s %10s %12s%n",
        "filter",
        "build s",
        "bytes",
        "bits/key",
        "FPR %",
        "query ns",
        "semi-join s");

    Build sieveBloom = (df, m) -> SieveSpark.bloomFilter(df, "id", m, fpp);
    Build sieveRibbon =
        (df, m) -> SieveSpark.buildFilter(df, "id", FilterType.RIBBON, shardsFor(m), 10, parts);
    Build sieveFuse =
        (df, m) ->
            SieveSpark.buildFilter(df, "id", FilterType.BINARY_FUSE8, shardsFor(m), 10, parts);
    Build sparkBloom = (df, m) -> df.stat().bloomFilter("id", m, fpp);

    row(spark, "Sieve blocked Bloom (aggregate)", sieveBloom, warm, build, probe, n);
    row(spark, "Sieve Ribbon 10 b/k-eq. (sharded)", sieveRibbon, warm, build, probe, n);
    row(spark, "Sieve Binary Fuse 8 (sharded)", sieveFuse, warm, build, probe, n);
    row(spark, "Spark df.stat.bloomFilter", sparkBloom, warm, build, probe, n);
    spark.stop();
  }

  /**
   * The scale run: {@code scale [n] [shards] [partitions] [master]} (default 2·10^8 keys, 256
   * shards, 64 partitions, local[2]) builds a sharded Binary Fuse 8 filter and checks its FPR on
   * 10^6 absent keys against the model's 99.999% bound. Each task holds the 8-byte hashes of its
   * partition's shards (n / partitions keys) while it builds; the driver holds the result.
   */
  private static void scale(String[] args) {
    long n = args.length > 1 ? Long.parseLong(args[1]) : 200_000_000L;
    int shards = args.length > 2 ? Integer.parseInt(args[2]) : 256;
    int partitions = args.length > 3 ? Integer.parseInt(args[3]) : 64;
    String master = args.length > 4 ? args[4] : "local[2]";
    SparkSession spark =
        SparkSession.builder()
            .master(master)
            .appName("sieve-spark-scale")
            .config("spark.ui.enabled", "false")
            .config("spark.sql.shuffle.partitions", Integer.toString(partitions))
            .config("spark.driver.bindAddress", "127.0.0.1")
            .config("spark.driver.host", "127.0.0.1")
            .getOrCreate();
    spark.sparkContext().setLogLevel("ERROR");
    long t0 = System.nanoTime();
    SparkFilter f =
        SieveSpark.buildFilter(
            spark.range(0, n, 1, partitions).toDF("id"),
            "id",
            FilterType.BINARY_FUSE8,
            shards,
            10,
            partitions);
    double buildS = (System.nanoTime() - t0) / 1e9;
    Filter filter = f.filter();
    long fp = 0;
    for (long k = n; k < n + ABSENT; k++) {
      fp += filter.mayContain(k) ? 1 : 0;
    }
    long missing = 0;
    for (long k = 0; k < n; k += Math.max(1, n / ABSENT)) {
      missing += filter.mayContain(k) ? 0 : 1;
    }
    double model = filter.modelledFpRate();
    double bound = 4.42 * Math.sqrt(model * (1 - model) / ABSENT);
    double measured = (double) fp / ABSENT;
    Runtime rt = Runtime.getRuntime();
    System.out.printf(
        Locale.ROOT,
        "scale: %,d keys, %d shards of Binary Fuse 8 over %d partitions, %s: build %.1f s (%.0f ns"
            + " per key), %,d bytes (%.3f bits/key), FPR %.4f%% vs model %.4f%% ± %.4f%% (%s),"
            + " false negatives in a sample of present keys: %d, heap used after build %,d MiB%n",
        n,
        shards,
        partitions,
        master,
        buildS,
        buildS * 1e9 / n,
        filter.sizeInBytes(),
        filter.bitsPerKey(),
        measured * 100,
        model * 100,
        bound * 100,
        Math.abs(measured - model) <= bound ? "within" : "OUTSIDE",
        missing,
        (rt.totalMemory() - rt.freeMemory()) >> 20);
    spark.stop();
  }

  private static int shardsFor(long n) {
    // about 2^20 keys per shard, at least 8
    return Integer.highestOneBit((int) Math.max(8, Math.min(1 << 16, n >>> 20)));
  }

  private static void row(
      SparkSession spark,
      String name,
      Build b,
      Dataset<Row> warm,
      Dataset<Row> build,
      Dataset<Row> probe,
      long n) {
    b.run(warm, Math.max(1, n / 10));
    long t0 = System.nanoTime();
    Object f = b.run(build, n);
    double buildS = (System.nanoTime() - t0) / 1e9;
    long bytes;
    long fp = 0;
    long q0;
    long q1;
    UDF1<Long, Boolean> udf;
    if (f instanceof SparkFilter s) {
      Filter filter = s.filter();
      bytes = filter.sizeInBytes();
      double best = Double.MAX_VALUE;
      for (int round = 0; round < 3; round++) { // best of three: the first includes the JIT
        fp = 0;
        q0 = System.nanoTime();
        for (long k = n; k < n + ABSENT; k++) {
          fp += filter.mayContain(k) ? 1 : 0;
        }
        q1 = System.nanoTime();
        best = Math.min(best, (q1 - q0) / (double) ABSENT);
      }
      long semi0 = System.nanoTime();
      long kept = SieveSpark.filterBy(probe, "id", s).count();
      double semi = (System.nanoTime() - semi0) / 1e9;
      print(name, buildS, bytes, n, fp, best, semi, kept);
      return;
    }
    BloomFilter bf = (BloomFilter) f;
    bytes = bf.bitSize() / 8;
    double best = Double.MAX_VALUE;
    for (int round = 0; round < 3; round++) {
      fp = 0;
      q0 = System.nanoTime();
      for (long k = n; k < n + ABSENT; k++) {
        fp += bf.mightContainLong(k) ? 1 : 0;
      }
      q1 = System.nanoTime();
      best = Math.min(best, (q1 - q0) / (double) ABSENT);
    }
    Broadcast<BloomFilter> bc =
        JavaSparkContext.fromSparkContext(spark.sparkContext()).broadcast(bf);
    udf = k -> k != null && bc.value().mightContainLong(k);
    long semi0 = System.nanoTime();
    long kept = probe.where(udf(udf, DataTypes.BooleanType).apply(col("id"))).count();
    double semi = (System.nanoTime() - semi0) / 1e9;
    print(name, buildS, bytes, n, fp, best, semi, kept);
  }

  private static void print(
      String name, double buildS, long bytes, long n, long fp, double ns, double semi, long kept) {
    System.out.printf(
        Locale.ROOT,
        "%-34s %10.2f %,12d %8.2f %10.4f %10.1f %12.2f   (kept %,d of %,d probe rows)%n",
        name,
        buildS,
        bytes,
        bytes * 8.0 / n,
        100.0 * fp / ABSENT,
        ns,
        semi,
        kept,
        n);
  }
}
