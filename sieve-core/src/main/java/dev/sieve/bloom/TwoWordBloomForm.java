package dev.sieve.bloom;

import static dev.sieve.bloom.TwoWordBloomFilter.BLOCK_BYTES;
import static dev.sieve.bloom.TwoWordBloomFilter.MAX_DATA_BYTES;
import static dev.sieve.bloom.TwoWordBloomFilter.TRAILER_BYTES;

import dev.sieve.SieveFormatException;
import dev.sieve.internal.BloomWords;
import dev.sieve.internal.LongKeyBlocks;
import dev.sieve.internal.PayloadForm;
import dev.sieve.internal.base.Checks;
import dev.sieve.math.TwoWordMath;
import java.nio.ByteBuffer;

/**
 * The bytes, checks and sizing of {@link TwoWordBloomFilter}, around the bit math of {@link
 * TwoWordBloomKernel}.
 *
 * <h2>The payload (container type id 22)</h2>
 *
 * The words' little-endian bytes, {@code 64 · numBlocks} of them (at least one block, at most
 * {@code TwoWordBloomFilter.MAX_DATA_BYTES}), then an 8-byte trailer: byte 0 the bits per word
 * {@code j} (2, 3 or 4), bytes 1 to 7 zero. The data comes first so that a wrapped filter reads its
 * words in place at the payload's start. The container's parameter A is {@code j}, B the block size
 * in bits (512). The key count is the container's.
 */
final class TwoWordBloomForm {

  private TwoWordBloomForm() {}

  // ---------------------------------------------------------------- reading, wrapping, writing

  /** The filter of a payload's bytes, copied. */
  static TwoWordBloomFilter read(byte[] payload, long numKeys) {
    Checks.count("number of keys", numKeys, Long.MAX_VALUE);
    int j = checkPayload(ByteBuffer.wrap(payload));
    int dataLen = payload.length - TRAILER_BYTES;
    return new TwoWordBloomFilter(BloomWords.copyOf(payload, 0, dataLen, numKeys), j);
  }

  /** The filter of the payload in a buffer's remaining bytes, read in place. */
  static TwoWordBloomFilter wrap(ByteBuffer payload, long numKeys) {
    Checks.count("number of keys", numKeys, Long.MAX_VALUE);
    ByteBuffer view = payload.slice();
    int j = checkPayload(view);
    long dataLen = (long) view.remaining() - TRAILER_BYTES;
    return new TwoWordBloomFilter(BloomWords.wrap(view, dataLen / Long.BYTES, numKeys), j);
  }

  /** The payload's bytes: the words, then the trailer. */
  static byte[] toBytes(TwoWordBloomFilter filter) {
    byte[] out = filter.data().toBytes(0, TRAILER_BYTES);
    out[out.length - TRAILER_BYTES] = (byte) filter.bitsPerWord();
    return out;
  }

  /** Checks the length and the trailer of the payload in {@code in}'s remaining bytes; its j. */
  private static int checkPayload(ByteBuffer in) {
    long len = in.remaining();
    long dataLen = len - TRAILER_BYTES;
    if (dataLen < BLOCK_BYTES || dataLen % BLOCK_BYTES != 0 || dataLen > MAX_DATA_BYTES) {
      throw new SieveFormatException(
          0,
          "two-word Bloom payload of "
              + len
              + " bytes: the data must be a positive multiple of 64 bytes up to "
              + MAX_DATA_BYTES
              + ", then the 8-byte trailer");
    }
    int at = in.position() + (int) dataLen;
    int j = in.get(at) & 0xFF;
    if (j < TwoWordMath.TWO_WORD_MIN_BITS_PER_WORD || j > TwoWordMath.TWO_WORD_MAX_BITS_PER_WORD) {
      throw new SieveFormatException(
          dataLen, "two-word Bloom bits per word " + j + " outside 2..4");
    }
    for (int i = 1; i < TRAILER_BYTES; i++) {
      if (in.get(at + i) != 0) {
        throw new SieveFormatException(
            dataLen + i, "two-word Bloom trailer byte " + i + " is not zero (reserved)");
      }
    }
    return j;
  }

  // ---------------------------------------------------------------- sizing and building

  /** The number of blocks for {@code keys} keys at {@code bitsPerKey}: at least one. */
  static int numBlocks(long keys, double bitsPerKey) {
    double blocks = Math.ceil(keys * bitsPerKey / (BLOCK_BYTES * 8.0));
    if (blocks * BLOCK_BYTES > MAX_DATA_BYTES) {
      throw new IllegalArgumentException(
          keys
              + " keys at "
              + bitsPerKey
              + " bits/key need more than the two-word Bloom limit of "
              + MAX_DATA_BYTES
              + " bytes; at most "
              + (long) (MAX_DATA_BYTES * 8.0 / bitsPerKey)
              + " keys fit at this setting");
    }
    return (int) Math.max(1, blocks);
  }

  /** An empty filter of {@code numBlocks} blocks (a checked count) and {@code j} bits per word. */
  static TwoWordBloomFilter empty(int numBlocks, int j) {
    return new TwoWordBloomFilter(
        BloomWords.onHeap(new long[numBlocks * TwoWordBloomKernel.WORDS_PER_BLOCK], 0), j);
  }

  /** The filter of {@code count} hashes, sized for the distinct neighbours among them. */
  static TwoWordBloomFilter build(long[] hashes, int count, double bitsPerKey, int j) {
    long distinct = LongKeyBlocks.countConsecutiveDistinct(hashes, count);
    long[] words = new long[numBlocks(distinct, bitsPerKey) * TwoWordBloomKernel.WORDS_PER_BLOCK];
    TwoWordBloomKernel.addPlain(words, j, hashes, count);
    return new TwoWordBloomFilter(BloomWords.onHeap(words, distinct), j);
  }

  /**
   * The smallest bits/key, in hundredths, whose modelled rate at its best {@code j} ({@link
   * TwoWordMath#twoWordBitsPerWord}) is at most {@code fpRate}; 100 if none is. The rate falls as
   * the bits grow, so a bisection finds it.
   */
  static double bitsPerKeyForFpRate(double fpRate) {
    Checks.fpRate(fpRate);
    int lo = 100; // hundredths of a bit
    int hi = 10_000;
    if (modelAt(hi) > fpRate) {
      return hi / 100.0;
    }
    if (modelAt(lo) <= fpRate) {
      return lo / 100.0;
    }
    while (hi - lo > 1) { // modelAt(lo) > fpRate >= modelAt(hi)
      int mid = (lo + hi) >>> 1;
      if (modelAt(mid) <= fpRate) {
        hi = mid;
      } else {
        lo = mid;
      }
    }
    return hi / 100.0;
  }

  private static double modelAt(int centibits) {
    double c = centibits / 100.0;
    return TwoWordMath.twoWordFpRate(c, TwoWordMath.twoWordBitsPerWord(c));
  }

  // ---------------------------------------------------------------- the container's payload form

  /**
   * The container's payload form (type id 22): the words then the trailer; parameter A the bits per
   * word, B the block size in bits (512). Read in place. Registered by {@link BloomFamily}.
   */
  static PayloadForm<TwoWordBloomFilter> payloadForm() {
    return PayloadForm.inPlace(
        TwoWordBloomFilter.class,
        TwoWordBloomForm::toBytes,
        TwoWordBloomFilter::bitsPerWord,
        f -> BLOCK_BYTES * Byte.SIZE,
        TwoWordBloomForm::read,
        TwoWordBloomForm::wrap);
  }
}
