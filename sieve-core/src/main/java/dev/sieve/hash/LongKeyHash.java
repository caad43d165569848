package dev.sieve.hash;

/**
 * How a {@link dev.sieve.FastLongKeyFilter} turns a {@code long} key into the 64-bit hash its
 * filter probes with, in place of XXPH3 ({@link KeyHash#hash64(long)}). The choice is recorded in
 * the container's flags, so a filter read back hashes as the one written.
 */
public enum LongKeyHash {
  /**
   * {@link KeyHash#mix64(long)}: one 64-bit mixer. For every filter type; the default for those
   * that probe with the hash's bits directly (Bloom, Ribbon, Cuckoo).
   */
  MIX64(1),

  /**
   * The key is its own hash. Only for filters whose probe first sends the hash and their seed
   * through a full 64-bit finalizer of their own (Xor and Binary Fuse): that finalizer is then the
   * key's one mix, as in FastFilter. The default for them.
   */
  IDENTITY(2);

  private final int containerFlag;

  LongKeyHash(int containerFlag) {
    this.containerFlag = containerFlag;
  }

  /**
   * The hash of {@code key}.
   *
   * @param key the key
   * @return its 64-bit hash
   */
  public long hash(long key) {
    return this == MIX64 ? KeyHash.mix64(key) : key;
  }

  /**
   * Its bit in the container's flags ({@code docs/format.md}).
   *
   * @return the flag bit
   */
  public int containerFlag() {
    return containerFlag;
  }
}
