package dev.sieve.format;

/**
 * sieve-core's {@link KeySchemeContainerTest} (every type holds its keys under every key scheme,
 * through the container) over sieve-interop's types (orc-bloom; the foreign ones where a check
 * takes them): the test jar's checks, with {@code sieve.test.artifact} set by this module's
 * surefire configuration ({@code dev.sieve.format.TestTypes}).
 */
class InteropKeySchemeContainerTest extends KeySchemeContainerTest {}
