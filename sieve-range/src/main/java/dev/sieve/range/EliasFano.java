package dev.sieve.range;

import dev.sieve.SieveFormatException;
import java.nio.ByteBuffer;

/**
 * A static Elias–Fano sequence of {@code m} strictly increasing values in {@code [0, u)} laid out
 * for a successor query ({@link #successor}) that touches about three cache lines: one select
 * sample, one line of upper bits, one word of lower bits. Held on the heap (a {@code long[]}) or
 * read in place from a little-endian buffer (a wrapped payload); the same kernel reads either.
 *
 * <h2>Layout (all 64-bit words, little-endian)</h2>
 *
 * Each value {@code v} is split into its {@code l = ⌊log2(u/m)⌋} low bits and its high part {@code
 * v >>> l}. The data is three sections, one after the other:
 *
 * <ol>
 *   <li><b>Low bits</b>: {@code ⌈m·l/64⌉} words, value {@code i}'s low bits at bit {@code i·l}.
 *   <li><b>Upper bits in lines</b>: the unary upper bits (value {@code i} sets bit {@code (v_i >>>
 *       l) + i}; {@code U = m + Z} bits, {@code Z = ((u − 1) >>> l) + 1} zeros, one closing each
 *       high part) cut into lines of {@value #LINE_BITS} bits. A line is {@value #LINE_WORDS} words
 *       (64 bytes): word 0 the number of zeros of the upper bits before the line, words 1–7 its
 *       bits. {@code ⌈U/448⌉} lines.
 *   <li><b>Select samples</b>: {@code ⌈Z/256⌉} 32-bit entries, two per word (low half first): entry
 *       {@code s} is the line holding zero {@code 256·s}.
 * </ol>
 *
 * <h2>The successor of {@code x}</h2>
 *
 * The values with high part {@code h = x >>> l} start just past zero {@code h − 1}: its sample
 * names a line, the line headers step forward (the zero lies at most a line or two on; 448 bits
 * hold about 224–300 zeros), and within the line the zero is found by popcounts and a branch-free
 * broadword select ({@link #select}). The values of bucket {@code h} (on average at most one) are
 * compared by their low bits; the first one not below {@code x}'s, or else the next value, is the
 * answer. The first and last values are kept in fields, so a query past the last or before the
 * first returns at once (a range that wraps around the code range needs no search at all, see
 * {@link GrafiteFilter}).
 *
 * <h2>Space</h2>
 *
 * {@code m·l + U} bits of Elias–Fano data ({@code U ≤ 2m + 1}, so at most {@code m·(2 + l) + 1}),
 * plus one header word per 7 words of upper bits ({@code U/7} bits) and 32 bits per 256 zeros:
 * about {@code 0.3 + 0.13 = 0.42} bits per value at the usual {@code Z ≈ m}. All of it is stored
 * (the samples are in the payload, not rebuilt), which is what lets a wrapped payload be queried in
 * place.
 */
final class EliasFano {
  /** The zeros per select sample. */
  static final int SAMPLE = 256;

  /** The words per line of upper bits: one header word and seven data words. */
  static final int LINE_WORDS = 8;

  /** The upper bits per line. */
  static final int LINE_BITS = 64 * (LINE_WORDS - 1);

  /** The stored values {@code m}. */
  final long n;

  final long universe;
  final int lowBits;
  final long zeros;
  final long highLength;
  final int lowWords;
  final int lines;
  final int samples;
  final int dataWords;

  final int linesBase;
  final int samplesBase;
  private final long lowMask;

  /** The words on the heap, or {@code null} when read in place. */
  private final long[] heap;

  /** The words read in place (little-endian, word 0 at index 0), or {@code null} on the heap. */
  private final ByteBuffer wrapped;

  /** The smallest and largest values ({@code -1} when empty). */
  final long first;

  final long last;

  EliasFano(
      long n, long universe, int lowBits, long[] heap, ByteBuffer wrapped, long first, long last) {
    this.n = n;
    this.universe = universe;
    this.lowBits = lowBits;
    this.zeros = EliasFanoCodec.zeros(universe, lowBits);
    this.highLength = n + zeros;
    this.lowWords = (int) EliasFanoCodec.words(n * lowBits);
    this.lines = (int) EliasFanoCodec.lines(highLength);
    this.samples = (int) EliasFanoCodec.samples(zeros);
    this.linesBase = lowWords;
    this.samplesBase = lowWords + LINE_WORDS * lines;
    this.dataWords = samplesBase + (samples + 1) / 2;
    this.lowMask = lowBits == 0 ? 0 : (1L << lowBits) - 1;
    this.heap = heap;
    this.wrapped = wrapped;
    this.first = first;
    this.last = last;
  }

  /** The data word index of upper bit {@code pos}, past {@code lowWords} low words. */
  static int dataIndex(int lowWords, long pos) {
    long line = pos / LINE_BITS;
    return lowWords + (int) (line * LINE_WORDS + 1 + ((pos - line * LINE_BITS) >>> 6));
  }

  /** Writes the data words, little-endian, at {@code out}'s position. */
  void writeTo(ByteBuffer out) {
    for (int i = 0; i < dataWords; i++) {
      out.putLong(word(i));
    }
  }

  /** Whether the data is read in place from a buffer. */
  boolean isWrapped() {
    return wrapped != null;
  }

  // ---------------------------------------------------------------- the kernel

  /**
   * Data word {@code i}: the one branch on the storage, on a final field. Data read in place was
   * checked when wrapped, but a mapped file overwritten in place since (zero-filled, say) can send
   * a walk over the upper bits or the line headers past the data's end: that read is reported as
   * the typed error it is, not as the buffer's {@code IndexOutOfBoundsException}.
   */
  long word(int i) {
    long[] h = heap;
    if (h != null) {
      return h[i];
    }
    try {
      return wrapped.getLong(i << 3);
    } catch (IndexOutOfBoundsException e) {
      throw new SieveFormatException(
          (long) i << 3,
          "the Elias-Fano data read in place asks for word "
              + i
              + " of "
              + dataWords
              + ": its bytes changed after they were checked (a mapped file overwritten in place;"
              + " MappedSieveFile.verify() detects it)",
          e);
    }
  }

  boolean bit(long pos) {
    return (word(dataIndex(linesBase, pos)) >>> pos & 1) != 0;
  }

  int sampleLine(int s) {
    return (int) (word(samplesBase + (s >>> 1)) >>> ((s & 1) << 5));
  }

  long lowAt(long i) {
    int l = lowBits;
    if (l == 0) {
      return 0;
    }
    long bitPos = i * l;
    int w = (int) (bitPos >>> 6);
    int s = (int) (bitPos & 63);
    long v = word(w) >>> s;
    if (s + l > 64) {
      v |= word(w + 1) << (64 - s);
    }
    return v & lowMask;
  }

  /** The low-bits word of value {@code i} (a batch query touches it early). */
  int lowWordOf(long i) {
    return (int) ((i * lowBits) >>> 6);
  }

  private static final byte[] SELECT_IN_BYTE = new byte[8 * 256];

  static {
    for (int b = 0; b < 256; b++) {
      int k = 0;
      for (int i = 0; i < 8; i++) {
        if ((b >>> i & 1) != 0) {
          SELECT_IN_BYTE[(k++ << 8) | b] = (byte) i;
        }
      }
    }
  }

  private static final long ONES_STEP_8 = 0x0101_0101_0101_0101L;
  private static final long MSBS_STEP_8 = 0x8080_8080_8080_8080L;

  /**
   * The position of the {@code k}-th (from 0) set bit of {@code x}, which has more than {@code k}:
   * broadword, without branches. The byte popcounts, summed by one multiply into cumulative byte
   * counts, are compared with {@code k} in every byte at once (no borrow crosses a byte: the counts
   * are at most 64 and {@code k} below 64); the number of bytes whose cumulative count is at most
   * {@code k} names the byte holding the bit, and a 2 KiB table selects within it.
   */
  static int select(long x, int k) {
    long s = x - ((x >>> 1) & 0x5555_5555_5555_5555L);
    s = (s & 0x3333_3333_3333_3333L) + ((s >>> 2) & 0x3333_3333_3333_3333L);
    s = (s + (s >>> 4)) & 0x0F0F_0F0F_0F0F_0F0FL;
    long cum = s * ONES_STEP_8; // byte i: the set bits of bytes 0..i
    long atMostK = (((k * ONES_STEP_8) | MSBS_STEP_8) - cum) & MSBS_STEP_8;
    int place = Long.bitCount(atMostK) << 3;
    int before = (int) ((cum << 8) >>> place) & 0xFF;
    return place + SELECT_IN_BYTE[((k - before) << 8) | (int) ((x >>> place) & 0xFF)];
  }

  /** The line holding zero {@code t} ({@code t < Z}), from its sample and the line headers. */
  int lineOfZero(long t) {
    return lineOfZeroFrom(t, sampleLine((int) (t >>> 8)));
  }

  /** The line holding zero {@code t}, stepping on from {@code line}, its sample's line. */
  int lineOfZeroFrom(long t, int line) {
    while (line + 1 < lines && word(linesBase + LINE_WORDS * (line + 1)) <= t) {
      line++;
    }
    return line;
  }

  /** The low-bits word of value {@code i}, read: a batch query's early touch. */
  long touchLow(long i) {
    return word(lowWordOf(i));
  }

  /** The position in the upper bits of zero {@code t}, which lies in line {@code line}. */
  long selectZeroInLine(long t, int line) {
    int base = linesBase + LINE_WORDS * line;
    long left = t - word(base);
    for (int j = 1; ; j++) {
      long z = ~word(base + j);
      int c = Long.bitCount(z);
      if (left < c) {
        return (long) line * LINE_BITS + 64L * (j - 1) + select(z, (int) left);
      }
      left -= c;
    }
  }

  /** Where the values with high part {@code h} start in the upper bits. */
  long bucketStart(long h) {
    if (h == 0) {
      return 0;
    }
    long t = h - 1;
    return selectZeroInLine(t, lineOfZero(t)) + 1;
  }

  /**
   * The smallest value {@code >= x}, or {@code -1} if every value is below {@code x}.
   *
   * @param x a value, {@code 0 <= x}
   */
  long successor(long x) {
    if (x > last || n == 0) {
      return -1;
    }
    if (x <= first) {
      return first;
    }
    long h = x >>> lowBits;
    return successorFrom(x, h, bucketStart(h));
  }

  /** The successor of {@code x} (between the first and the last value), bucket {@code h} at pos. */
  long successorFrom(long x, long h, long pos) {
    long i = pos - h; // the values before bucket h
    long xl = x & lowMask;
    int at = dataIndex(linesBase, pos);
    long word = word(at) >>> pos;
    int bits = 64 - (int) (pos & 63); // bits of word left
    // the values in bucket h: ones from pos up to the next zero
    while ((word & 1) != 0) {
      long lv = lowAt(i);
      if (lv >= xl) {
        return (h << lowBits) | lv;
      }
      i++;
      pos++;
      if (--bits == 0) {
        at = dataIndex(linesBase, pos);
        word = word(at);
        bits = 64;
      } else {
        word >>>= 1;
      }
    }
    // the next value (there is one: x <= last) lies in a later bucket: the next one bit
    word &= -1L >>> (64 - bits);
    long next = pos;
    while (word == 0) {
      next += bits;
      at = dataIndex(linesBase, next);
      word = word(at);
      bits = 64;
    }
    long onePos = next + Long.numberOfTrailingZeros(word);
    return ((onePos - i) << lowBits) | lowAt(i);
  }

  /** Whether some value lies in {@code [a, b]}, {@code 0 <= a <= b}. */
  boolean anyIn(long a, long b) {
    long s = successor(a);
    return s >= 0 && s <= b;
  }

  /** Every value, in order (for tests and rebuilding). */
  long[] decodeAll() {
    long[] out = new long[Math.toIntExact(n)];
    int i = 0;
    for (int line = 0; line < lines && i < n; line++) {
      for (int j = 1; j < LINE_WORDS && i < n; j++) {
        long x = word(linesBase + LINE_WORDS * line + j);
        while (x != 0 && i < n) {
          long pos = (long) line * LINE_BITS + 64L * (j - 1) + Long.numberOfTrailingZeros(x);
          out[i] = ((pos - i) << lowBits) | lowAt(i);
          i++;
          x &= x - 1;
        }
      }
    }
    return out;
  }

  /** Bits of every data word: low bits, upper-bit lines with their headers, select samples. */
  long sizeInBits() {
    return 64L * dataWords;
  }

  /** Whether the data words are equal (heap or wrapped alike). */
  boolean sameData(EliasFano o) {
    if (o.dataWords != dataWords) {
      return false;
    }
    for (int i = 0; i < dataWords; i++) {
      if (o.word(i) != word(i)) {
        return false;
      }
    }
    return true;
  }

  /** A hash of the data words. */
  int dataHash() {
    long h = 1;
    for (int i = 0; i < dataWords; i++) {
      h = h * 31 + word(i);
    }
    return Long.hashCode(h);
  }
}
