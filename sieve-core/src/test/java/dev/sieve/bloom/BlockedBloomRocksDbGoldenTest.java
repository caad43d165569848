package dev.sieve.bloom;

import static dev.sieve.testing.RocksDbTestKeys.bloomHash;
import static dev.sieve.testing.RocksDbTestKeys.firstFalsePositives;
import static dev.sieve.testing.RocksDbTestKeys.keys;
import static dev.sieve.testing.RocksDbTestKeys.packedMatches;
import static dev.sieve.testing.RocksDbTestKeys.weirdFill;
import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * RocksDB's own golden values for FastLocalBloom, from util/bloom_test.cc ({@code
 * FullBloomTest.Schema} with {@code optimize_filters_for_memory = false}, and {@code RawSchema}):
 * the probe count, the 32-bit {@code BloomHash} of the whole filter block, and the first false
 * positives among {@code Key(1000000 + i)}. Any difference in the key hash, the block choice, the
 * probe sequence, the sizing or the trailer changes the block hash.
 */
class BlockedBloomRocksDbGoldenTest {

  @ParameterizedTest(name = "bits/key {0}, keys [{1}, {2})")
  @CsvSource(
      delimiter = ';',
      value = {
        "5; 0; 87; 3; 4130687756; 31,38,40,43,61,83,86,112,125,131",
        "2; 0; 2087; 1; 3817481309; 11,13,17,25,29,30,35,37,45,53",
        "3; 0; 2087; 2; 2807269961; 4,15,17,24,27,28,29,53,63,70",
        "5; 0; 2087; 3; 204628445; 15,24,29,39,53,87,89,100,103,104",
        "8; 0; 2087; 5; 355564975; 16,60,66,126,220,238,244,256,265,287",
        "9; 0; 2087; 6; 2137566013; 156,367,791,872,945,1015,1139,1159,1265",
        "11; 0; 2087; 7; 2561502687; 34,74,130,236,643,882,962,1015,1035,1110",
        "14; 0; 2087; 8; 3709876890; 130,240,522,565,989,2002,2526,3147,3543",
        "16; 0; 2087; 9; 1087138490; 3299,3611,3916,6620,7822,8079,8482,8942",
        "10; 0; 2087; 6; 2498541272; 16,126,133,422,466,472,813,1002,1035",
        "10; 1; 2087; 6; 2058382345; 16,126,133,422,466,472,813,1002,1035",
        "10; 1; 2088; 6; 23699164; 16,126,133,422,466,472,813,1002,1035",
        "9.5; 1; 2088; 6; 3166884174; 126,156,367,444,458,791,813,976,1015",
        "10.499; 1; 2088; 7; 4098502778; 16,236,240,472,1015,1045,1111,1409,1465",
      })
  void matchesRocksDbSchema(
      double bitsPerKey, int from, int to, int probes, long blockHash, String firstFps) {
    BlockedBloomFilter filter =
        BlockedBloomFilter.builder().bitsPerKey(bitsPerKey).build(keys(from, to));
    byte[] block = filter.toRocksDbFilterBlock();
    assertEquals(probes, filter.numProbes());
    assertEquals(probes, block[block.length - 3]);
    assertEquals(blockHash, Integer.toUnsignedLong(bloomHash(block)));
    int expectedCount = firstFps.split(",").length;
    assertEquals(firstFps, firstFalsePositives(filter, expectedCount));
    // the reader gives back the same filter
    BlockedBloomFilter read = BlockedBloomFilter.fromRocksDbFilterBlock(block);
    assertEquals(firstFps, firstFalsePositives(read, expectedCount));
  }

  @Test
  void readsRocksDbRawSchemaBlock() {
    // RawSchema: four 64-byte lines of weird fill, trailer FF 00 02 00 00 (two probes)
    byte[] block = weirdFill(256, new byte[] {(byte) 0xFF, 0, 2, 0, 0});
    BlockedBloomFilter filter = BlockedBloomFilter.fromRocksDbFilterBlock(block);
    assertEquals(2, filter.numProbes());
    assertEquals(4, filter.numBlocks());
    assertEquals(Long.parseUnsignedLong("9957045189927952471"), packedMatches(filter));
  }
}
