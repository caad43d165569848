package dev.sieve.ribbon;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sieve.SieveFormatException;
import dev.sieve.math.RibbonMath;
import dev.sieve.testing.SplitMix64;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The interleaved layout, the trailer, the reader's checks, the seed-retry and fallback paths, and
 * the reported figures.
 */
class RibbonLayoutAndReaderTest {

  private static long[] randomHashes(long seed, int n) {
    SplittableRandom rnd = new SplittableRandom(seed);
    long[] h = new long[n];
    for (int i = 0; i < n; i++) {
      h[i] = rnd.nextLong();
    }
    return h;
  }

  private static Standard128RibbonFilter ribbon(long seed, int n, double bitsPerKey) {
    return Standard128RibbonFilter.builder()
        .bloomEquivalentBitsPerKey(bitsPerKey)
        .buildFromHashes(randomHashes(seed, n));
  }

  /**
   * A slow, independent reading of the layout: solution bit {@code S[slot][column]} is bit {@code
   * slot % 128} of segment {@code firstSegment(slot / 128) + column}, and a key matches when for
   * every column of its start block {@code XOR_k c_k · S[start + k][column]} is its result bit.
   */
  private static boolean naiveQuery(byte[] block, long hash64) {
    int dataLen = block.length - 5;
    int seed = block[dataLen + 1] & 0xFF;
    int numBlocks =
        (block[dataLen + 2] & 0xFF)
            | (block[dataLen + 3] & 0xFF) << 8
            | (block[dataLen + 4] & 0xFF) << 16;
    int numSegments = dataLen / 16;
    int upper = (numSegments + numBlocks - 1) / numBlocks;
    int upperStart = upper * numBlocks - numSegments;
    int numStarts = numBlocks * 128 - 127;
    long h = RibbonKernel.rehash(hash64, RibbonKernel.rawSeed(seed));
    int start =
        new java.math.BigInteger(Long.toUnsignedString(h))
            .multiply(java.math.BigInteger.valueOf(numStarts))
            .shiftRight(64)
            .intValueExact();
    long a = h * 0xc28f82822b650bedL;
    java.math.BigInteger coeff =
        new java.math.BigInteger(Long.toUnsignedString(a))
            .shiftLeft(64)
            .or(new java.math.BigInteger(Long.toUnsignedString((a ^ 0xc367844a6e52731dL) | 1)));
    int expected = (int) Long.reverseBytes(a);
    int startBlock = start / 128;
    int columns = startBlock < upperStart ? upper - 1 : upper;
    for (int col = 0; col < columns; col++) {
      int parity = 0;
      for (int k = 0; k < 128; k++) {
        if (coeff.testBit(k)) {
          int slot = start + k;
          int b = slot / 128;
          int firstSegment = b * upper - Math.min(b, upperStart);
          int byteIndex = (firstSegment + col) * 16 + (slot % 128) / 8;
          parity ^= (block[byteIndex] >>> (slot % 8)) & 1;
        }
      }
      if (parity != ((expected >>> col) & 1)) {
        return false;
      }
    }
    return true;
  }

  @ParameterizedTest(name = "{0} bits/key")
  @ValueSource(doubles = {1, 2, 4.4, 10, 16, 23.5, 60})
  void interleavedScanEqualsNaiveReadingIncludingBlockCrossingWindows(double bitsPerKey) {
    Standard128RibbonFilter f = ribbon(7, 3000, bitsPerKey);
    byte[] block = f.toRocksDbFilterBlock();
    SplittableRandom rnd = new SplittableRandom(99);
    int aligned = 0;
    int crossing = 0;
    int positives = 0;
    for (int i = 0; i < 4000; i++) {
      long h = rnd.nextLong();
      boolean fast = f.mayContainHash(h);
      assertEquals(naiveQuery(block, h), fast, "hash " + h);
      positives += fast ? 1 : 0;
      int start =
          RibbonKernel.start(
              RibbonKernel.rehash(h, RibbonKernel.rawSeed(f.seed())), (int) f.numSlots() - 127);
      if (start % 128 == 0) {
        aligned++;
      } else {
        crossing++;
      }
    }
    assertTrue(crossing > 3000, "most windows cross a block boundary");
    long[] added = randomHashes(7, 3000);
    for (int i = 0; i < 300; i++) {
      assertTrue(naiveQuery(block, added[i]));
    }
    // block-aligned windows, rare in random queries, are checked directly: find some
    int foundAligned = aligned;
    for (long h = 0; foundAligned < 20; h++) {
      int start =
          RibbonKernel.start(
              RibbonKernel.rehash(h, RibbonKernel.rawSeed(f.seed())), (int) f.numSlots() - 127);
      if (start % 128 == 0) {
        assertEquals(naiveQuery(block, h), f.mayContainHash(h));
        foundAligned++;
      }
    }
    assertTrue(positives < 4000 || bitsPerKey < 1.5);
  }

  @Test
  void windowAtTheLastStartReadsOnlyTheLastBlock() {
    // the last start position is the first slot of the last block: the query reads one block
    for (int n : new int[] {150, 3000}) {
      Standard128RibbonFilter f =
          Standard128RibbonFilter.builder()
              .bloomEquivalentBitsPerKey(7)
              .buildFromHashes(randomHashes(n, n));
      byte[] block = f.toRocksDbFilterBlock();
      int numStarts = (int) f.numSlots() - 127;
      int rawSeed = RibbonKernel.rawSeed(f.seed());
      int found = 0;
      for (long h = 0; found < 30; h++) {
        if (RibbonKernel.start(RibbonKernel.rehash(h, rawSeed), numStarts) == numStarts - 1) {
          assertEquals(naiveQuery(block, h), f.mayContainHash(h), "hash " + h);
          found++;
        }
      }
    }
  }

  @Test
  void largeBandsAddedInStartOrderGiveTheSameSolutionAsInputOrder() {
    int n = 80_000;
    long[] h = randomHashes(31, n);
    int numSlots = RibbonSizing.numSlotsForKeys(n);
    assertTrue(numSlots >= RibbonBanding.SORT_MIN_SLOTS);
    RibbonBanding sorted = new RibbonBanding(numSlots);
    int seed = sorted.findSeedToSolve(h, n, 7);
    RibbonBanding inOrder = new RibbonBanding(numSlots);
    assertTrue(inOrder.addAll(h, n, RibbonKernel.rawSeed(seed)));
    int segments = 7 * numSlots / 128 - 3;
    assertArrayEquals(
        inOrder.backSubstitute(segments, 7, 3), sorted.backSubstitute(segments, 7, 3));
  }

  @Test
  void trailerAndLayoutSizes() {
    Standard128RibbonFilter f = ribbon(3, 10_000, 10);
    byte[] block = f.toRocksDbFilterBlock();
    int dataLen = block.length - 5;
    assertEquals(f.numSegments() * 16, dataLen);
    assertEquals((byte) 0xFE, block[dataLen]);
    assertEquals(f.seed(), block[dataLen + 1] & 0xFF);
    int numBlocks =
        (block[dataLen + 2] & 0xFF)
            | (block[dataLen + 3] & 0xFF) << 8
            | (block[dataLen + 4] & 0xFF) << 16;
    assertEquals(f.numBlocks(), numBlocks);
    assertEquals(RibbonSizing.numSlotsForKeys(10_000), f.numSlots());
    assertEquals(10368 / 128, numBlocks);
    // RocksDB's column split: ceil(segments / blocks), and the narrower blocks first
    assertEquals((f.numSegments() + numBlocks - 1) / numBlocks, f.upperNumColumns());
    assertEquals(f.upperNumColumns() * numBlocks - f.numSegments(), f.upperStartBlock());
    assertEquals(7, f.upperNumColumns()); // one in 104.9: 6 or 7 columns
    // segments are little-endian 128-bit words, low half first
    ByteBuffer le = ByteBuffer.wrap(block).order(ByteOrder.LITTLE_ENDIAN);
    assertEquals(block.length, 16L * f.numSegments() + 5);
    assertEquals(
        le.getLong(0), ByteBuffer.wrap(block, 0, 8).order(ByteOrder.LITTLE_ENDIAN).getLong());
  }

  @Test
  void largeNumberOfBlocksUsesAllThreeTrailerBytes() {
    // 2^16 + 3 blocks, two columns each, arbitrary data: the 24-bit count round-trips
    int numBlocks = 65539;
    byte[] block = new byte[numBlocks * 2 * 16 + 5];
    new SplittableRandom(5).nextBytes(block);
    int d = block.length - 5;
    block[d] = (byte) 0xFE;
    block[d + 1] = 77;
    block[d + 2] = (byte) numBlocks;
    block[d + 3] = (byte) (numBlocks >>> 8);
    block[d + 4] = (byte) (numBlocks >>> 16);
    Standard128RibbonFilter f = Standard128RibbonFilter.fromRocksDbFilterBlock(block);
    assertEquals(numBlocks, f.numBlocks());
    assertEquals(77, f.seed());
    assertEquals(2, f.upperNumColumns());
    assertEquals(0, f.upperStartBlock());
    assertArrayEquals(block, f.toRocksDbFilterBlock());
    assertEquals(0.25, f.modelledFpRate(), 1e-12);
  }

  @Test
  void readerAcceptsAnyWholeNumberOfSegments() {
    // optimize_filters_for_memory can give any 16-byte multiple: check each split RocksDB derives
    int numBlocks = 5;
    for (int segments = 1; segments <= 32 * numBlocks; segments++) {
      byte[] block =
          RibbonRocksDbGoldenTest.zeroBlock(16 * segments, new byte[] {(byte) 0xFE, 9, 5, 0, 0});
      Standard128RibbonFilter f = Standard128RibbonFilter.fromRocksDbFilterBlock(block, 500);
      int upper = (segments + numBlocks - 1) / numBlocks;
      assertEquals(upper, f.upperNumColumns());
      assertEquals(upper * numBlocks - segments, f.upperStartBlock());
      assertEquals(
          RibbonMath.ribbonFpRate(f.resultBits()),
          RibbonMath.interleavedRibbonFpRate(numBlocks, upper, upper * numBlocks - segments),
          1e-15);
      assertArrayEquals(block, f.toRocksDbFilterBlock());
      assertEquals(500, f.numKeys());
    }
  }

  @Test
  void readerRefusesInconsistentBlocksNamingRocksDbsFallback() {
    // 1..5 bytes: RocksDB "always false"
    for (int len = 1; len <= 5; len++) {
      byte[] truncated = new byte[len];
      truncated[len - 1] = (byte) 0xFE;
      SieveFormatException e =
          assertThrows(
              SieveFormatException.class,
              () -> Standard128RibbonFilter.fromRocksDbFilterBlock(truncated));
      assertTrue(e.getMessage().contains("always false"), e.getMessage());
    }
    // another marker
    byte[] bloomBlock = RibbonRocksDbGoldenTest.zeroBlock(64, new byte[] {-1, 0, 6, 0, 0});
    SieveFormatException marker =
        assertThrows(
            SieveFormatException.class,
            () -> Standard128RibbonFilter.fromRocksDbFilterBlock(bloomBlock));
    assertEquals(64, marker.offset());
    // 0 or 1 block: RocksDB "always true"
    for (int blocks = 0; blocks < 2; blocks++) {
      byte[] b = RibbonRocksDbGoldenTest.zeroBlock(128, new byte[] {-2, 1, (byte) blocks, 0, 0});
      SieveFormatException e =
          assertThrows(
              SieveFormatException.class, () -> Standard128RibbonFilter.fromRocksDbFilterBlock(b));
      assertTrue(e.getMessage().contains("always true"), e.getMessage());
      assertEquals(130, e.offset());
    }
    // not whole segments
    byte[] ragged = RibbonRocksDbGoldenTest.zeroBlock(100, new byte[] {-2, 1, 2, 0, 0});
    assertThrows(
        SieveFormatException.class, () -> Standard128RibbonFilter.fromRocksDbFilterBlock(ragged));
    // more than 32 columns per block
    byte[] wide = RibbonRocksDbGoldenTest.zeroBlock(16 * 65, new byte[] {-2, 1, 2, 0, 0});
    SieveFormatException w =
        assertThrows(
            SieveFormatException.class, () -> Standard128RibbonFilter.fromRocksDbFilterBlock(wide));
    assertTrue(w.getMessage().contains("32"), w.getMessage());
    // exactly 32 columns is fine
    Standard128RibbonFilter full =
        Standard128RibbonFilter.fromRocksDbFilterBlock(
            RibbonRocksDbGoldenTest.zeroBlock(16 * 64, new byte[] {-2, 1, 2, 0, 0}));
    assertEquals(32, full.upperNumColumns());
    assertThrows(
        NullPointerException.class, () -> Standard128RibbonFilter.fromRocksDbFilterBlock(null));
    assertThrows(
        IllegalArgumentException.class,
        () -> Standard128RibbonFilter.fromRocksDbFilterBlock(full.toRocksDbFilterBlock(), -1));
  }

  @Test
  void emptyFilterIsRocksDbsZeroByteBlock() {
    Standard128RibbonFilter empty = Standard128RibbonFilter.builder().buildFromHashes(new long[0]);
    assertEquals(0, empty.toRocksDbFilterBlock().length);
    assertFalse(empty.mayContainHash(42));
    assertEquals(0.0, empty.modelledFpRate());
    assertEquals(0, empty.numKeys());
    assertEquals(0.0, empty.bitsPerKey());
    Standard128RibbonFilter read = Standard128RibbonFilter.fromRocksDbFilterBlock(new byte[0]);
    assertEquals(empty, read);
  }

  @Test
  void seedRetriesAreTakenAndTheResultIsStillCorrect() {
    // 1022 keys in 1024 slots: the first seed is singular, a later one solves (RocksDB: 169)
    long[] h = new long[1022];
    SplitMix64 rnd = new SplitMix64(42);
    for (int i = 0; i < h.length; i++) {
      h[i] = rnd.next();
    }
    int firstSeed = (int) h[0] & 255;
    RibbonBanding banding = new RibbonBanding(1024);
    assertFalse(banding.addAll(h, h.length, RibbonKernel.rawSeed(firstSeed)));
    int seed = banding.findSeedToSolve(h, h.length, firstSeed);
    assertEquals(169, seed);
    long bytes = RibbonSizing.bytesForOneInFpRate(1024, 104.9, 0);
    Standard128RibbonFilter f = RibbonBanding.solve(h, h.length, 1024, bytes, firstSeed);
    assertEquals(169, f.seed());
    for (long x : h) {
      assertTrue(f.mayContainHash(x));
    }
    assertTrue(f.modelledFpRate() < 0.011);
  }

  @Test
  void whenEverySeedFailsRocksDbFallsBackToBloomAndTheRibbonBuilderGrows() {
    long[] h = new long[1030];
    SplitMix64 rnd = new SplitMix64(42);
    for (int i = 0; i < h.length; i++) {
      h[i] = rnd.next();
    }
    assertNull(RibbonBanding.solve(h, h.length, 1024, 880, 0));
    Standard128RibbonFilter grown = RibbonBanding.solveGrowing(h, h.length, 1024, 104.9);
    assertEquals(9, grown.numBlocks());
    for (long x : h) {
      assertTrue(grown.mayContainHash(x));
    }
  }

  @Test
  void duplicatesNeverMakeTheSystemSingular() {
    // 20,000 entries over 2,000 distinct hashes in scattered order: sized for 20,000, solves at
    // the first seed because every repeat cancels to (0, 0)
    long[] distinct = randomHashes(11, 2000);
    long[] h = new long[20_000];
    for (int i = 0; i < h.length; i++) {
      h[i] = distinct[(i * 7) % 2000];
    }
    RibbonBanding banding = new RibbonBanding(RibbonSizing.numSlotsForKeys(2000));
    assertTrue(banding.addAll(h, h.length, RibbonKernel.rawSeed(3)));
    // consecutive repeats are dropped before sizing, as RocksDB's AddKey does
    long[] runs = new long[6000];
    for (int i = 0; i < runs.length; i++) {
      runs[i] = distinct[i / 3];
    }
    assertEquals(2000, Standard128RibbonFilter.builder().buildFromHashes(runs).numKeys());
  }

  @Test
  void reportsBitsPerKeyResultBitsAndOverheadOverTheFloor() {
    Standard128RibbonFilter f = ribbon(21, 100_000, 10);
    double oneIn = RibbonSizing.oneInFpRateForBloomBitsPerKey(10);
    assertEquals(1.0 / oneIn, f.modelledFpRate(), 0.02 / oneIn);
    assertEquals(RibbonMath.ribbonFpRate(f.resultBits()), f.modelledFpRate(), 1e-12);
    assertTrue(f.resultBits() > 6 && f.resultBits() < 7, "between 6 and 7 columns");
    assertEquals(f.sizeInBits() / 100_000.0, f.bitsPerKey(), 1e-12);
    // the benchmark target: at most 1.06 × log2(1/FPR) at bloom-equivalent 10
    assertTrue(f.overheadOverFloor() < 1.06, "overhead " + f.overheadOverFloor());
    assertTrue(f.bitsPerKey() < 7.2, "about 30% below Bloom's 10");
    assertTrue(f.toString().contains("blocks=" + f.numBlocks()));
  }

  @Test
  void fpRateSizingAndLimits() {
    Standard128RibbonFilter f =
        Standard128RibbonFilter.builder().fpRate(0.001).buildFromHashes(randomHashes(1, 50_000));
    assertEquals(0.001, f.modelledFpRate(), 0.00003);
    Standard128RibbonFilter tiny =
        Standard128RibbonFilter.builder().fpRate(1e-15).buildFromHashes(randomHashes(1, 5000));
    assertEquals(32, tiny.upperNumColumns());
    assertEquals(0, tiny.upperStartBlock());
    assertThrows(IllegalArgumentException.class, () -> Standard128RibbonFilter.builder().fpRate(0));
    assertThrows(IllegalArgumentException.class, () -> Standard128RibbonFilter.builder().fpRate(1));
    assertThrows(
        IllegalArgumentException.class,
        () -> Standard128RibbonFilter.builder().bloomEquivalentBitsPerKey(Double.NaN));
    assertThrows(
        IllegalArgumentException.class,
        () -> Standard128RibbonFilter.builder().bloomEquivalentBitsPerKey(0.49));
    assertThrows(IllegalArgumentException.class, () -> RibbonSizing.numSlotsForKeys(0));
    assertThrows(
        IllegalArgumentException.class,
        () -> RibbonSizing.numSlotsForKeys(RibbonSizing.MAX_RIBBON_ENTRIES + 1));
    assertThrows(
        IllegalArgumentException.class, () -> RibbonSizing.bytesForOneInFpRate(128, 10, 0));
    assertThrows(
        IllegalArgumentException.class, () -> RibbonSizing.bytesForOneInFpRate(300, 10, 0));
    // RocksDB's sanitization: [0.5, 1) → 1, ≥ 100 → 100
    assertEquals(1.0, RibbonSizing.sanitizeBitsPerKey(0.5));
    assertEquals(100.0, RibbonSizing.sanitizeBitsPerKey(Double.POSITIVE_INFINITY));
    assertEquals(
        RibbonSizing.oneInFpRateForBloomBitsPerKey(100),
        Standard128RibbonFilter.builder().bloomEquivalentBitsPerKey(1234).oneInFpRate());
  }

  @Test
  void equalityFollowsTheBytes() {
    Standard128RibbonFilter a = ribbon(5, 2000, 10);
    Standard128RibbonFilter b = ribbon(5, 2000, 10);
    Standard128RibbonFilter c = ribbon(6, 2000, 10);
    assertEquals(a, b);
    assertEquals(a.hashCode(), b.hashCode());
    assertNotEquals(a, c);
    assertArrayEquals(a.toRocksDbFilterBlock(), b.toRocksDbFilterBlock());
  }
}
