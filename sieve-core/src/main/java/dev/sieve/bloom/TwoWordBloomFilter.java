package dev.sieve.bloom;

import static dev.sieve.bloom.TwoWordBloomKernel.blockBase;

import dev.sieve.Filter;
import dev.sieve.KeyScheme;
import dev.sieve.MergeableFilter;
import dev.sieve.MutableFilterBuilder;
import dev.sieve.internal.AtomicBits;
import dev.sieve.internal.BloomWords;
import dev.sieve.internal.LongKeyBlocks;
import dev.sieve.internal.LongSegments;
import dev.sieve.internal.Schemes;
import dev.sieve.internal.base.BatchScratch;
import dev.sieve.internal.base.Checks;
import dev.sieve.math.TwoWordMath;

/**
 * Sieve's two-word blocked Bloom filter: a mutable, mergeable Bloom filter whose lookup is at most
 * two loads from one 64-byte block and two masks (most absent keys stop after the first word): the
 * cheapest probe of Sieve's mutable filters, built to be fast without any JVM flag (it needs no
 * SIMD module).
 *
 * <h2>The idea</h2>
 *
 * A blocked Bloom filter (Putze, Sanders, Singler 2007) confines a key's bits to one cache-line
 * block, so a lookup pays one cache miss. RocksDB's FastLocalBloom ({@link BlockedBloomFilter})
 * spreads six probes over the whole 512-bit block, one multiply and one load each; Parquet's
 * split-block filter ({@link SplitBlockBloomFilter}) sets one bit in each of eight 32-bit words,
 * eight multiplies and four 64-bit tests. This layout sets {@code j} bits (2, 3 or 4) in each of
 * only <em>two distinct</em> 64-bit words of the block: the probe is one multiply for the block,
 * one for the remix of the hash, and two loads whose masks come from shifts of one 64-bit value.
 * The two words are distinct, so a key's {@code 2j} bits never crowd into one word.
 *
 * <h2>The layout</h2>
 *
 * For the key's 64-bit hash {@code h} (by the filter's {@link KeyScheme}): block {@code b = ((h >>>
 * 32) · numBlocks) >>> 32} (multiply-shift of the top half), words {@code [8b, 8b + 8)}. The remix
 * {@code g = h · 0x9E3779B97F4A7C15} (mod 2^64) spreads the low half over all 64 bits. The first
 * word is {@code w1 = g & 7}; with {@code x = (g >>> 3) & 7} and {@code d = x}, or 1 where {@code x
 * = 0}, the second is {@code w2 = w1 XOR d}, never {@code w1}. Six-bit fields of {@code g} from the
 * top, field {@code t} being {@code (g >>> (58 - 6t)) & 63}, give the bits: fields {@code 0 .. j-1}
 * in word {@code w1}, fields {@code j .. 2j-1} in word {@code w2}. {@code docs/format.md} and
 * {@link TwoWordBloomKernel} give the same; the test suite checks golden bit patterns computed
 * independently.
 *
 * <h2>The math and the trade-off</h2>
 *
 * {@link TwoWordMath#twoWordFpRate}: keys per block are Poisson with mean {@code 512/c} at {@code
 * c} bits per key; each key of a block hits a given word with probability 2/8; an absent key
 * matches one of its words with probability {@code E[(1 - (63/64)^(jH))^j]} over the word's hits
 * {@code H}, and both words are treated as independent. At 10 bits/key and {@code j = 3}: 1.08%,
 * against 0.95% for RocksDB's FastLocalBloom (six probes anywhere in the line, a slower probe),
 * 1.26% for Parquet's split-block layout and 1.30% for FastFilter's {@code BlockedBloom}; 0.52% at
 * 12 bits/key, 2.52% at 8. The builder picks {@code j} by the model ({@link
 * TwoWordMath#twoWordBitsPerWord}: 2 below 7.6 bits/key, 3 up to 11.9, 4 above) and, from {@link
 * Builder#fpRate}, the least bits/key whose modelled rate meets it. Past about 16 bits/key a layout
 * with more bits per key (the blocked or standard Bloom filter) is the better trade: two words of
 * at most four bits each cannot use the space.
 *
 * <h2>Keys</h2>
 *
 * Every key form, hashed by the filter's {@link KeyScheme}: by default Sieve's XXPH3; for {@code
 * long} keys {@code builder().keyScheme(KeyScheme.MIX64)} hashes with one 64-bit mixer, the
 * like-for-like of FastFilter's {@code BlockedBloom}. There is no seed.
 *
 * <h2>Concurrency</h2>
 *
 * Adds are lock-free ({@link AtomicBits#orWord}), as in the other mutable Bloom filters; {@link
 * #union} ORs another filter of the same shape in. A filter wrapping a buffer is read-only.
 *
 * <p>References: Putze, Sanders, Singler, "Cache-, Hash- and Space-Efficient Bloom Filters" (WEA
 * 2007); Lang, Neumann, Boncz, "Performance-Optimal Filtering: Bloom Overtakes Cuckoo at High
 * Throughput" (VLDB 2019), on register-blocked and sectorized Bloom filters.
 */
public final class TwoWordBloomFilter implements MergeableFilter<TwoWordBloomFilter> {

  /** Bytes per block: eight 64-bit words, one cache line. */
  static final int BLOCK_BYTES = 64;

  /** The most data bytes: one Java array with its trailer, {@code 2^31 - 64}. */
  static final long MAX_DATA_BYTES = (1L << 31) - BLOCK_BYTES;

  /** The bits per key the builder uses unless told otherwise. */
  static final double DEFAULT_BITS_PER_KEY = 10.0;

  /** Bytes of the payload's trailer (see {@link TwoWordBloomForm}). */
  static final int TRAILER_BYTES = 8;

  /** The words and the key count, for the cold operations (union, copy, equals, bytes). */
  private final BloomWords data;

  // heap and wrapped storage keep separate probes (one path over a storage interface measured
  // slower on heap queries, docs/journal.md): the probes read these raw fields
  /** The words on the heap; {@code null} when the filter wraps a buffer. */
  private final long[] words;

  /** The words read in place from a buffer; {@code null} on the heap. */
  private final LongSegments wrapped;

  private final int numBlocks;
  private final int bitsPerWord;
  private final BatchScratch.ChunkProbe chunkProbe = this::probeChunk;

  /** How keys become the hashes probed ({@link Filter#keyScheme()}). */
  private final KeyScheme keyScheme;

  TwoWordBloomFilter(BloomWords data, int bitsPerWord) {
    this(data, bitsPerWord, KeyScheme.XXPH3);
  }

  TwoWordBloomFilter(BloomWords data, int bitsPerWord, KeyScheme keyScheme) {
    this.data = data;
    this.words = data.heapOrNull();
    this.wrapped = data.wrappedOrNull();
    this.numBlocks = (int) (data.numWords() / TwoWordBloomKernel.WORDS_PER_BLOCK);
    this.bitsPerWord = bitsPerWord;
    this.keyScheme = keyScheme;
  }

  /** A builder: 10 bits/key and the model's {@code j} unless set (see the class comment). */
  public static Builder builder() {
    return new Builder();
  }

  @Override
  public KeyScheme keyScheme() {
    return keyScheme;
  }

  @Override
  public TwoWordBloomFilter withKeyScheme(KeyScheme scheme) {
    Schemes.check(this, scheme);
    return scheme == keyScheme ? this : new TwoWordBloomFilter(data, bitsPerWord, scheme);
  }

  /**
   * The first word's test, then, where it passes, the second's: one load for most absent keys, two
   * for a present one ({@link TwoWordBloomKernel#mayContain(long[], int, long, int)}).
   */
  @Override
  public boolean mayContainHash(long hash64) {
    long[] w = words;
    if (w == null) {
      return TwoWordBloomKernel.mayContain(
          wrapped, blockBase(hash64, numBlocks), hash64, bitsPerWord);
    }
    // heap and wrapped storage keep separate reads (see the fields)
    return TwoWordBloomKernel.mayContain(w, blockBase(hash64, numBlocks), hash64, bitsPerWord);
  }

  /**
   * Three passes per 64-hash chunk on the heap: every key's word indices, then a tight loop of the
   * chunk's loads (their misses overlap), then the branch-free tests; a wrapped filter answers key
   * by key.
   */
  @Override
  public int mayContainHashes(long[] hashes, int off, int len, long[] resultBits) {
    if (words == null) {
      return MergeableFilter.super.mayContainHashes(hashes, off, len, resultBits);
    }
    return BatchScratch.batch(hashes, off, len, resultBits, chunkProbe);
  }

  private long probeChunk(long[] hashes, int at, int chunk) {
    return TwoWordBloomKernel.probeChunk(words, numBlocks, bitsPerWord, hashes, at, chunk);
  }

  @Override
  public boolean addHash(long hash64) {
    if (words == null) {
      throw new UnsupportedOperationException("a filter wrapping a buffer is read-only");
    }
    boolean changed =
        TwoWordBloomKernel.add(words, blockBase(hash64, numBlocks), hash64, bitsPerWord);
    if (changed) {
      data.countKey();
    }
    return changed;
  }

  /**
   * ORs {@code other} in: same blocks, bits per word and key scheme. Keys after: the larger count
   * or the set bits' estimate, as the other Bloom filters'.
   */
  @Override
  public void union(TwoWordBloomFilter other) {
    data.checkMutable();
    Schemes.checkSame(this, other);
    BloomWords.checkSameShape(
        other.numBlocks == numBlocks && other.bitsPerWord == bitsPerWord,
        "cannot union two-word Bloom filters of different shapes: ",
        sizeInBytes() + " bytes/" + bitsPerWord + " bits per word",
        other.sizeInBytes() + " bytes/" + other.bitsPerWord + " bits per word");
    data.union(other.data, this::approximateElementCount);
  }

  /** {@link TwoWordMath#twoWordBlockElementCount} summed over the blocks. */
  @Override
  public double approximateElementCount() {
    return TwoWordBloomKernel.approximateElementCount(data, numBlocks, bitsPerWord);
  }

  /**
   * The rate from the bits themselves (each block's words' fill, averaged over the word pairs as
   * the layout draws them): right where the key count is unknown or was exceeded.
   */
  @Override
  public double expectedFpRate() {
    return TwoWordBloomKernel.expectedFpRate(data, numBlocks, bitsPerWord);
  }

  /** {@link TwoWordMath#twoWordBloomFpRate} at the key count. */
  @Override
  public double modelledFpRate() {
    return TwoWordMath.twoWordBloomFpRate(numKeys(), sizeInBytes(), bitsPerWord);
  }

  @Override
  public TwoWordBloomFilter copy() {
    return new TwoWordBloomFilter(data.copy(), bitsPerWord, keyScheme);
  }

  /** Whether the filter reads its words in place from a buffer (then it is read-only). */
  public boolean isWrapped() {
    return words == null;
  }

  /** {@return the words and the key count} */
  BloomWords data() {
    return data;
  }

  /** {@return the number of 64-byte blocks} */
  public int numBlocks() {
    return numBlocks;
  }

  /** {@return the bits {@code j} set in each of a key's two words: 2, 3 or 4} */
  public int bitsPerWord() {
    return bitsPerWord;
  }

  /** The adds that changed the filter (or the count the build or the container gave). */
  @Override
  public long numKeys() {
    return data.numKeys();
  }

  @Override
  public long sizeInBits() {
    return (long) numBlocks * BLOCK_BYTES * Byte.SIZE;
  }

  /** The fraction of bits that are set. */
  public double fractionOfBitsSet() {
    return (double) data.bitCount() / sizeInBits();
  }

  /** Equal when the words, the bits per word and the key scheme are (not the key count). */
  @Override
  public boolean equals(Object o) {
    return o instanceof TwoWordBloomFilter other
        && other.keyScheme == keyScheme
        && other.bitsPerWord == bitsPerWord
        && other.data.sameWords(data);
  }

  @Override
  public int hashCode() {
    return data.wordsHash() * 31 + bitsPerWord;
  }

  @Override
  public String toString() {
    return "TwoWordBloomFilter{bytes="
        + sizeInBytes()
        + ", blocks="
        + numBlocks
        + ", bitsPerWord="
        + bitsPerWord
        + ", keys="
        + numKeys()
        + "}";
  }

  /**
   * Builds {@link TwoWordBloomFilter}s: {@link #bitsPerKey} (default 10) or {@link #fpRate} picks
   * the size, and the model picks the bits per word unless {@link #bitsPerWord} sets them.
   */
  public static final class Builder extends MutableFilterBuilder<TwoWordBloomFilter> {
    private double bitsPerKey = DEFAULT_BITS_PER_KEY;
    private int bitsPerWord; // 0: the model's choice

    private Builder() {
      super(KeyScheme.FAST);
    }

    @Override
    public Builder keyScheme(KeyScheme scheme) {
      super.keyScheme(scheme);
      return this;
    }

    @Override
    public Builder expectedKeys(long n) {
      super.expectedKeys(n);
      return this;
    }

    /**
     * Sets the size in bits per key, fractional, in [1, 100] (default 10); blocks are whole, so the
     * filter rounds up to a multiple of 512 bits.
     */
    public Builder bitsPerKey(double bitsPerKey) {
      this.bitsPerKey = Checks.bitsPerKey(bitsPerKey, 1.0, 100.0);
      return this;
    }

    /**
     * The least bits/key (in hundredths, at most 100) whose modelled rate ({@link
     * TwoWordMath#twoWordFpRate} at the model's best bits per word) is at most {@code fpRate}.
     */
    @Override
    public Builder fpRate(double fpRate) {
      this.bitsPerKey = TwoWordBloomForm.bitsPerKeyForFpRate(fpRate);
      return this;
    }

    /**
     * Sets the bits per word {@code j} in [2, 4]; 0 (the default) lets the model pick it for the
     * bits/key ({@link TwoWordMath#twoWordBitsPerWord}).
     */
    public Builder bitsPerWord(int j) {
      if (j != 0
          && (j < TwoWordMath.TWO_WORD_MIN_BITS_PER_WORD
              || j > TwoWordMath.TWO_WORD_MAX_BITS_PER_WORD)) {
        throw new IllegalArgumentException(
            "bits per word must be 0 (by the model) or in [2, 4], got " + j);
      }
      this.bitsPerWord = j;
      return this;
    }

    /** {@return the bits/key this builder sizes at} */
    public double bitsPerKey() {
      return bitsPerKey;
    }

    /** {@return the bits per word this builder sets: the one given, else the model's} */
    int effectiveBitsPerWord() {
      return bitsPerWord != 0 ? bitsPerWord : TwoWordMath.twoWordBitsPerWord(bitsPerKey);
    }

    /** Sized for {@link #expectedKeys} (default 1000) at the bits/key. */
    @Override
    protected TwoWordBloomFilter createEmpty() {
      return TwoWordBloomForm.empty(
          TwoWordBloomForm.numBlocks(expectedKeys(), bitsPerKey), effectiveBitsPerWord());
    }

    /** Sized for the hashes that differ from the one before them, which are the key count. */
    @Override
    protected TwoWordBloomFilter buildFromHashes(long[] hashes, int count) {
      return TwoWordBloomForm.build(hashes, count, bitsPerKey, effectiveBitsPerWord());
    }

    /**
     * The filter {@link #buildFromHashes} gives for the keys' hashes, hashed a block at a time as
     * they are added; {@code null} (the common path) under a scheme that may map two keys to one
     * hash.
     */
    @Override
    protected TwoWordBloomFilter buildFromLongKeys(long[] keys) {
      KeyScheme scheme = keyScheme();
      if (!LongKeyBlocks.injective(scheme)) {
        return null;
      }
      return schemed(BloomLongKeyBuild.twoWord(keys, scheme, bitsPerKey, effectiveBitsPerWord()));
    }
  }
}
