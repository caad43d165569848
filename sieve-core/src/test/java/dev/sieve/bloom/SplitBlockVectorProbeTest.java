package dev.sieve.bloom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
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

  /**
   * The batch kernel answers as Parquet's definition for batches of every length from 0 to 200 at
   * moving offsets (odd tails, chunk boundaries), over enough calls that it runs interpreted, then
   * as C1's and C2's code.
   */
  @Test
  void batchKernelAnswersAsParquetsDefinitionBeforeAndAfterCompilation() {
    assumeTrue(
        VectorGate.SPLIT_BLOCK.supported(), "runs in the vector-probe execution (256-bit vectors)");
    SplittableRandom random = new SplittableRandom(48);
    long[] w = blocksFromFullToEmpty(random);
    byte[] bytes = new byte[w.length * 8];
    ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN).asLongBuffer().put(w);
    long[] hashes = random.longs(256).toArray();
    long[] bits = new long[4];
    long maybes = 0;
    for (int call = 0; call < 12_000; call++) {
      int len = call % 201;
      int off = call % 47;
      for (int i = off; i < off + len; i++) {
        hashes[i] = random.nextLong();
      }
      int count = SplitBlockVectorProbe.mayContainHashes(w, 64, hashes, off, len, bits);
      int expected = 0;
      for (int i = 0; i < len; i++) {
        long h = hashes[off + i];
        boolean reference = parquetCheck(bytes, (int) (((h >>> 32) * 64) >>> 32), (int) h);
        expected += reference ? 1 : 0;
        assertEquals(reference, (bits[i >>> 6] >>> i & 1) != 0, "call " + call + ", key " + i);
      }
      assertEquals(expected, count, "call " + call);
      maybes += count;
    }
    assertTrue(maybes > 100_000 && maybes < 1_100_000, "both answers occur: " + maybes);
  }

  /**
   * {@link SplitBlockVectorProbe#mayContainHashes} stays longer than C2's {@code FreqInlineSize}
   * (325 bytes of bytecode, the default on JDK 17 and 25), so that C2 never inlines it into a
   * caller's compile, where its vector operations could land past {@code MaxInlineLevel} and be
   * boxed on every lookup (its Javadoc). Read from the class file's {@code Code} attribute.
   */
  @Test
  void batchKernelIsTooLongForC2ToInline() throws IOException {
    int length = codeLength("SplitBlockVectorProbe", "mayContainHashes");
    assertTrue(
        length > 325, "mayContainHashes is " + length + " bytes of bytecode; C2 inlines up to 325");
  }

  /**
   * The bytecode length of the one method {@code name} of the class {@code simpleName} of this
   * package, from its class file (read as a resource: the class is not loaded).
   */
  static int codeLength(String simpleName, String name) throws IOException {
    String resource = simpleName + ".class";
    try (InputStream raw = SplitBlockVectorProbeTest.class.getResourceAsStream(resource);
        DataInputStream in = new DataInputStream(raw)) {
      if (raw == null) {
        throw new IOException("no resource " + resource);
      }
      in.readInt(); // magic
      in.readInt(); // versions
      int poolSize = in.readUnsignedShort();
      String[] utf8 = new String[poolSize];
      for (int i = 1; i < poolSize; i++) {
        int tag = in.readUnsignedByte();
        switch (tag) {
          case 1 -> utf8[i] = in.readUTF();
          case 3, 4, 9, 10, 11, 12, 17, 18 -> in.readInt();
          case 5, 6 -> {
            in.readLong();
            i++;
          }
          case 7, 8, 16, 19, 20 -> in.readUnsignedShort();
          case 15 -> {
            in.readUnsignedByte();
            in.readUnsignedShort();
          }
          default -> throw new IOException("constant pool tag " + tag);
        }
      }
      in.readUnsignedShort(); // access
      in.readUnsignedShort(); // this
      in.readUnsignedShort(); // super
      in.skipBytes(2 * in.readUnsignedShort()); // interfaces
      int found = -1;
      for (int member = 0; member < 2; member++) { // fields, then methods
        int count = in.readUnsignedShort();
        for (int m = 0; m < count; m++) {
          in.readUnsignedShort(); // access
          String memberName = utf8[in.readUnsignedShort()];
          in.readUnsignedShort(); // descriptor
          int attributes = in.readUnsignedShort();
          for (int a = 0; a < attributes; a++) {
            String attribute = utf8[in.readUnsignedShort()];
            int size = in.readInt();
            if (member == 1 && memberName.equals(name) && attribute.equals("Code")) {
              in.readUnsignedShort(); // max stack
              in.readUnsignedShort(); // max locals
              int codeLength = in.readInt();
              if (found >= 0) {
                throw new IOException(name + " is overloaded");
              }
              found = codeLength;
              in.skipBytes(size - 8);
            } else {
              in.skipBytes(size);
            }
          }
        }
      }
      if (found < 0) {
        throw new IOException("no method " + name + " in " + resource);
      }
      return found;
    }
  }
}
