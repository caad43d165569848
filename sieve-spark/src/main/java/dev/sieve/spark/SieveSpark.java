package dev.sieve.spark;

import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.lit;
import static org.apache.spark.sql.functions.shiftrightunsigned;

import dev.sieve.Filter;
import dev.sieve.FilterBuilder;
import dev.sieve.KeyScheme;
import dev.sieve.bloom.BlockedBloomFilter;
import dev.sieve.format.SieveFormat;
import dev.sieve.registry.FilterType;
import dev.sieve.ribbon.Standard128RibbonFilter;
import dev.sieve.shard.ShardedFilter;
import dev.sieve.xor.BinaryFuse16Filter;
import dev.sieve.xor.BinaryFuse8Filter;
import dev.sieve.xor.Xor16Filter;
import dev.sieve.xor.Xor8Filter;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Supplier;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.expressions.UserDefinedFunction;
import org.apache.spark.sql.functions;
import org.apache.spark.sql.types.DataTypes;
import scala.Tuple2;

/**
 * Sieve filters on Apache Spark, from Java: build them over a key column of a DataFrame, query or
 * pre-filter DataFrames with them, register them in SQL.
 *
 * <pre>{@code
 * SparkFilter ids = SieveSpark.bloomFilter(orders, "customer_id", 10_000_000, 0.01);
 * Dataset<Row> candidates = SieveSpark.filterBy(events, "customer_id", ids);   // semi-join pre-filter
 * SparkFilter big = SieveSpark.buildFilter(keys, "id", FilterType.BINARY_FUSE8, 256);
 * }</pre>
 *
 * <h2>Two ways to build</h2>
 *
 * <ul>
 *   <li><b>Mergeable Bloom</b> ({@link #bloomFilter(Column, long, double)}): an aggregate ({@link
 *       BloomAggregator}) whose partial filters are ORed; one pass, any grouping, a blocked Bloom
 *       filter of a shape fixed up front (up to 4 GiB).
 *   <li><b>Sharded static filters</b> ({@link #buildFilter}): Ribbon, Xor or Binary Fuse cannot be
 *       merged, so the keys are partitioned by the top bits of their hash (a shuffle on the shard
 *       id), each executor builds the shards of its partition ({@link ShardedFilter.Builder
 *       #buildShard}), and the driver assembles the {@link ShardedFilter}. Memory per task: the
 *       8-byte hashes of its shards plus the shard type's construction (about 3× the hashes for
 *       Binary Fuse); the driver holds the finished filter only.
 * </ul>
 *
 * <p>Both are deterministic: the same key set gives the same bytes, however Spark partitions,
 * orders or retries the work, and the same bytes as the one-JVM build ({@link
 * BloomAggregator#singleJvm}, {@link #shardedBuilder}). Keys are hashed as {@link KeyType} says;
 * null keys are skipped (never in a filter; a pre-filter drops them).
 */
public final class SieveSpark {
  /** Bits per key of blocked Bloom and Ribbon shards unless given. */
  public static final double DEFAULT_BITS_PER_KEY = 10;

  private SieveSpark() {}

  /** A {@code bigint} column of the Sieve key hashes of {@code key} (null for null). */
  public static Column keyHash(Column key) {
    return keyHashUdf().apply(key);
  }

  private static UserDefinedFunction keyHashUdf() {
    return functions.udf(new KeyHashUdf(), DataTypes.LongType);
  }

  /**
   * An aggregate column: the Sieve blocked Bloom filter (a Sieve container, {@code binary}) of the
   * non-null values of {@code key}, sized for {@code expectedItems} at false-positive rate {@code
   * fpp} ({@link BloomAggregator}). Works on any key type of {@link KeyType}; read the value with
   * {@link SparkFilter#fromBytes}.
   */
  public static Column bloomFilter(Column key, long expectedItems, double fpp) {
    BloomAggregator<Long> agg = BloomAggregator.overHashes(expectedItems, fpp);
    return functions.udaf(agg, agg.inputEncoder()).apply(keyHash(key));
  }

  /** {@link #bloomFilter(Column, long, double)} over {@code df}'s column, collected. */
  public static SparkFilter bloomFilter(
      Dataset<?> df, String column, long expectedItems, double fpp) {
    KeyType type = KeyType.of(df.schema(), column);
    BloomAggregator<Object> agg = BloomAggregator.overKeys(type, expectedItems, fpp);
    Row r = df.agg(functions.udaf(agg, agg.inputEncoder()).apply(df.col(column))).head();
    return SparkFilter.fromBytes(r.getAs(0), type);
  }

  /**
   * Registers in SQL the aggregate {@code name(key)}: the Sieve blocked Bloom filter of a {@code
   * keyType} column, as {@link #bloomFilter(Column, long, double)}.
   */
  public static void registerBloom(
      SparkSession spark, String name, KeyType keyType, long expectedItems, double fpp) {
    BloomAggregator<Object> agg = BloomAggregator.overKeys(keyType, expectedItems, fpp);
    spark.udf().register(name, functions.udaf(agg, agg.inputEncoder()));
  }

  /** Registers in SQL {@code sieve_key_hash(key)}, the Sieve key hash of any key type. */
  public static void registerKeyHash(SparkSession spark) {
    spark.udf().register("sieve_key_hash", keyHashUdf());
  }

  // ---------------------------------------------------------------- sharded static filters

  /**
   * The one-JVM builder of the sharded filters {@link #buildFilter} builds: {@code shards} shards
   * of {@code type} (blocked Bloom and Ribbon at {@code bitsPerKey}; Xor and Binary Fuse at their
   * fixed default seeds; Binary Fuse 3-wise), hashing keys by XXPH3 as {@link KeyType} does, so
   * that its filters are the bytes the executors' build assembles.
   *
   * @throws IllegalArgumentException for a type that cannot be a shard
   */
  public static ShardedFilter.Builder shardedBuilder(
      FilterType type, int shards, double bitsPerKey) {
    Supplier<FilterBuilder<? extends Filter>> shard;
    switch (type) {
      case BLOCKED_BLOOM:
        BlockedBloomFilter.builder().bitsPerKey(bitsPerKey); // checks the value up front
        shard = () -> BlockedBloomFilter.builder().bitsPerKey(bitsPerKey);
        break;
      case RIBBON:
        Standard128RibbonFilter.builder().bloomEquivalentBitsPerKey(bitsPerKey);
        shard = () -> Standard128RibbonFilter.builder().bloomEquivalentBitsPerKey(bitsPerKey);
        break;
      case XOR8:
        shard = Xor8Filter::builder;
        break;
      case XOR16:
        shard = Xor16Filter::builder;
        break;
      case BINARY_FUSE8:
        shard = BinaryFuse8Filter::builder;
        break;
      case BINARY_FUSE16:
        shard = BinaryFuse16Filter::builder;
        break;
      default:
        throw new IllegalArgumentException(
            type
                + " cannot be a shard: use BLOCKED_BLOOM, RIBBON, XOR8, XOR16, BINARY_FUSE8 or"
                + " BINARY_FUSE16");
    }
    return ShardedFilter.builder(shards, shard).keyScheme(KeyScheme.XXPH3);
  }

  /**
   * Builds a {@link ShardedFilter} of {@code shards} shards of {@code type} over the non-null
   * values of {@code column}, on the executors: one partition per shard, {@value
   * #DEFAULT_BITS_PER_KEY} bits per key for blocked Bloom and Ribbon.
   */
  public static SparkFilter buildFilter(Dataset<?> df, String column, FilterType type, int shards) {
    return buildFilter(df, column, type, shards, DEFAULT_BITS_PER_KEY, shards);
  }

  /**
   * Builds a {@link ShardedFilter} over the non-null values of {@code column}: the key hashes are
   * shuffled into {@code partitions} partitions by shard id (the top {@code log2 shards} bits of
   * the hash), each task builds the shards of its partition, the driver collects the shard
   * containers and assembles them (shards no key fell in are built empty on the driver). The result
   * is byte-identical to {@code shardedBuilder(type, shards, bitsPerKey)} over the same keys in one
   * JVM.
   *
   * @throws IllegalArgumentException naming the column if it is missing or not a key type, or for
   *     an impossible shard count, type or bits per key
   */
  public static SparkFilter buildFilter(
      Dataset<?> df,
      String column,
      FilterType type,
      int shards,
      double bitsPerKey,
      int partitions) {
    KeyType keyType = KeyType.of(df.schema(), column);
    ShardedFilter.Builder builder = shardedBuilder(type, shards, bitsPerKey); // checks
    if (partitions < 1) {
      throw new IllegalArgumentException("partitions must be at least 1, got " + partitions);
    }
    int bits = Integer.numberOfTrailingZeros(shards);
    Dataset<Row> hashed = df.select(keyHash(df.col(column)).as("h")).where(col("h").isNotNull());
    Column shard = bits == 0 ? lit(0) : shiftrightunsigned(col("h"), 64 - bits).cast("int");
    List<Tuple2<Integer, byte[]>> built =
        hashed
            .withColumn("s", shard)
            .repartition(partitions, col("s"))
            .mapPartitions(
                new ShardBuild(type, bitsPerKey, shards),
                Encoders.tuple(Encoders.INT(), Encoders.BINARY()))
            .collectAsList();
    Filter[] parts = new Filter[shards];
    for (Tuple2<Integer, byte[]> t : built) {
      int s = t._1();
      if (parts[s] != null) {
        throw new IllegalStateException("shard " + s + " was built by two tasks");
      }
      parts[s] = SieveFormat.read(t._2());
    }
    List<Filter> list = new ArrayList<>(shards);
    for (int s = 0; s < shards; s++) {
      list.add(parts[s] != null ? parts[s] : builder.buildShard(s, new long[0], 0));
    }
    return SparkFilter.of(ShardedFilter.of(list), keyType);
  }

  // ---------------------------------------------------------------- queries

  /**
   * A boolean column: whether {@code filter} may contain {@code key} ({@code null} for a null key).
   * The filter is broadcast once (its container bytes) and read in place on the executors. A key of
   * another type than the filter's fails the query with an error naming both types.
   */
  public static Column mightContain(SparkFilter filter, Column key) {
    return mightContainUdf(SparkSession.active(), filter).apply(key);
  }

  private static UserDefinedFunction mightContainUdf(SparkSession spark, SparkFilter filter) {
    Objects.requireNonNull(filter, "filter");
    Broadcast<byte[]> bytes =
        JavaSparkContext.fromSparkContext(spark.sparkContext()).broadcast(filter.toBytes());
    return functions.udf(new MightContainUdf(bytes, filter.keyType()), DataTypes.BooleanType);
  }

  /**
   * The rows of {@code df} whose {@code column} {@code filter} may contain: the semi-join
   * pre-filter in one call (rows with a null key are dropped; no row whose key is in the filter's
   * key set is).
   *
   * @throws IllegalArgumentException naming the column if its type is not the filter's key type
   */
  public static <T> Dataset<T> filterBy(Dataset<T> df, String column, SparkFilter filter) {
    KeyType type = KeyType.of(df.schema(), column);
    if (type != filter.keyType()) {
      throw new IllegalArgumentException(
          "column `"
              + column
              + "` holds "
              + type
              + " keys ("
              + type.sparkType().simpleString()
              + ") but the filter was built over "
              + filter.keyType()
              + " keys ("
              + filter.keyType().sparkType().simpleString()
              + ")");
    }
    return df.where(mightContainUdf(df.sparkSession(), filter).apply(df.col(column)));
  }

  /** Registers in SQL the function {@code name(key)}: {@link #mightContain} of {@code filter}. */
  public static void registerMightContain(SparkSession spark, String name, SparkFilter filter) {
    spark.udf().register(name, mightContainUdf(spark, filter));
  }
}
