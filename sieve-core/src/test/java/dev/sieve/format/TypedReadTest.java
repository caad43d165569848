package dev.sieve.format;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sieve.Filter;
import dev.sieve.SieveFormatException;
import dev.sieve.bloom.BlockedBloomFilter;
import dev.sieve.registry.FilterType;
import dev.sieve.xor.Xor8Filter;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code SieveFormat.read(in, Class)} and {@code map(path, Class)} return the filter typed, or a
 * {@link SieveFormatException} naming what the container holds.
 */
class TypedReadTest {
  private static final long[] KEYS = TestFilters.keys(1000, 3);

  @Test
  void readAndMapWithTheRightClass(@TempDir Path dir) throws IOException {
    BlockedBloomFilter bloom = BlockedBloomFilter.builder().fpRate(0.01).build(KEYS);
    byte[] bytes = SieveFormat.toBytes(bloom);
    BlockedBloomFilter read =
        SieveFormat.read(new ByteArrayInputStream(bytes), BlockedBloomFilter.class);
    assertArrayEquals(bloom.toRocksDbFilterBlock(), read.toRocksDbFilterBlock());
    Path file = dir.resolve("bloom.sieve");
    Files.write(file, bytes);
    BlockedBloomFilter mapped = SieveFormat.map(file, BlockedBloomFilter.class);
    assertTrue(mapped.isWrapped());
    for (long k : KEYS) {
      assertTrue(read.mayContain(k) && mapped.mayContain(k));
    }
    Filter any = SieveFormat.read(new ByteArrayInputStream(bytes), Filter.class);
    assertSame(BlockedBloomFilter.class, any.getClass());
  }

  @Test
  void theWrongClassIsATypedErrorNamingWhatTheFileHolds(@TempDir Path dir) throws IOException {
    byte[] bytes = SieveFormat.toBytes(Xor8Filter.builder().build(KEYS));
    SieveFormatException e =
        assertThrows(
            SieveFormatException.class,
            () -> SieveFormat.read(new ByteArrayInputStream(bytes), BlockedBloomFilter.class));
    assertTrue(
        e.getMessage().contains("Xor8Filter") && e.getMessage().contains("BlockedBloomFilter"),
        e.getMessage());
    Path file = dir.resolve("xor.sieve");
    Files.write(file, bytes);
    SieveFormatException m =
        assertThrows(
            SieveFormatException.class, () -> SieveFormat.map(file, BlockedBloomFilter.class));
    assertTrue(m.getMessage().contains("holds a Xor8Filter"), m.getMessage());
    assertThrows(
        SieveFormatException.class,
        () ->
            SieveFormat.read(
                new ByteArrayInputStream(bytes), FilterType.BLOCKED_BLOOM.filterClass()));
  }
}
