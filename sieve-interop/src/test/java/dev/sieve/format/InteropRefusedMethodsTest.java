package dev.sieve.format;

/**
 * sieve-core's {@link RefusedMethodsTest} (no method of Filter refuses a valid input) over
 * sieve-interop's types that are Filters (orc-bloom; the foreign ones, key filters alone, through
 * {@code dev.sieve.interop.ForeignMethodsTest}): the test jar's checks, with {@code
 * sieve.test.artifact} set by this module's surefire configuration ({@code
 * dev.sieve.format.TestTypes}).
 */
class InteropRefusedMethodsTest extends RefusedMethodsTest {}
