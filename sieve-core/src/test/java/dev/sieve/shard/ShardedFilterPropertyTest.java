package dev.sieve.shard;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sieve.Filter;
import dev.sieve.format.SieveFormat;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.SplittableRandom;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;

/**
 * No false negatives across shard boundaries: for every shard type, shard counts from 1 to 2^16
 * (far more shards than keys, so most are empty), arbitrary key hashes (duplicates included), and
 * skewed sets whose keys all fall in one shard; single and batch queries, on the heap and read back
 * through the container.
 */
class ShardedFilterPropertyTest {

  @Provide
  Arbitrary<List<Long>> hashes() {
    return Arbitraries.longs().list().ofMinSize(0).ofMaxSize(1500);
  }

  @Property(tries = 60)
  void everyHashIsFoundAcrossShards(
      @ForAll ShardTypes type,
      @ForAll @IntRange(min = 0, max = 16) int shardBits,
      @ForAll("hashes") List<Long> list,
      @ForAll boolean skewed,
      @ForAll @IntRange(min = 0, max = 65535) int targetShard) {
    int shards = 1 << shardBits;
    long[] hashes = new long[list.size()];
    for (int i = 0; i < hashes.length; i++) {
      long h = list.get(i);
      if (skewed && shardBits > 0) {
        // every key in one shard: replace the top bits by the target shard's
        long top = (long) (targetShard & (shards - 1)) << (64 - shardBits);
        h = top | (h >>> shardBits);
      }
      hashes[i] = h;
    }
    ShardedFilter filter = type.sharded(shards).buildFromHashes(hashes);
    assertEquals(shards, filter.shardCount());
    assertNoFalseNegative(filter, hashes, type + " x " + shards);
    if (filter.sizeInBytes() < (1 << 22)) {
      byte[] bytes = SieveFormat.toBytes(filter);
      Filter read = SieveFormat.read(bytes);
      // canonical: what was read writes the same bytes (equals() would differ on empty Bloom
      // shards, whose probe count the 0-byte RocksDB block does not keep)
      assertArrayEquals(bytes, SieveFormat.toBytes(read));
      assertNoFalseNegative(read, hashes, "read " + type + " x " + shards);
      assertNoFalseNegative(
          SieveFormat.wrap(ByteBuffer.allocateDirect(bytes.length).put(bytes).flip()),
          hashes,
          "wrapped " + type + " x " + shards);
    }
  }

  private static void assertNoFalseNegative(Filter filter, long[] hashes, String what) {
    for (long h : hashes) {
      assertTrue(filter.mayContainHash(h), what + " lost hash 0x" + Long.toHexString(h));
    }
    long[] bits = new long[(hashes.length + 63) / 64 + 1];
    assertEquals(hashes.length, filter.mayContainHashes(hashes, 0, hashes.length, bits), what);
    // the batch answers absent hashes exactly as single lookups do
    SplittableRandom random = new SplittableRandom(hashes.length);
    long[] probe = new long[130];
    for (int i = 0; i < probe.length; i++) {
      probe[i] = random.nextLong();
    }
    long[] out = new long[3];
    filter.mayContainHashes(probe, 1, 129, out);
    for (int i = 0; i < 129; i++) {
      assertEquals(
          filter.mayContainHash(probe[1 + i]), ((out[i >>> 6] >>> (i & 63)) & 1) != 0, what);
    }
  }
}
