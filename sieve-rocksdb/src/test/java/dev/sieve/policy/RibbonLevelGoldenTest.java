package dev.sieve.policy;

import static dev.sieve.testing.RocksDbTestKeys.bloomHash;
import static dev.sieve.testing.RocksDbTestKeys.firstFalsePositives;
import static dev.sieve.testing.RocksDbTestKeys.keys;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sieve.Filter;
import dev.sieve.bloom.BlockedBloomFilter;
import dev.sieve.ribbon.Standard128RibbonFilter;
import dev.sieve.testing.SplitMix64;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Golden values for a Ribbon level of RocksDB's Ribbon policy ({@code ribbonfilter:B:-1} with
 * {@code optimize_filters_for_memory} off): the Ribbon filter it writes, or its FastLocalBloom
 * fallback, byte for byte. Two kinds.
 *
 * <p><b>RocksDB's own test values</b> (util/bloom_test.cc at 1dfa729, {@code FullBloomTest.Schema}
 * with {@code optimize_filters_for_memory = false}): the seed stored in the trailer, the legacy
 * 32-bit {@code BloomHash} of the whole block and the first false positives among {@code
 * Key(1000000 + i)}.
 *
 * <p><b>Values computed by RocksDB's own code over synthetic hashes</b>: a harness compiled from
 * RocksDB's util/ribbon_impl.h, util/ribbon_alg.h, util/ribbon_config.cc and util/bloom_impl.h
 * (same commit), driving them exactly as {@code Standard128RibbonBitsBuilder::Finish} does
 * (sanitize, one-in-FP, slots, bytes with the first hash's rounding bias, Bloom comparison, {@code
 * ResetAndFindSeedToSolve} from {@code lower32 & 255} with mask 255, back-substitution, trailer,
 * FastLocalBloom fallback), over {@link SplitMix64} hashes. The same harness reproduces every
 * Ribbon value of bloom_test's {@code Schema}, which validates its glue. Each row gives the block
 * length, trailer marker (−2 Ribbon, −1 Bloom fallback), seed, {@code BloomHash} of the block and
 * how many of the next 100,000 stream hashes the filter reports present (which pins the query path
 * too). The sizing tables and the raw Ribbon blocks are sieve-core's {@code
 * RibbonRocksDbGoldenTest}.
 */
class RibbonLevelGoldenTest {

  private static byte[] blockOf(Filter f) {
    if (f instanceof Standard128RibbonFilter) {
      return ((Standard128RibbonFilter) f).toRocksDbFilterBlock();
    }
    return ((BlockedBloomFilter) f).toRocksDbFilterBlock();
  }

  private static void assertGolden(
      Filter f,
      SplitMix64 rnd,
      long[] hashes,
      int count,
      int length,
      int marker,
      int seed,
      long blockHash,
      int positives) {
    byte[] block = blockOf(f);
    assertEquals(length, block.length, "block length");
    assertEquals(marker, block[length - 5], "marker");
    if (marker == -2) {
      assertEquals(seed, block[length - 4] & 0xFF, "seed");
      assertEquals(seed, ((Standard128RibbonFilter) f).seed());
    }
    assertEquals(blockHash, Integer.toUnsignedLong(bloomHash(block)), "BloomHash of the block");
    int found = 0;
    for (int i = 0; i < 100_000; i++) {
      if (f.mayContainHash(rnd.next())) {
        found++;
      }
    }
    assertEquals(positives, found, "positives among the next 100000 hashes");
    for (int i = 0; i < count; i++) {
      assertTrue(f.mayContainHash(hashes[i]), "false negative");
    }
    if (marker == -2) {
      // the reader gives back an identical filter
      assertEquals(f, Standard128RibbonFilter.fromRocksDbFilterBlock(block));
    }
  }

  @ParameterizedTest(name = "stream {0}: {1} keys @ {2} b/k, dup every {3}")
  @CsvSource({
    // stream, keys, bits/key, dupEvery, length, marker, seed, BloomHash, positives
    "11, 1, 10, 0, 69, -1, 0, 1317445026, 0",
    "12, 2, 10, 0, 69, -1, 0, 2753696244, 0",
    "13, 40, 10, 0, 69, -1, 0, 479139674, 245",
    "14, 100, 10, 0, 133, -1, 0, 69482594, 859",
    "15, 150, 7, 0, 165, -2, 5, 1914942170, 3111",
    "16, 250, 10, 0, 325, -1, 0, 331813479, 797",
    "17, 400, 20, 0, 821, -2, 99, 2504537692, 17",
    "18, 700, 10, 0, 661, -2, 50, 1523156334, 902",
    "19, 1000, 10, 0, 885, -2, 68, 1277392192, 862",
    "20, 1000, 2, 0, 197, -2, 140, 179082811, 39222",
    "21, 1500, 4.4, 0, 613, -2, 199, 1004172927, 12028",
    "22, 2087, 10, 0, 1861, -2, 10, 3511207048, 910",
    "23, 4000, 1, 0, 389, -2, 214, 3636497376, 62817",
    "24, 10000, 10, 0, 8805, -2, 68, 2399944071, 1007",
    "25, 10000, 6.667, 0, 6021, -2, 9, 493641698, 4226",
    "26, 30000, 14, 0, 35573, -2, 218, 3462150115, 167",
    "27, 65536, 10, 0, 57397, -2, 138, 1574689456, 914",
    "28, 100000, 25, 0, 195157, -2, 108, 3470416964, 4",
    "29, 200000, 10, 0, 176181, -2, 112, 4043744412, 971",
    "30, 5000, 100, 0, 20485, -2, 206, 2378533442, 0",
    "31, 3000, 0.7, 0, 293, -2, 234, 887022776, 63256",
    "32, 5000, 10, 1, 8805, -2, 1, 3225439300, 923",
    "33, 5000, 10, 7, 5013, -2, 168, 1316079892, 922",
    "34, 127, 60, 0, 965, -1, 0, 210815905, 0",
    "35, 12345, 12.5, 0, 13221, -2, 91, 1388813336, 337",
    "77, 1000000, 10, 0, 887797, -2, 129, 2839273826, 940",
    // boundaries: 248 keys fit 256 slots (Ribbon smaller), 249 need 384 (Bloom smaller)
    "5248, 248, 10, 0, 229, -2, 9, 2159886207, 796",
    "5249, 249, 10, 0, 325, -1, 0, 3406930809, 741",
    "5998, 998, 7.5, 0, 693, -2, 98, 2799234392, 2616",
    "6002, 1002, 12.25, 0, 1205, -2, 124, 2757914349, 325",
    "51341, 46341, 10, 0, 40581, -2, 184, 2469885166, 934",
    "97681, 92681, 7.5, 0, 61925, -2, 80, 558348150, 2907",
    "1006, 227, 97.248, 0, 1029, -2, 69, 4089126203, 0",
    "1009, 2071, 96.871, 0, 8709, -2, 138, 1867751103, 0",
  })
  void matchesRocksDbCodeOverSyntheticHashes(
      long stream,
      int n,
      double bitsPerKey,
      int dupEvery,
      int length,
      int marker,
      int seed,
      long blockHash,
      int positives) {
    SplitMix64 rnd = new SplitMix64(stream);
    int[] count = new int[1];
    long[] hashes = SplitMix64.stream(rnd, n, dupEvery, count);
    Filter f = RocksDbBuilds.ribbonLevel(hashes, count[0], bitsPerKey);
    Class<?> expectedType = marker == -2 ? Standard128RibbonFilter.class : BlockedBloomFilter.class;
    assertInstanceOf(expectedType, f);
    assertGolden(f, rnd, hashes, count[0], length, marker, seed, blockHash, positives);
  }

  /**
   * The build-failure path, against RocksDB: stream 42 forced into 1024 slots (8 blocks) instead of
   * RocksDB's size. The first seed tried is {@code lower32(first hash) & 255 = 149}; with 1016 keys
   * it solves, with more keys RocksDB's {@code ResetAndFindSeedToSolve} needs 1, 6, 20 and 71
   * retries, and with 1030 keys (more equations than unknowns) all 256 seeds fail and RocksDB
   * writes the FastLocalBloom fallback.
   */
  @ParameterizedTest(name = "{0} keys in 1024 slots")
  @CsvSource({
    "1016, 885, -2, 149, 129764862, 860",
    "1018, 885, -2, 150, 632439134, 910",
    "1020, 885, -2, 155, 2255194991, 912",
    "1022, 885, -2, 169, 2505409092, 909",
    "1024, 885, -2, 220, 3140126552, 895",
    "1030, 1349, -1, 0, 33344671, 794",
  })
  void seedRetriesAndBloomFallbackMatchRocksDb(
      int n, int length, int marker, int seed, long blockHash, int positives) {
    SplitMix64 rnd = new SplitMix64(42);
    int[] count = new int[1];
    long[] hashes = SplitMix64.stream(rnd, n, 0, count);
    assertEquals(149, (int) hashes[0] & 255, "first seed tried");
    Filter f = RocksDbBuilds.ribbonAtSlots(hashes, n, 10.0, 1024, false);
    assertGolden(f, rnd, hashes, n, length, marker, seed, blockHash, positives);
  }

  @ParameterizedTest(name = "bits/key {0}, keys [{1}, {2})")
  @CsvSource(
      delimiter = ';',
      value = {
        "2; 0; 2087; 61; 1705851228; 3,8,10,17,19,20,23,28,31,32",
        "3; 0; 2087; 61; 1095342358; 3,17,20,28,32,33,36,43,49,54",
        "5; 0; 2087; 61; 3971337699; 3,33,36,43,67,70,76,78,84,102",
        "8; 0; 2087; 61; 3651449053; 33,187,203,296,300,322,411,419,547,582",
        "9; 0; 2087; 61; 1005676675; 33,187,203,296,411,419,604,612,615,619",
        "11; 0; 2087; 61; 3129900846; 411,419,623,665,727,794,955,1052,1323,1330",
        "14; 0; 2087; 61; 1855638875; 665,727,1323,1755,3866,4232,4442,4492,4736",
        "16; 0; 2087; 61; 459379967; 727,1323,1755,4442,4736,5386,6974,7154,8222",
        "10; 0; 2087; 61; 1273231667; 296,411,419,612,619,623,630,665,686,727",
        "10; 1; 2087; 184; 3007790572; 33,152,383,497,589,633,737,781,911,990",
        "10; 1; 2088; 184; 1942323379; 33,95,360,589,737,911,990,1048,1081,1414",
        "9.5; 1; 2088; 184; 1148258663; 33,54,95,360,589,693,737,911,990,1048",
        "10.499; 1; 2088; 184; 792138188; 33,95,360,589,737,990,1048,1081,1414,1643",
      })
  void matchesRocksDbSchema(
      double bitsPerKey, int from, int to, int seed, long blockHash, String firstFps) {
    Filter f = RocksDbBuilds.ribbonLevel(keys(from, to), bitsPerKey);
    Standard128RibbonFilter ribbon = assertInstanceOf(Standard128RibbonFilter.class, f);
    byte[] block = ribbon.toRocksDbFilterBlock();
    assertEquals(seed, ribbon.seed());
    assertEquals(blockHash, Integer.toUnsignedLong(bloomHash(block)));
    int expectedCount = firstFps.split(",").length;
    assertEquals(firstFps, firstFalsePositives(ribbon, expectedCount));
    assertEquals(
        firstFps,
        firstFalsePositives(Standard128RibbonFilter.fromRocksDbFilterBlock(block), expectedCount));
  }

  @Test
  void schemaSmallKeySetFallsBackToTheSameBloomFilter() {
    // 87 keys at 5 bits/key: RocksDB's Ribbon builder writes the FastLocalBloom filter
    Filter f = RocksDbBuilds.ribbonLevel(keys(0, 87), 5);
    BlockedBloomFilter bloom = assertInstanceOf(BlockedBloomFilter.class, f);
    assertEquals(3, bloom.numProbes());
    assertEquals(4130687756L, Integer.toUnsignedLong(bloomHash(bloom.toRocksDbFilterBlock())));
    assertEquals("31,38,40,43,61,83,86,112,125,131", firstFalsePositives(bloom, 10));
  }
}
