package dev.sieve.bloom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.sieve.hash.KeyHash;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The gate between the scalar and the SIMD Bloom probes ({@link VectorGate}): shut without the
 * module, no thread; with it (the {@code vector-probe} execution), lookups from many threads past
 * the warm-up's count start one daemon thread, the gate opens, the filters then take the vector
 * probe and answer as the scalar path, and the thread ends.
 */
class VectorGateTest {

  private static final boolean EXPECTED = Boolean.getBoolean("sieve.test.vectorExpected");

  @Test
  void withoutTheModuleNothingStartsAndTheScalarPathAnswers() {
    assumeTrue(!EXPECTED, "runs in the default execution");
    assertFalse(VectorGate.MODULE_READABLE);
    BlockedBloomFilter.builder().bitsPerKey(10).build(new long[] {1, 2, 3});
    SplitBlockBloomFilter.builder().bitsPerKey(10).build(new long[] {1, 2, 3});
    assertEquals(VectorGate.IDLE, VectorGate.BLOCKED_BLOOM.state());
    assertEquals(VectorGate.IDLE, VectorGate.SPLIT_BLOCK.state());
    assertFalse(BlockedBloomFilter.usesVectorProbe());
    assertFalse(BlockedBloomFilter.vectorProbeActive());
    assertFalse(SplitBlockBloomFilter.usesVectorProbe());
    assertFalse(SplitBlockBloomFilter.vectorProbeActive());
    assertEquals(0, warmupThreads(), "no warm-up thread without the module");
  }

  @Test
  void lookupsFromManyThreadsStartOneDaemonThatOpensBothGatesAndEnds() throws Exception {
    assumeTrue(EXPECTED, "runs in the vector-probe execution");
    assertTrue(BlockedBloomFilter.usesVectorProbe());
    assertTrue(SplitBlockBloomFilter.usesVectorProbe());
    AtomicInteger mostThreads = new AtomicInteger();
    AtomicInteger hits = new AtomicInteger();
    List<Thread> creators = new ArrayList<>();
    for (int t = 0; t < 4; t++) {
      long seed = t;
      Thread c =
          new Thread(
              () -> {
                SplittableRandom random = new SplittableRandom(seed);
                for (int i = 0; i < 100; i++) {
                  long[] keys = random.longs(20).toArray();
                  BlockedBloomFilter blocked =
                      BlockedBloomFilter.builder().bitsPerKey(10).build(keys);
                  SplitBlockBloomFilter split =
                      SplitBlockBloomFilter.builder().bitsPerKey(10).build(keys);
                  // 4 · 100 · 6,000 = 2.4·10^6 lookups of each kind: past the warm-up's 2^20
                  for (int q = 0; q < 6_000; q++) {
                    long h = random.nextLong();
                    boolean b = blocked.mayContainHash(h);
                    boolean sb = split.mayContainHash(h); // both asked: no short circuit
                    if (b || sb) {
                      hits.incrementAndGet();
                    }
                  }
                  mostThreads.accumulateAndGet(warmupThreads(), Math::max);
                }
              });
      creators.add(c);
      c.start();
    }
    for (Thread c : creators) {
      c.join();
    }
    // the lookups' count makes both gates due (awaitSettled starts none)
    assertTrue(VectorGate.BLOCKED_BLOOM.state() != VectorGate.IDLE, "blocked Bloom gate queued");
    assertTrue(VectorGate.SPLIT_BLOCK.state() != VectorGate.IDLE, "split-block gate queued");
    assertTrue(VectorGate.BLOCKED_BLOOM.awaitSettled(120_000), VectorGate.BLOCKED_BLOOM.toString());
    assertTrue(VectorGate.SPLIT_BLOCK.awaitSettled(120_000), VectorGate.SPLIT_BLOCK.toString());
    assertTrue(hits.get() < 240_000, "most random hashes are absent from 20-key filters");
    assertTrue(mostThreads.get() <= 1, "warm-up threads at once: " + mostThreads.get());
    assertTrue(BlockedBloomFilter.vectorProbeActive());
    assertTrue(SplitBlockBloomFilter.vectorProbeActive());
    for (Thread t : Thread.getAllStackTraces().keySet()) {
      if (t.getName().equals(VectorGate.THREAD_NAME)) {
        assertTrue(t.isDaemon(), "the warm-up thread is a daemon");
        t.join(30_000);
        assertFalse(t.isAlive(), "the warm-up thread ends once no gate is left to warm");
      }
    }
    assertEquals(0, warmupThreads());
  }

  @Test
  void onceOpenTheFiltersTakeTheVectorProbeAndAnswerAsTheScalarReference() throws Exception {
    assumeTrue(EXPECTED, "runs in the vector-probe execution");
    SplittableRandom random = new SplittableRandom(45);
    int n = 40_000;
    long[] keys = random.longs(n).toArray();
    BlockedBloomFilter blocked = BlockedBloomFilter.builder().bitsPerKey(10).build(keys);
    SplitBlockBloomFilter split = SplitBlockBloomFilter.builder().bitsPerKey(10).build(keys);
    SplitBlockBloomFilter wrapped =
        SplitBlockBloomFilter.wrapParquetBitset(
            java.nio.ByteBuffer.wrap(SplitBlockForm.toBytes(split)), n);
    assertTrue(VectorGate.BLOCKED_BLOOM.awaitOpen(120_000), VectorGate.BLOCKED_BLOOM.toString());
    assertTrue(VectorGate.SPLIT_BLOCK.awaitOpen(120_000), VectorGate.SPLIT_BLOCK.toString());
    long[] hashes = new long[2 * n];
    for (int i = 0; i < n; i++) {
      hashes[i] = KeyHash.hash64(keys[i]);
      hashes[n + i] = KeyHash.hash64(random.nextLong());
    }
    long[] blockedBatch = new long[hashes.length / 64 + 1];
    long[] splitBatch = new long[hashes.length / 64 + 1];
    long[] wrappedBatch = new long[hashes.length / 64 + 1];
    int maybes = 0;
    for (int round = 0; round < 3; round++) {
      blocked.mayContainHashes(hashes, 0, hashes.length, blockedBatch);
      split.mayContainHashes(hashes, 0, hashes.length, splitBatch);
      wrapped.mayContainHashes(hashes, 0, hashes.length, wrappedBatch);
      for (int i = 0; i < hashes.length; i++) {
        boolean b = blocked.mayContainHash(hashes[i]);
        boolean s = split.mayContainHash(hashes[i]);
        if (i < n) {
          assertTrue(b && s, "an added key answered absent");
        }
        assertEquals(b, (blockedBatch[i >>> 6] >>> i & 1) != 0, "blocked batch");
        assertEquals(s, wrapped.mayContainHash(hashes[i]), "split-block heap vs wrapped");
        assertEquals(s, (splitBatch[i >>> 6] >>> i & 1) != 0, "split-block batch");
        assertEquals(s, (wrappedBatch[i >>> 6] >>> i & 1) != 0, "split-block wrapped batch");
        maybes += s ? 1 : 0;
      }
    }
    assertTrue(maybes > 3 * n && maybes < 3 * n + 3 * n / 10, "maybes " + maybes);
  }

  private static int warmupThreads() {
    int count = 0;
    for (Thread t : Thread.getAllStackTraces().keySet()) {
      count += t.getName().equals(VectorGate.THREAD_NAME) && t.isAlive() ? 1 : 0;
    }
    return count;
  }
}
