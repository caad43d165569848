package dev.sieve.interop;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sieve.Filter;
import dev.sieve.format.SieveFormat;
import dev.sieve.registry.FilterType;
import java.nio.ByteBuffer;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The foreign types in the Sieve container ({@code --to sieve}): the payload is the owner's bytes,
 * the type id records the hash scheme, and the filter read back answers as the original.
 */
class ForeignContainerTest {

  private static void roundTrip(ForeignBloomFilter original, FilterType type) {
    SplittableRandom random = new SplittableRandom(5);
    for (int i = 0; i < 2000; i++) {
      original.put(random.nextLong());
      byte[] k = new byte[random.nextInt(0, 20)];
      random.nextBytes(k);
      original.put(k);
    }
    byte[] container = SieveFormat.toBytes(original);
    Filter read = SieveFormat.read(container);
    assertEquals(type, FilterType.of(read));
    assertEquals(original, read);
    assertEquals(original.numKeys(), read.numKeys());
    assertArrayEquals(original.toByteArray(), ((ForeignBloomFilter) read).toByteArray());
    Filter wrapped = SieveFormat.wrap(ByteBuffer.wrap(container));
    for (int i = 0; i < 20_000; i++) {
      long key = random.nextLong();
      assertEquals(original.mayContain(key), read.mayContain(key));
      assertEquals(original.mayContain(key), wrapped.mayContain(key));
      byte[] b = new byte[9];
      random.nextBytes(b);
      assertEquals(original.mayContain(b), read.mayContain(b));
    }
    assertTrue(type.isForeign());
    assertFalse(FilterType.builtIn().contains(type));
    assertThrows(UnsupportedOperationException.class, type::builder);
  }

  @Test
  void guavaBothStrategies() {
    roundTrip(
        GuavaBloomFilter.create(3000, 0.01, GuavaBloomFilter.Strategy.MURMUR128_MITZ_32),
        FilterType.GUAVA_BLOOM);
    roundTrip(GuavaBloomFilter.create(3000, 0.02), FilterType.GUAVA_BLOOM);
  }

  @Test
  void sparkBothVersions() {
    roundTrip(SparkBloomFilter.create(3000, 0.01), FilterType.SPARK_BLOOM);
    roundTrip(
        SparkBloomFilter.create(SparkBloomFilter.Version.V1, 3000, 30000, 0),
        FilterType.SPARK_BLOOM);
    roundTrip(
        SparkBloomFilter.create(SparkBloomFilter.Version.V2, 3000, 30000, 99),
        FilterType.SPARK_BLOOM);
  }

  @Test
  void dataSketches() {
    roundTrip(
        DataSketchesBloomFilter.createByAccuracy(3000, 0.01, 7), FilterType.DATASKETCHES_BLOOM);
  }

  @Test
  void cassandra() {
    roundTrip(CassandraBloomFilter.create(3000, 0.01), FilterType.CASSANDRA_BLOOM);
    CassandraBloomFilter legacy =
        CassandraBloomFilter.withShape(30_000, 5, CassandraBloomFilter.Layout.LEGACY);
    legacy.put(new byte[] {1, 2, (byte) 0x80});
    CassandraBloomFilter read =
        (CassandraBloomFilter) SieveFormat.read(SieveFormat.toBytes(legacy));
    assertEquals(legacy, read);
    assertTrue(read.mayContain(new byte[] {1, 2, (byte) 0x80}));
    assertArrayEquals(legacy.toByteArray(), read.toByteArray(CassandraBloomFilter.Layout.LEGACY));
  }

  @Test
  void registryIds() {
    assertEquals(19, FilterType.CASSANDRA_BLOOM.id());
    assertEquals(FilterType.CASSANDRA_BLOOM, FilterType.forName("cassandra-bloom"));
    assertEquals(16, FilterType.DATASKETCHES_BLOOM.id());
    assertEquals(14, FilterType.GUAVA_BLOOM.id());
    assertEquals(15, FilterType.SPARK_BLOOM.id());
    assertEquals(FilterType.GUAVA_BLOOM, FilterType.forName("guava-bloom"));
  }
}
