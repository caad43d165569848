package dev.sieve.bloom;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sieve.SieveFormatException;
import dev.sieve.hash.KeyHash;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;

/** Sizing rules, parameter checks, reader checks, union, copy and concurrent adds. */
class BloomApiTest {

  @Test
  void rocksDbSizingRules() {
    assertEquals(10_000, FastLocalBloomSizing.rocksDbMillibitsPerKey(10));
    assertEquals(10_499, FastLocalBloomSizing.rocksDbMillibitsPerKey(10.499));
    assertEquals(9_700, FastLocalBloomSizing.rocksDbMillibitsPerKey(9.7));
    // ceil(n * millibits / 8000) rounded up to 64
    assertEquals(0, FastLocalBloomSizing.rocksDbDataBytes(0, 10_000));
    assertEquals(64, FastLocalBloomSizing.rocksDbDataBytes(1, 10_000));
    assertEquals(
        2624, FastLocalBloomSizing.rocksDbDataBytes(2087, 10_000)); // 2608.75 -> 2609 -> 2624
    assertEquals(
        BlockedBloomFilter.MAX_DATA_BYTES,
        FastLocalBloomSizing.rocksDbDataBytes(Long.MAX_VALUE / 2, 100_000));
    // ChooseNumProbes boundaries
    int[][] table = {
      {2080, 1},
      {2081, 2},
      {3580, 2},
      {3581, 3},
      {5100, 3},
      {6640, 4},
      {8300, 5},
      {10070, 6},
      {10071, 7},
      {11720, 7},
      {14001, 8},
      {16050, 9},
      {18300, 10},
      {22001, 11},
      {25501, 12},
      {28000, 12},
      {28001, 13},
      {50000, 23},
      {50001, 24},
      {100000, 24}
    };
    for (int[] row : table) {
      assertEquals(row[1], FastLocalBloomSizing.chooseNumProbes(row[0]), "millibits " + row[0]);
    }
  }

  @Test
  void emptyBuildIsAlwaysAbsentAndMatchesRocksDbsEmptyBlock() {
    BlockedBloomFilter empty = BlockedBloomFilter.builder().bitsPerKey(10).build(new long[0]);
    assertFalse(empty.mayContain(42L));
    // RocksDB's FastLocalBloom builder returns FinishAlwaysFalse, an empty block, for zero keys
    assertArrayEquals(new byte[0], empty.toRocksDbFilterBlock());
    assertFalse(
        BlockedBloomFilter.fromRocksDbFilterBlock(empty.toRocksDbFilterBlock()).mayContain(1L));
    byte[] trailerOnly = {(byte) 0xFF, 0, 6, 0, 0};
    assertFalse(BlockedBloomFilter.fromRocksDbFilterBlock(trailerOnly).mayContain(1L));
    assertFalse(
        BlockedBloomFilter.wrapRocksDbFilterBlock(java.nio.ByteBuffer.allocate(0), 0)
            .mayContain(1L));
    assertThrows(IllegalStateException.class, () -> empty.add(1L));
    StandardBloomFilter emptyStandard = StandardBloomFilter.builder().build(new long[0]);
    assertFalse(emptyStandard.mayContain(42L));
  }

  @Test
  void consecutiveDuplicateHashesCountOnce() {
    long[] hashes = {1, 1, 2, 2, 2, 1, 3};
    BlockedBloomFilter filter = BlockedBloomFilter.buildRocksDb(hashes, hashes.length, 10_000);
    assertEquals(4, filter.numKeys());
  }

  @Test
  void impossibleParametersAreRejectedWithTheLimit() {
    var blocked = BlockedBloomFilter.builder();
    var standard = StandardBloomFilter.builder();
    for (double bad : new double[] {Double.NaN, -1, 0, 0.5, 101, Double.POSITIVE_INFINITY}) {
      IllegalArgumentException e =
          assertThrows(IllegalArgumentException.class, () -> blocked.bitsPerKey(bad));
      assertTrue(e.getMessage().contains("[1.0, 100.0]"), e.getMessage());
    }
    for (double bad : new double[] {Double.NaN, 0, 1, -0.1, 1.5}) {
      IllegalArgumentException e =
          assertThrows(IllegalArgumentException.class, () -> standard.fpRate(bad));
      assertTrue(e.getMessage().contains("(0, 1)"), e.getMessage());
      assertThrows(IllegalArgumentException.class, () -> blocked.fpRate(bad));
    }
    assertThrows(IllegalArgumentException.class, () -> standard.bitsPerKey(1001));
    assertThrows(IllegalArgumentException.class, () -> standard.numProbes(0));
    assertThrows(
        IllegalArgumentException.class, () -> StandardBloomFilter.createWithBitsPerKey(-1, 10));
    IllegalArgumentException tooBig =
        assertThrows(
            IllegalArgumentException.class,
            () -> StandardBloomFilter.withShape(StandardBloomFilter.MAX_BITS + 1, 3));
    assertTrue(tooBig.getMessage().contains(Long.toString(StandardBloomFilter.MAX_BITS)));
    assertThrows(IllegalArgumentException.class, () -> BlockedBloomFilter.withShape(100, 3));
    assertThrows(
        IllegalArgumentException.class,
        () -> BlockedBloomFilter.withShape(BlockedBloomFilter.MAX_DATA_BYTES + 64, 3));
    assertThrows(IllegalArgumentException.class, () -> BlockedBloomFilter.withShape(64, 31));
    assertThrows(
        IllegalArgumentException.class, () -> BlockedBloomFilter.buildRocksDb(new long[1], 1, 999));
  }

  @Test
  void fpRateSizingMeetsTheTarget() {
    for (double f : new double[] {0.1, 0.01, 0.001, 1e-4}) {
      var standard = StandardBloomFilter.builder().fpRate(f);
      double b = standard.bitsPerKey();
      assertTrue(
          standard.expectedKeys(1000).create().numProbes()
              == dev.sieve.math.BloomMath.optimalNumProbes(b));
      assertTrue(
          dev.sieve.math.BloomMath.standardFpRate(b, dev.sieve.math.BloomMath.optimalNumProbes(b))
              <= f);
      int milli = BlockedBloomFilter.builder().fpRate(f).millibitsPerKey();
      double model =
          dev.sieve.math.BloomMath.cacheLocalFpRate(
              milli / 1000.0, FastLocalBloomSizing.chooseNumProbes(milli), 512);
      assertTrue(model <= f, "blocked model " + model + " above target " + f);
      double below =
          dev.sieve.math.BloomMath.cacheLocalFpRate(
              (milli - 1) / 1000.0, FastLocalBloomSizing.chooseNumProbes(milli - 1), 512);
      assertTrue(below > f, "a smaller setting also meets " + f);
    }
  }

  @Test
  void readerRejectsForeignAndCorruptBlocks() {
    byte[] good = BlockedBloomFilter.builder().build(new long[] {1, 2, 3}).toRocksDbFilterBlock();
    assertThrows(
        SieveFormatException.class, () -> BlockedBloomFilter.fromRocksDbFilterBlock(new byte[4]));
    assertThrows(
        SieveFormatException.class, () -> BlockedBloomFilter.fromRocksDbFilterBlock(new byte[1]));
    byte[] ribbon = good.clone();
    ribbon[ribbon.length - 5] = (byte) 0xFE;
    SieveFormatException e =
        assertThrows(
            SieveFormatException.class, () -> BlockedBloomFilter.fromRocksDbFilterBlock(ribbon));
    assertEquals(good.length - 5, e.offset());
    byte[] subImpl = good.clone();
    subImpl[subImpl.length - 4] = 1;
    assertThrows(
        SieveFormatException.class, () -> BlockedBloomFilter.fromRocksDbFilterBlock(subImpl));
    byte[] probes = good.clone();
    probes[probes.length - 3] = 31;
    assertThrows(
        SieveFormatException.class, () -> BlockedBloomFilter.fromRocksDbFilterBlock(probes));
    byte[] reserved = good.clone();
    reserved[reserved.length - 1] = 1;
    assertThrows(
        SieveFormatException.class, () -> BlockedBloomFilter.fromRocksDbFilterBlock(reserved));
    byte[] ragged = new byte[good.length + 1];
    System.arraycopy(good, 0, ragged, 1, good.length);
    assertThrows(
        SieveFormatException.class, () -> BlockedBloomFilter.fromRocksDbFilterBlock(ragged));
  }

  @Test
  void unionRequiresTheSameShape() {
    BlockedBloomFilter a = BlockedBloomFilter.createWithBitsPerKey(1000, 10);
    BlockedBloomFilter b = BlockedBloomFilter.createWithBitsPerKey(2000, 10);
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> a.union(b));
    assertTrue(e.getMessage().contains("different shapes"));
    assertThrows(
        IllegalArgumentException.class,
        () -> StandardBloomFilter.withShape(1000, 3).union(StandardBloomFilter.withShape(1000, 4)));
    StandardBloomFilter s = StandardBloomFilter.withShape(1000, 3);
    s.add(7L);
    StandardBloomFilter copy = s.copy();
    copy.add(8L);
    assertTrue(copy.mayContain(7L));
    assertEquals(s.copy(), s);
  }

  @Test
  void addsReportWhetherTheFilterChanged() {
    BlockedBloomFilter filter = BlockedBloomFilter.createWithBitsPerKey(100, 10);
    assertTrue(filter.add("key".getBytes()));
    assertFalse(filter.add("key".getBytes()));
    assertEquals(1, filter.numKeys());
  }

  @Test
  void mutableCreateWithExactCountEqualsTheBuild() {
    long[] keys = new SplittableRandom(5).longs(5000).toArray();
    BlockedBloomFilter built = BlockedBloomFilter.builder().bitsPerKey(9.7).build(keys);
    BlockedBloomFilter added = BlockedBloomFilter.createWithBitsPerKey(keys.length, 9.7);
    for (long key : keys) {
      added.add(key);
    }
    assertArrayEquals(built.toRocksDbFilterBlock(), added.toRocksDbFilterBlock());
  }

  @Test
  void concurrentAddsLoseNoKey() throws Exception {
    int threads = 8;
    int perThread = 100_000;
    BlockedBloomFilter blocked =
        BlockedBloomFilter.createWithBitsPerKey((long) threads * perThread, 10);
    StandardBloomFilter standard =
        StandardBloomFilter.createWithBitsPerKey((long) threads * perThread, 10);
    CountDownLatch start = new CountDownLatch(1);
    List<Thread> workers = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      final long base = (long) t * perThread;
      Thread worker =
          new Thread(
              () -> {
                try {
                  start.await();
                } catch (InterruptedException e) {
                  throw new AssertionError(e);
                }
                for (long k = base; k < base + perThread; k++) {
                  blocked.add(k);
                  standard.add(k);
                }
              });
      worker.start();
      workers.add(worker);
    }
    start.countDown();
    for (Thread worker : workers) {
      worker.join();
    }
    for (long k = 0; k < (long) threads * perThread; k++) {
      assertTrue(blocked.mayContain(k), "lost key " + k);
      assertTrue(standard.mayContain(k), "lost key " + k);
    }
    // the same keys added by one thread give the same bits: no bit was lost or invented
    BlockedBloomFilter sequential =
        BlockedBloomFilter.createWithBitsPerKey((long) threads * perThread, 10);
    for (long k = 0; k < (long) threads * perThread; k++) {
      sequential.add(k);
    }
    assertArrayEquals(sequential.toRocksDbFilterBlock(), blocked.toRocksDbFilterBlock());
  }

  @Test
  void filtersBeyondTwoToThe31BitsIndexEveryBit() {
    long bits = 3L << 30; // 384 MiB, a third of the bits above 2^31
    StandardBloomFilter standard = StandardBloomFilter.withShape(bits, 2);
    BlockedBloomFilter blocked = BlockedBloomFilter.withShape((1L << 28) + 64, 2);
    assertTrue(blocked.sizeInBits() > (1L << 31));
    SplittableRandom random = new SplittableRandom(3);
    long[] hashes = new long[20_000];
    for (int i = 0; i < hashes.length; i++) {
      hashes[i] = random.nextLong();
      standard.addHash(hashes[i]);
      blocked.addHash(hashes[i]);
    }
    for (long h : hashes) {
      assertTrue(standard.mayContainHash(h));
      assertTrue(blocked.mayContainHash(h));
    }
    // probes reach past bit 2^31: a third of the ~40,000 bits set lie above it
    long above = standard.bitsSetFromWord(1 << 25);
    assertTrue(above > 11_000 && above < 15_700, "bits set above 2^31: " + above);
    assertTrue(blocked.sizeInBits() > (1L << 31));
    assertFalse(
        standard.mayContainHash(KeyHash.hash64(1L))
            && standard.mayContainHash(KeyHash.hash64(2L))
            && standard.mayContainHash(KeyHash.hash64(3L)));
  }
}
