package dev.sieve.testing;

/**
 * The input of the hash functions' golden vectors: the prefixes of one byte pattern, {@code b[i] =
 * (131 i + 7) mod 256}, the same bytes the reference values were computed over (with the xxHash
 * reference implementation) in sieve-core and sieve-rocksdb.
 */
public final class HashVectors {
  private HashVectors() {}

  /** The first {@code n} bytes of the pattern. */
  public static byte[] pattern(int n) {
    byte[] b = new byte[n];
    for (int i = 0; i < n; i++) {
      b[i] = (byte) (i * 131 + 7);
    }
    return b;
  }
}
