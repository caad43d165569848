package dev.sieve.spark;

import static org.apache.spark.sql.functions.col;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sieve.Filter;
import dev.sieve.bloom.BlockedBloomFilter;
import dev.sieve.format.SieveFormat;
import dev.sieve.hash.KeyHash;
import dev.sieve.registry.FilterType;
import dev.sieve.shard.ShardedFilter;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.LongStream;
import org.apache.spark.api.java.function.MapFunction;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * sieve-spark on a local Spark ({@code local[2,2]}: two threads, and a failed task is retried
 * once). Small data (10^4 keys) keeps the class at well under a minute; every build runs over
 * several partitions, so partial buffers are merged and shards come from different tasks.
 */
class SieveSparkTest {
  private static SparkSession spark;
  private static final int N = 10_000;

  @BeforeAll
  static void start() {
    spark =
        SparkSession.builder()
            .master("local[2,2]")
            .appName("sieve-spark-test")
            .config("spark.ui.enabled", "false")
            .config("spark.sql.shuffle.partitions", "4")
            .config("spark.default.parallelism", "4")
            .config("spark.driver.bindAddress", "127.0.0.1")
            .config("spark.driver.host", "127.0.0.1")
            .getOrCreate();
  }

  @AfterAll
  static void stop() {
    spark.stop();
  }

  /** Long ids 0..n-1 spread over 4 partitions, with a string, an int and a binary column. */
  private static Dataset<Row> keys(long from, long to) {
    return spark
        .range(from, to, 1, 4)
        .toDF("id")
        .withColumn("s", col("id").cast("string"))
        .withColumn("i", col("id").cast("int"))
        .withColumn("b", col("s").cast("binary"));
  }

  private static long[] longHashes(long from, long to) {
    return LongStream.range(from, to).map(KeyHash::hash64).toArray();
  }

  @Test
  void theBloomAggregateIsByteIdenticalToTheSingleJvmBuildForEveryKeyType() {
    Dataset<Row> df = keys(0, N);
    BloomAggregator<Long> shape = BloomAggregator.overHashes(N, 0.01);
    long[] stringHashes = new long[N];
    long[] intHashes = new long[N];
    for (int i = 0; i < N; i++) {
      stringHashes[i] = KeyHash.hash64(Integer.toString(i).getBytes(StandardCharsets.UTF_8));
      intHashes[i] = KeyHash.hash64(new byte[] {0, 0, (byte) (i >>> 8), (byte) i});
    }
    Row r =
        df.agg(
                SieveSpark.bloomFilter(col("id"), N, 0.01),
                SieveSpark.bloomFilter(col("s"), N, 0.01),
                SieveSpark.bloomFilter(col("i"), N, 0.01),
                SieveSpark.bloomFilter(col("b"), N, 0.01))
            .head();
    assertArrayEquals(shape.singleJvm(longHashes(0, N)), (byte[]) r.get(0), "bigint");
    assertArrayEquals(shape.singleJvm(stringHashes), (byte[]) r.get(1), "string");
    assertArrayEquals(shape.singleJvm(intHashes), (byte[]) r.get(2), "int");
    assertArrayEquals(shape.singleJvm(stringHashes), (byte[]) r.get(3), "binary = its UTF-8");
    // the typed aggregate (Dataset helper) gives the same filter, and it answers like sieve-core
    SparkFilter f = SieveSpark.bloomFilter(df, "id", N, 0.01);
    assertArrayEquals((byte[]) r.get(0), f.toBytes());
    BlockedBloomFilter reference = shape.emptyFilter();
    for (long k = 0; k < N; k++) {
      reference.add(k);
    }
    for (long k = 0; k < 3 * N; k++) {
      assertEquals(reference.mayContain(k), f.filter().mayContain(k), "key " + k);
      assertEquals(reference.mayContain(k), f.mayContain(k));
    }
    assertTrue(f.filter().modelledFpRate() < 0.011);
  }

  @Test
  void orMergedFiltersEqualTheFilterOfTheUnion() {
    BloomAggregator<Long> shape = BloomAggregator.overHashes(2 * N, 0.02);
    byte[] a =
        (byte[]) keys(0, N).agg(SieveSpark.bloomFilter(col("id"), 2 * N, 0.02)).head().get(0);
    byte[] b =
        (byte[])
            keys(N / 2, 2 * N).agg(SieveSpark.bloomFilter(col("id"), 2 * N, 0.02)).head().get(0);
    byte[] union =
        (byte[]) keys(0, 2 * N).agg(SieveSpark.bloomFilter(col("id"), 2 * N, 0.02)).head().get(0);
    BloomBuffer merged =
        shape.merge(
            new BloomBuffer(SieveFormat.read(a, BlockedBloomFilter.class).copy()),
            new BloomBuffer(SieveFormat.read(b, BlockedBloomFilter.class).copy()));
    assertArrayEquals(union, shape.finish(merged));
    assertArrayEquals(shape.singleJvm(longHashes(0, 2 * N)), union);
  }

  @Test
  void buffersOfDifferentShapesDoNotMerge() {
    BloomAggregator<Long> small = BloomAggregator.overHashes(1000, 0.01);
    BloomAggregator<Long> large = BloomAggregator.overHashes(100_000, 0.01);
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> small.merge(small.zero(), large.zero()));
    assertTrue(e.getMessage().contains("different shapes"), e.getMessage());
    BloomAggregator<Long> fewerProbes = BloomAggregator.overHashes(1000, 0.2);
    assertThrows(
        IllegalArgumentException.class, () -> small.merge(small.zero(), fewerProbes.zero()));
    assertThrows(IllegalArgumentException.class, () -> BloomAggregator.overHashes(0, 0.01));
    assertThrows(IllegalArgumentException.class, () -> BloomAggregator.overHashes(10, 1.0));
  }

  @Test
  void nullKeysAreSkipped() {
    StructType schema = new StructType().add("k", DataTypes.StringType, true);
    List<Row> rows = new ArrayList<>();
    for (int i = 0; i < 2000; i++) {
      rows.add(RowFactory.create(i % 3 == 0 ? null : "key" + i));
    }
    Dataset<Row> df = spark.createDataFrame(rows, schema).repartition(3);
    Dataset<Row> nonNull = df.where(col("k").isNotNull());
    assertArrayEquals(
        SieveSpark.bloomFilter(nonNull, "k", 2000, 0.01).toBytes(),
        SieveSpark.bloomFilter(df, "k", 2000, 0.01).toBytes());
    assertArrayEquals(
        (byte[]) nonNull.agg(SieveSpark.bloomFilter(col("k"), 2000, 0.01)).head().get(0),
        (byte[]) df.agg(SieveSpark.bloomFilter(col("k"), 2000, 0.01)).head().get(0));
    SparkFilter sharded = SieveSpark.buildFilter(df, "k", FilterType.XOR8, 4);
    assertArrayEquals(
        SieveSpark.buildFilter(nonNull, "k", FilterType.XOR8, 4).toBytes(), sharded.toBytes());
    assertEquals(nonNull.count(), sharded.filter().numKeys());
    // the pre-filter drops null keys and keeps every present one
    assertEquals(nonNull.count(), SieveSpark.filterBy(df, "k", sharded).count());
  }

  @Test
  void shardedBuildsAreByteIdenticalToTheSingleJvmBuildWithNoFalseNegatives() {
    Dataset<Row> df = keys(0, N);
    long[] hashes = longHashes(0, N);
    // 1 shard; more shards than partitions; far more shards than keys per partition
    int[][] cases = {{1, 1}, {16, 4}, {64, 3}, {1024, 2}};
    FilterType[] types = {
      FilterType.BINARY_FUSE8, FilterType.RIBBON, FilterType.XOR16, FilterType.BLOCKED_BLOOM
    };
    for (int c = 0; c < cases.length; c++) {
      int shards = cases[c][0];
      FilterType type = types[c];
      SparkFilter built = SieveSpark.buildFilter(df, "id", type, shards, 10, cases[c][1]);
      ShardedFilter local = SieveSpark.shardedBuilder(type, shards, 10).buildFromHashes(hashes);
      assertArrayEquals(SieveFormat.toBytes(local), built.toBytes(), type + " x " + shards);
      ShardedFilter f = (ShardedFilter) built.filter();
      assertEquals(shards, f.shardCount());
      for (long k = 0; k < N; k++) {
        assertTrue(f.mayContain(k), type + " x " + shards + " lost " + k);
      }
    }
  }

  @Test
  void skewedKeysAllInOneShard() {
    // the keys whose hash falls in shard 5 of 8: every other shard is empty
    long[] inShard5 =
        LongStream.range(0, 40_000)
            .filter(k -> ShardedFilter.shardOf(KeyHash.hash64(k), 8) == 5)
            .toArray();
    Dataset<Row> df =
        spark.createDataset(LongStream.of(inShard5).boxed().toList(), Encoders.LONG()).toDF("id");
    SparkFilter f = SieveSpark.buildFilter(df, "id", FilterType.BINARY_FUSE16, 8, 10, 4);
    ShardedFilter s = (ShardedFilter) f.filter();
    for (int i = 0; i < 8; i++) {
      assertEquals(i == 5 ? inShard5.length : 0, s.shard(i).numKeys(), "shard " + i);
    }
    for (long k : inShard5) {
      assertTrue(f.mayContain(k));
    }
  }

  /** A task that fails once (an executor lost mid-build) is retried; the result is unchanged. */
  @Test
  void aRetriedTaskGivesTheIdenticalFilter(@TempDir Path dir) {
    Dataset<Row> df = keys(0, N);
    byte[] undisturbed = SieveSpark.buildFilter(df, "id", FilterType.RIBBON, 16).toBytes();
    byte[] bloomUndisturbed = SieveSpark.bloomFilter(df, "id", N, 0.01).toBytes();
    for (int round = 0; round < 2; round++) {
      String flag = dir.resolve("failed-once-" + round).toString();
      long failAt = 1234 + round;
      Dataset<Row> flaky =
          df.select(col("id"))
              .map(
                  (MapFunction<Row, Long>)
                      r -> {
                        long id = r.getLong(0);
                        if (id == failAt && new File(flag).createNewFile()) {
                          throw new IllegalStateException("injected task failure at " + id);
                        }
                        return id;
                      },
                  Encoders.LONG())
              .toDF("id");
      byte[] retried =
          round == 0
              ? SieveSpark.buildFilter(flaky, "id", FilterType.RIBBON, 16).toBytes()
              : SieveSpark.bloomFilter(flaky, "id", N, 0.01).toBytes();
      assertTrue(new File(flag).exists(), "the injected failure did not happen");
      assertArrayEquals(round == 0 ? undisturbed : bloomUndisturbed, retried);
    }
  }

  @Test
  void thePreFilterKeepsEveryMatchAndDropsMostOthers() {
    SparkFilter f = SieveSpark.buildFilter(keys(0, N), "id", FilterType.BINARY_FUSE8, 4);
    Dataset<Row> probe = keys(N / 2, 3 * N); // half of the first N present, 2N absent
    List<Row> kept = SieveSpark.filterBy(probe, "id", f).select("id").collectAsList();
    Set<Long> ids = new HashSet<>();
    for (Row r : kept) {
      ids.add(r.getLong(0));
    }
    for (long k = N / 2; k < N; k++) {
      assertTrue(ids.contains(k), "dropped present key " + k);
    }
    long falsePositives = ids.stream().filter(k -> k >= N).count();
    long expected = 0;
    for (long k = N; k < 3 * N; k++) {
      expected += f.filter().mayContain(k) ? 1 : 0;
    }
    assertEquals(expected, falsePositives, "the UDF answers as the filter does");
    assertTrue(falsePositives < 2 * N * 0.01, "FPR far above 2^-8: " + falsePositives);
    // the column form
    assertEquals(kept.size(), probe.where(SieveSpark.mightContain(f, col("id"))).count());
  }

  @Test
  void aFilterOfAnotherKeyTypeIsAClearError() {
    SparkFilter longs = SieveSpark.buildFilter(keys(0, 100), "id", FilterType.XOR8, 2);
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class, () -> SieveSpark.filterBy(keys(0, 10), "s", longs));
    assertTrue(e.getMessage().contains("`s`") && e.getMessage().contains("LONG"), e.getMessage());
    // the column form fails at run time, naming both types
    Exception run =
        assertThrows(
            Exception.class,
            () -> keys(0, 10).where(SieveSpark.mightContain(longs, col("s"))).count());
    assertTrue(
        causes(run).contains("a filter over LONG keys (bigint) was given a STRING"), causes(run));
    IllegalArgumentException notAKey =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                SieveSpark.buildFilter(
                    keys(0, 10).withColumn("d", col("id").cast("double")),
                    "d",
                    FilterType.XOR8,
                    2));
    assertTrue(notAKey.getMessage().contains("`d` is of type double"), notAKey.getMessage());
    assertThrows(
        IllegalArgumentException.class,
        () -> SieveSpark.buildFilter(keys(0, 10), "id", FilterType.CUCKOO, 2));
    assertThrows(
        IllegalArgumentException.class,
        () -> SieveSpark.buildFilter(keys(0, 10), "id", FilterType.XOR8, 3));
  }

  private static String causes(Throwable t) {
    StringBuilder s = new StringBuilder();
    for (Throwable c = t; c != null; c = c.getCause()) {
      s.append(c).append(" | ");
    }
    return s.toString();
  }

  @Test
  void sqlRegistration(@TempDir Path dir) throws Exception {
    keys(0, N).createOrReplaceTempView("build_side");
    keys(N / 2, 2 * N).createOrReplaceTempView("probe_side");
    SieveSpark.registerBloom(spark, "sieve_bloom_ids", KeyType.LONG, N, 0.01);
    SieveSpark.registerKeyHash(spark);
    byte[] viaSql = (byte[]) spark.sql("SELECT sieve_bloom_ids(id) FROM build_side").head().get(0);
    assertArrayEquals(SieveSpark.bloomFilter(keys(0, N), "id", N, 0.01).toBytes(), viaSql);
    assertEquals(
        KeyHash.hash64(42L),
        spark.sql("SELECT sieve_key_hash(CAST(42 AS BIGINT))").head().getLong(0));

    SparkFilter f = SparkFilter.fromBytes(viaSql, KeyType.LONG);
    Path file = dir.resolve("ids.sieve");
    f.write(file);
    SparkFilter mapped = SparkFilter.map(file, KeyType.LONG);
    assertArrayEquals(viaSql, mapped.toBytes());
    SieveSpark.registerMightContain(spark, "in_build_side", mapped);
    long kept =
        spark.sql("SELECT count(*) FROM probe_side WHERE in_build_side(id)").head().getLong(0);
    long expected = 0;
    for (long k = N / 2; k < 2 * N; k++) {
      expected += f.filter().mayContain(k) ? 1 : 0;
    }
    assertEquals(expected, kept);
    assertTrue(kept >= N / 2 && kept < N / 2 + N * 0.02, "kept " + kept);
    Filter any = SieveFormat.map(file);
    assertEquals(f.filter(), any);
    assertNotEquals(0, any.numKeys());
    assertFalse(any.mayContain(-1L) && any.mayContain(-2L) && any.mayContain(-3L));
  }
}
