package dev.sieve.format;

/**
 * sieve-core's {@link FilterContractCoverageTest} (each type has exactly one FilterContract
 * subclass) over sieve-interop's types (orc-bloom; the foreign ones where a check takes them): the
 * test jar's checks, with {@code sieve.test.artifact} set by this module's surefire configuration
 * ({@code dev.sieve.format.TestTypes}).
 */
class InteropFilterContractCoverageTest extends FilterContractCoverageTest {}
