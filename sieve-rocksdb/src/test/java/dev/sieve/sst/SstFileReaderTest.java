package dev.sieve.sst;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sieve.policy.FilterPolicy;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The SST container reader on files rocksdbjni wrote: every format version RocksDB 11 writes (2 to
 * 7) with every checksum type, so the footer, block trailers, checksums (CRC32C, xxHash32,
 * xxHash64, XXH3, with and without the format_version ≥ 6 context) and the properties are checked
 * against the real thing.
 */
class SstFileReaderTest {
  @TempDir Path dir;

  @ParameterizedTest(name = "format_version {0}, {1}")
  @CsvSource({
    "2, kCRC32c", "3, kxxHash", "4, kxxHash64", "5, kXXH3", "5, kNoChecksum", "6, kCRC32c",
    "6, kxxHash", "6, kxxHash64", "6, kXXH3", "7, kXXH3", "7, kCRC32c", "7, kNoChecksum",
    "7, kxxHash64"
  })
  void readsEveryFormatVersionAndChecksumType(int fv, String checksum) throws Exception {
    Random rnd = new Random(fv * 31L + checksum.hashCode());
    List<byte[]> keys = RocksDbOracle.randomKeys(rnd, 3000, false, 40);
    RocksDbOracle.Spec spec =
        RocksDbOracle.Spec.bloom(10)
            .formatVersion(fv)
            .checksum(org.rocksdb.ChecksumType.valueOf(checksum));
    Path sst = RocksDbOracle.writeSst(dir, "t", keys, spec);
    SstFile f = SstFile.open(sst);
    assertEquals(fv, f.formatVersion());
    assertEquals(expected(checksum), f.checksumType());
    assertEquals(keys.size(), f.properties().numEntries());
    assertEquals("bloomfilter", f.properties().filterPolicy());
    assertTrue(f.metaIndex().containsKey("fullfilter.rocksdb.BuiltinBloomFilter"));
    SstFilter filter = f.filter();
    assertEquals(fv >= 5 ? FilterKind.FAST_LOCAL_BLOOM : FilterKind.LEGACY_BLOOM, filter.kind());
    assertFalse(filter.isPrefixFilter());
    assertEquals(f.properties().filterSize(), filter.filterBytes());
    assertEquals(fv >= 6, f.footer().indexHandle() == null);
    for (byte[] k : keys) {
      assertTrue(filter.mayContain(k));
    }
    if (fv < 5) {
      assertArrayEquals(
          RocksDbTableFilter.filterBlock(
              FilterPolicy.bloom(10), keys, fv, FilterPolicy.UNKNOWN_LEVEL),
          filter.fullBlock().bytes());
    }
  }

  private static ChecksumType expected(String name) {
    switch (name) {
      case "kNoChecksum":
        return ChecksumType.NONE;
      case "kCRC32c":
        return ChecksumType.CRC32C;
      case "kxxHash":
        return ChecksumType.XXHASH32;
      case "kxxHash64":
        return ChecksumType.XXHASH64;
      default:
        return ChecksumType.XXH3;
    }
  }

  @Test
  void prefixOnlyFilterIsReportedAsSuch() throws Exception {
    Random rnd = new Random(7);
    List<byte[]> keys = RocksDbOracle.randomKeys(rnd, 2000, true, 30);
    Path sst =
        RocksDbOracle.writeSst(dir, "p", keys, RocksDbOracle.Spec.bloom(10).prefix(3, false));
    SstFile f = SstFile.open(sst);
    assertEquals("rocksdb.FixedPrefix.3", f.properties().prefixExtractor());
    assertTrue(f.filter().isPrefixFilter());
    assertFalse(f.filter().isWholeKeyFilter());
    Path whole = RocksDbOracle.writeSst(dir, "w", keys, RocksDbOracle.Spec.bloom(10));
    assertNull(SstFile.open(whole).properties().prefixExtractor());
  }
}
