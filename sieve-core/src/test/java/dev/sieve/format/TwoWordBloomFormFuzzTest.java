package dev.sieve.format;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.sieve.bloom.TwoWordBloomFilter;
import dev.sieve.internal.Families;
import dev.sieve.internal.PayloadForm;
import java.nio.ByteBuffer;

/**
 * Fuzz target for {@link TwoWordBloomFilter}'s payload form (container type 22), read from an array
 * and wrapped in place: a typed error or a filter both readers agree on, that re-serializes to the
 * same bytes and keeps an added key.
 */
class TwoWordBloomFormFuzzTest {

  @FuzzTest(maxDuration = "30s")
  void fuzz(byte[] data) {
    PayloadForm<TwoWordBloomFilter> form = Families.get().form(TwoWordBloomFilter.class);
    TwoWordBloomFilter heap = FuzzSupport.readOrNull(() -> form.read(data, 0));
    ByteBuffer direct = ByteBuffer.allocateDirect(data.length).put(data).flip();
    TwoWordBloomFilter wrapped = FuzzSupport.readOrNull(() -> form.wrap(direct, 0));
    assertEquals(heap == null, wrapped == null, "copying and wrapping readers disagree");
    if (heap == null) {
      return;
    }
    assertArrayEquals(data, form.payload(heap));
    assertArrayEquals(data, form.payload(wrapped));
    FuzzSupport.assertSameAnswers(heap, wrapped, data);
    long key = data.length * 0x9E3779B97F4A7C15L;
    heap.add(key);
    assertTrue(heap.mayContain(key));
    long[] result = new long[1];
    assertEquals(
        1, heap.mayContainHashes(new long[] {dev.sieve.hash.KeyHash.hash64(key)}, 0, 1, result));
    assertTrue(heap.approximateElementCount() >= 0);
    assertTrue(heap.expectedFpRate() >= 0 && heap.expectedFpRate() <= 1);
  }
}
