package dev.sieve.format;

/**
 * sieve-core's {@link SieveFormatGoldenTest} (the golden files: read and answered as recorded,
 * built byte for byte) over sieve-range's types (grafite, prefix-bloom-range): the test jar's
 * checks, with {@code sieve.test.artifact} set by this module's surefire configuration ({@code
 * dev.sieve.format.TestTypes}).
 */
class RangeSieveFormatGoldenTest extends SieveFormatGoldenTest {}
