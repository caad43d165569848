package dev.sieve.bloom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The split-block Bloom filter's SIMD check ({@link SplitBlockVectorProbe}) answers as Parquet's
 * scalar definition, bit for bit, before and after C2 compiles it: on blocks from full to empty (so
 * both answers occur), over three rounds of 200,000 queries in a JVM where the kernel starts
 * interpreted; and a filter's heap (vector, once its gate is open) and wrapped (scalar) copies
 * answer alike, single and batch. Runs in the {@code vector-probe} execution.
 */
class SplitBlockVectorProbeTest {

  private static final int[] SALTS = {
    0x47b6137b, 0x44974d91, 0x8824ad5b, 0xa2b7289d, 0x705495c7, 0x2df1424b, 0x9efc4947, 0x5c6bfb31
  };

  /** Parquet's check written from BloomFilter.md over the little-endian bytes of the block. */
  private static boolean parquetCheck(byte[] bitset, int block, int key) {
    ByteBuffer b = ByteBuffer.wrap(bitset).order(ByteOrder.LITTLE_ENDIAN);
    for (int i = 0; i < 8; i++) {
      int word = b.getInt(block * 32 + 4 * i);
      if ((word & (1 << ((key * SALTS[i]) >>> 27))) == 0) {
        return false;
      }
    }
    return true;
  }

  /** 64 blocks of four longs, from full to sparse and the last one empty. */
  private static long[] blocksFromFullToEmpty(SplittableRandom random) {
    long[] w = new long[4 * 64];
    for (int block = 0; block < 64; block++) {
      for (int i = 0; i < 4; i++) {
        long word = -1L;
        for (int t = 0; t < block % 4; t++) {
          word &= random.nextLong() | random.nextLong();
        }
        w[block * 4 + i] = block == 63 ? 0 : word;
      }
    }
    return w;
  }

  @Test
  void everyBlockAnswersAsParquetsDefinitionBeforeAndAfterCompilation() {
    assumeTrue(
        VectorGate.SPLIT_BLOCK.supported(), "runs in the vector-probe execution (256-bit vectors)");
    SplittableRandom random = new SplittableRandom(46);
    long[] w = blocksFromFullToEmpty(random);
    byte[] bytes = new byte[w.length * 8];
    ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN).asLongBuffer().put(w);
    int maybes = 0;
    // three rounds of 200,000: the first starts interpreted, the later ones run C2's code
    for (int q = 0; q < 600_000; q++) {
      int block = random.nextInt(64);
      int key = random.nextInt();
      boolean reference = parquetCheck(bytes, block, key);
      assertEquals(reference, SplitBlockVectorProbe.mayContain(w, block * 4, key), "key=" + key);
      assertEquals(
          reference, SplitBlockVectorProbe.scalar(w, block * 4, key), "scalar, key=" + key);
      maybes += reference ? 1 : 0;
    }
    assertTrue(maybes > 60_000 && maybes < 540_000, "both answers occur: " + maybes);
  }

  @Test
  void heapAndWrappedFiltersAnswerAlikeSingleAndBatch() throws Exception {
    assumeTrue(
        VectorGate.SPLIT_BLOCK.supported(), "runs in the vector-probe execution (256-bit vectors)");
    SplittableRandom random = new SplittableRandom(47);
    for (double bitsPerKey : new double[] {2, 6.5, 10, 16}) {
      int n = 30_000;
      long[] keys = random.longs(n).toArray();
      SplitBlockBloomFilter heap =
          SplitBlockBloomFilter.builder().bitsPerKey(bitsPerKey).build(keys);
      byte[] bitset = SplitBlockForm.toBytes(heap);
      SplitBlockBloomFilter wrapped =
          SplitBlockBloomFilter.wrapParquetBitset(
              ByteBuffer.allocateDirect(bitset.length).put(bitset).flip(), n);
      long[] hashes = new long[2 * n + 17];
      for (int i = 0; i < hashes.length; i++) {
        hashes[i] = i < n ? dev.sieve.hash.KeyHash.hash64(keys[i]) : random.nextLong();
      }
      long[] heapBatch = new long[(hashes.length + 63) / 64];
      long[] wrappedBatch = new long[(hashes.length + 63) / 64];
      // before the gate opens (scalar on both), then after (vector on the heap copy)
      for (int round = 0; round < 3; round++) {
        if (round == 1) {
          assertTrue(VectorGate.SPLIT_BLOCK.awaitOpen(120_000), VectorGate.SPLIT_BLOCK.toString());
        }
        int heapCount = heap.mayContainHashes(hashes, 0, hashes.length, heapBatch);
        int wrappedCount = wrapped.mayContainHashes(hashes, 0, hashes.length, wrappedBatch);
        assertEquals(wrappedCount, heapCount);
        for (int i = 0; i < hashes.length; i++) {
          long h = hashes[i];
          int block = (int) (((h >>> 32) * heap.numBlocks()) >>> 32);
          boolean reference = parquetCheck(bitset, block, (int) h);
          if (i < n) {
            assertTrue(reference, "the reference lost an added key");
          }
          assertEquals(reference, heap.mayContainHash(h), "heap, bits/key " + bitsPerKey);
          assertEquals(reference, wrapped.mayContainHash(h), "wrapped, bits/key " + bitsPerKey);
          assertEquals(reference, (heapBatch[i >>> 6] >>> i & 1) != 0, "heap batch");
          assertEquals(reference, (wrappedBatch[i >>> 6] >>> i & 1) != 0, "wrapped batch");
        }
        // an offset batch: the chunk boundaries move
        heap.mayContainHashes(hashes, 5, hashes.length - 5, heapBatch);
        wrapped.mayContainHashes(hashes, 5, hashes.length - 5, wrappedBatch);
        for (int i = 0; i < heapBatch.length; i++) {
          assertEquals(wrappedBatch[i], heapBatch[i], "offset batch word " + i);
        }
      }
    }
  }
}
