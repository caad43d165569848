package dev.sieve.format;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sieve.Filter;
import dev.sieve.SieveFormatException;
import dev.sieve.registry.FilterType;
import dev.sieve.shard.ShardedFilter;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The sharded payload ({@code dev.sieve.shard.ShardedCodec}; docs/format.md): every field a reader
 * checks, corrupted one at a time with both checksums recomputed (so the payload checks, not the
 * CRCs, must catch it), each refused by every reader with a {@link SieveFormatException} at the
 * field's file offset.
 */
class ShardedFormatTest {
  /** The offset of the sharded payload's shard table (docs/format.md). */
  private static final int TABLE_OFFSET = 16;

  private static final int P = SieveFormat.HEADER_BYTES; // the payload's file offset
  private static final int T = P + TABLE_OFFSET; // the shard table's

  /** 4 Ribbon shards over 40 keys (TestFilters.shardedBuilder). */
  private static byte[] container() {
    return SieveFormat.toBytes(TestFilters.build(FilterType.SHARDED, TestFilters.keys(40, 9)));
  }

  private static long entry(byte[] b, int shard, int field) {
    return ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN).getLong(T + 32 * shard + 8 * field);
  }

  private static SieveFormatException refused(byte[] bytes, long offset, String words) {
    SieveFormatException e =
        assertThrows(SieveFormatException.class, () -> SieveFormat.read(bytes));
    assertEquals(offset, e.offset(), e.getMessage());
    assertTrue(e.getMessage().contains(words), e.getMessage());
    SieveFormatException w =
        assertThrows(SieveFormatException.class, () -> SieveFormat.wrap(ByteBuffer.wrap(bytes)));
    assertEquals(offset, w.offset(), w.getMessage());
    assertThrows(
        SieveFormatException.class, () -> SieveFormat.read(new ByteArrayInputStream(bytes)));
    return e;
  }

  @Test
  void theLayoutIsAsDocumented() {
    byte[] b = container();
    ByteBuffer h = ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN);
    assertEquals(12, h.getShort(10));
    assertEquals(FilterType.RIBBON.id(), h.getInt(32)); // parameter A: shard type
    assertEquals(4, h.getInt(36)); // parameter B: shard count
    assertEquals(4, h.getInt(P));
    assertEquals(FilterType.RIBBON.id(), h.getShort(P + 4));
    assertEquals(1, h.getShort(P + 6)); // payload version
    long expectedOffset = 192; // align64(16 + 4 * 32 = 144)
    long keys = 0;
    for (int s = 0; s < 4; s++) {
      assertEquals(expectedOffset, entry(b, s, 0));
      assertEquals(0, (P + expectedOffset) % 64, "each shard 64-byte aligned in the file");
      keys += entry(b, s, 2);
      expectedOffset = (entry(b, s, 0) + entry(b, s, 1) + 63) & -64;
    }
    assertEquals(40, keys);
    assertEquals(h.getLong(24), entry(b, 3, 0) + entry(b, 3, 1), "the payload ends with shard 3");
  }

  @Test
  void badShardCountsAreRefused() {
    byte[] b = container();
    for (int bad : new int[] {0, 3, -1, 1 << 17, 8}) {
      SieveFormatException e =
          assertThrows(
              SieveFormatException.class, () -> SieveFormat.read(TestFilters.withInt(b, P, bad)));
      assertTrue(e.offset() == P || e.offset() >= T, e.getMessage());
    }
    refused(TestFilters.withInt(b, P, 3), P, "shard count 3");
    refused(TestFilters.withInt(b, P, 1 << 17), P, "shard count 131072");
  }

  @Test
  void shardTypesThatAreNotStaticFiltersAreRefused() {
    byte[] b = container();
    for (FilterType t :
        new FilterType[] {FilterType.CUCKOO, FilterType.STANDARD_BLOOM, FilterType.SHARDED}) {
      refused(TestFilters.withShort(b, P + 4, t.id()), P + 4, "shard type id " + t.id());
    }
    refused(TestFilters.withShort(b, P + 4, 999), P + 4, "shard type id 999");
    // a known static type that is not what the shards hold: the shard reader refuses it
    SieveFormatException e =
        assertThrows(
            SieveFormatException.class,
            () -> SieveFormat.read(TestFilters.withShort(b, P + 4, FilterType.XOR8.id())));
    assertTrue(e.getMessage().contains("shard"), e.getMessage());
  }

  @Test
  void reservedAndPaddingBytesMustBeZero() {
    byte[] b = container();
    refused(TestFilters.withShort(b, P + 6, 2), P + 6, "payload version 2");
    refused(TestFilters.withLong(b, P + 8, 1L << 56), P + 15, "reserved");
    // padding between the table (ends at 144) and shard 0 (at 192)
    byte[] padded = b.clone();
    padded[P + 150] = 7;
    refused(TestFilters.fixChecksums(padded), P + 150, "padding");
  }

  @Test
  void tableEntriesAreChecked() {
    byte[] b = container();
    refused(TestFilters.withLong(b, T, 64), T, "shard 0 at payload offset 64");
    refused(TestFilters.withLong(b, T + 8, Long.MAX_VALUE), T + 8, "does not fit");
    refused(TestFilters.withLong(b, T + 8, -1), T + 8, "does not fit");
    refused(TestFilters.withLong(b, T + 16, -5), T + 16, "negative key count -5");
    // a key count the shard's payload contradicts: refused, and so is a header total that
    // disagrees with the shards
    long k = entry(b, 2, 2);
    byte[] wrongKeys = TestFilters.withLong(b, T + 64 + 16, k + 1);
    SieveFormatException e =
        assertThrows(SieveFormatException.class, () -> SieveFormat.read(wrongKeys));
    assertTrue(e.getMessage().contains("key count"), e.getMessage());
    byte[] wrongShardCount = TestFilters.withInt(b, P, 2);
    assertThrows(SieveFormatException.class, () -> SieveFormat.read(wrongShardCount));
  }

  @Test
  void aTableLargerThanThePayloadIsRefusedBeforeAnythingIsAllocated() {
    byte[] b = container();
    byte[] big = TestFilters.withInt(b, P, 1 << 16); // 65536 entries need 2 MiB
    refused(big, T, "needs 2097168 bytes");
  }

  @Test
  void theHeaderParametersMustMatch() {
    byte[] b = container();
    assertThrows(SieveFormatException.class, () -> SieveFormat.read(TestFilters.withInt(b, 36, 8)));
    assertThrows(SieveFormatException.class, () -> SieveFormat.read(TestFilters.withInt(b, 32, 4)));
  }

  /** The per-shard mapping used past 2 GiB, forced with a one-buffer limit of 0. */
  @Test
  void theSegmentedMapReadsEachShardInPlaceAndChecksTheSame(@TempDir Path dir) throws IOException {
    long[] keys = TestFilters.keys(3000, 5);
    Filter f = TestFilters.build(FilterType.SHARDED, keys);
    Path file = dir.resolve("s.sieve");
    SieveFormat.write(f, file);
    Filter mapped = SieveFormat.map(file, true, 10, 0);
    assertEquals(f, mapped);
    for (long k : keys) {
      assertTrue(mapped.mayContain(k));
    }
    assertArrayEquals(Files.readAllBytes(file), SieveFormat.toBytes(mapped));
    byte[] bad = Files.readAllBytes(file);
    bad[P + 150] = 1;
    Files.write(file, TestFilters.fixChecksums(bad));
    SieveFormatException e =
        assertThrows(SieveFormatException.class, () -> SieveFormat.map(file, true, 10, 0));
    assertTrue(e.getMessage().contains("padding"), e.getMessage());
    assertEquals(P + 150, e.offset(), "a file offset, as the other readers give");
    Files.write(file, TestFilters.withInt(Files.readAllBytes(file), P, 3));
    assertThrows(SieveFormatException.class, () -> SieveFormat.map(file, true, 10, 0));
  }

  @Test
  void aWrappedDirectBufferIsQueriedInPlace() {
    long[] keys = TestFilters.keys(2000, 4);
    ShardedFilter f = (ShardedFilter) TestFilters.build(FilterType.SHARDED, keys);
    byte[] bytes = SieveFormat.toBytes(f);
    ByteBuffer direct = ByteBuffer.allocateDirect(bytes.length).put(bytes).flip();
    ShardedFilter w = SieveFormat.wrap(direct, ShardedFilter.class);
    for (Filter shard : w.shards()) {
      assertTrue(
          ((dev.sieve.ribbon.Standard128RibbonFilter) shard).isWrapped() || shard.numKeys() == 0);
    }
    for (long k : keys) {
      assertTrue(w.mayContain(k));
    }
  }
}
