package dev.sieve.format;

/**
 * sieve-core's {@link KeySchemePropertyTest} (key schemes: no false negative, the scheme kept
 * through the container) over sieve-range's types (grafite, prefix-bloom-range): the test jar's
 * checks, with {@code sieve.test.artifact} set by this module's surefire configuration ({@code
 * dev.sieve.format.TestTypes}).
 */
class RangeKeySchemePropertyTest extends KeySchemePropertyTest {}
