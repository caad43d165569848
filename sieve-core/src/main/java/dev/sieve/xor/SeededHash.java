package dev.sieve.xor;

/**
 * The per-seed key hash of the Xor and Binary Fuse filters: the 64-bit key hash plus the seed,
 * through the MurmurHash3 64-bit finalizer. For a fixed seed this is a bijection of the 64-bit
 * values, so distinct key hashes stay distinct under every seed, and a new seed gives the
 * construction a fresh, independent-looking hypergraph.
 */
final class SeededHash {
  private SeededHash() {}

  /** The seed of the first construction attempt unless the builder is given another. */
  static final long DEFAULT_SEED = 0x243F_6A88_85A3_08D3L; // the first hex digits of pi

  /** The step between the seeds of successive construction attempts (2^64 / golden ratio). */
  static final long SEED_STEP = 0x9E37_79B9_7F4A_7C15L;

  /** The seed of attempt {@code attempt} (0-based) of a build that starts at {@code baseSeed}. */
  static long attemptSeed(long baseSeed, int attempt) {
    return baseSeed + attempt * SEED_STEP;
  }

  /** The seeded hash of a 64-bit key hash. */
  static long mix(long hash64, long seed) {
    long h = hash64 + seed;
    h = (h ^ (h >>> 33)) * 0xFF51_AFD7_ED55_8CCDL;
    h = (h ^ (h >>> 33)) * 0xC4CE_B9FE_1A85_EC53L;
    return h ^ (h >>> 33);
  }

  /**
   * The fingerprint bits of a seeded hash; the filters keep the low 8 or 16 bits. Folding the two
   * halves makes the fingerprint depend on both the high bits (which choose the first slot) and the
   * low bits (which choose the others) rather than on either alone.
   */
  static int fingerprint(long mixed) {
    return (int) (mixed ^ (mixed >>> 32));
  }

  /**
   * {@code floor(x · n / 2^32)} for the unsigned 32-bit {@code x}: a range reduction, no modulo.
   */
  static int reduce(int x, int n) {
    return (int) (((x & 0xFFFF_FFFFL) * n) >>> 32);
  }
}
