package dev.sieve.shard;

import org.junit.jupiter.api.Test;

/**
 * sieve-core's {@link ShardTraitTest} checks of each type over sieve-range's types (with {@code
 * sieve.test.artifact} set by this module's surefire configuration): the shardable trait is what a
 * sharded build takes, and a sharded build refuses a type without it. (Its check of sieve-core's
 * sources runs in sieve-core.)
 */
class RangeShardTraitTest {
  private final ShardTraitTest core = new ShardTraitTest();

  @Test
  void theShardableTraitMatchesTheShardClass() {
    core.theShardableTypesAreTheStaticBuiltAtOnceTypes();
  }

  @Test
  void aShardedBuildAcceptsExactlyTheShardableTypes() {
    core.aShardedBuildAcceptsExactlyTheShardableTypes();
  }
}
