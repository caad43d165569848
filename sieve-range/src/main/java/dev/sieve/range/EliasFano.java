package dev.sieve.range;

import dev.sieve.SieveFormatException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

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

  private final int linesBase;
  private final int samplesBase;
  private final long lowMask;

  /** The words on the heap, or {@code null} when read in place. */
  private final long[] heap;

  /** The words read in place (little-endian, word 0 at index 0), or {@code null} on the heap. */
  private final ByteBuffer wrapped;

  /** The smallest and largest values ({@code -1} when empty). */
  final long first;

  final long last;

  private EliasFano(
      long n, long universe, int lowBits, long[] heap, ByteBuffer wrapped, long first, long last) {
    this.n = n;
    this.universe = universe;
    this.lowBits = lowBits;
    this.zeros = zeros(universe, lowBits);
    this.highLength = n + zeros;
    this.lowWords = (int) words(n * lowBits);
    this.lines = (int) lines(highLength);
    this.samples = (int) samples(zeros);
    this.linesBase = lowWords;
    this.samplesBase = lowWords + LINE_WORDS * lines;
    this.dataWords = samplesBase + (samples + 1) / 2;
    this.lowMask = lowBits == 0 ? 0 : (1L << lowBits) - 1;
    this.heap = heap;
    this.wrapped = wrapped;
    this.first = first;
    this.last = last;
  }

  // ---------------------------------------------------------------- sizes

  /** {@code ⌊log2(u/max(n, 1))⌋}, at least 0 and at most 62. */
  static int lowBitsFor(long n, long universe) {
    long q = universe / Math.max(1, n);
    if (q < 2) {
      return 0;
    }
    return Math.min(62, 63 - Long.numberOfLeadingZeros(q));
  }

  /** The zeros of the upper bits: one per high part, {@code ((u − 1) >>> l) + 1}. */
  static long zeros(long universe, int lowBits) {
    return ((universe - 1) >>> lowBits) + 1;
  }

  static long words(long bits) {
    return (bits + 63) >>> 6;
  }

  static long lines(long highLength) {
    return (highLength + LINE_BITS - 1) / LINE_BITS;
  }

  static long samples(long zeros) {
    return (zeros + SAMPLE - 1) / SAMPLE;
  }

  /**
   * The data words of {@code m} values below {@code u} with {@code l} low bits, or {@code -1} past
   * {@code Integer.MAX_VALUE}; {@code m < 2^40}, {@code l <= 62}, {@code 1 <= u <= 2^62}.
   */
  static long dataWords(long m, long universe, int lowBits) {
    long z = zeros(universe, lowBits);
    if (z > 1L << 40) {
      return -1;
    }
    long w = words(m * lowBits) + LINE_WORDS * lines(m + z) + (samples(z) + 1) / 2;
    return w > Integer.MAX_VALUE ? -1 : w;
  }

  // ---------------------------------------------------------------- building and reading

  /**
   * Encodes sorted values.
   *
   * @param values {@code count} strictly increasing values in {@code [0, universe)}
   */
  static EliasFano encode(long[] values, int count, long universe) {
    int l = lowBitsFor(count, universe);
    long z = zeros(universe, l);
    long u = count + z;
    int lw = (int) words((long) count * l);
    int nl = (int) lines(u);
    int ns = (int) samples(z);
    long[] w = new long[lw + LINE_WORDS * nl + (ns + 1) / 2];
    long mask = l == 0 ? 0 : (1L << l) - 1;
    for (int i = 0; i < count; i++) {
      long v = values[i];
      if (l > 0) {
        long bitPos = (long) i * l;
        int at = (int) (bitPos >>> 6);
        int s = (int) (bitPos & 63);
        w[at] |= (v & mask) << s;
        if (s + l > 64) {
          w[at + 1] |= (v & mask) >>> (64 - s);
        }
      }
      long pos = (v >>> l) + i;
      w[dataIndex(lw, pos)] |= 1L << pos;
    }
    // line headers and samples
    long seen = 0;
    int sample = 0;
    int samplesBase = lw + LINE_WORDS * nl;
    for (int line = 0; line < nl; line++) {
      int base = lw + LINE_WORDS * line;
      w[base] = seen;
      long inLine = 0;
      for (int j = 1; j < LINE_WORDS; j++) {
        inLine +=
            Long.bitCount(~w[base + j] & validMask(u, (long) line * LINE_BITS + 64L * (j - 1)));
      }
      while (sample < ns && (long) sample * SAMPLE < seen + inLine) {
        w[samplesBase + (sample >>> 1)] |= (long) line << ((sample & 1) << 5);
        sample++;
      }
      seen += inLine;
    }
    long first = count == 0 ? -1 : values[0];
    long last = count == 0 ? -1 : values[count - 1];
    return new EliasFano(count, universe, l, w, null, first, last);
  }

  /** The mask of the bits of the data word starting at upper bit {@code start} below {@code u}. */
  private static long validMask(long u, long start) {
    long rem = u - start;
    return rem >= 64 ? -1L : rem <= 0 ? 0 : (1L << rem) - 1;
  }

  /** The data word index of upper bit {@code pos}, past {@code lowWords} low words. */
  private static int dataIndex(int lowWords, long pos) {
    long line = pos / LINE_BITS;
    return lowWords + (int) (line * LINE_WORDS + 1 + ((pos - line * LINE_BITS) >>> 6));
  }

  /**
   * Reads the data of {@code m} values from {@code data} (little-endian words from its position,
   * exactly {@link #dataWords} of them), checking it (below); {@code copy} reads onto the heap,
   * otherwise the buffer is read in place and must not change.
   *
   * @param payloadOffset the data's offset in the payload, for the errors' offsets
   * @throws SieveFormatException if the data is not a valid sequence: padding bits not zero, line
   *     headers or samples not as the bits say, not {@code m} ones, the upper bits not ending in a
   *     zero, values not strictly increasing or not below {@code u}
   */
  static EliasFano read(
      ByteBuffer data, long m, long universe, int lowBits, boolean copy, int payloadOffset) {
    ByteBuffer b = data.slice().order(ByteOrder.LITTLE_ENDIAN);
    long[] heap = null;
    ByteBuffer wrapped = null;
    int words = (int) dataWords(m, universe, lowBits);
    if (copy) {
      heap = new long[words];
      b.asLongBuffer().get(heap);
    } else {
      wrapped = b;
    }
    EliasFano unchecked = new EliasFano(m, universe, lowBits, heap, wrapped, -1, -1);
    long[] ends = unchecked.check(payloadOffset);
    return new EliasFano(m, universe, lowBits, heap, wrapped, ends[0], ends[1]);
  }

  /** Checks the data against the header's counts; returns the first and last values. */
  private long[] check(int payloadOffset) {
    if (lowWords > 0) {
      long rem = n * lowBits - 64L * (lowWords - 1);
      if (rem < 64 && (word(lowWords - 1) >>> rem) != 0) {
        throw new SieveFormatException(
            payloadOffset + 8L * (lowWords - 1), "low bits: bits past the last used one are not 0");
      }
    }
    long seen = 0;
    long ones = 0;
    int sample = 0;
    for (int line = 0; line < lines; line++) {
      int base = linesBase + LINE_WORDS * line;
      if (word(base) != seen) {
        throw new SieveFormatException(
            payloadOffset + 8L * base,
            "line " + line + " header says " + word(base) + " zeros before it, the bits " + seen);
      }
      long inLine = 0;
      for (int j = 1; j < LINE_WORDS; j++) {
        long valid = validMask(highLength, (long) line * LINE_BITS + 64L * (j - 1));
        long x = word(base + j);
        if ((x & ~valid) != 0) {
          throw new SieveFormatException(
              payloadOffset + 8L * (base + j), "upper bits: bits past the last used one are not 0");
        }
        inLine += Long.bitCount(~x & valid);
        ones += Long.bitCount(x);
      }
      while (sample < samples && (long) sample * SAMPLE < seen + inLine) {
        if (sampleLine(sample) != line) {
          throw new SieveFormatException(
              payloadOffset + 8L * (samplesBase + (sample >>> 1)),
              "select sample " + sample + " names line " + sampleLine(sample) + ", not " + line);
        }
        sample++;
      }
      seen += inLine;
    }
    if (ones != n) {
      throw new SieveFormatException(
          payloadOffset + 8L * linesBase, "upper bits hold " + ones + " codes, not " + n);
    }
    if (bit(highLength - 1)) {
      throw new SieveFormatException(
          payloadOffset + 8L * dataIndex(lowWords, highLength - 1), "upper bits end in a one");
    }
    if ((samples & 1) != 0 && (word(samplesBase + samples / 2) >>> 32) != 0) {
      throw new SieveFormatException(
          payloadOffset + 8L * (samplesBase + samples / 2), "the unused last sample is not 0");
    }
    // the values: strictly increasing, below u
    long prev = -1;
    long firstValue = -1;
    long i = 0;
    for (int line = 0; line < lines && i < n; line++) {
      for (int j = 1; j < LINE_WORDS && i < n; j++) {
        long x = word(linesBase + LINE_WORDS * line + j);
        while (x != 0 && i < n) {
          long pos = (long) line * LINE_BITS + 64L * (j - 1) + Long.numberOfTrailingZeros(x);
          long v = ((pos - i) << lowBits) | lowAt(i);
          if (v <= prev || v >= universe) {
            throw new SieveFormatException(
                payloadOffset,
                "code " + i + " is not above the one before it or not below r = " + universe);
          }
          if (i == 0) {
            firstValue = v;
          }
          prev = v;
          i++;
          x &= x - 1;
        }
      }
    }
    return new long[] {firstValue, prev};
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
  private long word(int i) {
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

  private boolean bit(long pos) {
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
