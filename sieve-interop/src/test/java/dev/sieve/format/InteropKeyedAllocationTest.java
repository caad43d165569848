package dev.sieve.format;

/**
 * sieve-core's {@link KeyedAllocationTest} (keyed queries do not allocate per call) over
 * sieve-interop's types (orc-bloom; the foreign ones where a check takes them): the test jar's
 * checks, with {@code sieve.test.artifact} set by this module's surefire configuration ({@code
 * dev.sieve.format.TestTypes}).
 */
class InteropKeyedAllocationTest extends KeyedAllocationTest {}
