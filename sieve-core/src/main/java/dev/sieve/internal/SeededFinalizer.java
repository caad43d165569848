package dev.sieve.internal;

/**
 * Marks a filter whose probe first sends the 64-bit key hash and its seed through a full 64-bit
 * finalizer (every input bit reaching every output bit), so that keys may be handed to it as their
 * own hashes ({@code KeyScheme.IDENTITY}) without losing its false-positive rate or its
 * construction's success rate: the Xor and Binary Fuse filters, and their builders.
 */
public interface SeededFinalizer {}
