package dev.sieve.hash;

import static dev.sieve.hash.Xxph3.LOW32;
import static dev.sieve.hash.Xxph3.PRIME32_1;
import static dev.sieve.hash.Xxph3.PRIME32_2;
import static dev.sieve.hash.Xxph3.PRIME32_3;
import static dev.sieve.hash.Xxph3.PRIME64_1;
import static dev.sieve.hash.Xxph3.PRIME64_2;
import static dev.sieve.hash.Xxph3.PRIME64_3;
import static dev.sieve.hash.Xxph3.PRIME64_4;
import static dev.sieve.hash.Xxph3.PRIME64_5;
import static dev.sieve.hash.Xxph3.SECRET_AT;
import static dev.sieve.hash.Xxph3.SECRET_WORDS;
import static dev.sieve.hash.Xxph3.avalanche;
import static dev.sieve.hash.Xxph3.fold;
import static dev.sieve.hash.Xxph3.le64;

import java.nio.ByteBuffer;

/**
 * The long-input path of {@link Xxph3}, inputs over 240 bytes: eight 64-bit accumulators, one lane
 * per input word of each 64-byte stripe, scrambled every 16 stripes, the trailing partial stripe
 * replaced by the last 64 input bytes, then merged and avalanched ({@link Xxph3} gives the steps).
 * A non-zero seed derives a custom secret word by word ({@link #longSecret}); seed 0 reads the
 * precomputed default secret. One loop per source (a {@code byte[]}, a {@code ByteBuffer} without
 * an array), the accumulators in locals.
 */
final class Xxph3Long {
  private Xxph3Long() {}

  private static final int STRIPE = 64;
  private static final int STRIPES_PER_BLOCK = 16; // (192 - 64) / 8
  private static final int SCRAMBLE_SECRET = 128; // 192 - 64
  private static final int LAST_STRIPE_SECRET = 121; // 192 - 64 - 7
  private static final int MERGE_SECRET = 11;

  /**
   * The little-endian word at byte {@code o} of the secret used for inputs over 240 bytes: the
   * default secret for seed 0, else the default with {@code seed} added to its even words and
   * subtracted from its odd words.
   */
  private static long longSecret(int o, long seed) {
    if (seed == 0) {
      return SECRET_AT[o];
    }
    int k = o >>> 3;
    int r = o & 7;
    long w = SECRET_WORDS[k] + ((k & 1) == 0 ? seed : -seed);
    if (r == 0) {
      return w;
    }
    long next = SECRET_WORDS[k + 1] + ((k & 1) == 0 ? -seed : seed);
    return (w >>> (8 * r)) | (next << (64 - 8 * r));
  }

  private static long scramble(long acc, long key) {
    acc ^= acc >>> 47;
    acc ^= key;
    return acc * PRIME32_1;
  }

  /** One accumulator lane: the input word plus the product of the halves of the keyed word. */
  private static long lane(long acc, long input, long key) {
    long keyed = input ^ key;
    return acc + input + (keyed & LOW32) * (keyed >>> 32);
  }

  private static long merge(
      long a0, long a1, long a2, long a3, long a4, long a5, long a6, long a7, int len, long seed) {
    long result = len * PRIME64_1;
    result += fold(a0 ^ longSecret(MERGE_SECRET, seed), a1 ^ longSecret(MERGE_SECRET + 8, seed));
    result +=
        fold(a2 ^ longSecret(MERGE_SECRET + 16, seed), a3 ^ longSecret(MERGE_SECRET + 24, seed));
    result +=
        fold(a4 ^ longSecret(MERGE_SECRET + 32, seed), a5 ^ longSecret(MERGE_SECRET + 40, seed));
    result +=
        fold(a6 ^ longSecret(MERGE_SECRET + 48, seed), a7 ^ longSecret(MERGE_SECRET + 56, seed));
    return avalanche(result);
  }

  // ---------------------------------------------------------------- byte[] source

  static long hashLong(byte[] b, int off, int len, long seed) {
    long a0 = PRIME32_3;
    long a1 = PRIME64_1;
    long a2 = PRIME64_2;
    long a3 = PRIME64_3;
    long a4 = PRIME64_4;
    long a5 = PRIME32_2;
    long a6 = PRIME64_5;
    long a7 = PRIME32_1;
    int fullStripes = len / STRIPE;
    boolean partialTail = (len & (STRIPE - 1)) != 0;
    int stripes = fullStripes + (partialTail ? 1 : 0);
    for (int s = 0; s < stripes; s++) {
      boolean tail = s == fullStripes;
      int p = tail ? off + len - STRIPE : off + s * STRIPE;
      int n = s & (STRIPES_PER_BLOCK - 1);
      int k = tail ? LAST_STRIPE_SECRET : 8 * n;
      a0 = lane(a0, le64(b, p), longSecret(k, seed));
      a1 = lane(a1, le64(b, p + 8), longSecret(k + 8, seed));
      a2 = lane(a2, le64(b, p + 16), longSecret(k + 16, seed));
      a3 = lane(a3, le64(b, p + 24), longSecret(k + 24, seed));
      a4 = lane(a4, le64(b, p + 32), longSecret(k + 32, seed));
      a5 = lane(a5, le64(b, p + 40), longSecret(k + 40, seed));
      a6 = lane(a6, le64(b, p + 48), longSecret(k + 48, seed));
      a7 = lane(a7, le64(b, p + 56), longSecret(k + 56, seed));
      if (!tail && n == STRIPES_PER_BLOCK - 1) {
        a0 = scramble(a0, longSecret(SCRAMBLE_SECRET, seed));
        a1 = scramble(a1, longSecret(SCRAMBLE_SECRET + 8, seed));
        a2 = scramble(a2, longSecret(SCRAMBLE_SECRET + 16, seed));
        a3 = scramble(a3, longSecret(SCRAMBLE_SECRET + 24, seed));
        a4 = scramble(a4, longSecret(SCRAMBLE_SECRET + 32, seed));
        a5 = scramble(a5, longSecret(SCRAMBLE_SECRET + 40, seed));
        a6 = scramble(a6, longSecret(SCRAMBLE_SECRET + 48, seed));
        a7 = scramble(a7, longSecret(SCRAMBLE_SECRET + 56, seed));
      }
    }
    return merge(a0, a1, a2, a3, a4, a5, a6, a7, len, seed);
  }

  // ---------------------------------------------------------------- ByteBuffer source (no array)

  static long hashLong(ByteBuffer b, int off, int len, long seed) {
    long a0 = PRIME32_3;
    long a1 = PRIME64_1;
    long a2 = PRIME64_2;
    long a3 = PRIME64_3;
    long a4 = PRIME64_4;
    long a5 = PRIME32_2;
    long a6 = PRIME64_5;
    long a7 = PRIME32_1;
    int fullStripes = len / STRIPE;
    boolean partialTail = (len & (STRIPE - 1)) != 0;
    int stripes = fullStripes + (partialTail ? 1 : 0);
    for (int s = 0; s < stripes; s++) {
      boolean tail = s == fullStripes;
      int p = tail ? off + len - STRIPE : off + s * STRIPE;
      int n = s & (STRIPES_PER_BLOCK - 1);
      int k = tail ? LAST_STRIPE_SECRET : 8 * n;
      a0 = lane(a0, le64(b, p), longSecret(k, seed));
      a1 = lane(a1, le64(b, p + 8), longSecret(k + 8, seed));
      a2 = lane(a2, le64(b, p + 16), longSecret(k + 16, seed));
      a3 = lane(a3, le64(b, p + 24), longSecret(k + 24, seed));
      a4 = lane(a4, le64(b, p + 32), longSecret(k + 32, seed));
      a5 = lane(a5, le64(b, p + 40), longSecret(k + 40, seed));
      a6 = lane(a6, le64(b, p + 48), longSecret(k + 48, seed));
      a7 = lane(a7, le64(b, p + 56), longSecret(k + 56, seed));
      if (!tail && n == STRIPES_PER_BLOCK - 1) {
        a0 = scramble(a0, longSecret(SCRAMBLE_SECRET, seed));
        a1 = scramble(a1, longSecret(SCRAMBLE_SECRET + 8, seed));
        a2 = scramble(a2, longSecret(SCRAMBLE_SECRET + 16, seed));
        a3 = scramble(a3, longSecret(SCRAMBLE_SECRET + 24, seed));
        a4 = scramble(a4, longSecret(SCRAMBLE_SECRET + 32, seed));
        a5 = scramble(a5, longSecret(SCRAMBLE_SECRET + 40, seed));
        a6 = scramble(a6, longSecret(SCRAMBLE_SECRET + 48, seed));
        a7 = scramble(a7, longSecret(SCRAMBLE_SECRET + 56, seed));
      }
    }
    return merge(a0, a1, a2, a3, a4, a5, a6, a7, len, seed);
  }
}
