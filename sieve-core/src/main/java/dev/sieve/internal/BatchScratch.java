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
}
