package dev.sieve.interop;

import com.google.common.hash.Funnels;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.datasketches.filters.bloomfilter.BloomFilterBuilder;

/**
 * The seed corpus of the foreign-form fuzz target {@link ForeignFormFuzzTest}, each seed behind its
 * form's tag byte ({@link ForeignFormFuzzTest.Form#tag()}): small filters written by the owning
 * libraries themselves (Guava's {@code writeTo}, Spark's sketch {@code writeTo}, DataSketches'
 * {@code toByteArray}), holding 0, 1, 5 and 40 keys, over the shapes each form has (Guava's two
 * strategies, Spark's V1 and V2 with seed 0 and not, DataSketches' seeds and an empty filter), each
 * beside its first half (a truncation the reader must refuse). The one shape an owner cannot write
 * through its public API, Guava's {@code MURMUR128_MITZ_32}, is written by {@link
 * GuavaBloomFilter}, whose bytes {@code GuavaBloomInteropTest} shows identical to Guava's.
 *
 * <p>Run from the sieve-interop directory: {@code java -cp target/test-classes:target/classes:<test
 * classpath> dev.sieve.interop.InteropFuzzCorpusGenerator src/test/resources}. {@code
 * InteropFuzzCorpusTest} checks that the kept files are what this writes.
 */
public final class InteropFuzzCorpusGenerator {
  private InteropFuzzCorpusGenerator() {}

  private static final int[] SIZES = {0, 1, 5, 40};

  public static void main(String[] args) throws IOException {
    write(Path.of(args.length > 0 ? args[0] : "src/test/resources"));
  }

  /** The seed directory, under the test resources. */
  static final String DIR = "dev/sieve/interop/ForeignFormFuzzTestInputs/fuzz";

  /** Writes every seed, tagged ({@link #tagged}), under {@code resources/}{@value #DIR}. */
  public static void write(Path resources) throws IOException {
    Path dir = resources.resolve(DIR);
    Files.createDirectories(dir);
    for (Map.Entry<ForeignFormFuzzTest.Form, Map<String, byte[]>> form : seeds().entrySet()) {
      for (Map.Entry<String, byte[]> seed : form.getValue().entrySet()) {
        Files.write(dir.resolve(seed.getKey()), tagged(form.getKey(), seed.getValue()));
      }
    }
  }

  /** {@return the fuzz input that gives {@code bytes} to {@code form}'s reader} */
  static byte[] tagged(ForeignFormFuzzTest.Form form, byte[] bytes) {
    byte[] input = new byte[bytes.length + 1];
    input[0] = form.tag();
    System.arraycopy(bytes, 0, input, 1, bytes.length);
    return input;
  }

  /** Form to (file name to the form's bytes, untagged), in a fixed order. */
  static Map<ForeignFormFuzzTest.Form, Map<String, byte[]>> seeds() {
    return seeds(true);
  }

  /** The seeds, DataSketches' only when {@code withDataSketches} (its library runs here). */
  static Map<ForeignFormFuzzTest.Form, Map<String, byte[]>> seeds(boolean withDataSketches) {
    Map<ForeignFormFuzzTest.Form, Map<String, byte[]>> all = new LinkedHashMap<>();
    all.put(ForeignFormFuzzTest.Form.GUAVA, guava());
    all.put(ForeignFormFuzzTest.Form.SPARK, spark());
    if (withDataSketches) {
      all.put(ForeignFormFuzzTest.Form.DATASKETCHES, dataSketches());
    }
    all.put(ForeignFormFuzzTest.Form.CASSANDRA, cassandra());
    return all;
  }

  private static Map<String, byte[]> guava() {
    Map<String, byte[]> out = new LinkedHashMap<>();
    for (int n : SIZES) {
      int expected = Math.max(n, 1);
      // MURMUR128_MITZ_64, Guava's own writer (its default strategy)
      com.google.common.hash.BloomFilter<byte[]> g =
          com.google.common.hash.BloomFilter.create(Funnels.byteArrayFunnel(), expected, 0.03);
      for (int i = 0; i < n; i++) {
        g.put(key(i));
      }
      ByteArrayOutputStream bytes = new ByteArrayOutputStream();
      try {
        g.writeTo(bytes);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      withCut(out, "guava-mitz64-" + n, bytes.toByteArray());
      // MURMUR128_MITZ_32: not creatable through Guava's public API
      GuavaBloomFilter s =
          GuavaBloomFilter.create(expected, 0.03, GuavaBloomFilter.Strategy.MURMUR128_MITZ_32);
      for (int i = 0; i < n; i++) {
        s.put(key(i));
      }
      withCut(out, "guava-mitz32-" + n, s.toByteArray());
    }
    return out;
  }

  private static Map<String, byte[]> spark() {
    Map<String, byte[]> out = new LinkedHashMap<>();
    org.apache.spark.util.sketch.BloomFilter.Version[] versions = {
      org.apache.spark.util.sketch.BloomFilter.Version.V1,
      org.apache.spark.util.sketch.BloomFilter.Version.V2,
      org.apache.spark.util.sketch.BloomFilter.Version.V2
    };
    int[] seeds = {0, 0, 24};
    for (int n : SIZES) {
      int expected = Math.max(n, 1);
      for (int v = 0; v < versions.length; v++) {
        org.apache.spark.util.sketch.BloomFilter f =
            org.apache.spark.util.sketch.BloomFilter.create(
                versions[v],
                expected,
                org.apache.spark.util.sketch.BloomFilter.optimalNumOfBits(expected, 0.03),
                seeds[v]);
        for (int i = 0; i < n; i++) {
          if (i % 2 == 0) {
            f.putLong(i * 0x9E3779B97F4A7C15L);
          } else {
            f.putBinary(key(i));
          }
        }
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try {
          f.writeTo(bytes);
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
        String name = "spark-" + versions[v].name().toLowerCase() + "-seed" + seeds[v] + "-" + n;
        withCut(out, name, bytes.toByteArray());
      }
    }
    return out;
  }

  private static Map<String, byte[]> dataSketches() {
    Map<String, byte[]> out = new LinkedHashMap<>();
    long[] seeds = {9001L, 24L};
    for (long seed : seeds) {
      for (int n : SIZES) {
        org.apache.datasketches.filters.bloomfilter.BloomFilter f =
            BloomFilterBuilder.createByAccuracy(Math.max(n, 1), 0.03, seed);
        for (int i = 0; i < n; i++) {
          if (i % 2 == 0) {
            f.update(i * 0x9E3779B97F4A7C15L);
          } else {
            f.update(key(i));
          }
        }
        withCut(out, "datasketches-seed" + seed + "-" + n, f.toByteArray());
      }
    }
    return out;
  }

  /**
   * Cassandra's {@code Filter.db}, written by {@link CassandraBloomFilter} (Cassandra's library is
   * not a test dependency; {@code CassandraBloomInteropTest} checks the bytes against an
   * independent model), at Cassandra's two usual rates, keys with a high tail byte among them.
   */
  private static Map<String, byte[]> cassandra() {
    Map<String, byte[]> out = new LinkedHashMap<>();
    double[] rates = {0.01, 0.1};
    for (double rate : rates) {
      for (int n : SIZES) {
        CassandraBloomFilter f = CassandraBloomFilter.create(n, rate);
        for (int i = 0; i < n; i++) {
          f.put(new byte[] {(byte) i, (byte) (0x80 | i), 'k'});
        }
        withCut(out, "cassandra-fp" + rate + "-" + n, f.toByteArray());
      }
    }
    return out;
  }

  private static byte[] key(int i) {
    return new byte[] {(byte) i, (byte) (i >>> 8), 'k'};
  }

  private static void withCut(Map<String, byte[]> out, String name, byte[] bytes) {
    out.put("seed-" + name, bytes);
    out.put("seed-" + name + "-cut", Arrays.copyOf(bytes, bytes.length / 2));
  }
}
