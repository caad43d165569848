/**
 * Sieve's range filters: {@code dev.sieve.range.GrafiteFilter} (Grafite, over an Elias-Fano code
 * set) and {@code dev.sieve.range.PrefixBloomRangeFilter} (the prefix-Bloom baseline), both point
 * filters too. Their filters are sieve-core's {@code dev.sieve.Filter}s, so sieve-core is required
 * transitively; the container types grafite and prefix-bloom-range are read by sieve-core's {@code
 * SieveFormat} when this module is present.
 */
module dev.sieve.range {
  requires transitive dev.sieve.core;

  exports dev.sieve.range;

  // the family's registry rows (class, builder, container form), which sieve-core's registry and
  // container load as a service; the class path reads the same provider from META-INF/services
  provides dev.sieve.internal.FilterFamily with
      dev.sieve.range.RangeFamily;
}
