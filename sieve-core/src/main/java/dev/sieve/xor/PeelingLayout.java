package dev.sieve.xor;

/**
 * Where a key's slots are: the hypergraph a construction peels. The filters compute the same
 * positions inline through the static methods of the subclasses, so construction and query share
 * one definition.
 */
abstract class PeelingLayout {
  /** Slots per key: 3 or 4. */
  abstract int arity();

  /** The number of slots. */
  abstract int length();

  /**
   * Writes the key's {@link #arity()} slots, which are always pairwise distinct, to {@code out}.
   */
  abstract void positions(long mixed, int[] out);

  /**
   * The number of locality groups: a construction that visits keys group by group touches the table
   * in a sliding window instead of at random. 1 means no grouping pays.
   */
  int localityGroups() {
    return 1;
  }

  /** The locality group of a key, in {@code [0, localityGroups())}. */
  int localityGroup(long mixed) {
    return 0;
  }
}
