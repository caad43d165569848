package dev.sieve.format;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sieve.SieveFormatException;
import dev.sieve.bloom.BlockedBloomFilter;
import dev.sieve.bloom.StandardBloomFilter;
import dev.sieve.ribbon.Standard128RibbonFilter;
import java.nio.ByteBuffer;
import org.junit.jupiter.api.Test;

/**
 * The raw entry points (no checksum) refuse a block with no data together with a key count above 0
 * (such a block answers "absent" for every key, so the claimed keys would all be false negatives),
 * and a negative key count; with a count of 0 they still read RocksDB's empty blocks.
 */
class RawBlockKeyCountTest {

  private static final byte[] TRAILER_ONLY = {(byte) 0xFF, 0, 6, 0, 0};

  @Test
  void blockedBloomRefusesKeysInAnEmptyBlock() {
    for (byte[] empty : new byte[][] {new byte[0], TRAILER_ONLY}) {
      SieveFormatException e =
          assertThrows(
              SieveFormatException.class,
              () -> BlockedBloomFilter.fromRocksDbFilterBlock(empty, 1000));
      assertTrue(e.getMessage().contains("1000 keys"), e.getMessage());
      assertThrows(
          SieveFormatException.class,
          () -> BlockedBloomFilter.wrapRocksDbFilterBlock(ByteBuffer.wrap(empty), 1));
      BlockedBloomFilter ok = BlockedBloomFilter.fromRocksDbFilterBlock(empty, 0);
      assertFalse(ok.mayContain(1L));
      assertEquals(
          0, BlockedBloomFilter.wrapRocksDbFilterBlock(ByteBuffer.wrap(empty), 0).numKeys());
    }
    byte[] real =
        BlockedBloomFilter.builder()
            .bitsPerKey(10)
            .build(new long[] {1, 2, 3})
            .toRocksDbFilterBlock();
    assertEquals(3, BlockedBloomFilter.fromRocksDbFilterBlock(real, 3).numKeys());
    assertThrows(
        IllegalArgumentException.class, () -> BlockedBloomFilter.fromRocksDbFilterBlock(real, -1));
    assertThrows(
        IllegalArgumentException.class,
        () -> BlockedBloomFilter.wrapRocksDbFilterBlock(ByteBuffer.wrap(real), -1));
  }

  @Test
  void ribbonRefusesKeysInAnEmptyBlock() {
    assertThrows(
        SieveFormatException.class,
        () -> Standard128RibbonFilter.fromRocksDbFilterBlock(new byte[0], 7));
    assertThrows(
        SieveFormatException.class,
        () -> Standard128RibbonFilter.wrapRocksDbFilterBlock(ByteBuffer.allocate(0), 7));
    assertFalse(Standard128RibbonFilter.fromRocksDbFilterBlock(new byte[0], 0).mayContain(1L));
  }

  @Test
  void standardBloomRefusesANegativeKeyCount() {
    byte[] form =
        Forms.toBytes(StandardBloomFilter.builder().bitsPerKey(10).build(new long[] {1, 2}));
    assertThrows(
        IllegalArgumentException.class, () -> Forms.read(StandardBloomFilter.class, form, -1));
    assertThrows(
        IllegalArgumentException.class,
        () -> Forms.wrap(StandardBloomFilter.class, ByteBuffer.wrap(form), -5));
    assertEquals(2, Forms.read(StandardBloomFilter.class, form, 2).numKeys());
  }
}
