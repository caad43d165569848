package dev.sieve.internal;

import java.util.Objects;

/**
 * Per-thread scratch arrays for the batch queries of {@code Filter}: a chunk of key hashes and one
 * result word, so a key-level batch hashes {@value #CHUNK} keys, then probes them as one batch,
 * without allocating per call.
 */
public final class BatchScratch {
  /** Keys hashed before each probe pass: one result word. */
  public static final int CHUNK = 64;

  private static final ThreadLocal<BatchScratch> SCRATCH =
      ThreadLocal.withInitial(BatchScratch::new);

  /** The hashes of the current chunk. */
  public final long[] hashes = new long[CHUNK];

  /** The result word of the current chunk. */
  public final long[] word = new long[1];

  /** Per-key positions (e.g. a Bloom block's first word) of a chunk, for the filters' batches. */
  public final int[] positions = new int[CHUNK];

  /** Per-key loaded words of a chunk, for the filters' batches. */
  public final long[] loaded = new long[CHUNK];

  /** A second per-key state of a chunk, for the filters' batches. */
  public final long[] state = new long[CHUNK];

  /** A second per-key loaded word of a chunk, for the filters' batches. */
  public final long[] loaded2 = new long[CHUNK];

  private BatchScratch() {}

  /** This thread's scratch. */
  public static BatchScratch get() {
    return SCRATCH.get();
  }

  /**
   * Checks a batch's range: {@code [off, off + len)} inside an input of {@code inputLength}, and a
   * result array of at least {@code ceil(len / 64)} words.
   */
  public static void checkBatch(int inputLength, int off, int len, int resultWords) {
    Objects.checkFromIndexSize(off, len, inputLength);
    int needed = (len + 63) >>> 6;
    if (resultWords < needed) {
      throw new IndexOutOfBoundsException(
          "result bits of " + resultWords + " words hold fewer than " + len + " answers");
    }
  }

  /** A filter's probe of one chunk of at most 64 hashes. */
  @FunctionalInterface
  public interface ChunkProbe {
    /**
     * Tests {@code hashes[at, at + chunk)}, {@code chunk <= 64}: bit {@code i} of the result is set
     * iff {@code hashes[at + i]} may be present.
     */
    long probe(long[] hashes, int at, int chunk);
  }

  /**
   * Runs a batch query chunk by chunk: checks the range, writes one result word per 64 hashes and
   * returns the number of maybes.
   */
  public static int batch(long[] hashes, int off, int len, long[] resultBits, ChunkProbe probe) {
    return run(hashes, off, len, resultBits, probe, null);
  }

  /** A batch query through {@code filter}'s single-key {@code mayContainHash}, one by one. */
  public static int singles(
      dev.sieve.Filter filter, long[] hashes, int off, int len, long[] resultBits) {
    return run(hashes, off, len, resultBits, null, filter);
  }

  private static int run(
      long[] hashes,
      int off,
      int len,
      long[] resultBits,
      ChunkProbe probe,
      dev.sieve.Filter single) {
    checkBatch(hashes.length, off, len, resultBits.length);
    int count = 0;
    for (int done = 0; done < len; done += CHUNK) {
      int at = off + done;
      int chunk = Math.min(CHUNK, len - done);
      long word = 0;
      if (probe != null) {
        word = probe.probe(hashes, at, chunk);
      } else {
        for (int i = 0; i < chunk; i++) {
          word |= (single.mayContainHash(hashes[at + i]) ? 1L : 0L) << i;
        }
      }
      resultBits[done >>> 6] = word;
      count += Long.bitCount(word);
    }
    return count;
  }

  /**
   * A batch of keys ({@code longKeys}, or {@code byteKeys} where {@code longKeys} is null), hashed
   * by {@code scheme} a chunk of {@value #CHUNK} at a time into this thread's scratch, then probed
   * through {@code filter.mayContainHashes}. The default scheme is tested first.
   */
  public static int keyBatch(
      dev.sieve.Filter filter,
      dev.sieve.KeyScheme scheme,
      long[] longKeys,
      byte[][] byteKeys,
      int off,
      int len,
      long[] resultBits) {
    int inputLength = longKeys == null ? byteKeys.length : longKeys.length;
    checkBatch(inputLength, off, len, resultBits.length);
    BatchScratch scratch = get();
    long[] hashes = scratch.hashes;
    long[] word = scratch.word;
    int count = 0;
    for (int done = 0; done < len; done += CHUNK) {
      int chunk = Math.min(CHUNK, len - done);
      if (longKeys != null) {
        if (scheme == dev.sieve.KeyScheme.XXPH3) {
          dev.sieve.hash.KeyHash.hash64(longKeys, off + done, chunk, hashes, 0);
        } else {
          scheme.hash(longKeys, off + done, chunk, hashes, 0);
        }
      } else if (scheme == dev.sieve.KeyScheme.XXPH3) {
        for (int i = 0; i < chunk; i++) {
          hashes[i] =
              dev.sieve.hash.KeyHash.hash64(
                  Objects.requireNonNull(byteKeys[off + done + i], "key"));
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
   * filter.keyScheme().hash(key, encoder)}) a chunk of {@value #CHUNK} at a time into this thread's
   * scratch, then probed through {@code filter.mayContainHashes}.
   */
  public static <T> int encodedBatch(
      dev.sieve.Filter filter,
      T[] keys,
      dev.sieve.hash.KeyEncoder<? super T> encoder,
      int off,
      int len,
      long[] resultBits) {
    Objects.requireNonNull(encoder, "encoder");
    checkBatch(keys.length, off, len, resultBits.length);
    BatchScratch scratch = get();
    long[] hashes = scratch.hashes;
    long[] word = scratch.word;
    dev.sieve.KeyScheme scheme = filter.keyScheme();
    int count = 0;
    for (int done = 0; done < len; done += CHUNK) {
      int chunk = Math.min(CHUNK, len - done);
      if (scheme == dev.sieve.KeyScheme.XXPH3) {
        for (int i = 0; i < chunk; i++) {
          hashes[i] =
              dev.sieve.hash.KeyHash.hash64(
                  Objects.requireNonNull(keys[off + done + i], "key"), encoder);
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
