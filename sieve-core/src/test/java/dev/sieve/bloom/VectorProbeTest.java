package dev.sieve.bloom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.sieve.hash.KeyHash;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The SIMD line test of {@link VectorLineProbe} and when {@link BlockedBloomFilter} uses it.
 *
 * <p>sieve-core's tests run twice: once without {@code jdk.incubator.vector} (the default
 * execution: the scalar path must be in use and no incubator class touched) and once in the
 * surefire execution {@code vector-probe} with {@code --add-modules jdk.incubator.vector} and
 * {@code -Dsieve.test.vectorExpected=true} (the SIMD path must be in use, and its every answer must
 * be the scalar path's after C2 has compiled both: an earlier two-vector rearrange form gave false
 * negatives only once compiled).
 */
class VectorProbeTest {

  private static final boolean EXPECTED = Boolean.getBoolean("sieve.test.vectorExpected");

  @Test
  void theVectorPathIsUsedExactlyWhenTheModuleIsThere() {
    assertEquals(EXPECTED, BlockedBloomFilter.usesVectorProbe());
    assertEquals(EXPECTED, VectorGate.BLOCKED_BLOOM.supported());
  }

  @Test
  void everyLineAnswersAsTheScalarLoopOnceCompiled() {
    assumeTrue(VectorGate.BLOCKED_BLOOM.supported(), "runs in the vector-probe execution");
    SplittableRandom random = new SplittableRandom(43);
    long[] w = ProbeFormsTest.linesFromFullToEmpty(random);
    int maybes = 0;
    // three rounds of 200,000: the later ones run the C2-compiled vector code
    for (int q = 0; q < 600_000; q++) {
      int base = random.nextInt(64) * 8;
      int h = random.nextInt();
      int k = 1 + random.nextInt(30);
      boolean scalar = BlockedBloomKernel.earlyLoop(w, base, h, k);
      assertEquals(scalar, VectorLineProbe.mayContain(w, base, h, k), "k=" + k + " h=" + h);
      maybes += scalar ? 1 : 0;
    }
    assertTrue(maybes > 60_000 && maybes < 540_000, "both answers occur: " + maybes);
  }

  @Test
  void filtersAnswerAsTheirScalarCopiesSingleAndBatch() {
    SplittableRandom random = new SplittableRandom(44);
    for (double bitsPerKey : new double[] {2, 6.5, 10, 16, 23.5}) {
      int n = 50_000;
      long[] keys = random.longs(n).toArray();
      BlockedBloomFilter filter = BlockedBloomFilter.builder().bitsPerKey(bitsPerKey).build(keys);
      long[] words = heapWords(filter);
      int numBlocks = filter.numBlocks();
      long[] hashes = new long[2 * n];
      for (int i = 0; i < n; i++) {
        hashes[i] = KeyHash.hash64(keys[i]);
        hashes[n + i] = KeyHash.hash64(random.nextLong());
      }
      long[] batch = new long[(hashes.length + 63) / 64];
      for (int round = 0; round < 3; round++) {
        filter.mayContainHashes(hashes, 0, hashes.length, batch);
        for (int i = 0; i < hashes.length; i++) {
          long hash = hashes[i];
          int base = (int) (((hash & 0xFFFFFFFFL) * numBlocks) >>> 32) * 8;
          boolean scalar =
              BlockedBloomKernel.earlyLoop(words, base, (int) (hash >>> 32), filter.numProbes());
          if (i < n) {
            assertTrue(scalar, "scalar copy lost a key");
          }
          assertEquals(scalar, filter.mayContainHash(hash), "single, bits/key " + bitsPerKey);
          assertEquals(scalar, (batch[i >>> 6] >>> i & 1) != 0, "batch, bits/key " + bitsPerKey);
        }
      }
    }
  }

  /** The filter's data as little-endian words, read back from its RocksDB block. */
  private static long[] heapWords(BlockedBloomFilter filter) {
    byte[] block = filter.toRocksDbFilterBlock();
    long[] words = new long[(block.length - BlockedBloomForm.TRAILER_BYTES) / 8];
    ByteBuffer.wrap(block, 0, words.length * 8)
        .order(ByteOrder.LITTLE_ENDIAN)
        .asLongBuffer()
        .get(words);
    return words;
  }
}
