package dev.sieve.bloom;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sieve.Filter;
import dev.sieve.SieveFormatException;
import java.nio.ByteBuffer;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** Filters read in place from heap, direct and segmented buffers answer as the heap filter. */
class BloomZeroCopyTest {
  private static final long[] KEYS = new SplittableRandom(9).longs(20_000).toArray();

  private static void assertSameAnswers(Filter expected, Filter actual) {
    for (long key : KEYS) {
      assertTrue(actual.mayContain(key));
    }
    SplittableRandom random = new SplittableRandom(10);
    for (int i = 0; i < 50_000; i++) {
      long h = random.nextLong();
      assertEquals(expected.mayContainHash(h), actual.mayContainHash(h));
    }
    assertEquals(expected.sizeInBits(), actual.sizeInBits());
  }

  /** Splits {@code data} into pieces of {@code 2^shift} bytes, each in its own direct buffer. */
  private static ByteBuffer[] segments(byte[] data, int from, int length, int shift) {
    int size = 1 << shift;
    int count = Math.max(1, (length + size - 1) / size);
    ByteBuffer[] out = new ByteBuffer[count];
    for (int i = 0; i < count; i++) {
      int n = Math.min(size, length - i * size);
      out[i] = ByteBuffer.allocateDirect(n).put(data, from + i * size, n).flip();
    }
    return out;
  }

  @Test
  void blockedBloomWrapsBuffersInPlace() {
    BlockedBloomFilter heap = BlockedBloomFilter.builder().bitsPerKey(10).build(KEYS);
    byte[] block = heap.toRocksDbFilterBlock();
    ByteBuffer direct = ByteBuffer.allocateDirect(block.length + 3);
    direct.position(3);
    direct.put(block).position(3);
    BlockedBloomFilter wrapped = BlockedBloomFilter.wrapRocksDbFilterBlock(direct, KEYS.length);
    assertTrue(wrapped.isWrapped());
    assertSameAnswers(heap, wrapped);
    assertArrayEquals(block, wrapped.toRocksDbFilterBlock());
    assertEquals(heap, wrapped);
    assertThrows(UnsupportedOperationException.class, () -> wrapped.add(1L));
    BlockedBloomFilter segmented =
        BlockedBloomForm.wrapData(
            segments(block, 0, block.length - 5, 10),
            10,
            block.length - 5,
            heap.numProbes(),
            KEYS.length);
    assertSameAnswers(heap, segmented.withKeyScheme(heap.keyScheme()));
    // a mutable copy of a wrapped filter takes adds
    BlockedBloomFilter copy = wrapped.copy();
    copy.add(123L);
    assertTrue(copy.mayContain(123L));
    ByteBuffer corrupt = ByteBuffer.wrap(block.clone());
    corrupt.put(block.length - 5, (byte) 0);
    assertThrows(
        SieveFormatException.class, () -> BlockedBloomFilter.wrapRocksDbFilterBlock(corrupt, 0));
  }

  @Test
  void streamedBlocksEqualTheArrayForm() throws java.io.IOException {
    BlockedBloomFilter heap = BlockedBloomFilter.builder().bitsPerKey(10).build(KEYS);
    java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
    heap.writeRocksDbFilterBlock(java.nio.channels.Channels.newChannel(out));
    assertArrayEquals(heap.toRocksDbFilterBlock(), out.toByteArray());
    assertEquals(heap.rocksDbFilterBlockLength(), out.size());
    dev.sieve.ribbon.Standard128RibbonFilter ribbon =
        dev.sieve.ribbon.Standard128RibbonFilter.builder()
            .bloomEquivalentBitsPerKey(10)
            .build(KEYS);
    out.reset();
    ribbon.writeRocksDbFilterBlock(java.nio.channels.Channels.newChannel(out));
    assertArrayEquals(ribbon.toRocksDbFilterBlock(), out.toByteArray());
    assertEquals(ribbon.rocksDbFilterBlockLength(), out.size());
    out.reset();
    BlockedBloomFilter.builder()
        .build(new long[0])
        .writeRocksDbFilterBlock(java.nio.channels.Channels.newChannel(out));
    assertEquals(0, out.size());
  }

  @Test
  void standardBloomFormRoundTripsAndWraps() {
    StandardBloomFilter heap = StandardBloomFilter.builder().bitsPerKey(9.3).build(KEYS);
    byte[] form = heap.toByteArray();
    // the form carries no key scheme: read back, the filter is given the one it was built with
    StandardBloomFilter read =
        StandardBloomFilter.fromByteArray(form, KEYS.length).withKeyScheme(heap.keyScheme());
    assertEquals(heap, read);
    assertSameAnswers(heap, read);
    StandardBloomFilter wrapped =
        StandardBloomFilter.wrap(ByteBuffer.wrap(form), KEYS.length)
            .withKeyScheme(heap.keyScheme());
    assertSameAnswers(heap, wrapped);
    assertArrayEquals(form, wrapped.toByteArray());
    assertThrows(UnsupportedOperationException.class, () -> wrapped.add(1L));
    int dataLen = form.length - StandardBloomFilter.HEADER_BYTES;
    StandardBloomFilter segmented =
        StandardBloomForm.wrapData(
            segments(form, StandardBloomFilter.HEADER_BYTES, dataLen, 9),
            9,
            heap.sizeInBits(),
            heap.numProbes(),
            KEYS.length);
    assertSameAnswers(heap, segmented.withKeyScheme(heap.keyScheme()));
  }

  @Test
  void standardBloomFormRejectsBadHeaders() {
    byte[] form = StandardBloomFilter.withShape(1000, 3).toByteArray();
    assertThrows(
        SieveFormatException.class, () -> StandardBloomFilter.fromByteArray(new byte[10], 0));
    byte[] truncated = java.util.Arrays.copyOf(form, form.length - 1);
    assertThrows(SieveFormatException.class, () -> StandardBloomFilter.fromByteArray(truncated, 0));
    byte[] hugeBits = form.clone();
    hugeBits[7] = 0x7F; // claims ~2^62 bits: refused before any allocation
    SieveFormatException e =
        assertThrows(
            SieveFormatException.class, () -> StandardBloomFilter.fromByteArray(hugeBits, 0));
    assertEquals(0, e.offset());
    byte[] badProbes = form.clone();
    badProbes[8] = 0;
    assertEquals(
        8,
        assertThrows(
                SieveFormatException.class, () -> StandardBloomFilter.fromByteArray(badProbes, 0))
            .offset());
    byte[] reserved = form.clone();
    reserved[12] = 1;
    assertThrows(
        SieveFormatException.class, () -> StandardBloomFilter.wrap(ByteBuffer.wrap(reserved), 0));
  }
}
