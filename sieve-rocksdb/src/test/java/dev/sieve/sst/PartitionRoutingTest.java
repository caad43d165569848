package dev.sieve.sst;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sieve.policy.FilterPolicy;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Partitioned filters route a point lookup to one partition in the order of the table's comparator:
 * the real RocksDB (rocksdbjni) writes tables under the reverse bytewise comparator, and Sieve must
 * answer each absent key exactly as RocksDB's own filter does (ORing all partitions answered
 * "maybe" several times as often). Timestamped comparators, which rocksdbjni cannot write (its Java
 * API has no write with a timestamp), are checked on partitions built here.
 */
class PartitionRoutingTest {
  @TempDir Path dir;

  @ParameterizedTest(name = "{0}, {1} keys, metadata_block_size {2}")
  @CsvSource({"bloom, 20000, 512", "ribbon, 20000, 1024", "bloom, 3000, 256", "ribbon, 6000, 256"})
  void reverseBytewiseTablesAnswerAsRocksDb(String type, int n, long metadataBlockSize)
      throws Exception {
    Random rnd = new Random(n * 31L + metadataBlockSize + type.hashCode());
    boolean ribbon = type.equals("ribbon");
    RocksDbOracle.Spec spec =
        (ribbon ? RocksDbOracle.Spec.ribbon(10, false) : RocksDbOracle.Spec.bloom(10))
            .partitioned(metadataBlockSize)
            .reversed();
    List<byte[]> keys = RocksDbOracle.randomKeys(rnd, n, rnd.nextBoolean(), 24);
    Path sst = RocksDbOracle.writeSst(dir, type, keys, spec);
    SstFile file = SstFile.open(sst);
    assertEquals("rocksdb.ReverseBytewiseComparator", file.properties().comparator());
    SstFilter filter = file.filter();
    assertTrue(filter.isPartitioned());
    assertTrue(filter.routesPartitions());
    assertNull(filter.note());
    assertTrue(filter.partitions().size() > 5, "partitions: " + filter.partitions().size());

    // every key is in the partition the lookup picks, and each partition is exactly Sieve's build
    // of the keys routed to it in table order
    List<byte[]> inOrder = spec.inTableOrder(keys);
    FilterPolicy policy =
        (ribbon ? FilterPolicy.ribbon(10, 0) : FilterPolicy.bloom(10))
            .withOptimizeFiltersForMemory(false);
    Map<FilterBlock, List<byte[]>> routed = new HashMap<>();
    for (byte[] k : inOrder) {
      assertTrue(filter.mayContain(k), "stored key reported absent");
      routed.computeIfAbsent(filter.blockFor(k), b -> new ArrayList<>()).add(k);
    }
    for (SstFilter.Partition p : filter.partitions()) {
      assertArrayEquals(
          RocksDbTableFilter.filterBlock(
              policy, routed.getOrDefault(p.block(), List.of()), 7, FilterPolicy.UNKNOWN_LEVEL),
          p.block().bytes());
    }

    List<byte[]> absent = RocksDbOracle.absentKeysInRange(rnd, keys, 3000, false);
    boolean[] rejected = RocksDbOracle.rocksDbRejects(dir, sst, spec, absent);
    int sieveMaybe = 0;
    int rocksMaybe = 0;
    for (int i = 0; i < absent.size(); i++) {
      boolean sieve = filter.mayContain(absent.get(i));
      assertEquals(!rejected[i], sieve, "absent key " + i + " answered differently");
      sieveMaybe += sieve ? 1 : 0;
      rocksMaybe += rejected[i] ? 0 : 1;
    }
    assertEquals(rocksMaybe, sieveMaybe);
    // 10 bits/key: about 1% false positives, as RocksDB's own lookup has (ORing gave ~5%)
    assertTrue(sieveMaybe < absent.size() * 0.03, sieveMaybe + " of " + absent.size());
  }

  // ---------------------------------------------------------------- timestamps and custom order

  private static final int TS = 8;

  /**
   * Partitions built here as RocksDB cuts them: {@code perPartition} keys, separator = last key.
   */
  private static SstFilter partitioned(
      String comparator, List<byte[]> keysInOrder, int perPartition, boolean newerSeparatorTs) {
    Map<String, byte[]> props = new HashMap<>();
    props.put(TableProperties.COMPARATOR, comparator.getBytes(StandardCharsets.UTF_8));
    TableProperties p = new TableProperties(props, 0);
    FilterPolicy policy = FilterPolicy.bloom(10);
    List<SstFilter.Partition> parts = new ArrayList<>();
    for (int from = 0; from < keysInOrder.size(); from += perPartition) {
      List<byte[]> chunk =
          keysInOrder.subList(from, Math.min(keysInOrder.size(), from + perPartition));
      byte[] block = RocksDbTableFilter.filterBlock(policy, chunk);
      byte[] last = chunk.get(chunk.size() - 1);
      byte[] sep = last;
      if (comparator.endsWith(".u64ts")) {
        sep =
            ByteBuffer.allocate(last.length + TS)
                .put(last)
                .putLong(newerSeparatorTs ? 77 : 0)
                .array();
      }
      parts.add(
          new SstFilter.Partition(
              sep,
              new BlockHandle(from, block.length),
              FilterBlockReader.read(block, chunk.size())));
    }
    return SstFilter.partitioned(
        "rocksdb.BuiltinBloomFilter",
        new BlockHandle(0, 1),
        parts.toArray(new SstFilter.Partition[0]),
        p,
        null);
  }

  private static List<byte[]> keys(int n) {
    List<byte[]> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      out.add(String.format("key%06d", i * 2).getBytes(StandardCharsets.UTF_8));
    }
    return out;
  }

  /** The number of absent keys (odd numbers) that some partition other than their own admits. */
  @Test
  void timestampedComparatorsRouteOnTheKeyWithoutTimestamp() {
    for (String cmp :
        new String[] {
          "leveldb.BytewiseComparator.u64ts", "rocksdb.ReverseBytewiseComparator.u64ts"
        }) {
      List<byte[]> keys = keys(4000);
      if (cmp.startsWith("rocksdb.Reverse")) {
        java.util.Collections.reverse(keys);
      }
      SstFilter f = partitioned(cmp, keys, 100, false);
      assertTrue(f.routesPartitions(), cmp);
      for (byte[] k : keys) {
        assertTrue(f.mayContain(k), cmp);
        // the partition holding it is the one routed to: its last key is the separator
      }
      int maybe = 0;
      int orMaybe = 0;
      for (int i = 0; i < 4000; i++) {
        byte[] absent = String.format("key%06d", i * 2 + 1).getBytes(StandardCharsets.UTF_8);
        maybe += f.mayContain(absent) ? 1 : 0;
        for (SstFilter.Partition p : f.partitions()) {
          if (p.block().mayContain(absent)) {
            orMaybe++;
            break;
          }
        }
      }
      // one partition per lookup: about 1% at 10 bits/key; ORing 40 partitions: far more
      assertTrue(maybe < 120, cmp + ": " + maybe);
      assertTrue(orMaybe > 3 * maybe, cmp + ": " + orMaybe + " vs " + maybe);
    }
  }

  @Test
  void separatorsWithNewerTimestampsAskTheNextPartitionToo() {
    // a separator's key with a timestamp above the minimum: RocksDB routes a read with an older
    // timestamp to the next partition, so a key equal to it must be "maybe" if either says so
    List<byte[]> keys = keys(400);
    SstFilter f = partitioned("leveldb.BytewiseComparator.u64ts", keys, 100, true);
    for (byte[] k : keys) {
      assertTrue(f.mayContain(k));
    }
    // the key equal to partition 0's separator, added only to partition 1's filter
    byte[] sep = keys.get(99);
    List<byte[]> shifted = new ArrayList<>(keys.subList(0, 99));
    Map<String, byte[]> props = new HashMap<>();
    props.put(
        TableProperties.COMPARATOR,
        "leveldb.BytewiseComparator.u64ts".getBytes(StandardCharsets.UTF_8));
    FilterPolicy policy = FilterPolicy.bloom(10);
    byte[] b0 = RocksDbTableFilter.filterBlock(policy, shifted);
    List<byte[]> second = new ArrayList<>();
    second.add(sep);
    second.addAll(keys.subList(100, 200));
    byte[] b1 = RocksDbTableFilter.filterBlock(policy, second);
    byte[] sepTs = ByteBuffer.allocate(sep.length + TS).put(sep).putLong(5).array();
    byte[] lastTs =
        ByteBuffer.allocate(keys.get(199).length + TS).put(keys.get(199)).putLong(0).array();
    SstFilter two =
        SstFilter.partitioned(
            "rocksdb.BuiltinBloomFilter",
            new BlockHandle(0, 1),
            new SstFilter.Partition[] {
              new SstFilter.Partition(
                  sepTs, new BlockHandle(0, b0.length), FilterBlockReader.read(b0, 99)),
              new SstFilter.Partition(
                  lastTs, new BlockHandle(1000, b1.length), FilterBlockReader.read(b1, 101))
            },
            new TableProperties(props, 0),
            null);
    assertFalse(FilterBlockReader.read(b0, 99).mayContain(sep), "pick a key partition 0 rejects");
    assertTrue(two.mayContain(sep));
  }

  @Test
  void unknownComparatorOrsThePartitionsAndSaysSo() {
    List<byte[]> keys = keys(1000);
    SstFilter f = partitioned("my.CustomComparator", keys, 100, false);
    assertFalse(f.routesPartitions());
    assertTrue(f.note().contains("custom comparator 'my.CustomComparator'"), f.note());
    for (byte[] k : keys) {
      assertTrue(f.mayContain(k));
    }
    for (int i = 0; i < 1000; i++) {
      byte[] absent = String.format("key%06d", i * 2 + 1).getBytes(StandardCharsets.UTF_8);
      boolean any = false;
      for (SstFilter.Partition p : f.partitions()) {
        any |= p.block().mayContain(absent);
      }
      assertEquals(any, f.mayContain(absent));
    }
  }
}
