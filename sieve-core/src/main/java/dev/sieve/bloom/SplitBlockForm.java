package dev.sieve.bloom;

import static dev.sieve.bloom.SplitBlockBloomFilter.BLOCK_BYTES;
import static dev.sieve.bloom.SplitBlockBloomFilter.MAX_BYTES;
import static dev.sieve.bloom.SplitBlockBloomFilter.MAX_DISTINCT_VALUES;
import static dev.sieve.bloom.SplitBlockBloomFilter.MIN_BYTES;

import dev.sieve.KeyScheme;
import dev.sieve.KeySchemeException;
import dev.sieve.SieveFormatException;
import dev.sieve.internal.BloomWords;
import dev.sieve.internal.PayloadForm;
import dev.sieve.internal.base.Checks;
import dev.sieve.math.SplitBlockMath;
import java.nio.ByteBuffer;
import java.util.function.LongToIntFunction;

/**
 * Parquet's split-block bitset and sizing for {@link SplitBlockBloomFilter}: what parquet-java's
 * {@code BlockSplitBloomFilter} reads, writes and sizes, around the bit math of {@link
 * SplitBlockKernel}.
 *
 * <h2>The bitset</h2>
 *
 * The words' little-endian bytes, as a {@code .parquet} file stores them after the {@code
 * BloomFilterHeader}: a positive multiple of 32 bytes, at most {@link
 * SplitBlockBloomFilter#MAX_BYTES}, with no header, value count or checksum of its own. Reading
 * ({@link #read}, a copy) and wrapping ({@link #wrap}, in place) check the length once, here.
 *
 * <h2>The layout (apache/parquet-format, BloomFilter.md)</h2>
 *
 * <ul>
 *   <li>The bitset is {@code z} blocks of 32 bytes; word {@code i} of block {@code b} is the
 *       little-endian 32-bit integer at byte {@code 32b + 4i}.
 *   <li>The value's 64-bit hash {@code h} (for Parquet, XXH64 of its plain encoding: {@link
 *       dev.sieve.hash.ParquetHash}) picks block {@code ((h >>> 32) · z) >>> 32}: the <em>top</em>
 *       32 bits, multiply-shift in place of a modulo.
 *   <li>In word {@code i} it sets bit {@code (key · SALT[i]) >>> 27} (32-bit wrap-around), where
 *       {@code key} is the <em>low</em> 32 bits of {@code h} and the salts are eight fixed odd
 *       constants ({@code 0x47b6137b, 0x44974d91, 0x8824ad5b, 0xa2b7289d, 0x705495c7, 0x2df1424b,
 *       0x9efc4947, 0x5c6bfb31}). The block and the bits use disjoint halves of the hash.
 *   <li>A value is "maybe present" when all eight bits are set.
 * </ul>
 *
 * In memory the bitset is a {@code long[]} whose little-endian bytes are Parquet's bytes, so words
 * {@code 2j} and {@code 2j + 1} of a block are the low and high halves of its long {@code j}, and a
 * probe is four 64-bit tests. {@link SplitBlockBloomFilter#toParquetBitset()} gives exactly the
 * bytes a {@code .parquet} file stores after its {@code BloomFilterHeader}.
 *
 * <h2>Sizing</h2>
 *
 * parquet-java's: {@code m = -8n/ln(1 - p^(1/8))} bits ({@link
 * SplitBlockMath#parquetSplitBlockBits}), rounded as parquet-java rounds it ({@link
 * #optimalNumOfBits}), then at least 32 bytes, up to a power of two and at most the cap ({@link
 * #numBytes}).
 */
final class SplitBlockForm {

  private SplitBlockForm() {}

  // ---------------------------------------------------------------- reading, wrapping, writing

  /**
   * The filter of a bitset's bytes, copied (see {@link SplitBlockBloomFilter#fromParquetBitset}).
   */
  static SplitBlockBloomFilter read(byte[] bitset, long numKeys) {
    Checks.count("number of keys", numKeys, Long.MAX_VALUE);
    checkBitsetLength(bitset.length);
    return new SplitBlockBloomFilter(BloomWords.copyOf(bitset, 0, bitset.length, numKeys));
  }

  /**
   * The filter of the bitset in a buffer's remaining bytes, read in place (see {@link
   * SplitBlockBloomFilter#wrapParquetBitset}).
   */
  static SplitBlockBloomFilter wrap(ByteBuffer bitset, long numKeys) {
    Checks.count("number of keys", numKeys, Long.MAX_VALUE);
    ByteBuffer view = bitset.slice();
    checkBitsetLength(view.remaining());
    return new SplitBlockBloomFilter(BloomWords.wrap(view, view.remaining() / Long.BYTES, numKeys));
  }

  /**
   * The Parquet bitset of {@code f}, refused unless its keys are hashed as Parquet's readers do.
   */
  static byte[] parquetBitset(SplitBlockBloomFilter f, KeyScheme scheme) {
    if (scheme != KeyScheme.PARQUET_XXH64) {
      throw new KeySchemeException(
          "toParquetBitset: this split-block filter hashes keys by "
              + scheme
              + ", and a Parquet reader hashes by PARQUET_XXH64 (it would miss every key); build"
              + " it with keyScheme(KeyScheme.PARQUET_XXH64)");
    }
    return toBytes(f);
  }

  /** The bitset's bytes (see {@link SplitBlockBloomFilter#toParquetBitset}). */
  static byte[] toBytes(SplitBlockBloomFilter filter) {
    return filter.data().toBytes(0, 0);
  }

  private static void checkBitsetLength(long length) {
    if (length < MIN_BYTES || length > MAX_BYTES || length % BLOCK_BYTES != 0) {
      throw new SieveFormatException(
          0,
          "split-block Bloom bitset of "
              + length
              + " bytes: must be a multiple of 32 in [32, "
              + MAX_BYTES
              + "]");
    }
  }

  // ---------------------------------------------------------------- sizing and building

  /**
   * An empty filter of exactly {@code numBytes} (see {@link SplitBlockBloomFilter#withNumBytes}).
   */
  static SplitBlockBloomFilter withNumBytes(int numBytes) {
    if (numBytes < MIN_BYTES || numBytes > MAX_BYTES || numBytes % BLOCK_BYTES != 0) {
      throw new IllegalArgumentException(
          "split-block Bloom filter bytes must be a multiple of 32 in [32, "
              + MAX_BYTES
              + "], got "
              + numBytes);
    }
    return empty(numBytes);
  }

  /** An empty filter of {@code numBytes} (a checked size). */
  static SplitBlockBloomFilter empty(int numBytes) {
    return new SplitBlockBloomFilter(BloomWords.onHeap(new long[numBytes / Long.BYTES], 0));
  }

  /** The filter of {@code count} hashes in a bitset of {@code numBytes}, counting {@code keys}. */
  static SplitBlockBloomFilter build(long[] hashes, int count, int numBytes, long keys) {
    long[] words = new long[numBytes / Long.BYTES];
    SplitBlockKernel.addPlain(words, hashes, count);
    return new SplitBlockBloomFilter(BloomWords.onHeap(words, keys));
  }

  /**
   * The builder's build: sized by {@code numBytesFor} at {@code expectedKeys} if given (not
   * negative), else at the number of hashes that differ from the one before them, the key count.
   */
  static SplitBlockBloomFilter build(
      long[] hashes, int count, long expectedKeys, LongToIntFunction numBytesFor) {
    long distinct = BlockedBloomForm.countConsecutiveDistinct(hashes, count);
    return build(
        hashes,
        count,
        numBytesFor.applyAsInt(expectedKeys >= 0 ? expectedKeys : distinct),
        distinct);
  }

  /**
   * The builder's size for {@code distinctValues} ({@link
   * SplitBlockBloomFilterBuilder#numBytesFor}): at {@code bitsPerKey} if positive, else the {@code
   * numBytes} request if not negative, else parquet-java's for the values at {@code fpRate}; capped
   * at {@code maxBytes} as parquet-java caps.
   */
  static int numBytesFor(
      long distinctValues, double bitsPerKey, int numBytes, int maxBytes, double fpRate) {
    if (bitsPerKey > 0) {
      return numBytesAt(distinctValues, bitsPerKey);
    }
    if (numBytes >= 0) {
      return numBytes(numBytes, maxBytes);
    }
    return numBytes(optimalNumOfBits(distinctValues, fpRate) / 8, maxBytes);
  }

  /** parquet-java's bits (see {@link SplitBlockBloomFilter#parquetOptimalNumOfBits}). */
  static int optimalNumOfBits(long distinctValues, double fpRate) {
    // parquet-java computes -8 * n in long arithmetic, which overflows past 2^60 values; Sieve
    // refuses such counts, so it agrees with parquet-java wherever parquet-java is well-defined
    Checks.count("distinct values", distinctValues, MAX_DISTINCT_VALUES);
    Checks.fpRate(fpRate);
    double m = SplitBlockMath.parquetSplitBlockBits(distinctValues, fpRate);
    int numBits = (int) m;
    if (numBits > MAX_BYTES << 3 || m < 0) {
      numBits = MAX_BYTES << 3;
    }
    numBits = (numBits + 256 - 1) & ~256;
    if (numBits < MIN_BYTES << 3) {
      numBits = MIN_BYTES << 3;
    }
    return numBits;
  }

  /** parquet-java's bitset size (see {@link SplitBlockBloomFilter#parquetNumBytes(int, int)}). */
  static int numBytes(int requestedBytes, int maxBytes) {
    int max = maxBytes > MIN_BYTES && maxBytes < MAX_BYTES ? maxBytes : MAX_BYTES;
    int n = Math.max(requestedBytes, MIN_BYTES);
    if ((n & (n - 1)) != 0) {
      n = Integer.highestOneBit(n) << 1;
    }
    if (n > max || n < 0) {
      n = max;
    }
    return n;
  }

  /**
   * The bitset at exactly {@code bitsPerKey} bits per value, in whole blocks (see {@link
   * SplitBlockBloomFilterBuilder#bitsPerKey}).
   */
  static int numBytesAt(long distinctValues, double bitsPerKey) {
    double blocks = Math.ceil(distinctValues * bitsPerKey / (BLOCK_BYTES * 8.0));
    if (blocks * BLOCK_BYTES > MAX_BYTES) {
      throw new IllegalArgumentException(
          distinctValues
              + " values at "
              + bitsPerKey
              + " bits/value need more than the split-block Bloom limit of "
              + MAX_BYTES
              + " bytes");
    }
    return ((int) Math.max(1, blocks)) * BLOCK_BYTES;
  }

  // ---------------------------------------------------------------- the container's payload form

  /**
   * The container's payload form (type id 9): the raw bitset, exactly the bytes a {@code .parquet}
   * file stores after its {@code BloomFilterHeader}; parameter A the bits set per value (8), B the
   * block size in bits (256). Read in place. Registered by {@link BloomFamily}.
   */
  static PayloadForm<SplitBlockBloomFilter> payloadForm() {
    return PayloadForm.inPlace(
        SplitBlockBloomFilter.class,
        SplitBlockForm::toBytes,
        f -> 8,
        f -> BLOCK_BYTES * Byte.SIZE,
        SplitBlockForm::read,
        SplitBlockForm::wrap);
  }
}
