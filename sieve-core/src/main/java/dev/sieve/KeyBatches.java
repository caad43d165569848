package dev.sieve;

import dev.sieve.hash.KeyEncoder;
import dev.sieve.hash.KeyHash;
import dev.sieve.internal.base.BatchScratch;
import java.util.Objects;

/**
 * The batch queries behind {@link Filter}'s default methods: the key-level {@code mayContainBatch}
 * (keys hashed by the filter's {@link KeyScheme} a chunk at a time into this thread's {@link
 * BatchScratch}, then probed through {@link Filter#mayContainHashes}) and the hash-level {@code
 * mayContainHashes} of a filter without a batch probe of its own (its single-hash probe, one hash
 * at a time). They live beside the API rather than among the internal helpers because they are
 * typed by it: the helpers below the API know only hashes and arrays, so that the API depends on
 * them and they on nothing of Sieve.
 */
final class KeyBatches {
  private KeyBatches() {}

  /**
   * {@code hashes[off, off + len)} through {@code filter.mayContainHash}, one by one, one result
   * word per 64 hashes: {@link Filter#mayContainHashes}'s default.
   */
  static int singles(Filter filter, long[] hashes, int off, int len, long[] resultBits) {
    BatchScratch.checkBatch(hashes.length, off, len, resultBits.length);
    int count = 0;
    for (int done = 0; done < len; done += BatchScratch.CHUNK) {
      int at = off + done;
      int chunk = Math.min(BatchScratch.CHUNK, len - done);
      long word = 0;
      for (int i = 0; i < chunk; i++) {
        word |= (filter.mayContainHash(hashes[at + i]) ? 1L : 0L) << i;
      }
      resultBits[done >>> 6] = word;
      count += Long.bitCount(word);
    }
    return count;
  }

  /**
   * A batch of keys ({@code longKeys}, or {@code byteKeys} where {@code longKeys} is null), hashed
   * by {@code scheme} a chunk of {@value BatchScratch#CHUNK} at a time into this thread's scratch,
   * then probed through {@code filter.mayContainHashes}. The default scheme is tested first.
   */
  static int keyBatch(
      Filter filter,
      KeyScheme scheme,
      long[] longKeys,
      byte[][] byteKeys,
      int off,
      int len,
      long[] resultBits) {
    int inputLength = longKeys == null ? byteKeys.length : longKeys.length;
    BatchScratch.checkBatch(inputLength, off, len, resultBits.length);
    BatchScratch scratch = BatchScratch.get();
    long[] hashes = scratch.hashes;
    long[] word = scratch.word;
    int count = 0;
    for (int done = 0; done < len; done += BatchScratch.CHUNK) {
      int chunk = Math.min(BatchScratch.CHUNK, len - done);
      if (longKeys != null) {
        if (scheme == KeyScheme.XXPH3) {
          KeyHash.hash64(longKeys, off + done, chunk, hashes, 0);
        } else {
          scheme.hash(longKeys, off + done, chunk, hashes, 0);
        }
      } else if (scheme == KeyScheme.XXPH3) {
        for (int i = 0; i < chunk; i++) {
          hashes[i] = KeyHash.hash64(Objects.requireNonNull(byteKeys[off + done + i], "key"));
        }
      } else {
        for (int i = 0; i < chunk; i++) {
          byte[] key = Objects.requireNonNull(byteKeys[off + done + i], "key");
          hashes[i] = scheme.hash(key, 0, key.length);
        }
      }
      count += filter.mayContainHashes(hashes, 0, chunk, word);
      resultBits[done >>> 6] = word[0];
    }
    return count;
  }

  /**
   * A batch of typed keys, each hashed through {@code encoder} by the filter's scheme ({@code
   * filter.keyScheme().hash(key, encoder)}) a chunk of {@value BatchScratch#CHUNK} at a time into
   * this thread's scratch, then probed through {@code filter.mayContainHashes}.
   */
  static <T> int encodedBatch(
      Filter filter, T[] keys, KeyEncoder<? super T> encoder, int off, int len, long[] resultBits) {
    Objects.requireNonNull(encoder, "encoder");
    BatchScratch.checkBatch(keys.length, off, len, resultBits.length);
    BatchScratch scratch = BatchScratch.get();
    long[] hashes = scratch.hashes;
    long[] word = scratch.word;
    KeyScheme scheme = filter.keyScheme();
    int count = 0;
    for (int done = 0; done < len; done += BatchScratch.CHUNK) {
      int chunk = Math.min(BatchScratch.CHUNK, len - done);
      if (scheme == KeyScheme.XXPH3) {
        for (int i = 0; i < chunk; i++) {
          hashes[i] = KeyHash.hash64(Objects.requireNonNull(keys[off + done + i], "key"), encoder);
        }
      } else {
        for (int i = 0; i < chunk; i++) {
          hashes[i] = scheme.hash(Objects.requireNonNull(keys[off + done + i], "key"), encoder);
        }
      }
      count += filter.mayContainHashes(hashes, 0, chunk, word);
      resultBits[done >>> 6] = word[0];
    }
    return count;
  }
}
