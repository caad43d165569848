package dev.sieve.spark;

import static org.apache.spark.sql.functions.col;

import dev.sieve.interop.SparkBloomFilter;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.types.BinaryType;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.util.sketch.BloomFilter;

/**
 * Spark's own Bloom filters ({@code org.apache.spark.util.sketch.BloomFilter}, V1 and V2) to and
 * from Sieve: a filter Spark built, e.g. the {@code BINARY} value of SQL {@code
 * bloom_filter_agg(col)}, becomes a {@link SparkBloomFilter} that answers every key as Spark's
 * {@code might_contain} does (and can be kept in a Sieve container, queried and inspected by the
 * CLI); a {@link SparkBloomFilter} built in Sieve becomes the bytes or the object Spark reads.
 *
 * <pre>{@code
 * SparkBloomFilter f = SparkSketches.fromColumn(spark.sql(
 *     "SELECT bloom_filter_agg(xxhash64(id)) AS bf FROM t"), "bf");
 * f.mayContain(someXxhash64);                     // as might_contain(bf, xxhash64(id))
 * BloomFilter forSpark = SparkSketches.toSpark(f); // Spark's sketch object
 * }</pre>
 *
 * <p>Spark 4.2 does not list {@code bloom_filter_agg} and {@code might_contain} among its built-in
 * SQL functions: its optimizer builds them itself for the runtime filter of a join. A session that
 * wants them in SQL registers {@code BloomFilterAggregate} and {@code BloomFilterMightContain} in
 * its function registry (as Spark's own tests do, and {@code SparkSketchesLocalTest} here); {@code
 * df.stat().bloomFilter(column, n, fpp)} needs no registration and gives Spark's object, whose
 * {@code writeTo} bytes {@link #fromBytes} reads.
 */
public final class SparkSketches {
  private SparkSketches() {}

  /**
   * Reads Spark's serialized filter ({@code BloomFilter.writeTo}), bounded before anything is
   * allocated.
   *
   * @param bytes the bytes
   * @return the filter
   * @throws dev.sieve.SieveFormatException naming the field and its limit on a bad header
   */
  public static SparkBloomFilter fromBytes(byte[] bytes) {
    return SparkBloomFilter.readFrom(bytes);
  }

  /**
   * The first non-null value of the {@code BINARY} column {@code column} of {@code df} (for example
   * the one row of {@code SELECT bloom_filter_agg(...)}) as a filter.
   *
   * @param df the data
   * @param column the column of Spark filter bytes
   * @return the filter
   * @throws IllegalArgumentException if the column is not {@code BINARY} or has no non-null value
   * @throws dev.sieve.SieveFormatException if the value is not a Spark filter
   */
  public static SparkBloomFilter fromColumn(Dataset<Row> df, String column) {
    Dataset<Row> values = df.select(col(column));
    DataType type = values.schema().fields()[0].dataType();
    if (!(type instanceof BinaryType)) {
      throw new IllegalArgumentException(
          "column " + column + " is " + type.simpleString() + ", not binary filter bytes");
    }
    List<Row> rows = values.where(col(column).isNotNull()).limit(1).collectAsList();
    if (rows.isEmpty()) {
      throw new IllegalArgumentException("column " + column + " has no non-null filter bytes");
    }
    return fromBytes((byte[]) rows.get(0).get(0));
  }

  /**
   * Spark's own object for {@code filter}: {@code BloomFilter.readFrom} of its bytes, which are the
   * bytes Spark writes for the same keys and parameters.
   *
   * @param filter the filter
   * @return Spark's filter, answering as {@code filter}
   */
  public static BloomFilter toSpark(SparkBloomFilter filter) {
    try {
      return BloomFilter.readFrom(new ByteArrayInputStream(filter.toByteArray()));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
