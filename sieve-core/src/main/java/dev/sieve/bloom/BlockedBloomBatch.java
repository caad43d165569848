package dev.sieve.bloom;

import static dev.sieve.bloom.BlockedBloomKernel.WORDS_PER_BLOCK;
import static dev.sieve.bloom.BlockedBloomKernel.all6;
import static dev.sieve.bloom.BlockedBloomKernel.allProbes;

import dev.sieve.KeyScheme;
import dev.sieve.hash.KeyHash;
import dev.sieve.internal.base.BatchScratch;

/**
 * The batch lookups of {@link BlockedBloomFilter} over heap storage: the scalar batch,
 * software-pipelined (the SIMD chunk is {@link BlockedBloomVectorChunk}). Static methods over the
 * filter's words, block count and probe count, as {@link BlockedBloomKernel}'s single lookups are,
 * so the JIT inlines them into the filter's batch methods.
 */
final class BlockedBloomBatch {
  private BlockedBloomBatch() {}

  /**
   * The scalar batch over heap storage, software-pipelined one chunk of {@value BatchScratch#CHUNK}
   * keys deep: while chunk {@code c} is tested, chunk {@code c + 1} has been hashed, its blocks
   * computed and both cache lines each block can span requested (a {@code long[]}'s data is only
   * 16-byte aligned, so a 64-byte block straddles two lines three times in four).
   *
   * <p>Why this shape. Out of cache a batch is bound by the misses in flight: about 10-24 line-fill
   * buffers per core, and a reorder buffer of a few hundred micro-ops that a miss at its head
   * stalls. So the loop that requests lines is kept short ({@link #stage}: a multiply, a shift, two
   * loads per key, about 10 micro-ops, so some 20 keys' loads fit in the reorder buffer and fill
   * the buffers), with the hash work before it and the probe work after it. The 64 keys of a chunk
   * ask for ~112 lines, several times the fill buffers, so requests keep the memory system busy
   * through the whole staging loop; the 7 KiB they bring stay in L1 until the chunk is tested one
   * stage later, and that test (branch-free, {@link BlockedBloomKernel#all6}) overlaps the last
   * misses of the next chunk instead of waiting for its own. The loads' values are XORed into one
   * word stored in the thread's scratch, so the JIT cannot drop them.
   *
   * @param scheme the key scheme to hash {@code input} by; {@code null}: {@code input} holds hashes
   */
  static int pipelined(
      long[] words,
      int numBlocks,
      int numProbes,
      long[] input,
      KeyScheme scheme,
      int off,
      int len,
      long[] resultBits) {
    BatchScratch.checkBatch(input.length, off, len, resultBits.length);
    if (len == 0) {
      return 0;
    }
    BatchScratch scratch = BatchScratch.get();
    long[] current = scratch.loaded;
    long[] next = scratch.state;
    int chunkSize = BatchScratch.CHUNK;
    long touched =
        stage(
            words,
            numBlocks,
            input,
            scheme,
            off,
            Math.min(chunkSize, len),
            current,
            scratch.hashes);
    int count = 0;
    for (int done = 0; done < len; done += chunkSize) {
      int ahead = done + chunkSize;
      if (ahead < len) {
        touched ^=
            stage(
                words,
                numBlocks,
                input,
                scheme,
                off + ahead,
                Math.min(chunkSize, len - ahead),
                next,
                scratch.hashes);
      }
      long word = testStaged(words, numProbes, current, Math.min(chunkSize, len - done));
      resultBits[done >>> 6] = word;
      count += Long.bitCount(word);
      long[] swap = current;
      current = next;
      next = swap;
    }
    scratch.positions[0] = (int) (touched ^ (touched >>> 32)); // keeps the staging loads
    return count;
  }

  /**
   * Stages {@code n <= 64} keys (hashed by {@code scheme} into {@code hashBuffer} first) or hashes
   * ({@code scheme == null}) from {@code input[at]} on: {@code staged[i]} gets the hash's probe
   * half ({@code h2}, the upper 32 bits) above the block's first word index, and both lines of the
   * block are requested. Returns the XOR of the words loaded.
   */
  private static long stage(
      long[] words,
      int numBlocks,
      long[] input,
      KeyScheme scheme,
      int at,
      int n,
      long[] staged,
      long[] hashBuffer) {
    long[] source = input;
    int from = at;
    if (scheme != null) {
      if (scheme == KeyScheme.XXPH3) {
        KeyHash.hash64(input, at, n, hashBuffer, 0);
      } else {
        scheme.hash(input, at, n, hashBuffer, 0);
      }
      source = hashBuffer;
      from = 0;
    }
    long[] w = words;
    long blocks = numBlocks;
    long touched = 0;
    for (int i = 0; i < n; i++) {
      long hash = source[from + i];
      int base = (int) (((hash & 0xFFFFFFFFL) * blocks) >>> 32) * WORDS_PER_BLOCK;
      staged[i] = (hash & 0xFFFFFFFF00000000L) | base;
      touched ^= w[base] ^ w[base + WORDS_PER_BLOCK - 1];
    }
    return touched;
  }

  /**
   * The answers for {@code n} staged keys ({@link #stage}), branch-free: bit {@code i} for key i.
   */
  private static long testStaged(long[] words, int numProbes, long[] staged, int n) {
    long[] w = words;
    int k = numProbes;
    long word = 0;
    if (k == 6) {
      for (int i = 0; i < n; i++) {
        long e = staged[i];
        word |= (all6(w, (int) e, (int) (e >>> 32)) & 1) << i;
      }
    } else {
      for (int i = 0; i < n; i++) {
        long e = staged[i];
        word |= (allProbes(w, (int) e, (int) (e >>> 32), k) & 1) << i;
      }
    }
    return word;
  }
}
