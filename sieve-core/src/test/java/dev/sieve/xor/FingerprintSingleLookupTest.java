package dev.sieve.xor;

import dev.sieve.Filter;
import dev.sieve.KeyScheme;
import dev.sieve.testing.SingleLookupCheck;
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
    for (KeyScheme scheme : new KeyScheme[] {KeyScheme.FAST, KeyScheme.XXPH3, KeyScheme.MIX64}) {
      for (Function<KeyScheme, Filter> make : filters) {
        SingleLookupCheck.check(make.apply(scheme), scheme, keys, queries, ROUNDS);
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
