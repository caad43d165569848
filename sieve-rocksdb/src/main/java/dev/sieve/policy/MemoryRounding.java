package dev.sieve.policy;

import static dev.sieve.policy.FilterPolicy.TRAILER_BYTES;

import dev.sieve.bloom.BlockedBloomFilter;
import dev.sieve.bloom.FastLocalBloomSizing;

/**
 * RocksDB's {@code optimize_filters_for_memory} ({@code AllocateMaybeRounding}) with glibc's {@code
 * malloc_usable_size}: the length a filter grows to, and the FastLocalBloom probe count for the
 * bits per key that length gives ({@link FilterPolicy}'s class comment has the measurements).
 */
final class MemoryRounding {
  private MemoryRounding() {}

  /**
   * The FastLocalBloom filter RocksDB writes with {@code optimize_filters_for_memory}: the length
   * after {@link #allocatedLength} and the probe count for the bits per key that length gives.
   */
  static BlockedBloomFilter withProbesForAllocatedLength(
      BlockedBloomFilter planned, long[] hashes, int count) {
    long entries = planned.numKeys(); // distinct consecutive hashes, as RocksDB counts them
    long dataBytes =
        allocatedLength(planned.sizeInBits() / 8 + TRAILER_BYTES, BlockedBloomFilter.BLOCK_BYTES)
            - TRAILER_BYTES;
    int probes =
        FastLocalBloomSizing.chooseNumProbes(
            (int) (dataBytes * 8000L / Math.max(1L, entries))); // RocksDB's GetNumProbes
    if (probes == planned.numProbes() && dataBytes == planned.sizeInBits() / 8) {
      return planned;
    }
    BlockedBloomFilter f = BlockedBloomFilter.withShape(dataBytes, probes);
    for (int i = 0; i < count; i++) {
      if (i == 0 || hashes[i] != hashes[i - 1]) {
        f.addHash(hashes[i]);
      }
    }
    return f;
  }

  /**
   * The filter length (trailer included) RocksDB's {@code AllocateMaybeRounding} settles on for a
   * target length, with a fresh policy's balance of 0 and glibc's {@code malloc_usable_size}: the
   * request is the target plus the 5-byte block trailer; a usable size more than a third above it
   * is ignored; otherwise the usable size less the block trailer, rounded down to {@code
   * granularity} after the filter trailer, is the length.
   */
  static long allocatedLength(long targetWithTrailer, int granularity) {
    long requested = targetWithTrailer + TRAILER_BYTES;
    long usable = glibcUsableSize(requested);
    if (usable - usable / 4 > requested || usable <= requested) {
      return targetWithTrailer;
    }
    long data = Math.min(usable - TRAILER_BYTES - TRAILER_BYTES, BlockedBloomFilter.MAX_DATA_BYTES);
    return (data & -(long) granularity) + TRAILER_BYTES;
  }

  /**
   * glibc malloc's usable size of a heap chunk for {@code request} bytes on 64-bit Linux: chunks
   * are the request plus an 8-byte header rounded up to 16 bytes, at least 32; the usable part is
   * the chunk less its header.
   */
  static long glibcUsableSize(long request) {
    long chunk = Math.max(32, (request + 8 + 15) & ~15L);
    return chunk - 8;
  }
}
