package dev.sieve.sst;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sieve.SieveFormatException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rocksdb.BlockBasedTableConfig;
import org.rocksdb.BloomFilter;
import org.rocksdb.CompressionType;
import org.rocksdb.EnvOptions;
import org.rocksdb.IndexType;
import org.rocksdb.Options;
import org.rocksdb.RocksDB;
import org.rocksdb.SstFileWriter;

/**
 * {@link SstVerifier} on tables written by rocksdbjni: every data block is reached (the count
 * matches RocksDB's {@code rocksdb.num.data.blocks}), with a flat and a partitioned index; a
 * flipped byte in a data block, which the filter report never reads, is found and named; a
 * compressed index is verified and the unreached data blocks are said to be unreached.
 */
class SstVerifierTest {
  @TempDir Path dir;

  static {
    RocksDB.loadLibrary();
  }

  private Path write(String name, boolean partitionedIndex, CompressionType compression)
      throws Exception {
    Path file = dir.resolve(name);
    BlockBasedTableConfig t =
        new BlockBasedTableConfig().setFilterPolicy(new BloomFilter(10)).setBlockSize(1024);
    if (partitionedIndex) {
      t.setIndexType(IndexType.kTwoLevelIndexSearch).setPartitionFilters(true);
      t.setMetadataBlockSize(256);
    }
    try (Options o = new Options().setTableFormatConfig(t).setCompressionType(compression);
        EnvOptions env = new EnvOptions();
        SstFileWriter w = new SstFileWriter(env, o)) {
      w.open(file.toString());
      for (int i = 0; i < 3000; i++) {
        w.put(
            String.format(Locale.ROOT, "key:%06d", i).getBytes(StandardCharsets.UTF_8),
            String.format(Locale.ROOT, "value-%06d-padding", i).getBytes(StandardCharsets.UTF_8));
      }
      w.finish();
    }
    return file;
  }

  @Test
  void reachesEveryDataBlockOfAFlatIndex() throws Exception {
    Path f = write("flat.sst", false, CompressionType.NO_COMPRESSION);
    SstVerifier.Result r = SstVerifier.verify(f);
    long rocksDataBlocks =
        SstFile.open(f).properties().number("rocksdb.num.data.blocks").getAsLong();
    assertTrue(rocksDataBlocks > 50, "enough blocks to mean something: " + rocksDataBlocks);
    assertEquals(rocksDataBlocks, r.dataBlocks());
    assertEquals(1, r.indexBlocks());
    assertNull(r.note());
  }

  @Test
  void reachesEveryDataBlockOfAPartitionedIndex() throws Exception {
    Path f = write("partitioned.sst", true, CompressionType.NO_COMPRESSION);
    SstVerifier.Result r = SstVerifier.verify(f);
    SstFile sst = SstFile.open(f);
    assertEquals(sst.properties().number("rocksdb.num.data.blocks").getAsLong(), r.dataBlocks());
    assertEquals(
        1 + sst.properties().number("rocksdb.index.partitions").getAsLong(), r.indexBlocks());
    assertTrue(r.filterBlocks() > 2, "filter partitions counted: " + r.filterBlocks());
    assertNull(r.note());
  }

  @Test
  void aFlippedByteInADataBlockIsFoundAndNamed() throws Exception {
    for (boolean partitioned : new boolean[] {false, true}) {
      Path f = write("flip-" + partitioned + ".sst", partitioned, CompressionType.NO_COMPRESSION);
      byte[] bytes = Files.readAllBytes(f);
      bytes[2000] ^= 0x01; // inside the data blocks (1 KiB each), far from the filter and index
      Files.write(f, bytes);
      SstFile.open(f); // the filter report does not read data blocks: it still opens
      SieveFormatException e =
          assertThrows(SieveFormatException.class, () -> SstVerifier.verify(f));
      assertTrue(
          e.getMessage().contains("data block at") && e.getMessage().contains("checksum mismatch"),
          e.getMessage());
      assertTrue(e.offset() <= 2000 && e.offset() > 0, "offset " + e.offset());
    }
  }

  @Test
  void aCompressedIndexIsVerifiedAndTheUnreachedDataBlocksSaidSo() throws Exception {
    // RocksDB compresses the index block too (enable_index_compression defaults to true)
    Path f = write("lz4.sst", false, CompressionType.LZ4_COMPRESSION);
    SstVerifier.Result r = SstVerifier.verify(f);
    assertNotNull(r.note(), "an LZ4 table's index is compressed");
    assertTrue(r.note().contains("not reached"), r.note());
    assertEquals(0, r.dataBlocks());
    assertEquals(1, r.indexBlocks());
    // its checksum is still verified: a flipped byte in the index block is found
    SstFile sst = SstFile.open(f);
    BlockHandle index = sst.metaIndex().get("rocksdb.index");
    byte[] bytes = Files.readAllBytes(f);
    bytes[(int) index.offset() + 1] ^= 0x01;
    Files.write(f, bytes);
    SieveFormatException e = assertThrows(SieveFormatException.class, () -> SstVerifier.verify(f));
    assertTrue(e.getMessage().contains("index block"), e.getMessage());
  }

  @Test
  void aTruncatedFileIsCalledTruncated() throws Exception {
    Path f = write("cut.sst", false, CompressionType.NO_COMPRESSION);
    byte[] bytes = Files.readAllBytes(f);
    Files.write(f, java.util.Arrays.copyOf(bytes, bytes.length / 2));
    SieveFormatException e = assertThrows(SieveFormatException.class, () -> SstFile.open(f));
    assertTrue(e.getMessage().contains("truncated"), e.getMessage());
    Files.write(f, java.util.Arrays.copyOf(bytes, 20));
    e = assertThrows(SieveFormatException.class, () -> SstFile.open(f));
    assertTrue(e.getMessage().contains("truncated"), e.getMessage());
  }
}
