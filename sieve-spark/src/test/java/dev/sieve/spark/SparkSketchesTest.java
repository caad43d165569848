package dev.sieve.spark;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.sieve.format.SieveFormat;
import dev.sieve.interop.SparkBloomFilter;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.SplittableRandom;
import org.apache.spark.util.sketch.BloomFilter;
import org.junit.jupiter.api.Test;

/**
 * {@link SparkSketches} on filters Spark's sketch module builds (the bytes {@code bloom_filter_agg}
 * stores): read, they answer as Spark; handed back, Spark reads them unchanged; kept in a Sieve
 * container, they still answer as Spark. No Spark session needed.
 */
class SparkSketchesTest {

  @Test
  void aSparkBuiltFilterAnswersAsSparkAndGoesBack() throws IOException {
    BloomFilter spark = BloomFilter.create(20_000, 0.02);
    SplittableRandom random = new SplittableRandom(11);
    for (int i = 0; i < 20_000; i++) {
      spark.putLong(random.nextLong());
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    spark.writeTo(out);
    SparkBloomFilter sieve = SparkSketches.fromBytes(out.toByteArray());
    SparkBloomFilter kept =
        SieveFormat.read(SieveFormat.toBytes(sieve), SparkBloomFilter.class); // --to sieve
    for (int i = 0; i < 50_000; i++) {
      long key = random.nextLong();
      assertEquals(spark.mightContainLong(key), sieve.mayContain(key));
      assertEquals(spark.mightContainLong(key), kept.mayContain(key));
    }
    BloomFilter back = SparkSketches.toSpark(sieve);
    assertEquals(spark, back);
    ByteArrayOutputStream again = new ByteArrayOutputStream();
    back.writeTo(again);
    assertArrayEquals(out.toByteArray(), again.toByteArray());
  }
}
