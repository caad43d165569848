package dev.sieve.xor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sieve.Filter;
import dev.sieve.KeyScheme;
import dev.sieve.hash.KeyHash;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * The single lookup of the Xor and Binary Fuse filters (the key's hash from the scheme field, the
 * fuse slots written out) against the batch probe, which computes the slots through the layout
 * classes, and against the hash path, for every width, arity and long-key scheme; enough rounds
 * that the single lookup runs interpreted first and compiled by C2 last.
 */
class FingerprintSingleLookupTest {
  private static final int KEYS = 20_000;
  private static final int QUERIES = 100_000;
  private static final int ROUNDS = 12;

  private static long schemeHash(KeyScheme s, long key) {
    return s == KeyScheme.XXPH3 ? KeyHash.hash64(key) : s.hash(key);
  }

  @Test
  void theSingleLookupAnswersAsTheBatchAndTheHashPath() {
    List<Function<KeyScheme, Filter>> filters =
        List.of(
            s -> Xor8Filter.builder().keyScheme(s).build(keys()),
            s -> Xor16Filter.builder().keyScheme(s).build(keys()),
            s -> BinaryFuse8Filter.builder().keyScheme(s).build(keys()),
            s -> BinaryFuse8Filter.builder().arity(4).keyScheme(s).build(keys()),
            s -> BinaryFuse16Filter.builder().keyScheme(s).build(keys()),
            s -> BinaryFuse16Filter.builder().arity(4).keyScheme(s).build(keys()));
    long[] queries = new long[QUERIES];
    SplittableRandom rnd = new SplittableRandom(42);
    long[] keys = keys();
    for (int i = 0; i < QUERIES; i++) {
      queries[i] = i % 5 == 0 ? keys[rnd.nextInt(KEYS)] : rnd.nextLong();
    }
    long[] bits = new long[(QUERIES + 63) / 64];
    for (KeyScheme scheme : new KeyScheme[] {KeyScheme.FAST, KeyScheme.XXPH3, KeyScheme.MIX64}) {
      for (Function<KeyScheme, Filter> make : filters) {
        Filter f = make.apply(scheme);
        long positives = 0;
        for (int round = 0; round < ROUNDS; round++) {
          f.mayContainBatch(queries, 0, QUERIES, bits);
          for (int i = 0; i < QUERIES; i++) {
            boolean single = f.mayContain(queries[i]);
            boolean batch = (bits[i >>> 6] >>> (i & 63) & 1) != 0;
            if (single != batch || single != f.mayContainHash(schemeHash(scheme, queries[i]))) {
              throw new AssertionError(f + " " + scheme + ": query " + i + " round " + round);
            }
            positives += single ? 1 : 0;
          }
        }
        for (long k : keys) {
          assertTrue(f.mayContain(k), f + " " + scheme + " key " + k);
        }
        // a fifth of the queries are keys; the rest answer "maybe" at the filter's rate, so the
        // comparison above covered both answers
        long absentHits = positives - (long) ROUNDS * (QUERIES / 5);
        assertTrue(absentHits > 0, f + " " + scheme + ": no false positive compared");
        assertEquals(0, absentHits % ROUNDS, "the same answers every round");
      }
    }
  }

  private static long[] keys() {
    SplittableRandom rnd = new SplittableRandom(7);
    long[] k = new long[KEYS];
    for (int i = 0; i < KEYS; i++) {
      k[i] = rnd.nextLong();
    }
    return k;
  }
}
