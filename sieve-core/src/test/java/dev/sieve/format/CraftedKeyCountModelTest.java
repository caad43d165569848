package dev.sieve.format;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sieve.Filter;
import dev.sieve.bloom.ScalableBloomFilter;
import dev.sieve.bloom.SplitBlockBloomFilter;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * Containers whose key counts are huge for their size (CRCs recomputed, so the readers accept them)
 * must not hang the FPR model: {@code modelledFpRate()} returns within 2 s. A model that looped
 * over the claimed keys (2^33 or 2^40 of them) would take from several seconds to hours; the bound
 * is that loose so that a loaded machine (a cold JIT, a busy core) cannot fail a correct model.
 */
class CraftedKeyCountModelTest {

  private static final Duration PROMPT = Duration.ofSeconds(2);

  /** A split-block container whose header key count has bit 33 set. */
  @Test
  void splitBlockWithBit33KeyCount() {
    Filter f = SplitBlockBloomFilter.builder().fpRate(0.01).build(TestFilters.keys(100, 1));
    byte[] crafted =
        TestFilters.withLong(
            SieveFormat.toBytes(f), SieveFormat.KEYS_OFFSET, f.numKeys() | (1L << 33));
    for (Filter read :
        new Filter[] {SieveFormat.read(crafted), SieveFormat.wrap(ByteBuffer.wrap(crafted))}) {
      assertEquals(f.numKeys() | (1L << 33), read.numKeys());
      double rate = assertTimeoutPreemptively(PROMPT, read::modelledFpRate);
      assertEquals(1.0, rate, 1e-9);
    }
  }

  /** A scalable container whose one stage claims 2^40 keys in a 69-byte filter block. */
  @Test
  void scalableWith2To40KeyStages() {
    ScalableBloomFilter f = ScalableBloomFilter.builder().expectedKeys(10).fpRate(0.01).create();
    for (long key : TestFilters.keys(5, 3)) {
      f.add(key);
    }
    assertEquals(1, f.numStages());
    byte[] bytes = SieveFormat.toBytes(f);
    ByteBuffer b = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
    int payload = SieveFormat.HEADER_BYTES;
    long huge = 1L << 40;
    b.putLong(payload + 8, huge); // initial capacity: stage 0's capacity
    b.putLong(payload + 64, huge); // stage 0 capacity
    b.putLong(payload + 64 + 8, huge); // stage 0 key count
    b.putLong(SieveFormat.KEYS_OFFSET, huge);
    byte[] crafted = TestFilters.fixChecksums(bytes);
    for (Filter read :
        new Filter[] {SieveFormat.read(crafted), SieveFormat.wrap(ByteBuffer.wrap(crafted))}) {
      assertEquals(huge, read.numKeys());
      double rate = assertTimeoutPreemptively(PROMPT, read::modelledFpRate);
      assertTrue(rate > 0.99 && rate <= 1.0, "saturated, got " + rate);
    }
  }
}
