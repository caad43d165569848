/**
 * Sieve's readers and writers of other systems' Bloom filters, bit for bit: Guava's, Spark's
 * sketch, DataSketches', Cassandra's {@code Filter.db} and Apache ORC's ({@code
 * dev.sieve.interop}). Their filters are sieve-core's {@code dev.sieve.Filter}s, so sieve-core is
 * required transitively; their container types are read by sieve-core's {@code SieveFormat} when
 * this module is present.
 */
module dev.sieve.interop {
  requires transitive dev.sieve.core;

  exports dev.sieve.interop;

  // the family's registry rows (class, builder, container form), which sieve-core's registry and
  // container load as a service; the class path reads the same provider from META-INF/services
  provides dev.sieve.internal.FilterFamily with
      dev.sieve.interop.InteropFamily;
}
