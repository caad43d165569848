package dev.sieve.spark;

import static org.apache.spark.sql.functions.call_function;
import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.lit;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sieve.interop.SparkBloomFilter;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.stream.LongStream;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.analysis.FunctionRegistry;
import org.apache.spark.sql.catalyst.analysis.FunctionRegistry$;
import org.apache.spark.sql.catalyst.expressions.BloomFilterMightContain;
import org.apache.spark.sql.catalyst.expressions.Expression;
import org.apache.spark.sql.catalyst.expressions.ExpressionInfo;
import org.apache.spark.sql.catalyst.expressions.aggregate.BloomFilterAggregate;
import org.apache.spark.util.sketch.BloomFilter;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import scala.Function1;
import scala.collection.immutable.Seq;

/**
 * {@link SparkSketches} against a running Spark ({@code local[2]}): filters built by SQL {@code
 * bloom_filter_agg} and {@code df.stat().bloomFilter} are taken into Sieve through {@link
 * SparkSketches#fromColumn} and {@link SparkSketches#fromBytes} and answer every key as Spark's SQL
 * {@code might_contain} and its sketch's {@code mightContain*} do; filters Sieve writes (V1 and V2,
 * seed 0 and not) are handed to Spark as a binary literal and {@code might_contain} over them
 * answers as Sieve does. Spark 4.2's SQL aggregate always writes V2 (no configuration chooses the
 * version; {@code BloomFilterAggregate} calls {@code BloomFilter.create(n, bits)}), so V1 filters
 * come from the sketch API's {@code create(Version.V1, ...)} and reach SQL as literals. Neither SQL
 * function is built in to Spark 4.2 (the optimizer's runtime join filter uses them internally), so
 * the class registers both as Spark's own tests do.
 *
 * <p>Keys: {@value #N} present (0 to N - 1, over two partitions) and {@value #N} absent (random
 * longs outside that range, fixed seed), each answer compared one by one.
 */
class SparkSketchesLocalTest {
  private static final int N = 10_000;
  private static final long BITS = 8L * N; // about 2% at N keys: absent keys get both answers
  private static SparkSession spark;
  private static long[] present;
  private static long[] absent;

  @BeforeAll
  static void start() {
    spark =
        SparkSession.builder()
            .master("local[2]")
            .appName("sieve-spark-sketches-test")
            .config("spark.ui.enabled", "false")
            .config("spark.sql.shuffle.partitions", "2")
            .config("spark.default.parallelism", "2")
            .config("spark.driver.bindAddress", "127.0.0.1")
            .config("spark.driver.host", "127.0.0.1")
            .getOrCreate();
    registerSparkBloomFunctions();
    present = LongStream.range(0, N).toArray();
    SplittableRandom random = new SplittableRandom(24);
    absent = new long[N];
    for (int i = 0; i < N; i++) {
      long k;
      do {
        k = random.nextLong();
      } while (k >= 0 && k < N);
      absent[i] = k;
    }
  }

  /**
   * Spark 4.2 builds {@code bloom_filter_agg} and {@code might_contain} only inside its optimizer
   * (the runtime filter of a join): neither is in the built-in SQL function registry. Spark's own
   * {@code BloomFilterAggregateQuerySuite} registers them as here, so SQL can call them.
   */
  private static void registerSparkBloomFunctions() {
    FunctionRegistry registry =
        ((org.apache.spark.sql.classic.SparkSession) spark).sessionState().functionRegistry();
    Function1<Seq<Expression>, Expression> agg =
        children ->
            switch (children.size()) {
              case 1 -> new BloomFilterAggregate(children.apply(0));
              case 2 -> new BloomFilterAggregate(children.apply(0), children.apply(1));
              case 3 ->
                  new BloomFilterAggregate(children.apply(0), children.apply(1), children.apply(2));
              default ->
                  throw new IllegalArgumentException("bloom_filter_agg takes 1 to 3 arguments");
            };
    registry.registerFunction(
        FunctionRegistry$.MODULE$.builtinFunctionIdentifier("bloom_filter_agg"),
        new ExpressionInfo(BloomFilterAggregate.class.getName(), "bloom_filter_agg"),
        agg);
    Function1<Seq<Expression>, Expression> mightContain =
        children -> new BloomFilterMightContain(children.apply(0), children.apply(1));
    registry.registerFunction(
        FunctionRegistry$.MODULE$.builtinFunctionIdentifier("might_contain"),
        new ExpressionInfo(BloomFilterMightContain.class.getName(), "might_contain"),
        mightContain);
  }

  @AfterAll
  static void stop() {
    spark.stop();
  }

  /** Spark SQL's {@code might_contain(filter, key)} for every key, the filter a binary literal. */
  private static Map<Long, Boolean> sqlMightContain(byte[] filter, long[] keys) {
    List<Long> boxed = new ArrayList<>(keys.length);
    for (long k : keys) {
      boxed.add(k);
    }
    Dataset<Row> answers =
        spark
            .createDataset(boxed, Encoders.LONG())
            .select(col("value"), call_function("might_contain", lit(filter), col("value")));
    Map<Long, Boolean> out = new HashMap<>();
    for (Row r : answers.collectAsList()) {
      out.put(r.getLong(0), r.getBoolean(1));
    }
    assertEquals(keys.length, out.size(), "one answer per distinct key");
    return out;
  }

  /**
   * Sieve's answers equal SQL {@code might_contain}'s and the sketch's over {@code filter}'s bytes,
   * for the present keys (all maybe) and the absent ones (some no, or the check says nothing).
   */
  private static void assertAnswersAsSpark(SparkBloomFilter filter) throws IOException {
    byte[] bytes = filter.toByteArray();
    BloomFilter sketch = BloomFilter.readFrom(bytes);
    long[] all = LongStream.concat(LongStream.of(present), LongStream.of(absent)).toArray();
    Map<Long, Boolean> sql = sqlMightContain(bytes, all); // one query for both kinds
    for (long k : present) {
      assertTrue(filter.mayContain(k), "present key " + k);
      assertEquals(sql.get(k), filter.mayContain(k), "might_contain of present " + k);
      assertTrue(sketch.mightContainLong(k));
    }
    int maybe = 0;
    for (long k : absent) {
      boolean sieve = filter.mayContain(k);
      assertEquals(sql.get(k), sieve, "might_contain of absent " + k);
      assertEquals(sketch.mightContainLong(k), sieve, "mightContainLong of absent " + k);
      maybe += sieve ? 1 : 0;
    }
    // about 2% maybe at 8 bits per key; both answers occur, so equality is a real check
    assertTrue(maybe > 0 && maybe < N / 10, "absent keys answered maybe: " + maybe);
  }

  @Test
  void bloomFilterAggColumnAnswersAsMightContainAndIsWhatSieveWrites() throws IOException {
    spark.range(0, N, 1, 2).createOrReplaceTempView("keys");
    Dataset<Row> agg =
        spark.sql("SELECT bloom_filter_agg(id, " + N + "L, " + BITS + "L) AS bf FROM keys");
    SparkBloomFilter fromColumn = SparkSketches.fromColumn(agg, "bf");
    byte[] bytes = (byte[]) agg.first().get(0);
    SparkBloomFilter fromBytes = SparkSketches.fromBytes(bytes);
    assertEquals(SparkBloomFilter.Version.V2, fromColumn.version());
    assertEquals(fromBytes, fromColumn);
    assertArrayEquals(bytes, fromColumn.toByteArray());
    assertAnswersAsSpark(fromColumn);

    // the same keys put by Sieve into the filter the aggregate sizes give the same bytes
    SparkBloomFilter written = SparkBloomFilter.create(SparkBloomFilter.Version.V2, N, BITS, 0);
    for (long k : present) {
      written.put(k);
    }
    assertArrayEquals(bytes, written.toByteArray());
  }

  @Test
  void intColumnsAreWidenedToLongsAsSqlDoes() {
    Dataset<Row> agg =
        spark.sql(
            "SELECT bloom_filter_agg(CAST(id AS INT), "
                + N
                + "L, "
                + BITS
                + "L) AS bf FROM range(0, "
                + N
                + ", 1, 2)");
    SparkBloomFilter f = SparkSketches.fromColumn(agg, "bf");
    Map<Long, Boolean> sql =
        sqlMightContain(f.toByteArray(), LongStream.range(0, 2L * N).toArray());
    for (int i = 0; i < 2 * N; i++) {
      assertEquals(sql.get((long) i), f.mayContainInt(i), "int key " + i);
    }
  }

  @Test
  void sieveWrittenFiltersAreReadBySparkSqlAndSketch() throws IOException {
    for (SparkBloomFilter.Version version : SparkBloomFilter.Version.values()) {
      for (int seed : version == SparkBloomFilter.Version.V1 ? new int[] {0} : new int[] {0, 7}) {
        SparkBloomFilter f = SparkBloomFilter.create(version, N, BITS, seed);
        for (long k : present) {
          f.put(k);
        }
        assertAnswersAsSpark(f); // SQL might_contain over the literal, and the sketch
        BloomFilter forSpark = SparkSketches.toSpark(f);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        forSpark.writeTo(out);
        assertArrayEquals(f.toByteArray(), out.toByteArray(), version + " seed " + seed);
      }
    }
  }

  @Test
  void sparkWrittenV1FiltersAnswerAsSpark() throws IOException {
    BloomFilter v1 = BloomFilter.create(BloomFilter.Version.V1, N, BITS, 0);
    for (long k : present) {
      v1.putLong(k);
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    v1.writeTo(out);
    SparkBloomFilter f = SparkSketches.fromBytes(out.toByteArray());
    assertEquals(SparkBloomFilter.Version.V1, f.version());
    assertAnswersAsSpark(f);
  }

  @Test
  void statBloomFiltersOfLongsAndStringsAnswerAsSpark() throws IOException {
    Dataset<Row> df = spark.range(0, N, 1, 2).toDF("id").withColumn("s", col("id").cast("string"));
    BloomFilter ids = df.stat().bloomFilter("id", N, 0.02);
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ids.writeTo(out);
    SparkBloomFilter f = SparkSketches.fromBytes(out.toByteArray());
    assertAnswersAsSpark(f);

    BloomFilter strings = df.stat().bloomFilter("s", N, 0.02);
    out.reset();
    strings.writeTo(out);
    SparkBloomFilter s = SparkSketches.fromBytes(out.toByteArray());
    int maybe = 0;
    for (int i = 0; i < 2 * N; i++) {
      String key = Long.toString(i < N ? i : absent[i - N]);
      boolean sieve = s.mayContain(key);
      assertEquals(strings.mightContainString(key), sieve, key);
      if (i < N) {
        assertTrue(sieve, key);
      } else {
        maybe += sieve ? 1 : 0;
      }
    }
    assertTrue(maybe < N / 10, "absent strings answered maybe: " + maybe);
  }

  @Test
  void fromColumnRefusesAnEmptyOrNonBinaryColumn() {
    Dataset<Row> none = spark.sql("SELECT bloom_filter_agg(id, 100L, 1000L) AS bf FROM range(0)");
    IllegalArgumentException empty =
        assertThrows(IllegalArgumentException.class, () -> SparkSketches.fromColumn(none, "bf"));
    assertTrue(empty.getMessage().contains("bf"), empty.getMessage());
    Dataset<Row> longs = spark.range(0, 3).toDF("id");
    IllegalArgumentException type =
        assertThrows(IllegalArgumentException.class, () -> SparkSketches.fromColumn(longs, "id"));
    assertNotNull(type.getMessage());
    assertTrue(type.getMessage().contains("binary"), type.getMessage());
  }
}
