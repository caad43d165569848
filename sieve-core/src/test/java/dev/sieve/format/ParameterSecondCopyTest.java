package dev.sieve.format;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sieve.Filter;
import dev.sieve.KeyScheme;
import dev.sieve.SieveFormatException;
import dev.sieve.bloom.BlockedBloomFilter;
import dev.sieve.bloom.ScalableBloomFilter;
import dev.sieve.bloom.ScalableBloomRawForm;
import dev.sieve.registry.FilterType;
import dev.sieve.shard.ShardedFilter;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.junit.jupiter.api.Test;

/**
 * A shard's or a stage's probe count, and a Ribbon shard's seed and num_blocks, have a second copy
 * (the shard table's parameters A and B, the stage entry's probe count), so editing the first copy
 * behind recomputed checksums is refused with a {@link SieveFormatException}, as the same edit in a
 * plain container is (its header holds A and B), instead of giving a filter that answers "absent"
 * for keys it holds. The payload versions without the second copy are not read at all ({@link
 * PayloadVersionRefusalTest}), so no payload escapes the check.
 */
class ParameterSecondCopyTest {
  /** The sharded payload's shard table: its offset and the bytes of one entry (docs/format.md). */
  private static final int TABLE_OFFSET = 16;

  private static final int ENTRY_BYTES = 32;

  private static final int P = SieveFormat.HEADER_BYTES;
  private static final int T = P + TABLE_OFFSET;

  private static long shardOffset(byte[] b, int shard) {
    return ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN).getLong(T + ENTRY_BYTES * shard);
  }

  private static long shardLength(byte[] b, int shard) {
    return ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN).getLong(T + ENTRY_BYTES * shard + 8);
  }

  /** The file offset of shard {@code i}'s 5-byte RocksDB block trailer. */
  private static int shardTrailer(byte[] b, int shard) {
    return (int) (P + shardOffset(b, shard) + shardLength(b, shard) - 5);
  }

  private static void assertRefused(byte[] edited, String words) {
    for (java.util.function.Supplier<Filter> reader :
        java.util.List.<java.util.function.Supplier<Filter>>of(
            () -> SieveFormat.read(edited), () -> SieveFormat.wrap(ByteBuffer.wrap(edited)))) {
      SieveFormatException e = assertThrows(SieveFormatException.class, reader::get);
      assertTrue(e.getMessage().contains(words), e.getMessage());
    }
  }

  @Test
  void aBlockedBloomShardsProbeCountEditIsRefused() {
    long[] keys = TestFilters.keys(400, 2);
    ShardedFilter f =
        ShardedFilter.builder(4, () -> BlockedBloomFilter.builder().bitsPerKey(10)).build(keys);
    byte[] b = SieveFormat.toBytes(f);
    int trailer = shardTrailer(b, 1);
    byte[] edited = b.clone();
    int probes = edited[trailer + 2] & 31;
    edited[trailer + 2] = (byte) ((edited[trailer + 2] & ~31) | (probes + 1));
    assertRefused(TestFilters.fixChecksums(edited), "parameter A");
    // the same edit in a plain container is refused too (its header's parameter A)
    BlockedBloomFilter plain = BlockedBloomFilter.builder().bitsPerKey(10).build(keys);
    byte[] p = SieveFormat.toBytes(plain);
    int t = p.length - SieveFormat.CHECKSUM_BYTES - 5;
    p[t + 2] = (byte) ((p[t + 2] & ~31) | ((p[t + 2] & 31) + 1));
    assertThrows(SieveFormatException.class, () -> SieveFormat.read(TestFilters.fixChecksums(p)));
  }

  @Test
  void aRibbonShardsSeedOrBlockCountEditIsRefused() {
    byte[] b = SieveFormat.toBytes(TestFilters.build(FilterType.SHARDED, TestFilters.keys(400, 3)));
    int trailer = shardTrailer(b, 2);
    assertEquals(-2, b[trailer], "a Standard128Ribbon trailer");
    byte[] seed = b.clone();
    seed[trailer + 1] ^= 1;
    assertRefused(TestFilters.fixChecksums(seed), "parameter A");
    byte[] blocks = b.clone();
    blocks[trailer + 2] += 1; // num_blocks + 1 (low byte; the shards have far fewer than 255)
    assertRefused(TestFilters.fixChecksums(blocks), "parameter B");
  }

  @Test
  void aScalableStagesProbeCountEditIsRefused() {
    ScalableBloomFilter f = ScalableBloomFilter.builder().expectedKeys(100).fpRate(0.01).create();
    for (long k : TestFilters.keys(300, 4)) {
      f.add(k);
    }
    assertTrue(f.numStages() >= 2);
    byte[] b = SieveFormat.toBytes(f);
    ByteBuffer in = ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN);
    int m = f.numStages();
    long stage0 = (64 + 32L * m + 63) & ~63L; // the first block's payload offset
    long blockLength = in.getLong(P + 64 + 16);
    int trailer = (int) (P + stage0 + blockLength - 5);
    assertEquals(-1, b[trailer], "a FastLocalBloom trailer");
    byte[] edited = b.clone();
    edited[trailer + 2] = (byte) ((edited[trailer + 2] & ~31) | ((edited[trailer + 2] & 31) + 1));
    SieveFormatException e =
        assertThrows(
            SieveFormatException.class, () -> SieveFormat.read(TestFilters.fixChecksums(edited)));
    assertTrue(e.getMessage().contains("stage 0 entry records"), e.getMessage());
    assertThrows(
        SieveFormatException.class,
        () -> SieveFormat.wrap(ByteBuffer.wrap(TestFilters.fixChecksums(edited))));
    // the payload alone, through the class's own readers
    byte[] payload = ScalableBloomRawForm.bytes(f);
    int own = (int) (stage0 + blockLength - 5);
    payload[own + 2] = (byte) ((payload[own + 2] & ~31) | ((payload[own + 2] & 31) + 1));
    assertThrows(
        SieveFormatException.class, () -> ScalableBloomRawForm.read(payload, KeyScheme.XXPH3));
    assertThrows(
        SieveFormatException.class,
        () -> ScalableBloomRawForm.wrap(ByteBuffer.wrap(payload), KeyScheme.XXPH3));
  }
}
