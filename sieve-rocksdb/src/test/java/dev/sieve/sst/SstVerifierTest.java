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
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
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
 * flipped byte in a data block, which the filter report never reads, is found and named. The same
 * on tables compressed with Snappy, Zlib, LZ4, LZ4HC and ZSTD, whose index blocks RocksDB
 * compresses too: the verifier decompresses them; a compressed index that does not decompress is an
 * error naming it; an index in a compression Sieve does not decompress (BZip2) is verified and the
 * unreached data blocks are said to be unreached.
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

  /** The compressions RocksDB's Java build supports and Sieve decompresses. */
  static Stream<CompressionType> decompressed() {
    return Stream.of(
        CompressionType.SNAPPY_COMPRESSION,
        CompressionType.ZLIB_COMPRESSION,
        CompressionType.LZ4_COMPRESSION,
        CompressionType.LZ4HC_COMPRESSION,
        CompressionType.ZSTD_COMPRESSION);
  }

  /** A block reader over the file's bytes, as the verifier reads it. */
  private static SstFile.BlockReader reader(byte[] bytes, SstFile sst) {
    return new SstFile.BlockReader(
        (off, len) -> Arrays.copyOfRange(bytes, (int) off, (int) off + len), sst.footer());
  }

  /**
   * The index blocks (the index, then any partitions) as stored, so a test can tell that RocksDB
   * did compress them; partitions are found through the (decompressed) top-level index.
   */
  private static List<SstFile.BlockReader.Stored> storedIndexBlocks(Path f) throws Exception {
    byte[] bytes = Files.readAllBytes(f);
    SstFile sst = SstFile.open(f);
    SstFile.BlockReader r = reader(bytes, sst);
    BlockHandle index = sst.metaIndex().get("rocksdb.index");
    List<SstFile.BlockReader.Stored> out = new ArrayList<>();
    SstFile.BlockReader.Stored top = r.readStored(index, "index block");
    out.add(top);
    if (sst.properties().number("rocksdb.index.partitions").orElse(0) > 0) {
      byte[] contents =
          top.compressionType() == 0
              ? top.bytes()
              : BlockDecompressor.decompress(
                  top.compressionType(), top.bytes(), index.offset(), "index");
      for (KeyValueBlock.Entry e :
          KeyValueBlock.decode(
              contents,
              index.offset(),
              "index",
              true,
              sst.properties().indexValueIsDeltaEncoded())) {
        out.add(r.readStored(e.handle(), "partition"));
      }
    }
    return out;
  }

  @ParameterizedTest
  @MethodSource("decompressed")
  void reachesEveryDataBlockBehindACompressedIndex(CompressionType c) throws Exception {
    for (boolean partitioned : new boolean[] {false, true}) {
      Path f = write(c.name() + "-" + partitioned + ".sst", partitioned, c);
      List<SstFile.BlockReader.Stored> stored = storedIndexBlocks(f);
      long compressed = stored.stream().filter(b -> b.compressionType() == c.getValue()).count();
      // the test means something only if RocksDB did compress the index (it keeps a block
      // uncompressed when compression saves too little)
      assertTrue(compressed > 0, c + " partitioned=" + partitioned + ": no compressed index block");
      if (!partitioned) {
        assertEquals(c.getValue(), stored.get(0).compressionType(), c + ": the flat index");
      }
      SstVerifier.Result r = SstVerifier.verify(f);
      SstFile sst = SstFile.open(f);
      long rocksDataBlocks = sst.properties().number("rocksdb.num.data.blocks").getAsLong();
      assertTrue(rocksDataBlocks > 20, c + ": enough data blocks: " + rocksDataBlocks);
      assertEquals(rocksDataBlocks, r.dataBlocks(), c + " partitioned=" + partitioned);
      assertEquals(stored.size(), r.indexBlocks(), c + " partitioned=" + partitioned);
      if (partitioned) {
        assertEquals(
            1 + sst.properties().number("rocksdb.index.partitions").getAsLong(), r.indexBlocks());
      }
      assertNull(r.note(), r.note());
    }
  }

  @ParameterizedTest
  @MethodSource("decompressed")
  void aFlippedByteInADataBlockBehindACompressedIndexIsFound(CompressionType c) throws Exception {
    for (boolean partitioned : new boolean[] {false, true}) {
      Path f = write("flip-" + c.name() + "-" + partitioned + ".sst", partitioned, c);
      SstFile sst = SstFile.open(f);
      long dataEnd =
          sst.metaIndex().values().stream().mapToLong(BlockHandle::offset).min().getAsLong();
      byte[] bytes = Files.readAllBytes(f);
      int at = (int) (dataEnd / 2); // amid the (compressed) data blocks
      bytes[at] ^= 0x10;
      Files.write(f, bytes);
      SstFile.open(f); // the filter report does not read data blocks: it still opens
      SieveFormatException e =
          assertThrows(SieveFormatException.class, () -> SstVerifier.verify(f));
      assertTrue(
          e.getMessage().contains("data block at") && e.getMessage().contains("checksum mismatch"),
          c + ": " + e.getMessage());
      assertTrue(e.offset() <= at && e.offset() > at - 2048, c + ": offset " + e.offset());
    }
  }

  @Test
  void aCompressedIndexThatDoesNotDecompressIsAnErrorNamingIt() throws Exception {
    // a corrupt payload under a valid checksum (re-computed here), as a buggy writer would leave
    for (CompressionType c : decompressed().toList()) {
      Path f = write("bad-" + c.name() + ".sst", false, c);
      SstFile sst = SstFile.open(f);
      BlockHandle index = sst.metaIndex().get("rocksdb.index");
      byte[] bytes = Files.readAllBytes(f);
      int off = (int) index.offset();
      int size = (int) index.size();
      assertEquals(c.getValue(), bytes[off + size], c + ": the index is compressed");
      // keep the stated length (Snappy: its preamble; others: RocksDB's varint), garble the
      // payload after it: it cannot decompress to that length
      int lengthBytes = 0;
      while ((bytes[off + lengthBytes] & 0x80) != 0) {
        lengthBytes++;
      }
      lengthBytes++;
      byte[] target = bytes.clone();
      for (int i = off + lengthBytes; i < off + size; i++) {
        target[i] = (byte) 0xfe;
      }
      fixChecksum(target, sst, index);
      Files.write(f, target);
      SieveFormatException e =
          assertThrows(SieveFormatException.class, () -> SstVerifier.verify(f), c.name());
      assertTrue(
          e.getMessage().contains("index block")
              && e.getMessage().contains("corrupt")
              && e.getMessage().contains(BlockDecompressor.name(c.getValue())),
          c + ": " + e.getMessage());
      assertEquals(index.offset(), e.offset(), c + ": " + e.getMessage());
    }
  }

  /** Re-computes a block's checksum after its bytes were changed. */
  private static void fixChecksum(byte[] file, SstFile sst, BlockHandle h) {
    int off = (int) h.offset();
    int size = (int) h.size();
    byte[] block = Arrays.copyOfRange(file, off, off + size);
    int sum =
        sst.checksumType().blockChecksum(block, 0, size, file[off + size])
            + ChecksumType.contextModifier(sst.footer().baseContextChecksum(), h.offset());
    file[off + size + 1] = (byte) sum;
    file[off + size + 2] = (byte) (sum >>> 8);
    file[off + size + 3] = (byte) (sum >>> 16);
    file[off + size + 4] = (byte) (sum >>> 24);
  }

  @Test
  void anIndexInACompressionSieveDoesNotDecompressIsVerifiedAndTheUnreachedDataBlocksSaidSo()
      throws Exception {
    // BZip2: RocksDB's Linux Java build has it; Sieve does not decompress it
    Path f = write("bzip2.sst", false, CompressionType.BZLIB2_COMPRESSION);
    assertEquals(
        CompressionType.BZLIB2_COMPRESSION.getValue(),
        storedIndexBlocks(f).get(0).compressionType(),
        "a BZip2 table's index is compressed");
    SstVerifier.Result r = SstVerifier.verify(f);
    assertNotNull(r.note(), "data blocks behind a BZip2 index are not reached");
    assertTrue(
        r.note().contains("not reached") && r.note().contains("kBZip2Compression"), r.note());
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
