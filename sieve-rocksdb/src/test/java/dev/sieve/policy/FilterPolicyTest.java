package dev.sieve.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sieve.RocksDbFilter;
import dev.sieve.bloom.BlockedBloomFilter;
import dev.sieve.policy.FilterPolicy.CompactionStyle;
import dev.sieve.registry.FilterType;
import dev.sieve.ribbon.RibbonSizing;
import dev.sieve.ribbon.Standard128RibbonFilter;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The level threshold as RocksDB's {@code RibbonTest.RibbonTestLevelThreshold} (util/bloom_test.cc)
 * checks it, the policy's builds, RocksDB's policy id, and the LSM report with the figures quoted
 * in {@link FilterPolicy}'s Javadoc.
 */
class FilterPolicyTest {

  private static final long[] THOUSAND = hashes(1000, 17);

  private static long[] hashes(int n, long seed) {
    SplittableRandom rnd = new SplittableRandom(seed);
    long[] h = new long[n];
    for (int i = 0; i < n; i++) {
      h[i] = rnd.nextLong();
    }
    return h;
  }

  /** RocksDB's {@code GetEffectiveBitsPerKey}: block bits over 1000 keys. */
  private static double effectiveBitsPerKey(FilterPolicy policy, int levelish) {
    RocksDbFilter f = policy.build(levelish, THOUSAND, THOUSAND.length);
    byte[] block = f.toRocksDbFilterBlock();
    assertEquals(block.length, f.rocksDbFilterBlockLength());
    for (long h : THOUSAND) {
      assertTrue(f.mayContainHash(h));
    }
    return block.length * 8 / 1000.0;
  }

  @Test
  void levelThresholdAsRocksDbTestsIt() {
    for (CompactionStyle cs : CompactionStyle.values()) {
      for (int bbl : new int[] {-1, 0, 1, 10, Integer.MAX_VALUE - 1, Integer.MAX_VALUE}) {
        FilterPolicy policy = FilterPolicy.ribbon(10, bbl);
        String at = cs + ", bloomBeforeLevel " + bbl;
        if (bbl < Integer.MAX_VALUE) {
          // a file for level bbl itself (bbl = -1: a flush): Ribbon
          int levelish = FilterPolicy.levelish(cs, bbl == -1, bbl == -1 ? 0 : bbl);
          assertTrue(effectiveBitsPerKey(policy, levelish) < 8, at);
        }
        if (bbl >= 0) {
          // a file for the level before (bbl - 1 = -1: a flush)
          int prev = bbl - 1;
          int levelish = FilterPolicy.levelish(cs, prev == -1, prev == -1 ? 0 : prev);
          if (cs == CompactionStyle.LEVEL || cs == CompactionStyle.UNIVERSAL) {
            assertTrue(effectiveBitsPerKey(policy, levelish) > 9, at + ": Bloom");
          } else if (bbl == Integer.MAX_VALUE) {
            assertTrue(effectiveBitsPerKey(policy, levelish) > 9, at + ": forced Bloom");
          } else {
            assertTrue(effectiveBitsPerKey(policy, levelish) < 8, at + ": level ignored");
          }
        }
        // like SstFileWriter: unknown level
        int unknown = FilterPolicy.levelish(cs, false, -1);
        assertEquals(FilterPolicy.UNKNOWN_LEVEL, unknown);
        if (bbl < Integer.MAX_VALUE) {
          assertTrue(effectiveBitsPerKey(policy, unknown) < 8, at + ": unknown level → Ribbon");
        } else {
          assertTrue(
              effectiveBitsPerKey(policy, unknown) > 9, at + ": unknown level, forced Bloom");
        }
      }
    }
  }

  @Test
  void specialValues() {
    FilterPolicy def = FilterPolicy.ribbon(10);
    assertEquals(FilterPolicy.DEFAULT_BLOOM_BEFORE_LEVEL, def.bloomBeforeLevel());
    assertFalse(def.usesRibbon(FilterPolicy.FLUSH));
    assertTrue(def.usesRibbon(0));
    FilterPolicy ribbon = FilterPolicy.ribbon(10, FilterPolicy.ALWAYS_RIBBON);
    assertTrue(ribbon.usesRibbon(FilterPolicy.FLUSH));
    FilterPolicy lower = FilterPolicy.ribbon(10, -5);
    assertTrue(lower.usesRibbon(FilterPolicy.FLUSH));
    FilterPolicy bloom = FilterPolicy.ribbon(10, FilterPolicy.ALWAYS_BLOOM);
    assertFalse(bloom.usesRibbon(FilterPolicy.UNKNOWN_LEVEL));
    FilterPolicy almost = FilterPolicy.ribbon(10, Integer.MAX_VALUE - 1);
    assertFalse(almost.usesRibbon(1_000_000));
    assertTrue(almost.usesRibbon(FilterPolicy.UNKNOWN_LEVEL));
    assertInstanceOf(BlockedBloomFilter.class, def.build(FilterPolicy.FLUSH, THOUSAND, 1000));
    assertInstanceOf(Standard128RibbonFilter.class, def.build(3, THOUSAND, 1000));
    // tiny filters fall back to Bloom even on a Ribbon level, as in RocksDB
    assertInstanceOf(BlockedBloomFilter.class, def.build(3, THOUSAND, 50));
    assertThrows(IllegalArgumentException.class, () -> def.usesRibbon(-2));
    assertThrows(IllegalArgumentException.class, () -> def.usesRibbon(Integer.MAX_VALUE));
    assertThrows(
        IllegalArgumentException.class,
        () -> FilterPolicy.levelish(CompactionStyle.LEVEL, false, -2));
    assertThrows(IllegalArgumentException.class, () -> FilterPolicy.ribbon(0.4));
    assertThrows(IllegalArgumentException.class, () -> FilterPolicy.ribbon(Double.NaN));
    assertThrows(IndexOutOfBoundsException.class, () -> def.build(1, THOUSAND, 1001));
  }

  @Test
  void rocksDbPolicyIdAndSanitizedSettings() {
    assertEquals("ribbonfilter:10:0", FilterPolicy.ribbon(10).rocksDbId());
    assertEquals("ribbonfilter:9.5:-1", FilterPolicy.ribbon(9.5, -1).rocksDbId());
    assertEquals("ribbonfilter:6.667:3", FilterPolicy.ribbon(6.667, 3).rocksDbId());
    assertEquals("ribbonfilter:1:0", FilterPolicy.ribbon(0.7).rocksDbId());
    assertEquals("ribbonfilter:100:0", FilterPolicy.ribbon(1e9).rocksDbId());
    FilterPolicy p = FilterPolicy.ribbon(10.499);
    assertEquals(10499, p.millibitsPerKey());
    assertEquals(RibbonSizing.oneInFpRateForBloomBitsPerKey(10.499), p.oneInFpRate());
  }

  @Test
  void reportFiguresQuotedInThePolicyJavadoc() {
    LsmShape shape = LsmShape.leveled(5, 10, 1_000_000_000L, 1 << 18, 1_000_000);
    assertEquals(1_000_000, shape.keysPerLevel()[0]);
    assertEquals(1_000_000, shape.keysPerLevel()[1]);
    assertEquals(1_000_000_000L, shape.keysPerLevel()[4]);
    assertEquals(4_000_000, shape.probesPerLevel()[0], "four L0 files each probed");
    LsmFilterReport def = FilterPolicy.ribbon(10, 0).report(shape);
    LsmFilterReport deeper = FilterPolicy.ribbon(10, 3).report(shape);
    System.out.print(def);
    assertEquals(1390.0, def.allBloomBytes() / 1e6, 0.05);
    assertEquals(980.7, def.allRibbonBytes() / 1e6, 0.05);
    assertEquals(981.1, def.totalBytes() / 1e6, 0.05);
    assertEquals(985.1, deeper.totalBytes() / 1e6, 0.05);
    assertEquals(0.294, 1 - (double) def.allRibbonBytes() / def.allBloomBytes(), 0.0005);
    assertEquals(FilterType.BLOCKED_BLOOM, def.levels().get(0).type());
    assertEquals(FilterType.RIBBON, def.levels().get(1).type());
    assertEquals(FilterType.BLOCKED_BLOOM, deeper.levels().get(2).type());
    assertEquals(8_000_000, def.totalProbes());
    for (LsmFilterReport r :
        new LsmFilterReport[] {def, deeper, FilterPolicy.ribbon(10, -1).report(shape)}) {
      assertEquals(76.2, r.totalExpectedFalsePositiveProbes() / 1000, 0.05);
    }
    // L0: half the probes, 0.13% of the memory
    assertEquals(0.0013, (double) def.levels().get(0).bytes() / def.totalBytes(), 0.00005);
    assertEquals(7.055, def.levels().get(4).bitsPerKey(), 0.001);
    assertTrue(def.toString().contains("STANDARD128_RIBBON"));
    assertTrue(def.toString().contains("FAST_LOCAL_BLOOM"));
  }

  @Test
  void reportLevelsTakeOnlyTheRegistrysRocksDbTypes() {
    for (FilterType t : FilterType.values()) {
      if (t.isRocksDbCompatible()) {
        assertEquals(
            t, new LsmFilterReport.Level(0, -1, t, 1, 1, 8, 0.1, 1, 0.1, 8, 8, 0.1, 0.1).type());
      } else {
        IllegalArgumentException e =
            assertThrows(
                IllegalArgumentException.class,
                () -> new LsmFilterReport.Level(0, -1, t, 1, 1, 8, 0.1, 1, 0.1, 8, 8, 0.1, 0.1));
        assertTrue(e.getMessage().contains("BLOCKED_BLOOM or RIBBON"), e.getMessage());
      }
    }
  }

  @Test
  void reportSizesAgreeWithRealBuilds() {
    FilterPolicy policy = FilterPolicy.ribbon(10, 1).withOptimizeFiltersForMemory(false);
    int n = 100_000;
    LsmFilterReport r = policy.report(new LsmShape(new long[] {n, n}, new long[] {1, 1}, n));
    long[] h = hashes(n, 5);
    BlockedBloomFilter bloom = (BlockedBloomFilter) policy.build(FilterPolicy.FLUSH, h, n);
    Standard128RibbonFilter ribbon = (Standard128RibbonFilter) policy.build(1, h, n);
    assertEquals(bloom.toRocksDbFilterBlock().length, r.levels().get(0).bytes());
    assertEquals(bloom.modelledFpRate(), r.levels().get(0).fpRate(), 1e-12);
    // the Ribbon size depends on the first key's rounding bias by at most one segment per block
    // boundary choice: within 16 bytes of the estimate at the mean bias
    assertEquals(ribbon.toRocksDbFilterBlock().length, r.levels().get(1).bytes(), 16);
    assertEquals(ribbon.modelledFpRate(), r.levels().get(1).fpRate(), 1e-4);
    assertThrows(
        IllegalArgumentException.class, () -> new LsmShape(new long[] {1}, new long[] {1, 2}, 1));
    assertThrows(IllegalArgumentException.class, () -> new LsmShape(new long[0], new long[0], 1));
    assertThrows(
        IllegalArgumentException.class, () -> new LsmShape(new long[] {1}, new long[] {1}, 0));
    assertThrows(IllegalArgumentException.class, () -> LsmShape.leveled(0, 10, 1, 1, 1));
  }

  @Test
  void glibcHeapChunksNeverGrowAFilter() {
    for (long len = 5; len < 2_000_000; len += 16) {
      assertEquals(len, MemoryRounding.allocatedLength(len, 16), "ribbon " + len);
    }
    for (long len = 69; len < 2_000_000; len += 64) {
      assertEquals(len, MemoryRounding.allocatedLength(len, 64), "bloom " + len);
    }
    assertEquals(1304, MemoryRounding.glibcUsableSize(1290));
    assertEquals(24, MemoryRounding.glibcUsableSize(1));
  }

  @Test
  void bloomPolicyIsBloomAtEveryLevelAndOptimizeForMemoryPicksTheProbes() {
    FilterPolicy bloom = FilterPolicy.bloom(10);
    assertEquals("bloomfilter:10", bloom.rocksDbId());
    assertEquals("bloomfilter:7.5", FilterPolicy.bloom(7.5).rocksDbId());
    assertFalse(bloom.isRibbonPolicy());
    assertEquals(FilterPolicy.ALWAYS_BLOOM, bloom.bloomBeforeLevel());
    for (int levelish : new int[] {FilterPolicy.FLUSH, 0, 5, FilterPolicy.UNKNOWN_LEVEL}) {
      assertFalse(bloom.usesRibbon(levelish));
      assertInstanceOf(BlockedBloomFilter.class, bloom.build(levelish, THOUSAND, 1000));
    }
    // RocksDB 11's default optimize_filters_for_memory: 1,000 keys at 10 bits/key give 1,285
    // bytes either way, but 7 probes (from the 10.28 bits/key allocated) instead of 6
    BlockedBloomFilter on = (BlockedBloomFilter) bloom.build(0, THOUSAND, 1000);
    BlockedBloomFilter off =
        (BlockedBloomFilter) bloom.withOptimizeFiltersForMemory(false).build(0, THOUSAND, 1000);
    assertEquals(1285, on.rocksDbFilterBlockLength());
    assertEquals(1285, off.rocksDbFilterBlockLength());
    assertEquals(7, on.numProbes());
    assertEquals(6, off.numProbes());
    for (long h : THOUSAND) {
      assertTrue(on.mayContainHash(h));
    }
    // the setting is part of the policy's identity
    assertEquals(FilterPolicy.bloom(10), bloom);
    assertEquals(FilterPolicy.bloom(10).hashCode(), bloom.hashCode());
    assertFalse(bloom.equals(bloom.withOptimizeFiltersForMemory(false)));
    assertFalse(bloom.equals(FilterPolicy.ribbon(10, FilterPolicy.ALWAYS_BLOOM)));
    assertTrue(bloom.toString().contains("bloomfilter:10"));
    // the empty key set: the 0-byte Ribbon block, an empty Bloom filter
    assertEquals(0, FilterPolicy.ribbon(10).build(3, THOUSAND, 0).rocksDbFilterBlockLength());
    assertFalse(FilterPolicy.ribbon(10).build(3, THOUSAND, 0).mayContainHash(THOUSAND[0]));
  }

  @Test
  void partitionSizingFollowsTheLevelChoice() {
    FilterPolicy p = FilterPolicy.ribbon(10, 1);
    // a Bloom level: 8000 · data bytes / millibits
    assertEquals(8000L * 4032 / 10_000, p.approximateNumEntries(4037, FilterPolicy.FLUSH));
    // a Ribbon level holds more keys in the same bytes (about 7 bits/key)
    long ribbon = p.approximateNumEntries(4037, 2);
    assertTrue(ribbon > 4032 * 8 / 10 && ribbon < 4032 * 8 / 6, "entries " + ribbon);
  }
}
