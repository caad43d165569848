package dev.sieve.internal;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.WritableByteChannel;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.DoubleSupplier;

/**
 * The one bit array of every Bloom filter Sieve holds: its own ({@code BlockedBloomFilter}, {@code
 * SplitBlockBloomFilter}, {@code StandardBloomFilter}, {@code TwoWordBloomFilter} in {@code
 * dev.sieve.bloom}) and the other systems' ({@code dev.sieve.interop}: ORC's, Guava's, Spark's,
 * DataSketches' and Cassandra's, which all number bit {@code i} as bit {@code i & 63} of word
 * {@code i >>> 6}). Their 64-bit words, either on the heap (a {@code long[]}; the mutable Bloom
 * filters add through {@link AtomicBits}) or read in place from (possibly memory-mapped) buffers
 * ({@link LongSegments}: read-only, and as long as the file, past one buffer's 2 GiB), with the key
 * count and the cold operations over either: {@link #word}, snapshot and copy, union, equality and
 * hash, set-bit counts, and the little-endian bytes for writing. A format whose bytes are not the
 * words' little-endian bytes (Guava's and Spark's big-endian words) writes them itself from the
 * heap array.
 *
 * <p>The hot path never comes here. A filter keeps the raw {@code long[]} ({@link #heapOrNull()})
 * or {@link LongSegments} ({@link #wrappedOrNull()}) in its own final fields, and its kernel loops
 * over them, heap and wrapped side by side: one loop over a storage interface was measurably slower
 * on heap queries. Every method here branches on the storage once per word or per call, which only
 * the cold operations can afford.
 */
public final class BloomWords {

  /** The words on the heap; {@code null} when wrapped. */
  private final long[] heap;

  /** The words read in place from buffers; {@code null} on the heap. */
  private final LongSegments wrapped;

  /**
   * The key count: what the filter was built from plus the adds that changed it, or after a union
   * the estimate described at {@link #union}.
   */
  private final LongAdder numKeys = new LongAdder();

  private BloomWords(long[] heap, LongSegments wrapped, long numKeys) {
    this.heap = heap;
    this.wrapped = wrapped;
    this.numKeys.add(numKeys);
  }

  /** Words on the heap, the array itself (not a copy). */
  public static BloomWords onHeap(long[] words, long numKeys) {
    return new BloomWords(words, null, numKeys);
  }

  /** Words read in place, read-only. */
  public static BloomWords wrap(LongSegments words, long numKeys) {
    return new BloomWords(null, words, numKeys);
  }

  /** {@code numWords} little-endian words from {@code buffer}'s position, read in place. */
  public static BloomWords wrap(ByteBuffer buffer, long numWords, long numKeys) {
    return wrap(LongSegments.of(buffer, numWords), numKeys);
  }

  /**
   * {@code numWords} little-endian words split over buffers of {@code 2^segmentShift} bytes (the
   * last holding the rest), read in place: a mapping past 2 GiB.
   */
  public static BloomWords wrap(
      ByteBuffer[] segments, int segmentShift, long numWords, long numKeys) {
    return wrap(LongSegments.of(segments, segmentShift, numWords), numKeys);
  }

  /** {@code length} bytes from {@code offset} as little-endian words, copied onto the heap. */
  public static BloomWords copyOf(byte[] bytes, int offset, int length, long numKeys) {
    long[] words = new long[length / Long.BYTES];
    ByteBuffer.wrap(bytes, offset, length).order(ByteOrder.LITTLE_ENDIAN).asLongBuffer().get(words);
    return onHeap(words, numKeys);
  }

  // ---------------------------------------------------------------- the storage

  /** {@return the heap array itself, or {@code null} when wrapped; for the hot path} */
  public long[] heapOrNull() {
    return heap;
  }

  /** {@return the wrapped words, or {@code null} on the heap; for the hot path} */
  public LongSegments wrappedOrNull() {
    return wrapped;
  }

  public boolean isWrapped() {
    return heap == null;
  }

  public long numWords() {
    return heap != null ? heap.length : wrapped.numWords();
  }

  /** Word {@code index}, read with volatile semantics on the heap (adds may run meanwhile). */
  public long word(long index) {
    return heap != null ? AtomicBits.getVolatile(heap, (int) index) : wrapped.get(index);
  }

  /** A snapshot of the words as a fresh heap array (at most {@code Integer.MAX_VALUE - 8}). */
  public long[] snapshot() {
    return heap != null ? AtomicBits.snapshot(heap) : wrapped.toArray();
  }

  /** An independent, mutable copy on the heap, with the same key count. */
  public BloomWords copy() {
    return onHeap(snapshot(), numKeys());
  }

  /**
   * Refuses a union of filters of different shapes ({@code same} false): "{@code what}{@code
   * thisShape} vs {@code otherShape}".
   */
  public static void checkSameShape(
      boolean same, String what, String thisShape, String otherShape) {
    if (!same) {
      throw new IllegalArgumentException(what + thisShape + " vs " + otherShape);
    }
  }

  /** Refuses to change wrapped words. */
  public void checkMutable() {
    if (heap == null) {
      throw new UnsupportedOperationException("a filter wrapping a buffer is read-only");
    }
  }

  // ---------------------------------------------------------------- the key count

  public long numKeys() {
    return numKeys.sum();
  }

  /** Counts one add that changed the words. */
  public void countKey() {
    numKeys.increment();
  }

  /** Counts {@code n} more keys (a builder's). */
  public void countKeys(long n) {
    numKeys.add(n);
  }

  // ---------------------------------------------------------------- operations

  /**
   * ORs {@code other}'s words (of the same number) into these, word by word with {@link
   * AtomicBits#orWord}, so adds and queries may run meanwhile on either. The key count afterwards
   * is {@code max(numKeys(), other.numKeys(), round(estimate))}, the estimate taken from the set
   * bits after the OR: the union's distinct keys, never below either count, and not the sum of the
   * two counts, which would count the keys both hold twice (unioning a filter with itself 20 times
   * multiplied its count by 2^20). Keys added concurrently are counted on top.
   *
   * @param estimate the filter's estimate of its distinct keys from its bits
   */
  public void union(BloomWords other, DoubleSupplier estimate) {
    checkMutable();
    long otherKeys = other.numKeys();
    for (int i = 0; i < heap.length; i++) {
      AtomicBits.orWord(heap, i, other.word(i));
    }
    long mine = numKeys.sum();
    long estimated = Math.round(estimate.getAsDouble());
    numKeys.add(Math.max(Math.max(mine, otherKeys), estimated) - mine);
  }

  /**
   * Folds blocks of {@code wordsPerBlock} words in pairs: block {@code j} of the result is the OR
   * of blocks {@code 2j} and {@code 2j + 1} (an odd last block is dropped).
   */
  public long[] foldPairs(int wordsPerBlock) {
    int pairs = (int) (numWords() / wordsPerBlock / 2);
    long[] out = new long[pairs * wordsPerBlock];
    for (int j = 0; j < pairs; j++) {
      int to = j * wordsPerBlock;
      int from = 2 * j * wordsPerBlock;
      for (int w = 0; w < wordsPerBlock; w++) {
        out[to + w] = word(from + w) | word(from + wordsPerBlock + w);
      }
    }
    return out;
  }

  /** The number of set bits in words {@code from} (inclusive) to {@code to} (exclusive). */
  public long bitCount(long from, long to) {
    long set = 0;
    for (long i = from; i < to; i++) {
      set += Long.bitCount(word(i));
    }
    return set;
  }

  /** The number of set bits in all words. */
  public long bitCount() {
    return bitCount(0, numWords());
  }

  /** Whether the two hold the same words (the key counts are not compared). */
  public boolean sameWords(BloomWords other) {
    long n = numWords();
    if (other.numWords() != n) {
      return false;
    }
    for (long i = 0; i < n; i++) {
      if (word(i) != other.word(i)) {
        return false;
      }
    }
    return true;
  }

  /** {@return {@link java.util.Arrays#hashCode(long[])} of the words} */
  public int wordsHash() {
    int h = 1;
    long n = numWords();
    for (long i = 0; i < n; i++) {
      h = 31 * h + Long.hashCode(word(i));
    }
    return h;
  }

  /** {@return {@code seed} then every word folded in as {@code h = 31 h + word}} */
  public long wordsHash(long seed) {
    long h = seed;
    long n = numWords();
    for (long i = 0; i < n; i++) {
      h = h * 31 + word(i);
    }
    return h;
  }

  // ---------------------------------------------------------------- bytes

  /**
   * A {@code byte[]} of {@code before} zero bytes, the words' little-endian bytes, then {@code
   * after} zero bytes, for the caller to fill in its header or trailer. The caller checks that the
   * length fits.
   */
  public byte[] toBytes(int before, int after) {
    long n = numWords();
    byte[] out = new byte[(int) (before + n * Long.BYTES + after)];
    ByteBuffer buf = ByteBuffer.wrap(out).order(ByteOrder.LITTLE_ENDIAN).position(before);
    for (long i = 0; i < n; i++) {
      buf.putLong(word(i));
    }
    return out;
  }

  /**
   * Writes the words' little-endian bytes, then {@code trailer}, to {@code out} in 64 KiB chunks:
   * any length, without an in-memory copy. The channel is not closed.
   */
  public void writeTo(WritableByteChannel out, byte[] trailer) throws IOException {
    ChannelWrites.writeWords(out, numWords(), this::word, trailer);
  }
}
