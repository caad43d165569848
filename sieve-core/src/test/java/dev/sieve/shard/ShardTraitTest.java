package dev.sieve.shard;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sieve.Filter;
import dev.sieve.format.TestTypes;
import dev.sieve.registry.FilterType;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The shard trait is a bit of the registry's table ({@link FilterType#isShardable()}): the shard
 * package checks a shard's class against its type's trait, and the sharded row's class is {@link
 * ShardedFilter}, registered by the shard family, with no reflection.
 */
class ShardTraitTest {

  private static long[] keys(int n) {
    long[] k = new long[n];
    for (int i = 0; i < n; i++) {
      k[i] = i * 0x9E3779B97F4A7C15L + 7;
    }
    return k;
  }

  @Test
  void theShardableTypesAreTheStaticBuiltAtOnceTypes() {
    Set<FilterType> shardable = EnumSet.noneOf(FilterType.class);
    for (FilterType t : TestTypes.all()) {
      assertEquals(t.isShardable(), ShardedBuild.isShardClass(t.filterClass()), t.name());
      if (t.isShardable()) {
        shardable.add(t);
      }
    }
    Set<FilterType> expected =
        EnumSet.of(
            FilterType.BLOCKED_BLOOM,
            FilterType.RIBBON,
            FilterType.XOR8,
            FilterType.XOR16,
            FilterType.BINARY_FUSE8,
            FilterType.BINARY_FUSE16);
    // of the types this run covers (sieve-core's; the range and interop types, none shardable, in
    // their modules)
    expected.removeIf(t -> !TestTypes.covers(t));
    assertEquals(expected, shardable);
    assertFalse(FilterType.SHARDED.isShardable(), "a sharded filter does not nest");
  }

  @Test
  void aShardedBuildAcceptsExactlyTheShardableTypes() {
    long[] keys = keys(2_000);
    for (FilterType t : TestTypes.builtIn()) { // a foreign type has no registry builder
      ShardedFilter.Builder b = ShardedFilter.builder(2, t::builder);
      if (t.isShardable()) {
        ShardedFilter f = b.build(keys);
        assertEquals(2, f.shardCount(), t.name());
        assertEquals(t.filterClass(), f.shard(0).getClass(), t.name());
        for (long k : keys) {
          assertTrue(f.mayContain(k), t.name());
        }
      } else {
        IllegalArgumentException e =
            assertThrows(IllegalArgumentException.class, () -> b.build(keys), t.name());
        assertTrue(e.getMessage().contains("FilterType.isShardable()"), e.getMessage());
      }
    }
  }

  @Test
  void theShardedRowIsShardedFilterAndItsBuilder() {
    assertEquals(ShardedFilter.class, FilterType.SHARDED.filterClass());
    assertEquals(FilterType.SHARDED, FilterType.forClass(ShardedFilter.class));
    Filter f = FilterType.SHARDED.builder().build(keys(1_000));
    ShardedFilter sharded = assertInstanceOf(ShardedFilter.class, f);
    assertEquals(ShardedFilter.DEFAULT_SHARDS, sharded.shardCount());
    assertEquals(FilterType.BINARY_FUSE8, FilterType.of(sharded.shard(0)));
  }

  @Test
  void neitherTheRegistryNorTheShardPackageUsesReflectionForTheTrait() throws IOException {
    Path main = Path.of("src/main/java/dev/sieve");
    List<Path> sources = new ArrayList<>();
    sources.add(main.resolve("registry/FilterType.java"));
    try (var files = Files.list(main.resolve("shard"))) {
      files.filter(p -> p.toString().endsWith(".java")).forEach(sources::add);
    }
    assertTrue(sources.size() >= 3, sources.toString());
    for (Path p : sources) {
      String src = Files.readString(p, StandardCharsets.UTF_8);
      for (String banned :
          new String[] {"Class.forName", ".getMethod(", "java.lang.reflect", ".invoke("}) {
        assertFalse(src.contains(banned), p + " uses " + banned);
      }
    }
  }
}
