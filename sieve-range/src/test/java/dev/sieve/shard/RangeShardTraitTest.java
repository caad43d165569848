package dev.sieve.shard;

/**
 * sieve-core's {@link ShardTraitTest} (the shardable trait matches the class; a sharded build takes
 * only shardable types) over sieve-range's types (grafite, prefix-bloom-range): the test jar's
 * checks, with {@code sieve.test.artifact} set by this module's surefire configuration ({@code
 * dev.sieve.format.TestTypes}).
 */
class RangeShardTraitTest extends ShardTraitTest {}
