package dev.sieve.format;

/**
 * sieve-core's {@link RegistryBuildTest} (every key form gives the same filter; registry and class
 * builders are one; traits) over sieve-range's types (grafite, prefix-bloom-range): the test jar's
 * checks, with {@code sieve.test.artifact} set by this module's surefire configuration ({@code
 * dev.sieve.format.TestTypes}).
 */
class RangeRegistryBuildTest extends RegistryBuildTest {}
