package dev.sieve.interop;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sieve.Filter;
import dev.sieve.KeyFilter;
import dev.sieve.SieveFormatException;
import dev.sieve.format.MappedSieveFile;
import dev.sieve.format.SieveFormat;
import dev.sieve.registry.FilterType;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.SplittableRandom;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.io.TempDir;

/**
 * The foreign types in the Sieve container ({@code --to sieve}): the payload is the owner's bytes,
 * the type id records the hash scheme, and the filter read back answers as the original. They are
 * key filters, not {@link Filter}s: the typed reads return them, the untyped reads (which return a
 * {@link Filter}) refuse them at the type field, naming the typed read.
 */
class ForeignContainerTest {
  @TempDir static Path dir;

  private static void roundTrip(ForeignBloomFilter original, FilterType type) throws IOException {
    SplittableRandom random = new SplittableRandom(5);
    for (int i = 0; i < 2000; i++) {
      original.put(random.nextLong());
      byte[] k = new byte[random.nextInt(0, 20)];
      random.nextBytes(k);
      original.put(k);
    }
    byte[] container = SieveFormat.toBytes(original);
    assertEquals(0, ByteBuffer.wrap(container, 12, 4).getInt(), "no key-scheme flag");
    ForeignBloomFilter read = SieveFormat.read(container, ForeignBloomFilter.class);
    assertEquals(type, FilterType.of(read));
    assertEquals(original, read);
    assertEquals(original.numKeys(), read.numKeys());
    assertArrayEquals(original.toByteArray(), read.toByteArray());
    KeyFilter wrapped = SieveFormat.wrap(ByteBuffer.wrap(container), KeyFilter.class);
    assertEquals(original, wrapped);
    assertEquals(
        original,
        SieveFormat.read(new ByteArrayInputStream(container), original.getClass()),
        "read(InputStream, Class)");
    Path file = dir.resolve(type.cliName() + ".sieve");
    SieveFormat.write(original, file);
    assertArrayEquals(container, Files.readAllBytes(file));
    assertEquals(original, SieveFormat.map(file, KeyFilter.class), "map(Path, Class)");
    try (MappedSieveFile mapped = MappedSieveFile.open(file)) {
      assertEquals(original, mapped.filter(original.getClass()), "MappedSieveFile.filter(Class)");
      refused(type, "MappedSieveFile.filter(Class)", mapped::filter);
    }
    refused(type, "SieveFormat.read(byte[], Class)", () -> SieveFormat.read(container));
    refused(
        type,
        "SieveFormat.read(InputStream, Class)",
        () -> SieveFormat.read(new ByteArrayInputStream(container)));
    refused(
        type,
        "SieveFormat.wrap(ByteBuffer, Class)",
        () -> SieveFormat.wrap(ByteBuffer.wrap(container)));
    refused(
        type,
        "SieveFormat.wrap(ByteBuffer, Class)",
        () -> SieveFormat.wrap(ByteBuffer.wrap(container), false));
    refused(type, "SieveFormat.map(Path, Class)", () -> SieveFormat.map(file));
    SieveFormatException asBloom =
        assertThrows(
            SieveFormatException.class,
            () -> SieveFormat.read(container, OrcBloomFilter.class),
            "a typed read of another class");
    assertTrue(asBloom.getMessage().contains("expected OrcBloomFilter"), asBloom.getMessage());
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

  /** An untyped read, which returns a {@link Filter}, refuses a foreign container at its type. */
  private static void refused(FilterType type, String typedRead, Executable read) {
    SieveFormatException e = assertThrows(SieveFormatException.class, read, typedRead);
    assertEquals(10, e.offset(), e.getMessage());
    assertTrue(e.getMessage().contains(typedRead), e.getMessage());
    assertTrue(e.getMessage().contains(type.cliName()), e.getMessage());
    assertTrue(e.getMessage().contains("another system's filter"), e.getMessage());
  }

  @Test
  void foreignContainerRecordingAKeySchemeIsRefused() {
    GuavaBloomFilter g = GuavaBloomFilter.create(100, 0.01);
    g.put(7L);
    byte[] container = SieveFormat.toBytes(g);
    ByteBuffer.wrap(container).order(ByteOrder.LITTLE_ENDIAN).putInt(12, 1); // MIX64
    CRC32C crc = new CRC32C();
    crc.update(container, 0, 60);
    ByteBuffer.wrap(container).order(ByteOrder.LITTLE_ENDIAN).putInt(60, (int) crc.getValue());
    SieveFormatException e =
        assertThrows(
            SieveFormatException.class, () -> SieveFormat.read(container, KeyFilter.class));
    assertEquals(12, e.offset(), e.getMessage());
    assertTrue(e.getMessage().contains("carries no key scheme"), e.getMessage());
  }

  @Test
  void guavaBothStrategies() throws IOException {
    roundTrip(
        GuavaBloomFilter.create(3000, 0.01, GuavaBloomFilter.Strategy.MURMUR128_MITZ_32),
        FilterType.GUAVA_BLOOM);
    roundTrip(GuavaBloomFilter.create(3000, 0.02), FilterType.GUAVA_BLOOM);
  }

  @Test
  void sparkBothVersions() throws IOException {
    roundTrip(SparkBloomFilter.create(3000, 0.01), FilterType.SPARK_BLOOM);
    roundTrip(
        SparkBloomFilter.create(SparkBloomFilter.Version.V1, 3000, 30000, 0),
        FilterType.SPARK_BLOOM);
    roundTrip(
        SparkBloomFilter.create(SparkBloomFilter.Version.V2, 3000, 30000, 99),
        FilterType.SPARK_BLOOM);
  }

  @Test
  void dataSketches() throws IOException {
    roundTrip(
        DataSketchesBloomFilter.createByAccuracy(3000, 0.01, 7), FilterType.DATASKETCHES_BLOOM);
  }

  @Test
  void cassandra() throws IOException {
    roundTrip(CassandraBloomFilter.create(3000, 0.01), FilterType.CASSANDRA_BLOOM);
    CassandraBloomFilter legacy =
        CassandraBloomFilter.withShape(30_000, 5, CassandraBloomFilter.Layout.LEGACY);
    legacy.put(new byte[] {1, 2, (byte) 0x80});
    CassandraBloomFilter read =
        SieveFormat.read(SieveFormat.toBytes(legacy), CassandraBloomFilter.class);
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
