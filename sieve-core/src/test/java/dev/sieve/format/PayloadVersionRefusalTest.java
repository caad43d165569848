package dev.sieve.format;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sieve.Filter;
import dev.sieve.SieveFormatException;
import dev.sieve.bloom.BlockedBloomFilter;
import dev.sieve.bloom.ScalableBloomFilter;
import dev.sieve.registry.FilterType;
import dev.sieve.shard.ShardedFilter;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/**
 * Each form reads exactly one payload version, the one it writes. A container whose payload carries
 * any other version (one of the layouts these forms had before 1.0, or a later one) is refused with
 * a {@link SieveFormatException} at the version field that names the version found and the one
 * supported, by the heap and the in-place reader alike, never read with a layout it was not written
 * in. Each container here is a current one with its version field changed and both checksums
 * recomputed, so the version is the only thing the reader can object to; where the earlier layout
 * differs only in that field (Cuckoo 0, scalable Bloom 1 with its probe counts zeroed, sharded 0 of
 * one shard with its parameters zeroed) the bytes are a well-formed payload of that version.
 */
class PayloadVersionRefusalTest {
  static final int P = SieveFormat.HEADER_BYTES;

  /**
   * Both readers refuse {@code container} at its version field, naming the form and both versions
   * (sieve-range's version checks use it too).
   */
  static void assertRefused(
      byte[] container, int fieldOffset, String form, int found, int supported) {
    byte[] fixed = TestFilters.fixChecksums(container);
    for (Supplier<Filter> reader :
        java.util.List.<Supplier<Filter>>of(
            () -> SieveFormat.read(fixed), () -> SieveFormat.wrap(ByteBuffer.wrap(fixed)))) {
      SieveFormatException e = assertThrows(SieveFormatException.class, reader::get, form);
      String expected =
          form
              + " payload version "
              + found
              + " is not supported (this reader reads "
              + supported
              + ")";
      assertTrue(e.getMessage().endsWith(expected), e.getMessage());
      assertEquals(P + fieldOffset, e.offset(), e.getMessage());
    }
  }

  private static ByteBuffer le(byte[] b) {
    return ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN);
  }

  @Test
  void cuckooReadsOnlyVersion1() {
    byte[] b = SieveFormat.toBytes(TestFilters.build(FilterType.CUCKOO, TestFilters.keys(300, 1)));
    assertEquals(1, b[P + 3]);
    for (int version : new int[] {0, 2}) {
      byte[] edited = b.clone();
      edited[P + 3] = (byte) version;
      assertRefused(edited, 3, "cuckoo", version, 1);
    }
  }

  @Test
  void scalableBloomReadsOnlyVersion2() {
    ScalableBloomFilter f = ScalableBloomFilter.builder().expectedKeys(100).fpRate(0.01).create();
    for (long k : TestFilters.keys(300, 2)) {
      f.add(k);
    }
    byte[] b = SieveFormat.toBytes(f);
    assertEquals(2, le(b).getInt(P));
    // version 1's layout: the stage entries' probe counts (entry + 24) were reserved zeros
    byte[] one = b.clone();
    le(one).putInt(P, 1);
    for (int i = 0; i < f.numStages(); i++) {
      le(one).putInt(P + 64 + 32 * i + 24, 0);
    }
    assertRefused(one, 0, "scalable Bloom", 1, 2);
    byte[] three = b.clone();
    le(three).putInt(P, 3);
    assertRefused(three, 0, "scalable Bloom", 3, 2);
  }

  @Test
  void shardedReadsOnlyVersion1() {
    // one shard: its table ends before byte 64 with 24-byte (version 0) and 32-byte entries alike,
    // so the shard sits where version 0 put it and zeroing the entry's A and B gives version 0
    ShardedFilter f =
        ShardedFilter.builder(1, () -> BlockedBloomFilter.builder().bitsPerKey(10))
            .build(TestFilters.keys(300, 3));
    byte[] b = SieveFormat.toBytes(f);
    assertEquals(1, le(b).getShort(P + 6));
    byte[] zero = b.clone();
    le(zero).putShort(P + 6, (short) 0);
    le(zero).putLong(P + 16 + 24, 0);
    assertRefused(zero, 6, "sharded", 0, 1);
    byte[] two = b.clone();
    le(two).putShort(P + 6, (short) 2);
    assertRefused(two, 6, "sharded", 2, 1);
  }

  @Test
  void expandableReadsOnlyVersion3() {
    byte[] b =
        SieveFormat.toBytes(TestFilters.build(FilterType.EXPANDABLE, TestFilters.keys(300, 4)));
    assertEquals(3, b[P + 1]);
    for (int version : new int[] {1, 2, 4}) {
      byte[] edited = b.clone();
      edited[P + 1] = (byte) version;
      assertRefused(edited, 1, "expandable", version, 3);
    }
  }
}
