package dev.sieve.internal;

/**
 * A filter type as the family loader sees it: the registry's {@code dev.sieve.registry.FilterType}
 * implements it, so that a family's rows name their registry type and this package reads the few
 * columns it needs (the id, the names for messages, one trait) without depending on the registry,
 * which depends on this package to find each type's family. Not API: this package is not exported.
 */
public interface FamilyType {
  /** {@return the container type id, never changed or reused} */
  int id();

  /** {@return the stable name of the type, e.g. "xor8"} */
  String cliName();

  /** {@return the Maven coordinates of the module that provides the type's family} */
  String artifact();

  /**
   * {@return whether the type's probe sends the key hash and its seed through a full 64-bit
   * finalizer, so that keys may be given as their own hashes ({@code KeyScheme.IDENTITY})}
   */
  boolean isIdentitySafe();
}
