package dev.sieve.sst;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sieve.policy.FilterPolicy;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rocksdb.BlockBasedTableConfig;

/**
 * RocksDB's default {@code optimize_filters_for_memory=true}: Sieve's build is byte-identical with
 * the filter blocks rocksdbjni 11.8.1 writes, for many key counts and bits/key settings, Bloom and
 * Ribbon (whose small filters fall back to Bloom).
 */
class OptimizeFiltersForMemoryTest {
  @TempDir Path dir;

  private static final int[] KEY_COUNTS = {
    1, 2, 3, 5, 7, 11, 17, 30, 50, 64, 99, 150, 257, 400, 640, 1000, 1500, 2600, 4100, 7000, 12345,
    30000, 70001
  };
  private static final double[] BITS = {1, 2.5, 4.321, 7.3, 10, 12.5, 16.9, 23.456, 40, 100};

  @Test
  void rocksDbDefaultsToTheOptionAndSoDoesSieve() {
    assertTrue(new BlockBasedTableConfig().optimizeFiltersForMemory());
    assertTrue(FilterPolicy.bloom(10).optimizeFiltersForMemory());
    assertTrue(RocksDbOptions.filterPolicy("ribbon:10").orElseThrow().optimizeFiltersForMemory());
  }

  /** The example of the issue: 1,000 keys at 10 bits/key, 1,285 bytes, 7 probes (not 6). */
  @Test
  void probeCountFollowsTheActualBitsPerKey() throws Exception {
    List<byte[]> keys = keys(1000);
    Path sst =
        RocksDbOracle.writeSst(
            dir, "example", keys, RocksDbOracle.Spec.bloom(10).optimizeForMemory(true));
    FilterBlock rocks = SstFile.open(sst).filter().fullBlock();
    assertEquals(1285, rocks.blockBytes());
    assertEquals(7, rocks.numProbes());
    byte[] sieve = RocksDbTableFilter.filterBlock(FilterPolicy.bloom(10), keys);
    assertArrayEquals(rocks.bytes(), sieve);
    byte[] off =
        RocksDbTableFilter.filterBlock(
            FilterPolicy.bloom(10).withOptimizeFiltersForMemory(false), keys);
    assertEquals(6, FilterBlockReader.read(off, 1000).numProbes());
  }

  @Test
  void byteIdenticalWithRocksDbForManySizesAndSettings() throws Exception {
    int compared = 0;
    int probesDiffer = 0;
    int ribbonGrown = 0;
    for (boolean ribbon : new boolean[] {false, true}) {
      for (double bits : BITS) {
        for (int n : KEY_COUNTS) {
          if (n > 12345 && bits != 10 && bits != 16.9) {
            continue; // large tables at two settings keep the test short
          }
          List<byte[]> keys = keys(n);
          RocksDbOracle.Spec spec =
              ribbon
                  ? RocksDbOracle.Spec.ribbon(bits, true)
                  : RocksDbOracle.Spec.bloom(bits).optimizeForMemory(true);
          FilterPolicy policy = ribbon ? FilterPolicy.ribbon(bits, 0) : FilterPolicy.bloom(bits);
          byte[] sieve = RocksDbTableFilter.filterBlock(policy, keys);
          // RocksDB sizes the block by malloc_usable_size of its buffer, which depends on glibc's
          // heap state in this JVM (a chunk it cannot split is handed out whole, up to 16 bytes
          // more, once seen in CI: 1045 against 1029 bytes): RocksDB writes the table again, up
          // to three times, until its block is one Sieve's bytes explain
          FilterBlock rocks = null;
          for (int attempt = 0; attempt < 3; attempt++) {
            Path sst = RocksDbOracle.writeSst(dir, "t" + attempt, keys, spec);
            rocks = SstFile.open(sst).filter().fullBlock();
            byte[] r = rocks.bytes();
            boolean explained =
                java.util.Arrays.equals(r, sieve)
                    || (rocks.kind() == FilterKind.RIBBON && r.length == sieve.length + 16);
            if (explained) {
              break; // a grown Ribbon block is checked by its trailer; a grown Bloom block is not
            }
          }
          String label = (ribbon ? "ribbon:" : "bloom:") + bits + ", " + n + " keys";
          if (RocksDbOracle.assertSameBlock(sieve, rocks, true, label)) {
            ribbonGrown++;
          }
          byte[] off =
              RocksDbTableFilter.filterBlock(policy.withOptimizeFiltersForMemory(false), keys);
          if (!java.util.Arrays.equals(off, rocks.bytes())) {
            probesDiffer++;
          }
          compared++;
        }
      }
    }
    System.out.printf(
        "optimize_filters_for_memory: %d blocks compared, %d differ without the option, %d Ribbon"
            + " blocks grown by glibc%n",
        compared, probesDiffer, ribbonGrown);
    // the option matters: without it many of these blocks differ (the probe count)
    assertTrue(probesDiffer > compared / 4, probesDiffer + " of " + compared);
  }

  private static List<byte[]> keys(int n) {
    List<byte[]> out = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      out.add(ByteBuffer.allocate(8).putLong(0x5eed_0000_0000L + 7L * i).array());
    }
    return out;
  }
}
