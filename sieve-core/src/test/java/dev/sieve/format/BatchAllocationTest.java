package dev.sieve.format;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.sieve.Filter;
import dev.sieve.KeyScheme;
import dev.sieve.hash.KeyHash;
import dev.sieve.internal.Schemes;
import dev.sieve.registry.FilterType;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.util.SplittableRandom;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The batch queries allocate nothing per call in the steady state: after a warm-up, 500 calls of
 * each batch method (1,000 keys each) on the heap filter, its wrapped form and its fast long-key
 * form allocate less than 1 KiB in all, where one object per call would be at least 8 KiB.
 */
class BatchAllocationTest {

  @ParameterizedTest
  @MethodSource("dev.sieve.format.TestTypes#builtIn") // foreign: ForeignContainerTest
  void batchesDoNotAllocatePerCall(FilterType type) {
    java.lang.management.ThreadMXBean bean = ManagementFactory.getThreadMXBean();
    assumeTrue(
        bean instanceof com.sun.management.ThreadMXBean,
        "this JVM does not measure per-thread allocation");
    com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) bean;
    assumeTrue(threads.isThreadAllocatedMemorySupported(), "allocation measurement unsupported");
    threads.setThreadAllocatedMemoryEnabled(true);

    long[] keys = new SplittableRandom(3).longs(5000).toArray();
    long[] hashes = new long[keys.length];
    byte[][] byteKeys = new byte[keys.length][];
    for (int i = 0; i < keys.length; i++) {
      hashes[i] = KeyHash.hash64(keys[i]);
      byteKeys[i] = new byte[] {(byte) i, (byte) (i >>> 8), 7};
    }
    Filter heap = TestFilters.build(type, keys);
    Filter wrapped = SieveFormat.wrap(ByteBuffer.wrap(SieveFormat.toBytes(heap)));
    // the same data under the fast long-key scheme of the type, and under Parquet's (the answers
    // do not matter here, only that the other schemes' batches allocate nothing either)
    Filter mixed =
        Schemes.apply(
            heap, KeySchemeContainerTest.mixesItself(type) ? KeyScheme.IDENTITY : KeyScheme.MIX64);
    Filter parquet = Schemes.apply(heap, KeyScheme.PARQUET_XXH64);
    Filter[] both = {heap, wrapped};
    long[] bits = new long[16];
    long sink = 0;
    for (int round = 0; round < 2; round++) {
      long before = threads.getThreadAllocatedBytes(Thread.currentThread().getId());
      for (int call = 0; call < 500; call++) {
        int off = (call * 7) % 4000;
        for (Filter f : both) {
          sink += f.mayContainHashes(hashes, off, 1000, bits);
          sink += f.mayContainBatch(keys, off, 1000, bits);
          sink += f.mayContainBatch(byteKeys, off, 1000, bits);
        }
        sink += mixed.mayContainBatch(keys, off, 1000, bits);
        sink += parquet.mayContainBatch(keys, off, 1000, bits);
        sink += parquet.mayContainBatch(byteKeys, off, 1000, bits);
      }
      long allocated = threads.getThreadAllocatedBytes(Thread.currentThread().getId()) - before;
      // round 0 warms up (class loading, the per-thread scratch); round 1 is measured
      if (round == 1) {
        assertTrue(allocated < 1024, type + ": 500 batch calls allocated " + allocated + " bytes");
      }
    }
    assertTrue(sink > 0);
  }
}
