package dev.sieve.sst;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sieve.policy.FilterPolicy;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The filter-block dispatcher on every trailer case of RocksDB's reader, and the writer path. */
class FilterBlockReaderTest {
  private static final byte[] KEY = "some key".getBytes(StandardCharsets.UTF_8);

  private static List<byte[]> keys(int n) {
    List<byte[]> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      out.add(("k" + i).getBytes(StandardCharsets.UTF_8));
    }
    return out;
  }

  @Test
  void blocksOfAtMostFiveBytesAreAlwaysFalse() {
    for (int len = 0; len <= 5; len++) {
      FilterBlock b = FilterBlockReader.read(new byte[len], 0);
      assertEquals(FilterKind.ALWAYS_FALSE, b.kind());
      assertFalse(b.mayContain(KEY));
    }
  }

  @Test
  void zeroProbesReservedMarkersAndVariantsAreAlwaysTrue() {
    byte[] bloom = RocksDbTableFilter.filterBlock(FilterPolicy.bloom(10), keys(100));
    int t = bloom.length - 5;
    byte[][] variants = new byte[6][];
    for (int i = 0; i < variants.length; i++) {
      variants[i] = bloom.clone();
    }
    variants[0][t] = 0; // zero probes
    variants[1][t] = -3; // reserved marker
    variants[2][t + 1] = 1; // newer Bloom, unknown sub-implementation
    variants[3][t + 2] = (byte) (1 << 5 | 6); // 128-byte blocks
    variants[4][t + 3] = 1; // reserved bytes (a future hash seed)
    variants[5][t + 2] = 31; // reserved probe count
    for (byte[] v : variants) {
      FilterBlock b = FilterBlockReader.read(v, 100);
      assertEquals(FilterKind.ALWAYS_TRUE, b.kind());
      assertTrue(b.mayContain(KEY));
      assertTrue(b.mayContainHash(42));
    }
    byte[] ribbon = new byte[64 + 5];
    ribbon[64] = -2;
    ribbon[66] = 1; // one block
    assertEquals(FilterKind.ALWAYS_TRUE, FilterBlockReader.read(ribbon, 1).kind());
    byte[] legacy = new byte[64 * 3 + 5];
    legacy[192] = 6;
    legacy[193] = 2; // 2 lines do not divide 192 bytes into power-of-two lines
    assertEquals(FilterKind.ALWAYS_TRUE, FilterBlockReader.read(legacy, 1).kind());
  }

  @Test
  void eachFormatIsRecognisedAndHoldsItsKeys() {
    List<byte[]> keys = keys(3000);
    byte[] bloom = RocksDbTableFilter.filterBlock(FilterPolicy.bloom(10), keys);
    byte[] ribbon = RocksDbTableFilter.filterBlock(FilterPolicy.ribbon(10, 0), keys);
    byte[] legacy =
        RocksDbTableFilter.filterBlock(FilterPolicy.bloom(10), keys, 4, FilterPolicy.UNKNOWN_LEVEL);
    assertEquals(FilterKind.FAST_LOCAL_BLOOM, FilterBlockReader.read(bloom, 3000).kind());
    assertEquals(6, FilterBlockReader.read(bloom, 3000).numProbes());
    assertEquals(FilterKind.RIBBON, FilterBlockReader.read(ribbon, 3000).kind());
    assertEquals(FilterKind.LEGACY_BLOOM, FilterBlockReader.read(legacy, 3000).kind());
    assertEquals(6, FilterBlockReader.read(legacy, 3000).numProbes());
    for (byte[] block : new byte[][] {bloom, ribbon, legacy}) {
      FilterBlock b = FilterBlockReader.read(block, keys.size());
      assertArrayEquals(block, b.bytes());
      for (byte[] k : keys) {
        assertTrue(b.mayContain(k));
      }
      assertTrue(b.modelledFpRate() > 0 && b.modelledFpRate() < 0.05, b.toString());
    }
  }

  @Test
  void kindsMapToTheRegistryOnce() {
    assertEquals(
        dev.sieve.registry.FilterType.BLOCKED_BLOOM, FilterKind.FAST_LOCAL_BLOOM.filterType());
    assertEquals(dev.sieve.registry.FilterType.RIBBON, FilterKind.RIBBON.filterType());
    for (FilterKind k : FilterKind.values()) {
      assertTrue(k.filterType() == null || k.filterType().isRocksDbCompatible(), k.label());
      assertEquals(k == FilterKind.FAST_LOCAL_BLOOM || k == FilterKind.LEGACY_BLOOM, k.isBloom());
    }
    assertEquals(null, FilterKind.LEGACY_BLOOM.filterType());
  }

  @Test
  void policyRules() {
    assertTrue(RocksDbOptions.filterPolicy("bloom:0.4").isEmpty(), "below 0.5: no filter");
    assertThrows(IllegalArgumentException.class, () -> FilterPolicy.bloom(0.4));
    assertEquals(1000, FilterPolicy.bloom(0.7).millibitsPerKey());
    assertEquals(100_000, FilterPolicy.bloom(250).millibitsPerKey());
    assertEquals(9_877, FilterPolicy.bloom(9.8765).millibitsPerKey());
    assertEquals(0, RocksDbTableFilter.filterBlock(FilterPolicy.bloom(10), List.of()).length);
    assertEquals(0, RocksDbTableFilter.filterBlock(FilterPolicy.ribbon(10, 0), List.of()).length);
    assertEquals(
        0,
        RocksDbTableFilter.filterBlock(
                FilterPolicy.bloom(10), List.of(), 3, FilterPolicy.UNKNOWN_LEVEL)
            .length);
    assertEquals(
        FilterPolicy.ribbon(7.5, 3), RocksDbOptions.filterPolicy("ribbon:7.5:3").orElseThrow());
    assertEquals(
        FilterPolicy.bloom(10), RocksDbOptions.filterPolicy("bloomfilter:10").orElseThrow());
    for (String bad : new String[] {"", "bloom", "bloom:x", "bloom:1:2", "xor:8", "ribbon:-1"}) {
      assertThrows(IllegalArgumentException.class, () -> RocksDbOptions.filterPolicy(bad), bad);
    }
    // bloom_before_level: a flush (level -1) below level 0 is Bloom; the SstFileWriter level Ribbon
    List<byte[]> k = keys(5000);
    FilterPolicy p = FilterPolicy.ribbon(10, 0);
    byte[] flush = RocksDbTableFilter.filterBlock(p, k, 7, FilterPolicy.FLUSH);
    assertEquals(-1, flush[flush.length - 5]);
    assertArrayEquals(RocksDbTableFilter.filterBlock(FilterPolicy.bloom(10), k), flush);
    byte[] sst = RocksDbTableFilter.filterBlock(p, k, 7, FilterPolicy.UNKNOWN_LEVEL);
    assertEquals(-2, sst[sst.length - 5]);
    byte[] always = RocksDbTableFilter.filterBlock(FilterPolicy.ribbon(10, Integer.MAX_VALUE), k);
    assertEquals(-1, always[always.length - 5]);
  }

  /** RocksDB util/hash_test.cc (TEST(HashTest, Values)): {@code Hash(data, n, 0xbc9f1d34)}. */
  @org.junit.jupiter.params.ParameterizedTest(name = "hash of [{0}]")
  @org.junit.jupiter.params.provider.CsvSource({
    "'', 3164544308",
    "08, 422599524",
    "9a, 3195034349",
    "4d76, 2447836956",
    "91f7, 31066776",
    "30460b, 3808221797",
    "d45233, 1721992661",
    "6753811c, 118283265",
    "46dc54be, 447346355",
    "d07a6eea56, 4255445370",
    "6ca8bce599, 2177978500",
    "5c5ee1a07381, 1036846008",
    "73e1ff569cce, 3502708029",
  })
  void legacyHashMatchesRocksDbGoldenValues(String hex, long expected) {
    byte[] b = new byte[hex.length() / 2];
    for (int i = 0; i < b.length; i++) {
      b[i] = (byte) Integer.parseInt(hex.substring(2 * i, 2 * i + 2), 16);
    }
    assertEquals((int) expected, LegacyLocalityBloomFilter.bloomHash(b, 0, b.length));
  }
}
