package dev.sieve.sst;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sieve.policy.FilterPolicy;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Properties;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.rocksdb.ColumnFamilyOptions;
import org.rocksdb.ConfigOptions;
import org.rocksdb.DBOptions;
import org.rocksdb.EnvOptions;
import org.rocksdb.Options;
import org.rocksdb.RocksDB;
import org.rocksdb.SstFileWriter;

/**
 * {@link RocksDbTableFilter} against the real RocksDB (rocksdbjni 11.8.1): the full filter block
 * and the filter partitions (blocks and separators) rocksdbjni's {@code SstFileWriter} writes for
 * the same keys under prefix extractors, whole-key filtering on and off, partition sizes, Bloom and
 * Ribbon, are byte-identical with Sieve's build.
 */
class RocksDbTableFilterTest {
  static {
    RocksDB.loadLibrary();
  }

  @TempDir Path dir;

  private static Path write(
      Path dir,
      List<byte[]> keys,
      String policy,
      boolean optimize,
      String prefix,
      boolean wholeKey,
      long metadataBlockSize)
      throws Exception {
    return write(dir, keys, policy, optimize, prefix, wholeKey, metadataBlockSize, 1, 7);
  }

  private static Path write(
      Path dir,
      List<byte[]> keys,
      String policy,
      boolean optimize,
      String prefix,
      boolean wholeKey,
      long metadataBlockSize,
      int indexRestartInterval,
      int formatVersion)
      throws Exception {
    StringBuilder t = new StringBuilder("{filter_policy=").append(policy);
    t.append(";optimize_filters_for_memory=").append(optimize);
    t.append(";whole_key_filtering=").append(wholeKey);
    t.append(";index_block_restart_interval=").append(indexRestartInterval);
    t.append(";format_version=").append(formatVersion);
    if (metadataBlockSize > 0) {
      t.append(";partition_filters=true;index_type=kTwoLevelIndexSearch;metadata_block_size=")
          .append(metadataBlockSize);
    }
    Properties props = new Properties();
    props.setProperty("block_based_table_factory", t.append("}").toString());
    if (prefix != null) {
      props.setProperty("prefix_extractor", prefix);
    }
    ColumnFamilyOptions cf;
    try (ConfigOptions cfg = new ConfigOptions()) {
      cf = ColumnFamilyOptions.getColumnFamilyOptionsFromProps(cfg, props);
    }
    Path file = dir.resolve("t" + System.nanoTime() + ".sst");
    try (Options options = new Options(new DBOptions(), cf);
        EnvOptions env = new EnvOptions();
        SstFileWriter w = new SstFileWriter(env, options)) {
      w.open(file.toString());
      for (byte[] k : keys) {
        w.put(k, new byte[] {1});
      }
      w.finish();
    }
    return file;
  }

  private static String rocksPrefix(String sievePrefix) {
    if (sievePrefix == null) {
      return null;
    }
    String[] p = sievePrefix.split(":");
    return (p[0].equals("fixed") ? "rocksdb.FixedPrefix." : "rocksdb.CappedPrefix.") + p[1];
  }

  @ParameterizedTest(name = "{0}, prefix {1}, whole key {2}, {3} keys, optimize {4}")
  @CsvSource({
    "bloomfilter:10, fixed:3, false, 5000, true",
    "bloomfilter:10, fixed:3, true, 5000, true",
    "bloomfilter:7.5, capped:2, true, 20000, true",
    "bloomfilter:16, capped:5, false, 3000, true",
    "ribbonfilter:10, fixed:4, true, 30000, false",
    "ribbonfilter:12, capped:3, false, 20000, false",
    "ribbonfilter:10, fixed:2, true, 300, true",
  })
  void fullFiltersWithPrefixesAreByteIdentical(
      String policy, String prefix, boolean wholeKey, int n, boolean optimize) throws Exception {
    Random rnd = new Random(n + prefix.hashCode() + policy.hashCode() + (wholeKey ? 1 : 0));
    List<byte[]> keys = RocksDbOracle.randomKeys(rnd, n, true, 8);
    Path sst = write(dir, keys, policy, optimize, rocksPrefix(prefix), wholeKey, 0);
    SstFilter f = SstFile.open(sst).filter();
    FilterPolicy p =
        RocksDbOptions.filterPolicy(policy).orElseThrow().withOptimizeFiltersForMemory(optimize);
    byte[] sieve =
        new RocksDbTableFilter(p, FilterPolicy.UNKNOWN_LEVEL, prefix, wholeKey)
            .buildFullBlock(keys);
    RocksDbOracle.assertSameBlock(sieve, f.fullBlock(), optimize, policy + " " + prefix);
  }

  @ParameterizedTest(
      name =
          "{0}, prefix {1}, whole key {2}, {3} keys, metadata {4}, optimize {5}, restart {6},"
              + " format_version {7}")
  @CsvSource({
    "bloomfilter:10, , true, 20000, 512, true, 1, 7",
    "bloomfilter:10, , true, 20000, 4096, true, 3, 7",
    "bloomfilter:3.3, , true, 5000, 100, true, 1, 5",
    "bloomfilter:10, fixed:3, true, 20000, 1024, true, 16, 6",
    "bloomfilter:10, fixed:3, false, 20000, 256, true, 1, 7",
    "bloomfilter:20, capped:4, true, 10000, 700, true, 2, 5",
    "ribbonfilter:10, , true, 30000, 1024, false, 1, 7",
    "ribbonfilter:10, , true, 8000, 4096, false, 1, 6",
    "ribbonfilter:10, capped:2, true, 20000, 2048, false, 4, 7",
    "ribbonfilter:8, fixed:3, false, 20000, 512, false, 1, 7",
    "ribbonfilter:10, , true, 3000, 64, false, 5, 7",
  })
  void partitionedFiltersAreByteIdentical(
      String policy,
      String prefix,
      boolean wholeKey,
      int n,
      long metadata,
      boolean optimize,
      int restartInterval,
      int formatVersion)
      throws Exception {
    Random rnd = new Random(n * 7L + metadata + policy.hashCode() + (wholeKey ? 1 : 0));
    List<byte[]> keys = RocksDbOracle.randomKeys(rnd, n, true, 10);
    Path sst =
        write(
            dir,
            keys,
            policy,
            optimize,
            rocksPrefix(prefix),
            wholeKey,
            metadata,
            restartInterval,
            formatVersion);
    SstFile file = SstFile.open(sst);
    SstFilter f = file.filter();
    assertTrue(f.isPartitioned());
    FilterPolicy p =
        RocksDbOptions.filterPolicy(policy).orElseThrow().withOptimizeFiltersForMemory(optimize);
    List<RocksDbTableFilter.Partition> sieve =
        new RocksDbTableFilter(p, FilterPolicy.UNKNOWN_LEVEL, prefix, wholeKey)
            .buildPartitions(keys, metadata);
    List<SstFilter.Partition> rocks = f.partitions();
    assertEquals(rocks.size(), sieve.size(), "partitions");
    assertTrue(rocks.size() >= 2, "partitions: " + rocks.size());
    for (int i = 0; i < rocks.size(); i++) {
      assertArrayEquals(
          rocks.get(i).separatorUserKey(), sieve.get(i).separator(), "separator " + i);
      RocksDbOracle.assertSameBlock(
          sieve.get(i).block(), rocks.get(i).block(), false, "partition " + i);
    }
    // and the top-level index block, placed where RocksDB placed the first partition
    byte[] bytes = Files.readAllBytes(sst);
    BlockHandle h = f.handle();
    byte[] index = Arrays.copyOfRange(bytes, (int) h.offset(), (int) (h.offset() + h.size()));
    assertArrayEquals(
        index,
        RocksDbTableFilter.partitionIndexBlock(
            sieve,
            rocks.get(0).handle().offset(),
            file.properties().indexKeyIsUserKey(),
            file.properties().indexValueIsDeltaEncoded(),
            restartInterval),
        "partition index block");
  }

  @Test
  void indexBlockWithInternalKeysReadsBack() {
    List<byte[]> keys = RocksDbOracle.randomKeys(new Random(5), 3000, false, 12);
    List<RocksDbTableFilter.Partition> parts =
        new RocksDbTableFilter(FilterPolicy.bloom(10), FilterPolicy.UNKNOWN_LEVEL, null, true)
            .buildPartitions(keys, 256);
    for (boolean delta : new boolean[] {false, true}) {
      for (int interval : new int[] {1, 3}) {
        byte[] block = RocksDbTableFilter.partitionIndexBlock(parts, 1234, false, delta, interval);
        List<KeyValueBlock.Entry> entries = KeyValueBlock.decode(block, 0, "index", true, delta);
        assertEquals(parts.size(), entries.size());
        long offset = 1234;
        for (int i = 0; i < parts.size(); i++) {
          byte[] sep = parts.get(i).separator();
          assertArrayEquals(Arrays.copyOf(sep, sep.length + 8), entries.get(i).key());
          assertEquals(
              new BlockHandle(offset, parts.get(i).block().length), entries.get(i).handle());
          offset += parts.get(i).block().length + 5;
        }
      }
    }
    assertThrows(
        IllegalArgumentException.class,
        () -> RocksDbTableFilter.partitionIndexBlock(List.of(), 0, true, true, 1));
  }

  @Test
  void badSettingsAreRefused() {
    FilterPolicy p = FilterPolicy.bloom(10);
    for (String bad : new String[] {"fixed:0", "capped:-1", "fixed", "weird:3", "fixed:x", "foo"}) {
      IllegalArgumentException e =
          assertThrows(
              IllegalArgumentException.class,
              () -> new RocksDbTableFilter(p, FilterPolicy.UNKNOWN_LEVEL, bad, true),
              bad);
      assertTrue(e.getMessage().contains(bad), e.getMessage());
    }
    assertThrows(
        IllegalArgumentException.class,
        () -> new RocksDbTableFilter(p, FilterPolicy.UNKNOWN_LEVEL, null, false));
    RocksDbTableFilter t = new RocksDbTableFilter(p, FilterPolicy.UNKNOWN_LEVEL, null, true);
    assertThrows(IllegalArgumentException.class, () -> t.buildPartitions(List.of(), 0));
    assertThrows(IllegalArgumentException.class, () -> t.buildPartitions(List.of(), 1L << 32));
  }
}
