package dev.sieve.format;

/**
 * sieve-core's container fuzz target {@link SieveContainerFuzzTest} with this module present, over
 * its own corpus: the containers of sieve-range's types (sieve-core's corpus holds the same seeds,
 * which there, without sieve-range, must be refused).
 */
class RangeSieveContainerFuzzTest extends SieveContainerFuzzTest {}
