package dev.sieve.internal.base;

import java.util.Objects;

/**
 * Per-thread scratch arrays for the batch queries of {@code Filter}: a chunk of key hashes and one
 * result word, so a key-level batch hashes {@value #CHUNK} keys, then probes them as one batch,
 * without allocating per call, and the chunk loop of the filters' own batch probes. The key-level
 * batches themselves live beside {@code Filter} (they hash by its {@code KeyScheme}), and so does
 * the batch through a filter's single-hash probe: this class knows hashes and arrays, not filters
 * or keys, so it stays below the API and the hash functions in the package graph.
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
    checkBatch(hashes.length, off, len, resultBits.length);
    int count = 0;
    for (int done = 0; done < len; done += CHUNK) {
      long word = probe.probe(hashes, off + done, Math.min(CHUNK, len - done));
      resultBits[done >>> 6] = word;
      count += Long.bitCount(word);
    }
    return count;
  }
}
