package dev.sieve.format;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.sieve.KeyScheme;
import dev.sieve.bloom.ScalableBloomFilter;
import dev.sieve.bloom.ScalableBloomRawForm;
import java.nio.ByteBuffer;

/**
 * Fuzz target for {@link ScalableBloomRawForm#read} and {@link ScalableBloomRawForm#wrap} (the
 * payload without the container): both refuse with a typed error or both return a filter that
 * re-serializes to the same bytes, answers as the other, and (on a mutable copy whose newest stage
 * has room, so no stage is allocated from fuzzed parameters) keeps a key added to it. The corpus is
 * in {@code src/test/resources/dev/sieve/format/ScalableBloomFormFuzzTestInputs/fuzz/}.
 */
class ScalableBloomFormFuzzTest {

  @FuzzTest(maxDuration = "30s")
  void fuzz(byte[] data) {
    ScalableBloomFilter heap =
        FuzzSupport.readOrNull(() -> ScalableBloomRawForm.read(data, KeyScheme.XXPH3));
    ByteBuffer direct = ByteBuffer.allocateDirect(data.length).put(data).flip();
    ScalableBloomFilter wrapped =
        FuzzSupport.readOrNull(() -> ScalableBloomRawForm.wrap(direct, KeyScheme.XXPH3));
    assertEquals(heap == null, wrapped == null, "byte[] and ByteBuffer readers disagree");
    if (heap == null) {
      return;
    }
    assertArrayEquals(data, ScalableBloomRawForm.bytes(heap));
    assertArrayEquals(data, ScalableBloomRawForm.bytes(wrapped));
    FuzzSupport.assertSameAnswers(heap, wrapped, data);
    int newest = heap.numStages() - 1;
    if (heap.stageKeys(newest) < heap.stageCapacity(newest)) {
      ScalableBloomFilter copy = heap.copy();
      long key = data.length * 0x9E3779B97F4A7C15L;
      copy.add(key);
      assertTrue(copy.mayContain(key));
    }
  }
}
