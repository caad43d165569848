package dev.sieve.format;

/**
 * sieve-core's {@link BatchQueryPropertyTest} (batch queries answer as single lookups) over
 * sieve-interop's types (orc-bloom; the foreign ones where a check takes them): the test jar's
 * checks, with {@code sieve.test.artifact} set by this module's surefire configuration ({@code
 * dev.sieve.format.TestTypes}).
 */
class InteropBatchQueryPropertyTest extends BatchQueryPropertyTest {}
