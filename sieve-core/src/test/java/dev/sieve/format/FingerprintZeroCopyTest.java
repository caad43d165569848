package dev.sieve.format;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sieve.Filter;
import dev.sieve.registry.FilterType;
import java.nio.ByteBuffer;
import java.util.SplittableRandom;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Xor, Binary Fuse and Cuckoo filters wrapped in place answer exactly as the heap filters. */
class FingerprintZeroCopyTest {

  @ParameterizedTest
  @EnumSource(
      value = FilterType.class,
      names = {"XOR8", "XOR16", "BINARY_FUSE8", "BINARY_FUSE16", "CUCKOO"})
  void wrappedAnswersAsHeapAndIsNotACopy(FilterType type) {
    long[] keys = TestFilters.keys(3000, 5);
    Filter heap = TestFilters.build(type, keys);
    byte[] container = SieveFormat.toBytes(heap);
    ByteBuffer direct = ByteBuffer.allocateDirect(container.length + 13);
    direct.position(13);
    direct.put(container).position(13);
    Filter wrapped = SieveFormat.wrap(direct, TestTypes.filterClass(type));
    assertTrue(SieveFormat.readsInPlace(type));
    for (long k : keys) {
      assertTrue(wrapped.mayContain(k));
    }
    SplittableRandom r = new SplittableRandom(type.id());
    for (int i = 0; i < 100_000; i++) {
      long h = r.nextLong();
      assertEquals(heap.mayContainHash(h), wrapped.mayContainHash(h));
    }
    assertArrayEquals(container, SieveFormat.toBytes(wrapped));
    assertEquals(heap, wrapped);
    assertEquals(heap.hashCode(), wrapped.hashCode());
    // zero all payload bytes after the filter's own header: some key's answer must change
    int from = 13 + SieveFormat.HEADER_BYTES + 24;
    for (int i = from; i < 13 + container.length - SieveFormat.CHECKSUM_BYTES; i++) {
      direct.put(i, (byte) 0x5A);
    }
    int changed = 0;
    for (long k : keys) {
      if (!wrapped.mayContain(k)) {
        changed++;
      }
    }
    assertTrue(changed > 0, "the wrapped filter did not see the buffer change");
  }
}
