package dev.sieve.range;

import static dev.sieve.range.EliasFano.LINE_BITS;
import static dev.sieve.range.EliasFano.LINE_WORDS;
import static dev.sieve.range.EliasFano.SAMPLE;

import dev.sieve.SieveFormatException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * The cold side of {@link EliasFano}: its sizes, the encoding of sorted values into its layout (low
 * bits, upper bits in lines with their headers, select samples; {@link EliasFano} gives the layout)
 * and the reading of stored data, checked against the header's counts before a query trusts it.
 */
final class EliasFanoCodec {
  private EliasFanoCodec() {}

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
    return new EliasFano(count, universe, l, w, null, first, last, true);
  }

  /**
   * Fills the select index of checked data ({@code entries} entries into {@code narrow} or, if it
   * is null, {@code wide}): entry {@code s} counts the ones before zero {@code s·2^STEP_SHIFT}. One
   * pass over the upper-bits words, one select per entry.
   */
  static void fillStepRanks(EliasFano ef, int[] narrow, long[] wide, int entries) {
    long zerosBefore = 0;
    int next = 0;
    long upperWords = words(ef.highLength);
    for (int q = 0; q < upperWords && next < entries; q++) {
      long z = ~ef.upperWord(q) & validMask(ef.highLength, 64L * q);
      int c = Long.bitCount(z);
      long at = (long) next << EliasFano.STEP_SHIFT;
      while (next < entries && at < zerosBefore + c) {
        long ones = 64L * q + EliasFano.select(z, (int) (at - zerosBefore)) - at;
        if (narrow != null) {
          narrow[next] = (int) ones;
        } else {
          wide[next] = ones;
        }
        next++;
        at = (long) next << EliasFano.STEP_SHIFT;
      }
      zerosBefore += c;
    }
  }

  /** The mask of the bits of the data word starting at upper bit {@code start} below {@code u}. */
  private static long validMask(long u, long start) {
    long rem = u - start;
    return rem >= 64 ? -1L : rem <= 0 ? 0 : (1L << rem) - 1;
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
    EliasFano unchecked = new EliasFano(m, universe, lowBits, heap, wrapped, -1, -1, false);
    long[] ends = check(unchecked, payloadOffset);
    return new EliasFano(m, universe, lowBits, heap, wrapped, ends[0], ends[1], true);
  }

  /** Checks the data against the header's counts; returns the first and last values. */
  private static long[] check(EliasFano ef, int payloadOffset) {
    if (ef.lowWords > 0) {
      long rem = ef.n * ef.lowBits - 64L * (ef.lowWords - 1);
      if (rem < 64 && (ef.word(ef.lowWords - 1) >>> rem) != 0) {
        throw new SieveFormatException(
            payloadOffset + 8L * (ef.lowWords - 1),
            "low bits: bits past the last used one are not 0");
      }
    }
    long seen = 0;
    long ones = 0;
    int sample = 0;
    for (int line = 0; line < ef.lines; line++) {
      int base = ef.linesBase + LINE_WORDS * line;
      if (ef.word(base) != seen) {
        throw new SieveFormatException(
            payloadOffset + 8L * base,
            "line "
                + line
                + " header says "
                + ef.word(base)
                + " zeros before it, the bits "
                + seen);
      }
      long inLine = 0;
      for (int j = 1; j < LINE_WORDS; j++) {
        long valid = validMask(ef.highLength, (long) line * LINE_BITS + 64L * (j - 1));
        long x = ef.word(base + j);
        if ((x & ~valid) != 0) {
          throw new SieveFormatException(
              payloadOffset + 8L * (base + j), "upper bits: bits past the last used one are not 0");
        }
        inLine += Long.bitCount(~x & valid);
        ones += Long.bitCount(x);
      }
      while (sample < ef.samples && (long) sample * SAMPLE < seen + inLine) {
        if (ef.sampleLine(sample) != line) {
          throw new SieveFormatException(
              payloadOffset + 8L * (ef.samplesBase + (sample >>> 1)),
              "select sample " + sample + " names line " + ef.sampleLine(sample) + ", not " + line);
        }
        sample++;
      }
      seen += inLine;
    }
    if (ones != ef.n) {
      throw new SieveFormatException(
          payloadOffset + 8L * ef.linesBase, "upper bits hold " + ones + " codes, not " + ef.n);
    }
    if ((ef.word(dataIndex(ef.linesBase, ef.highLength - 1)) >>> (ef.highLength - 1) & 1) != 0) {
      throw new SieveFormatException(
          payloadOffset + 8L * dataIndex(ef.lowWords, ef.highLength - 1),
          "upper bits end in a one");
    }
    if ((ef.samples & 1) != 0 && (ef.word(ef.samplesBase + ef.samples / 2) >>> 32) != 0) {
      throw new SieveFormatException(
          payloadOffset + 8L * (ef.samplesBase + ef.samples / 2),
          "the unused last sample is not 0");
    }
    // the values: strictly increasing, below u
    long prev = -1;
    long firstValue = -1;
    long i = 0;
    for (int line = 0; line < ef.lines && i < ef.n; line++) {
      for (int j = 1; j < LINE_WORDS && i < ef.n; j++) {
        long x = ef.word(ef.linesBase + LINE_WORDS * line + j);
        while (x != 0 && i < ef.n) {
          long pos = (long) line * LINE_BITS + 64L * (j - 1) + Long.numberOfTrailingZeros(x);
          long v = ((pos - i) << ef.lowBits) | ef.lowAt(i);
          if (v <= prev || v >= ef.universe) {
            throw new SieveFormatException(
                payloadOffset,
                "code " + i + " is not above the one before it or not below r = " + ef.universe);
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

  /** The data word index of upper bit {@code pos}, past {@code lowWords} low words. */
  static int dataIndex(int lowWords, long pos) {
    long line = pos / LINE_BITS;
    return lowWords + (int) (line * LINE_WORDS + 1 + ((pos - line * LINE_BITS) >>> 6));
  }

  /** Every value, in order (for tests and rebuilding). */
  static long[] decodeAll(EliasFano ef) {
    long[] out = new long[Math.toIntExact(ef.n)];
    int i = 0;
    for (int line = 0; line < ef.lines && i < ef.n; line++) {
      for (int j = 1; j < LINE_WORDS && i < ef.n; j++) {
        long x = ef.word(ef.linesBase + LINE_WORDS * line + j);
        while (x != 0 && i < ef.n) {
          long pos = (long) line * LINE_BITS + 64L * (j - 1) + Long.numberOfTrailingZeros(x);
          out[i] = ((pos - i) << ef.lowBits) | ef.lowAt(i);
          i++;
          x &= x - 1;
        }
      }
    }
    return out;
  }

  /** Whether the data words are equal (heap or wrapped alike). */
  static boolean sameData(EliasFano ef, EliasFano o) {
    if (o.dataWords != ef.dataWords) {
      return false;
    }
    for (int i = 0; i < ef.dataWords; i++) {
      if (o.word(i) != ef.word(i)) {
        return false;
      }
    }
    return true;
  }

  /** A hash of the data words. */
  static int dataHash(EliasFano ef) {
    long h = 1;
    for (int i = 0; i < ef.dataWords; i++) {
      h = h * 31 + ef.word(i);
    }
    return Long.hashCode(h);
  }
}
