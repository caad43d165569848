package dev.sieve.ribbon;

import static dev.sieve.testing.RocksDbTestKeys.packedMatches;
import static dev.sieve.testing.RocksDbTestKeys.weirdFill;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.sieve.hash.KeyHash;
import org.junit.jupiter.api.Test;

/**
 * Golden values for Standard128Ribbon from RocksDB's own code and tests (util/bloom_test.cc at
 * 1dfa729, {@code RawSchema}, {@code CorruptFilters}; util/ribbon_config.cc's sizing): the sizing
 * tables, blocks RocksDB's tests fill by hand and the corrupt blocks RocksDB still reads. They hash
 * real keys with XXPH3, so they run once {@link KeyHash} is available and are skipped, saying so,
 * before. What RocksDB's Ribbon policy writes for a key set (Ribbon or its Bloom fallback) is
 * sieve-rocksdb's {@code dev.sieve.policy.RibbonLevelGoldenTest}.
 */
class RibbonRocksDbGoldenTest {

  private static boolean keyHashAvailable() {
    try {
      KeyHash.hash64(new byte[] {1});
      return true;
    } catch (UnsupportedOperationException e) {
      return false;
    }
  }

  @Test
  void rocksDbSizingTables() {
    // RoundUpNumSlots(GetNumSlots(n)) from RocksDB's code (kOneIn20, 128-bit rows, no smash)
    int[][] slots = {
      {1, 256},
      {100, 256},
      {200, 256},
      {248, 256},
      {249, 384},
      {250, 384},
      {500, 640},
      {1000, 1024},
      {1001, 1024},
      {1002, 1152},
      {2000, 2048},
      {5000, 5120},
      {10000, 10368},
      {100000, 103552},
      {131072, 135936},
      {200000, 207872},
      {1000000, 1047552},
      {10000000, 10604800},
      {100000000, 107313920},
      {950000000, 1031068672},
    };
    for (int[] row : slots) {
      assertEquals(row[1], RibbonSizing.numSlotsForKeys(row[0]), "slots for " + row[0] + " keys");
    }
    // GetBytesForOneInFpRate(slots, one_in, bias) from RocksDB's code
    assertEquals(224, RibbonSizing.bytesForOneInFpRate(256, 105.3, 0));
    assertEquals(224, RibbonSizing.bytesForOneInFpRate(256, 105.3, -1));
    assertEquals(880, RibbonSizing.bytesForOneInFpRate(1024, 105.3, Integer.MIN_VALUE));
    assertEquals(88368, RibbonSizing.bytesForOneInFpRate(104192, 105.3, 12345));
    assertEquals(224, RibbonSizing.bytesForOneInFpRate(2560, 1.5, 0));
    assertEquals(10240, RibbonSizing.bytesForOneInFpRate(2560, 4294967296.0, 0));
    assertEquals(10240, RibbonSizing.bytesForOneInFpRate(2560, 1e12, 7));
    assertEquals(16, RibbonSizing.bytesForOneInFpRate(2560, 1.0, 7));
    // desired_one_in_fp_rate_ of BloomLikeFilterPolicy, from RocksDB's code
    double[][] oneIn = {
      {1, 1.5828764599687017}, {2, 2.5434086178920716}, {5, 10.788342018508663},
      {9.5, 84.895513899131657}, {10, 104.90235348782818}, {16, 1255.0532086126823},
      {20, 5852.5401038396503}, {30, 176754.09297602403}, {50, 160480108.99739671},
      {100, 12965515550269.635},
    };
    for (double[] row : oneIn) {
      double got = RibbonSizing.oneInFpRateForBloomBitsPerKey(row[0]);
      assertEquals(row[1], got, row[1] * 1e-13, "one-in-FP at " + row[0] + " bits/key");
    }
  }

  // ---------------------------------------------------------------- bloom_test.cc, real keys

  @Test
  void readsRocksDbRawSchemaBlocks() {
    assumeTrue(keyHashAvailable(), "KeyHash (XXPH3, branch hash) not on this branch yet");
    // 256 slots, one result column = 32 bytes (2 blocks, seed 0), ~50% FP rate
    Standard128RibbonFilter one =
        Standard128RibbonFilter.fromRocksDbFilterBlock(
            weirdFill(32, new byte[] {(byte) 0xFE, 0, 2, 0, 0}));
    assertEquals(1, one.upperNumColumns());
    assertEquals(Long.parseUnsignedLong("6193930559317665002"), packedMatches(one));
    // 256 slots, three-to-four result columns = 112 bytes, ~ 1 in 10 FP rate
    Standard128RibbonFilter seven =
        Standard128RibbonFilter.fromRocksDbFilterBlock(
            weirdFill(112, new byte[] {(byte) 0xFE, 0, 2, 0, 0}));
    assertEquals(4, seven.upperNumColumns());
    assertEquals(1, seven.upperStartBlock());
    assertEquals(9007200345328128L, packedMatches(seven));
  }

  @Test
  void rocksDbCorruptFiltersRibbonCases() {
    assumeTrue(keyHashAvailable(), "KeyHash (XXPH3, branch hash) not on this branch yet");
    byte[] hello = "hello".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    byte[] world = "world".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    // Good: 2 blocks * 16 bytes / segment * 4 columns = 128 bytes, seed 123, all zero
    for (int len : new int[] {128, 256}) {
      Standard128RibbonFilter good =
          Standard128RibbonFilter.fromRocksDbFilterBlock(
              zeroBlock(len, new byte[] {(byte) 0xFE, 123, 2, 0, 0}));
      assertFalse(good.mayContain(hello));
      assertFalse(good.mayContain(world));
    }
    // Surprisingly OK: 5000 blocks (640,000 slots) in only 1024 bits: almost all FPs
    Standard128RibbonFilter sparse =
        Standard128RibbonFilter.fromRocksDbFilterBlock(
            zeroBlock(
                128, new byte[] {(byte) 0xFE, 123, (byte) (5000 & 255), (byte) (5000 >> 8), 0}));
    assertTrue(sparse.mayContain(hello));
    assertTrue(sparse.mayContain(world));
    int i = 0;
    while (sparse.mayContain(
        Integer.toString(i).getBytes(java.nio.charset.StandardCharsets.US_ASCII))) {
      assertTrue(i < 1000, "RocksDB finds a true negative within 1000 queries");
      i++;
    }
    assertNotEquals(0, i);
  }

  static byte[] zeroBlock(int dataLen, byte[] trailer) {
    byte[] b = new byte[dataLen + 5];
    System.arraycopy(trailer, 0, b, dataLen, 5);
    return b;
  }
}
