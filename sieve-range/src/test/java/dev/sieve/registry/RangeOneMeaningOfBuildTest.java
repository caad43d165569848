package dev.sieve.registry;

/**
 * sieve-core's {@link OneMeaningOfBuildTest} (no builder has a second meaning of build) over
 * sieve-range's types (grafite, prefix-bloom-range): the test jar's checks, with {@code
 * sieve.test.artifact} set by this module's surefire configuration ({@code
 * dev.sieve.format.TestTypes}).
 */
class RangeOneMeaningOfBuildTest extends OneMeaningOfBuildTest {}
