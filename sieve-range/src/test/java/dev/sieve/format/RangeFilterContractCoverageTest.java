package dev.sieve.format;

/**
 * sieve-core's {@link FilterContractCoverageTest} (each type has exactly one FilterContract
 * subclass) over sieve-range's types (grafite, prefix-bloom-range): the test jar's checks, with
 * {@code sieve.test.artifact} set by this module's surefire configuration ({@code
 * dev.sieve.format.TestTypes}).
 */
class RangeFilterContractCoverageTest extends FilterContractCoverageTest {}
