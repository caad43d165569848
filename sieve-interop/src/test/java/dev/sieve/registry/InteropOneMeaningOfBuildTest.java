package dev.sieve.registry;

/**
 * sieve-core's {@link OneMeaningOfBuildTest} (no builder has a second meaning of build) over
 * sieve-interop's types (orc-bloom; the foreign ones where a check takes them): the test jar's
 * checks, with {@code sieve.test.artifact} set by this module's surefire configuration ({@code
 * dev.sieve.format.TestTypes}).
 */
class InteropOneMeaningOfBuildTest extends OneMeaningOfBuildTest {}
