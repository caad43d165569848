package dev.sieve.format;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.sieve.Filter;
import dev.sieve.bloom.BlockedBloomFilter;
import dev.sieve.ribbon.Standard128RibbonFilter;
import dev.sieve.shard.ShardedFilter;
import dev.sieve.xor.BinaryFuse16Filter;
import dev.sieve.xor.BinaryFuse8Filter;
import dev.sieve.xor.Xor16Filter;
import dev.sieve.xor.Xor8Filter;
import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * Fuzz target for the sharded payload reader ({@code dev.sieve.shard.ShardedCodec};
 * docs/format.md): builds a sharded filter of a fuzzer-chosen shard type, shard count (1 to 64) and
 * key set, then edits its payload where the fuzzer says, mostly in the head and the shard table and
 * in the shards' block trailers (whose probe count, seed and block count the table's parameters A
 * and B copy), and recomputes both checksums so that the edits reach the payload checks. Every
 * reader must refuse with a {@link dev.sieve.SieveFormatException} or accept; accepted inputs must
 * be read alike by the heap and buffer readers and re-serialize to the same bytes; an unedited
 * container must be accepted and report every key.
 */
class ShardedPayloadFuzzTest {
  /** The sharded payload's shard table: its offset and the bytes of one entry (docs/format.md). */
  private static final int TABLE_OFFSET = 16;

  private static final int ENTRY_BYTES = 32;

  @FuzzTest(maxDuration = "30s")
  void fuzz(FuzzedDataProvider data) {
    int shards = 1 << data.consumeInt(0, 6);
    int n = data.consumeInt(0, 300);
    long[] keys = new long[n];
    for (int i = 0; i < n; i++) {
      keys[i] = data.consumeLong();
    }
    ShardedFilter.Builder builder =
        switch (data.consumeInt(0, 5)) {
          case 0 -> ShardedFilter.builder(shards, () -> BlockedBloomFilter.builder().bitsPerKey(8));
          case 1 ->
              ShardedFilter.builder(
                  shards, () -> Standard128RibbonFilter.builder().bloomEquivalentBitsPerKey(8));
          case 2 -> ShardedFilter.builder(shards, Xor8Filter::builder);
          case 3 -> ShardedFilter.builder(shards, Xor16Filter::builder);
          case 4 -> ShardedFilter.builder(shards, BinaryFuse8Filter::builder);
          default -> ShardedFilter.builder(shards, BinaryFuse16Filter::builder);
        };
    ShardedFilter filter = builder.build(keys);
    byte[] original = SieveFormat.toBytes(filter);
    byte[] bytes = original.clone();
    int tableEnd = SieveFormat.HEADER_BYTES + 16 + ENTRY_BYTES * shards + 64;
    int edits = data.consumeInt(0, 4);
    for (int e = 0; e < edits; e++) {
      int hi = data.consumeBoolean() ? Math.min(tableEnd, bytes.length) : bytes.length;
      int at =
          data.consumeInt(SieveFormat.HEADER_BYTES, Math.max(SieveFormat.HEADER_BYTES, hi - 1));
      if (at < bytes.length) {
        bytes[at] = data.consumeByte();
      }
    }
    if (data.consumeBoolean()) {
      // a byte of one shard's last 5 bytes: the RocksDB block trailer of the Bloom and Ribbon
      // shards (probe count, seed, num_blocks), whose second copy is the shard table's A and B
      ByteBuffer table = ByteBuffer.wrap(bytes).order(java.nio.ByteOrder.LITTLE_ENDIAN);
      int shard = data.consumeInt(0, shards - 1);
      int entry = SieveFormat.HEADER_BYTES + TABLE_OFFSET;
      entry += ENTRY_BYTES * shard;
      long end = SieveFormat.HEADER_BYTES + table.getLong(entry) + table.getLong(entry + 8);
      int at = (int) end - data.consumeInt(1, 5);
      if (at >= SieveFormat.HEADER_BYTES && at < bytes.length) {
        bytes[at] = data.consumeByte();
      }
    }
    boolean edited = !Arrays.equals(original, bytes);
    byte[] input = TestFilters.fixChecksums(bytes);
    Filter heap = FuzzSupport.readOrNull(() -> SieveFormat.read(input));
    Filter wrapped =
        FuzzSupport.readOrNull(
            () -> SieveFormat.wrap(ByteBuffer.allocateDirect(input.length).put(input).flip()));
    assertEquals(heap == null, wrapped == null, "byte[] and ByteBuffer readers disagree");
    if (!edited) {
      assertNotNull(heap, "an intact sharded container was refused");
      for (long k : keys) {
        assertTrue(heap.mayContain(k) && wrapped.mayContain(k), "false negative");
      }
    }
    if (heap != null) {
      assertArrayEquals(input, SieveFormat.toBytes(heap), "accepted but not canonical");
      assertArrayEquals(input, SieveFormat.toBytes(wrapped), "accepted but not canonical");
      FuzzSupport.assertSameAnswers(heap, wrapped, input);
    }
  }
}
