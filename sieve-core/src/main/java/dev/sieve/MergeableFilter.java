package dev.sieve;

/**
 * A mutable filter that two of can be merged: {@link #union} ORs another filter of the same type
 * and shape into this one, so that it answers "maybe" for every key of either, exactly as a filter
 * of that shape built from both key sets would (the Bloom filters: the union of the bit arrays is
 * the bit array of the union). Filters whose answers depend on where each key's fingerprint sits
 * (Cuckoo) or on solving for the whole key set (Ribbon, Xor, Binary Fuse) cannot be merged; {@link
 * dev.sieve.registry.FilterType#isMergeable()} says which types can.
 *
 * @param <F> the filter type itself
 */
public interface MergeableFilter<F extends MergeableFilter<F>> extends MutableFilter {

  /**
   * ORs {@code other} into this filter: afterwards this filter contains every key of both. Safe to
   * call while other threads add to or query either filter. The key count afterwards is estimated
   * from the set bits ({@link #approximateElementCount()}), never below either count.
   *
   * @param other a filter of the same shape (size and probes) and the same {@link KeyScheme}
   * @throws IllegalArgumentException if the shapes differ, naming both
   * @throws KeySchemeException if the key schemes differ (the same key has different hashes)
   * @throws UnsupportedOperationException if this filter wraps a buffer (read-only)
   */
  void union(F other);

  /**
   * An independent, mutable copy of this filter on the heap (of a wrapped filter too), with its key
   * scheme.
   *
   * @return the copy
   */
  F copy();
}
