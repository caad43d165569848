package dev.sieve.range;

import dev.sieve.SieveFormatException;
import java.nio.ByteBuffer;

/**
 * A static Elias–Fano sequence of {@code m} strictly increasing values in {@code [0, u)} laid out
 * for a successor query ({@link #successor}) whose reads of memory are one entry of a select index
 * and then, independent of each other, a word of upper bits and a word of lower bits. Held on the
 * heap (a {@code long[]}) or read in place from a little-endian buffer (a wrapped payload); the
 * same kernel reads either.
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
 * The line headers and the samples are part of the stored form and are checked when it is read; the
 * query uses neither, but the finer select index below, built in memory.
 *
 * <h2>The successor of {@code x}</h2>
 *
 * The values with high part {@code h = x >>> l} start just past zero {@code t = h − 1}. The select
 * index, an {@code int} per {@code 2^}{@value #STEP_SHIFT} zeros built from the checked data, gives
 * the place of zero {@code 32·⌊t/32⌋} exactly; zero {@code t} is at most 31 zeros on (about 64 bits
 * at the usual density: one word of upper bits, two at times), found by popcounts and a branch-free
 * broadword select ({@link #select}). The same entry also counts the values before that zero, so
 * the low-bits word of bucket {@code h} is known up to the few values of at most 31 buckets: the
 * query reads that probable word at once, beside the upper bits, instead of after them, and one
 * dependent miss of memory is saved. The values of bucket {@code h} (on average at most one) are
 * compared by their low bits; the first one not below {@code x}'s, or else the next value, is the
 * answer. The first and last values are kept in fields, so a query past the last or before the
 * first returns at once (a range that wraps around the code range needs no search at all, see
 * {@link GrafiteFilter}).
 *
 * <h2>Space</h2>
 *
 * Stored: {@code m·l + U} bits of Elias–Fano data ({@code U ≤ 2m + 1}, so at most {@code m·(2 + l)
 * + 1}), plus one header word per 7 words of upper bits ({@code U/7} bits) and 32 bits per 256
 * zeros: about {@code 0.3 + 0.13 = 0.42} bits per value at the usual {@code Z ≈ m}. In memory only:
 * the select index, 32 bits per 32 zeros, about 1 bit per value at {@code Z ≈ m} (64-bit entries
 * where {@code m} passes {@code 2^31 − 1}); {@link #indexBits()}. It is rebuilt when the data is
 * read or wrapped, in the same pass's time as the check, and a wrapped payload keeps it on the
 * heap.
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

  /** log2 of the zeros per entry of the select index. */
  static final int STEP_SHIFT = 5;

  static final long STEP_MASK = (1L << STEP_SHIFT) - 1;

  /**
   * The select index, built in memory from the checked data: entry {@code s} is the number of ones
   * before zero {@code s·2^STEP_SHIFT} (which lies at {@code s·2^STEP_SHIFT} plus it), 32 bits per
   * 32 zeros; no entries for an empty sequence or one not yet checked, {@code null} where a count
   * can pass {@code 2^31 − 1} (then {@link #wideStepRanks} holds them).
   */
  private final int[] stepRanks;

  /** The select index in 64-bit entries, where a count can pass {@code 2^31 − 1}; else null. */
  private final long[] wideStepRanks;

  /** {@code m/Z} in 16.16 fixed point: the expected ones per zero, for the low-bits hint. */
  private final long onesPerZero;

  /**
   * A sequence over {@code heap} or {@code wrapped}.
   *
   * @param indexed whether to build the select index (data already checked, ready for queries)
   */
  EliasFano(
      long n,
      long universe,
      int lowBits,
      long[] heap,
      ByteBuffer wrapped,
      long first,
      long last,
      boolean indexed) {
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
    this.onesPerZero = (n << 16) / zeros;
    int entries = indexed && n > 0 ? (int) (((zeros - 1) >>> STEP_SHIFT) + 1) : 0;
    boolean narrow = n <= Integer.MAX_VALUE;
    this.stepRanks = narrow ? new int[entries] : null;
    this.wideStepRanks = narrow ? null : new long[entries];
    EliasFanoCodec.fillStepRanks(this, stepRanks, wideStepRanks, entries);
  }

  /** {@return the bits of the select index, held in memory only} */
  long indexBits() {
    return stepRanks != null ? 32L * stepRanks.length : 64L * wideStepRanks.length;
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

  int sampleLine(int s) {
    return (int) (word(samplesBase + (s >>> 1)) >>> ((s & 1) << 5));
  }

  /** Upper-bits word {@code q}: upper bits {@code 64q} to {@code 64q + 63}, in line {@code q/7}. */
  long upperWord(int q) {
    int line = q / (LINE_WORDS - 1);
    return word(linesBase + LINE_WORDS * line + 1 + (q - (LINE_WORDS - 1) * line));
  }

  long lowAt(long i) {
    return lowAt(i, -1, 0);
  }

  /**
   * The low bits of value {@code i}; {@code hint} is low-bits word {@code hintWord}, read earlier
   * (a read whose value is used, so that it is not dropped and overlaps the upper bits' read).
   */
  long lowAt(long i, int hintWord, long hint) {
    int l = lowBits;
    if (l == 0) {
      return 0;
    }
    long bitPos = i * l;
    int w = (int) (bitPos >>> 6);
    int s = (int) (bitPos & 63);
    long v = (w == hintWord ? hint : word(w)) >>> s;
    if (s + l > 64) {
      v |= word(w + 1) << (64 - s);
    }
    return v & lowMask;
  }

  /** The low-bits word of value {@code i}. */
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

  // ---------------------------------------------------------------- the successor

  /** The ones before zero {@code s·2^STEP_SHIFT} (entry {@code s} of the select index). */
  long stepRank(int s) {
    int[] r = stepRanks;
    return r != null ? r[s] : wideStepRanks[s];
  }

  /**
   * The low-bits word that probably holds the first value of bucket {@code t + 1}, from the ones
   * before its step's zero: that count plus the expected ones of the {@code t mod 2^STEP_SHIFT}
   * buckets between (never past the last value's word).
   */
  int lowHintWord(long t, long stepRank) {
    long expected = ((t & STEP_MASK) * onesPerZero) >>> 16;
    return lowWordOf(Math.min(stepRank + expected, n - 1));
  }

  /**
   * The position in the upper bits of zero {@code t}: the select index gives zero {@code s·2^5}
   * ({@code s = t >>> 5}) at {@code from}, whose upper-bits word is {@code w}; the zero sought is
   * the {@code t mod 2^5}-th after it, found by popcounts over the next words (about 64 bits, one
   * word or two) and a select in the word.
   */
  long selectZeroFrom(long from, int k, long w) {
    int q = (int) (from >>> 6);
    long z = ~w & (-1L << from);
    for (; ; ) {
      int c = Long.bitCount(z);
      if (k < c) {
        return ((long) q << 6) + select(z, k);
      }
      k -= c;
      z = ~upperWord(++q);
    }
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
    if (h == 0) {
      return successorFrom(x, 0, 0, -1, 0);
    }
    long t = h - 1;
    int s = (int) (t >>> STEP_SHIFT);
    long rank = stepRank(s);
    long from = ((long) s << STEP_SHIFT) + rank;
    // both reads depend on the index entry alone, so they overlap: the low-bits word first
    int hintWord = lowHintWord(t, rank);
    long hint = word(hintWord);
    long pos = selectZeroFrom(from, (int) (t & STEP_MASK), upperWord((int) (from >>> 6))) + 1;
    return successorFrom(x, h, pos, hintWord, hint);
  }

  /**
   * The successor of {@code x} (above the first value, at most the last), whose bucket {@code h}
   * starts at {@code pos} in the upper bits; {@code hint} is low-bits word {@code hintWord}, read
   * early ({@code -1}: none).
   */
  long successorFrom(long x, long h, long pos, int hintWord, long hint) {
    long i = pos - h; // the values before bucket h
    long xl = x & lowMask;
    int q = (int) (pos >>> 6);
    long word = upperWord(q) >>> pos;
    int bits = 64 - (int) (pos & 63); // bits of the word left
    // the values in bucket h: ones from pos up to the next zero
    while ((word & 1) != 0) {
      long lv = lowAt(i, hintWord, hint);
      if (lv >= xl) {
        return (h << lowBits) | lv;
      }
      i++;
      pos++;
      if (--bits == 0) {
        word = upperWord(++q);
        bits = 64;
      } else {
        word >>>= 1;
      }
    }
    // the next value (there is one: x <= last) lies in a later bucket: the next one bit
    while (word == 0) {
      word = upperWord(++q);
      pos = (long) q << 6;
    }
    long onePos = pos + Long.numberOfTrailingZeros(word);
    return ((onePos - i) << lowBits) | lowAt(i, hintWord, hint);
  }

  /** Whether some value lies in {@code [a, b]}, {@code 0 <= a <= b}. */
  boolean anyIn(long a, long b) {
    long s = successor(a);
    return s >= 0 && s <= b;
  }

  /** Bits of every data word: low bits, upper-bit lines with their headers, select samples. */
  long sizeInBits() {
    return 64L * dataWords;
  }
}
