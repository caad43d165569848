package dev.sieve.ribbon;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sieve.SieveFormatException;
import java.nio.ByteBuffer;
import java.util.SplittableRandom;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** A Ribbon filter wrapped in place answers exactly as the copied one. */
class RibbonZeroCopyTest {

  @ParameterizedTest(name = "{0} keys at {1} bits/key")
  @CsvSource({"3000, 10", "20000, 7.3", "50000, 16", "100000, 23.5"})
  void wrappedBlockAnswersAsTheCopy(int n, double bitsPerKey) {
    long[] hashes = new SplittableRandom(n).longs(n).toArray();
    Standard128RibbonFilter heap =
        Standard128RibbonFilter.builder()
            .bloomEquivalentBitsPerKey(bitsPerKey)
            .buildFromHashes(hashes);
    byte[] block = heap.toRocksDbFilterBlock();
    ByteBuffer direct = ByteBuffer.allocateDirect(block.length + 7);
    direct.position(7);
    direct.put(block).position(7);
    Standard128RibbonFilter wrapped = Standard128RibbonFilter.wrapRocksDbFilterBlock(direct, n);
    assertTrue(wrapped.isWrapped());
    assertFalse(heap.isWrapped());
    for (long h : hashes) {
      assertTrue(wrapped.mayContainHash(h));
    }
    SplittableRandom random = new SplittableRandom(-n);
    for (int i = 0; i < 200_000; i++) {
      long h = random.nextLong();
      assertEquals(heap.mayContainHash(h), wrapped.mayContainHash(h));
    }
    assertArrayEquals(block, wrapped.toRocksDbFilterBlock());
    assertEquals(heap, wrapped);
    assertEquals(heap.hashCode(), wrapped.hashCode());
    assertEquals(heap.modelledFpRate(), wrapped.modelledFpRate());
  }

  @ParameterizedTest(name = "corruption {0}")
  @CsvSource({"marker", "one block", "ragged length"})
  void wrappedBlocksAreCheckedLikeCopies(String corruption) {
    long[] hashes = new SplittableRandom(1).longs(5000).toArray();
    byte[] good =
        Standard128RibbonFilter.builder()
            .bloomEquivalentBitsPerKey(10)
            .buildFromHashes(hashes)
            .toRocksDbFilterBlock();
    byte[] block;
    switch (corruption) {
      case "marker":
        block = good.clone();
        block[block.length - 5] = (byte) 0xFF;
        break;
      case "one block":
        block = good.clone();
        block[block.length - 3] = 1;
        block[block.length - 2] = 0;
        block[block.length - 1] = 0;
        break;
      default:
        block = new byte[good.length - 3];
        System.arraycopy(good, 3, block, 0, block.length);
    }
    assertThrows(
        SieveFormatException.class, () -> Standard128RibbonFilter.fromRocksDbFilterBlock(block));
    assertThrows(
        SieveFormatException.class,
        () -> Standard128RibbonFilter.wrapRocksDbFilterBlock(ByteBuffer.wrap(block), 0));
  }
}
