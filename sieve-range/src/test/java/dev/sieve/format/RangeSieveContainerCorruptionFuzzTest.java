package dev.sieve.format;

/**
 * sieve-core's fuzz target {@link SieveContainerCorruptionFuzzTest} over sieve-range's types (the
 * type is picked from {@link TestTypes#builtIn()}, which {@code sieve.test.artifact} restricts to
 * them).
 */
class RangeSieveContainerCorruptionFuzzTest extends SieveContainerCorruptionFuzzTest {}
