package dev.sieve.internal;

import dev.sieve.Filter;
import dev.sieve.internal.base.BatchScratch;

/**
 * The batch query of a filter class whose probe has no batch form for some of its instances (the
 * fingerprint filters over a wrapped buffer): each hash through the filter's single-hash {@code
 * mayContainHash}, one result word per 64 hashes. {@code Filter}'s own default {@code
 * mayContainHashes} runs the same loop beside the API (the package-private {@code KeyBatches}): the
 * API may not call into this package, which depends on the API's types.
 */
public final class FilterBatches {
  private FilterBatches() {}

  /**
   * Tests {@code hashes[off, off + len)} through {@code filter.mayContainHash}, one by one: bit
   * {@code i % 64} of {@code resultBits[i / 64]} is set iff hash {@code off + i} may be present.
   *
   * @return the number of hashes that may be present
   * @throws IndexOutOfBoundsException if the range is outside {@code hashes} or {@code resultBits}
   *     is too short
   */
  public static int singles(Filter filter, long[] hashes, int off, int len, long[] resultBits) {
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
}
