package dev.sieve.shard;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sieve.Filter;
import dev.sieve.bloom.BlockedBloomFilter;
import dev.sieve.bloom.StandardBloomFilter;
import dev.sieve.cuckoo.CuckooFilter;
import dev.sieve.format.SieveFormat;
import dev.sieve.hash.KeyHash;
import dev.sieve.registry.FilterType;
import dev.sieve.ribbon.Standard128RibbonFilter;
import dev.sieve.xor.BinaryFuse8Filter;
import dev.sieve.xor.Xor8Filter;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class ShardedFilterTest {

  private static long[] keys(int n, long salt) {
    long[] out = new long[n];
    for (int i = 0; i < n; i++) {
      out[i] = (i + salt) * 0x9E3779B97F4A7C15L;
    }
    return out;
  }

  @Test
  void theShardIsTheTopBitsOfTheHash() {
    assertEquals(0, ShardedFilter.shardOf(-1L, 1));
    assertEquals(1, ShardedFilter.shardOf(0x8000_0000_0000_0000L, 2));
    assertEquals(0, ShardedFilter.shardOf(0x7FFF_FFFF_FFFF_FFFFL, 2));
    assertEquals(0xAB, ShardedFilter.shardOf(0xAB00_0000_0000_0001L, 256));
    assertEquals(65535, ShardedFilter.shardOf(-1L, 65536));
    // shard i of S is shards 2i and 2i+1 of 2S
    long h = 0x5DEE_CE66_D123_4567L;
    assertEquals(ShardedFilter.shardOf(h, 8), ShardedFilter.shardOf(h, 16) >>> 1);
    assertEquals(KeyHash.mix64(h), ShardedFilter.shardHash(h));
  }

  @Test
  void impossibleShardCountsAreRefusedWithTheValue() {
    for (int bad : new int[] {0, -4, 3, 6, 1 << 17, Integer.MIN_VALUE}) {
      IllegalArgumentException e =
          assertThrows(IllegalArgumentException.class, () -> ShardedFilter.checkShardCount(bad));
      assertTrue(e.getMessage().contains(Integer.toString(bad)), e.getMessage());
      assertThrows(IllegalArgumentException.class, () -> ShardedFilter.shardOf(1, bad));
      assertThrows(
          IllegalArgumentException.class, () -> ShardedFilter.builder(bad, Xor8Filter::builder));
    }
  }

  @Test
  void ofChecksItsShards() {
    Filter xor = Xor8Filter.builder().build(keys(10, 1));
    Filter fuse = BinaryFuse8Filter.builder().build(keys(10, 1));
    assertThrows(IllegalArgumentException.class, () -> ShardedFilter.of(List.of()));
    assertThrows(IllegalArgumentException.class, () -> ShardedFilter.of(List.of(xor, xor, xor)));
    assertThrows(
        IllegalArgumentException.class,
        () -> ShardedFilter.of(Arrays.asList(xor, null)),
        "a null shard");
    IllegalArgumentException mixed =
        assertThrows(IllegalArgumentException.class, () -> ShardedFilter.of(List.of(xor, fuse)));
    assertTrue(mixed.getMessage().contains("shard 1"), mixed.getMessage());
    for (Filter notStatic :
        new Filter[] {
          CuckooFilter.createWithFingerprintBits(100, 12),
          StandardBloomFilter.builder().bitsPerKey(10).build(keys(10, 1)),
          ShardedFilter.of(List.of(xor))
        }) {
      IllegalArgumentException e =
          assertThrows(IllegalArgumentException.class, () -> ShardedFilter.of(List.of(notStatic)));
      assertTrue(e.getMessage().contains(notStatic.getClass().getName()), e.getMessage());
    }
  }

  @Test
  void buildShardRefusesAHashOfAnotherShard() {
    ShardedFilter.Builder b = ShardTypes.XOR8.sharded(4);
    long inShard2 = 0x8000_0000_0000_0000L | 5;
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class, () -> b.buildShard(1, new long[] {inShard2}, 1));
    assertTrue(e.getMessage().contains("shard 2 of 4"), e.getMessage());
  }

  /**
   * A distributed build (one task per shard, hashes arriving in any order and repeated) assembled
   * by {@code of} gives the bytes of the one-JVM build: what makes a retried Spark task harmless.
   */
  @ParameterizedTest
  @EnumSource(ShardTypes.class)
  void shardsBuiltApartInAnyOrderAssembleToTheSameBytes(ShardTypes type) {
    int shards = 8;
    long[] keys = keys(5000, 7);
    ShardedFilter whole = type.sharded(shards).build(keys);
    List<List<Long>> parts = new ArrayList<>();
    for (int s = 0; s < shards; s++) {
      parts.add(new ArrayList<>());
    }
    for (long k : keys) {
      long h = whole.keyScheme().hash(k); // the key hash of the builder's scheme
      parts.get(ShardedFilter.shardOf(h, shards)).add(h);
      if ((k & 3) == 0) {
        parts.get(ShardedFilter.shardOf(h, shards)).add(h); // a repeat
      }
    }
    Random random = new Random(11);
    List<Filter> built = new ArrayList<>();
    ShardedFilter.Builder builder = type.sharded(shards);
    for (int s = 0; s < shards; s++) {
      List<Long> part = parts.get(s);
      Collections.shuffle(part, random);
      long[] hashes = part.stream().mapToLong(Long::longValue).toArray();
      built.add(builder.buildShard(s, hashes, hashes.length));
    }
    // shards hold hashes: the assembled filter is given the scheme the key hashes were made by
    ShardedFilter assembled = ShardedFilter.of(built).withKeyScheme(whole.keyScheme());
    assertArrayEquals(SieveFormat.toBytes(whole), SieveFormat.toBytes(assembled));
    assertEquals(whole, assembled);
    assertEquals(keys.length, whole.numKeys());
    for (long k : keys) {
      assertTrue(assembled.mayContain(k));
    }
  }

  @Test
  void sizesAndModelAreSumsAndTheMeanOverShards() {
    long[] keys = keys(3000, 2);
    ShardedFilter f = ShardTypes.RIBBON.sharded(4).build(keys);
    long bits = 0;
    long n = 0;
    double fpr = 0;
    for (Filter s : f.shards()) {
      bits += s.sizeInBits();
      n += s.numKeys();
      fpr += s.modelledFpRate();
      assertEquals(Standard128RibbonFilter.class, s.getClass());
    }
    assertEquals(bits, f.sizeInBits());
    assertEquals(3000, n);
    assertEquals(fpr / 4, f.modelledFpRate(), 1e-15);
    assertEquals(Standard128RibbonFilter.class, f.shardClass());
    // an empty shard counts 0 in the mean: all keys in shard 0 of 2
    long[] low = new long[500];
    for (int i = 0; i < low.length; i++) {
      low[i] = (i * 0x9E3779B97F4A7C15L) >>> 1;
    }
    ShardedFilter skewed = ShardTypes.BLOCKED_BLOOM.sharded(2).buildFromHashes(low);
    assertEquals(0, skewed.shard(1).numKeys());
    assertEquals(skewed.shard(0).modelledFpRate() / 2, skewed.modelledFpRate(), 1e-15);
    assertFalse(skewed.mayContainHash(-1L), "an empty shard answers absent");
  }

  @ParameterizedTest
  @EnumSource(ShardTypes.class)
  void mappedFromAFileEveryShardIsReadInPlace(ShardTypes type, @TempDir Path dir)
      throws IOException {
    long[] keys = keys(4000, 3);
    ShardedFilter f = type.sharded(16).build(keys);
    Path file = dir.resolve("sharded.sieve");
    SieveFormat.write(f, file);
    Filter mapped = SieveFormat.map(file);
    assertEquals(FilterType.SHARDED, FilterType.of(mapped));
    ShardedFilter m = (ShardedFilter) mapped;
    assertEquals(f, m);
    for (Filter shard : m.shards()) {
      assertTrue(isWrapped(shard), shard + " was copied, not mapped");
    }
    for (long k : keys) {
      assertTrue(m.mayContain(k));
    }
    assertEquals(Files.size(file), SieveFormat.toBytes(f).length);
  }

  private static boolean isWrapped(Filter f) {
    if (f instanceof BlockedBloomFilter b) {
      return b.isWrapped();
    }
    if (f instanceof Standard128RibbonFilter r) {
      return r.isWrapped() || r.numKeys() == 0;
    }
    try {
      java.lang.reflect.Method m = f.getClass().getMethod("isWrapped");
      m.setAccessible(true); // declared public in a package-private base class
      return (boolean) m.invoke(f);
    } catch (ReflectiveOperationException e) {
      throw new AssertionError(e);
    }
  }
}
