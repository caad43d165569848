package dev.sieve.format;

/**
 * sieve-core's {@link SieveFormatTest} (the container round trip, reading by class and in place,
 * the payload checks) over sieve-interop's types (orc-bloom; the foreign ones where a check takes
 * them): the test jar's checks, with {@code sieve.test.artifact} set by this module's surefire
 * configuration ({@code dev.sieve.format.TestTypes}).
 */
class InteropSieveFormatTest extends SieveFormatTest {}
