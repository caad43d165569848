package dev.sieve.sst;

import dev.sieve.KeyFilter;
import dev.sieve.SieveFormatException;
import dev.sieve.math.BloomMath;
import java.util.Arrays;
import java.util.Objects;

/**
 * RocksDB's legacy full-filter Bloom format, written by block-based tables of format_version 2 to 4
 * and still found in old SST files (RocksDB util/bloom_impl.h {@code
 * LegacyLocalityBloomImpl<false>}, table/block_based/filter_policy.cc {@code
 * LegacyBloomBitsBuilder/Reader}).
 *
 * <h2>The idea</h2>
 *
 * A cache-local Bloom filter like FastLocalBloom, but from an older design: the key is hashed to
 * <em>32</em> bits with LevelDB's MurmurHash1-style {@code BloomHash} (seed {@code 0xbc9f1d34}),
 * the cache line is {@code h mod numLines}, and the probes walk the line by double hashing: bit
 * {@code h mod 512}, then {@code h += rotr(h, 17)} (the "delta", fixed per key) for each further
 * probe. All probes of one key use the same 32 hash bits that chose the line, so keys in one line
 * share probe patterns more than in FastLocalBloom, and the 32-bit hash collides at about {@code n
 * / 2^32}: the reasons RocksDB replaced it in format_version 5.
 *
 * <h2>Layout</h2>
 *
 * {@code numLines · 64} data bytes ({@code numLines} odd, from {@code ceil(n · bitsPerKey / 512)}),
 * then a 5-byte trailer: the number of probes (1..127; {@code ⌊0.69 · bitsPerKey⌋} clamped to 1..30
 * by the builder) and {@code numLines} as a little-endian u32. A reader accepts lines of any
 * power-of-two size that divides the data ({@code len / numLines}), as RocksDB's does for files
 * from machines with other cache lines. Bits per key are whole numbers here: RocksDB rounds the
 * policy's millibits to the nearest bit for this format.
 *
 * <h2>Math</h2>
 *
 * RocksDB models it as the cache-local rate at 512-bit lines plus a correction {@code 0.1 / (0.75 b
 * + 22)} for the correlated probes, combined with the 32-bit hash's collision rate ({@code
 * LegacyLocalityBloomImpl::EstimatedFpRate}; {@link #modelledFpRate}).
 *
 * <p>A {@link KeyFilter}, not a {@link dev.sieve.Filter}: this format hashes the key bytes with its
 * own 32-bit hash, so it cannot be asked with Sieve's 64-bit key hash; every key form ({@code
 * byte[]}, {@code long}, text, encoded types) is tested by its bytes.
 */
public final class LegacyLocalityBloomFilter implements KeyFilter {

  /** The seed of RocksDB's {@code BloomHash}. */
  public static final int BLOOM_HASH_SEED = 0xbc9f1d34;

  private static final int MURMUR1_M = 0xc6a4a793;
  private static final int LINE_BYTES = 64;
  private static final int TRAILER_BYTES = 5;
  private static final long MAX_TOTAL_BITS = 0xffff0000L;

  private final byte[] data; // data bytes only
  private final int numLines;
  private final int log2LineBytes;
  private final int numProbes;
  private final long numKeys;

  private LegacyLocalityBloomFilter(
      byte[] data, int numLines, int log2LineBytes, int numProbes, long numKeys) {
    this.data = data;
    this.numLines = numLines;
    this.log2LineBytes = log2LineBytes;
    this.numProbes = numProbes;
    this.numKeys = numKeys;
  }

  /**
   * RocksDB's {@code BloomHash}: LevelDB's MurmurHash1-style 32-bit hash of the bytes with seed
   * {@link #BLOOM_HASH_SEED}. Tail bytes are added sign-extended, as RocksDB's format fixes it.
   *
   * @param key the key's bytes
   * @param off where the key starts
   * @param len the key's length
   * @return the hash
   */
  public static int bloomHash(byte[] key, int off, int len) {
    Objects.checkFromIndexSize(off, len, key.length);
    int h = BLOOM_HASH_SEED ^ (len * MURMUR1_M);
    int p = off;
    int end = off + len;
    while (p + 4 <= end) {
      h += LittleEndian.i32(key, p);
      h *= MURMUR1_M;
      h ^= h >>> 16;
      p += 4;
    }
    int rest = end - p;
    if (rest > 0) {
      if (rest == 3) {
        h += key[p + 2] << 16;
      }
      if (rest >= 2) {
        h += key[p + 1] << 8;
      }
      h += key[p];
      h *= MURMUR1_M;
      h ^= h >>> 24;
    }
    return h;
  }

  /**
   * Reads a legacy filter block (data then the 5-byte trailer). The data is copied.
   *
   * @param block the block
   * @param numKeys the number of keys (not stored in the format; it feeds the model FPR)
   * @return the filter
   * @throws SieveFormatException if the trailer is not a legacy Bloom trailer or the data length is
   *     not {@code numLines} lines of a power-of-two size (RocksDB's reader treats such blocks as
   *     "always true"; {@link FilterBlockReader} does the same before calling this)
   */
  public static LegacyLocalityBloomFilter fromRocksDbFilterBlock(byte[] block, long numKeys) {
    if (block.length <= TRAILER_BYTES) {
      throw new SieveFormatException(
          0, "legacy Bloom block of " + block.length + " bytes has no data");
    }
    int len = block.length - TRAILER_BYTES;
    int probes = block[len];
    if (probes < 1) {
      throw new SieveFormatException(len, "legacy Bloom probe count " + probes + " is not >= 1");
    }
    long lines = LittleEndian.u32(block, len + 1);
    int log2 = lineSizeLog2(len, lines);
    if (log2 < 0) {
      throw new SieveFormatException(
          len + 1,
          "legacy Bloom: " + lines + " cache lines do not divide " + len + " bytes into 2^k lines");
    }
    return new LegacyLocalityBloomFilter(
        Arrays.copyOf(block, len), (int) lines, log2, probes, numKeys);
  }

  /** The log2 of the line size that makes {@code numLines} lines fill {@code len}, or -1. */
  static int lineSizeLog2(long len, long numLines) {
    if (numLines == 0 || len % numLines != 0) {
      return -1;
    }
    long lineBytes = len / numLines;
    if (Long.bitCount(lineBytes) != 1) {
      return -1;
    }
    return Long.numberOfTrailingZeros(lineBytes);
  }

  /**
   * Builds the block RocksDB's legacy builder writes for these keys, in the order RocksDB adds them
   * (key order in an SST), at {@code bitsPerKey} whole bits per key: a key whose hash equals the
   * previous key's is added once; zero keys give RocksDB's empty (0-byte, "always false") block.
   *
   * @param keys the keys
   * @param bitsPerKey whole bits per key, 1 to 100
   * @return the block
   */
  public static byte[] buildRocksDbFilterBlock(Iterable<byte[]> keys, int bitsPerKey) {
    if (bitsPerKey < 1 || bitsPerKey > 100) {
      throw new IllegalArgumentException("bits per key must be in [1, 100], got " + bitsPerKey);
    }
    int[] hashes = new int[16];
    int n = 0;
    for (byte[] key : keys) {
      int h = bloomHash(key, 0, key.length);
      if (n == 0 || hashes[n - 1] != h) {
        if (n == hashes.length) {
          if (n >= Integer.MAX_VALUE - 8) {
            throw new IllegalArgumentException("more than " + n + " distinct keys in one block");
          }
          hashes = Arrays.copyOf(hashes, (int) Math.min(Integer.MAX_VALUE - 8L, 2L * n));
        }
        hashes[n++] = h;
      }
    }
    if (n == 0) {
      return new byte[0];
    }
    long totalBits = Math.min((long) n * bitsPerKey, MAX_TOTAL_BITS);
    long lines = (totalBits + LINE_BYTES * 8 - 1) / (LINE_BYTES * 8);
    if (lines % 2 == 0) {
      lines++;
    }
    int len = (int) (lines * LINE_BYTES);
    int probes = chooseNumProbes(bitsPerKey);
    byte[] out = new byte[len + TRAILER_BYTES];
    for (int i = 0; i < n; i++) {
      int h = hashes[i];
      int base = line(h, (int) lines) << 6;
      int delta = Integer.rotateRight(h, 17);
      for (int p = 0; p < probes; p++) {
        int bit = h & 511;
        out[base + (bit >>> 3)] |= (byte) (1 << (bit & 7));
        h += delta;
      }
    }
    out[len] = (byte) probes;
    LittleEndian.putI32(out, len + 1, (int) lines);
    return out;
  }

  /**
   * {@return the legacy probe count: {@code ⌊0.69 · bitsPerKey⌋} clamped to 1..30}
   *
   * @param bitsPerKey whole bits per key
   */
  public static int chooseNumProbes(int bitsPerKey) {
    return Math.max(1, Math.min(30, (int) (bitsPerKey * 0.69)));
  }

  private static int line(int h, int numLines) {
    return (int) Long.remainderUnsigned(h & 0xFFFFFFFFL, numLines);
  }

  /**
   * Tests key bytes as RocksDB's legacy reader does.
   *
   * @param key the key's bytes
   * @param off where the key starts
   * @param len the key's length
   * @return false if the key is definitely absent
   */
  public boolean mayContainKey(byte[] key, int off, int len) {
    int h = bloomHash(key, off, len);
    int bitsMask = (1 << (log2LineBytes + 3)) - 1;
    int base = line(h, numLines) << log2LineBytes;
    int delta = Integer.rotateRight(h, 17);
    for (int p = 0; p < numProbes; p++) {
      int bit = h & bitsMask;
      if ((data[base + (bit >>> 3)] & (1 << (bit & 7))) == 0) {
        return false;
      }
      h += delta;
    }
    return true;
  }

  @Override
  public boolean mayContain(byte[] key) {
    return mayContainKey(key, 0, key.length);
  }

  @Override
  public boolean mayContain(byte[] key, int off, int len) {
    return mayContainKey(key, off, len);
  }

  /** {@return the probe count} */
  public int numProbes() {
    return numProbes;
  }

  /** {@return the number of cache lines} */
  public int numLines() {
    return numLines;
  }

  /**
   * {@return the cache-line size the block was written for, in bytes (64 on every RocksDB build)}
   */
  public int lineBytes() {
    return 1 << log2LineBytes;
  }

  @Override
  public long numKeys() {
    return numKeys;
  }

  @Override
  public long sizeInBits() {
    return (long) data.length * 8;
  }

  @Override
  public double modelledFpRate() {
    return legacyLocalityBloomFpRate(numKeys, data.length, numProbes);
  }

  /**
   * RocksDB's model of its legacy cache-local Bloom filter (format_version 2..4, {@code
   * LegacyLocalityBloomImpl<false>::EstimatedFpRate}, util/bloom_impl.h): the cache-local rate at
   * 512-bit lines plus {@code 0.1 / (0.75·b + 22)}, an empirical correction for the probes that all
   * derive from the same 32 hash bits as the line choice, combined with the collision rate of the
   * 32-bit key hash ({@link BloomMath#fingerprintFpRate} at 32 bits). Worked: 10 bits/key, 6 probes
   * gives about 0.95% + 0.34% ≈ 1.3% before the hash collisions.
   *
   * @param numProbes probes per key, {@code k ≥ 1}
   * @param keys number of (distinct-hash) keys added, {@code > 0}, else the rate is 0
   * @param dataBytes data bytes, trailer excluded
   * @return the modelled false-positive rate
   */
  private static double legacyLocalityBloomFpRate(long keys, long dataBytes, int numProbes) {
    if (keys <= 0) {
      return 0.0;
    }
    double bitsPerKey = 8.0 * dataBytes / keys;
    double filterRate =
        BloomMath.cacheLocalFpRate(bitsPerKey, numProbes, BloomMath.CACHE_LINE_BITS)
            + 0.1 / (bitsPerKey * 0.75 + 22);
    return BloomMath.independentProbabilitySum(
        filterRate, BloomMath.fingerprintFpRate((double) keys, 32));
  }

  /**
   * The rate judged from the bits, whatever the key count: the mean over the cache lines of {@code
   * (bits set in the line / line bits)^probes}, the chance that every probe of a random absent key
   * lands on a set bit of its line (the probes' correlation, which {@link #modelledFpRate} corrects
   * for, is left out).
   */
  @Override
  public double expectedFpRate() {
    if (numLines == 0) {
      return 0.0;
    }
    int lineBytes = 1 << log2LineBytes;
    double sum = 0;
    for (int line = 0; line < numLines; line++) {
      int set = 0;
      for (int i = line * lineBytes; i < (line + 1) * lineBytes; i++) {
        set += Integer.bitCount(data[i] & 0xFF);
      }
      sum += Math.pow(set / (8.0 * lineBytes), numProbes);
    }
    return sum / numLines;
  }

  @Override
  public String toString() {
    return "LegacyLocalityBloomFilter[lines="
        + numLines
        + ", probes="
        + numProbes
        + ", keys="
        + numKeys
        + "]";
  }
}
