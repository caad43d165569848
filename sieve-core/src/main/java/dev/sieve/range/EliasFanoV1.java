package dev.sieve.range;

/**
 * A static Elias–Fano sequence of {@code n} non-decreasing values in {@code [0, u)}, with a
 * successor query ({@link #successor}): the smallest value {@code >= x} in a constant expected
 * number of memory reads.
 *
 * <p>Each value {@code v} is split into its {@code l = ⌊log2(u/n)⌋} low bits, stored packed in
 * {@link #low} ({@code n·l} bits), and its high part {@code v >>> l}, stored in unary in {@link
 * #high}: value {@code i} sets bit {@code (v_i >>> l) + i}, so the zeros before it count its high
 * part. {@code high} has {@code n + ((u − 1) >>> l) + 1} bits: at most {@code 2n + 1} plus {@code
 * n} ones, so the whole takes at most {@code n·(2 + l) + 1} bits.
 *
 * <p>The successor of {@code x} starts at the first value whose high part is {@code x >>> l}: just
 * past the {@code (x >>> l)}-th zero of {@code high}. {@link #zeroSamples} keeps the position of
 * every {@value #SAMPLE}-th zero ({@code 64/256} bits per zero, under half a bit per value), so a
 * select of a zero reads one sample and then at most a few words of {@code high} (256 zeros span
 * about 256 + 256·n/2^l ≤ 512 bits, 8 words, on average). The values past it with the same high
 * part number {@code 2^l·n/u ≤ 1} on average. The samples are derived from {@code high} (not stored
 * in the serialized form).
 */
final class EliasFanoV1 {
  /** The zeros per select sample. */
  static final int SAMPLE = 256;

  final long n;
  final long universe;
  final int lowBits;
  final long[] low;
  final long[] high;
  final long highLength;
  private final long[] zeroSamples;

  EliasFanoV1(long n, long universe, int lowBits, long[] low, long[] high) {
    this.n = n;
    this.universe = universe;
    this.lowBits = lowBits;
    this.low = low;
    this.high = high;
    this.highLength = highLength(n, universe, lowBits);
    this.zeroSamples = samples(high, highLength, zeros(universe, lowBits));
  }

  /** {@code ⌊log2(u/max(n, 1))⌋}, at least 0 and at most 62. */
  static int lowBitsFor(long n, long universe) {
    long q = universe / Math.max(1, n);
    if (q < 2) {
      return 0;
    }
    return Math.min(62, 63 - Long.numberOfLeadingZeros(q));
  }

  /** The zeros of {@code high}: one per high part, {@code ((u − 1) >>> l) + 1}. */
  static long zeros(long universe, int lowBits) {
    return ((universe - 1) >>> lowBits) + 1;
  }

  static long highLength(long n, long universe, int lowBits) {
    return n + zeros(universe, lowBits);
  }

  static long words(long bits) {
    return (bits + 63) >>> 6;
  }

  /**
   * Encodes sorted values.
   *
   * @param values {@code count} non-decreasing values in {@code [0, universe)}
   */
  static EliasFanoV1 encode(long[] values, int count, long universe) {
    int l = lowBitsFor(count, universe);
    long[] low = new long[Math.toIntExact(words((long) count * l))];
    long[] high = new long[Math.toIntExact(words(highLength(count, universe, l)))];
    long mask = l == 0 ? 0 : (1L << l) - 1;
    for (int i = 0; i < count; i++) {
      long v = values[i];
      if (l > 0) {
        setBits(low, (long) i * l, l, v & mask);
      }
      long pos = (v >>> l) + i;
      high[(int) (pos >>> 6)] |= 1L << pos;
    }
    return new EliasFanoV1(count, universe, l, low, high);
  }

  private static void setBits(long[] words, long bitPos, int width, long value) {
    int w = (int) (bitPos >>> 6);
    int s = (int) (bitPos & 63);
    words[w] |= value << s;
    if (s + width > 64) {
      words[w + 1] |= value >>> (64 - s);
    }
  }

  private long lowAt(long i) {
    int l = lowBits;
    if (l == 0) {
      return 0;
    }
    long bitPos = i * l;
    int w = (int) (bitPos >>> 6);
    int s = (int) (bitPos & 63);
    long v = low[w] >>> s;
    if (s + l > 64) {
      v |= low[w + 1] << (64 - s);
    }
    return v & ((1L << l) - 1);
  }

  private static long[] samples(long[] high, long highLength, long zeros) {
    long[] out = new long[Math.toIntExact((zeros + SAMPLE - 1) / SAMPLE)];
    long seen = 0;
    for (int w = 0; w < high.length; w++) {
      long z = ~high[w];
      long rem = highLength - ((long) w << 6);
      if (rem < 64) {
        z &= (1L << rem) - 1;
      }
      int c = Long.bitCount(z);
      // the zeros numbered seen .. seen + c − 1 are in this word: sample each multiple of SAMPLE
      long next = (seen + SAMPLE - 1) / SAMPLE * SAMPLE;
      while (next < seen + c) {
        out[(int) (next / SAMPLE)] = ((long) w << 6) + select(z, (int) (next - seen));
        next += SAMPLE;
      }
      seen += c;
    }
    return out;
  }

  /** The position of the {@code k}-th (from 0) set bit of {@code x}, which has more than k. */
  static int select(long x, int k) {
    int base = 0;
    int c = Long.bitCount(x & 0xFFFF_FFFFL);
    if (k >= c) {
      k -= c;
      x >>>= 32;
      base = 32;
    }
    c = Long.bitCount(x & 0xFFFFL);
    if (k >= c) {
      k -= c;
      x >>>= 16;
      base += 16;
    }
    c = Long.bitCount(x & 0xFFL);
    if (k >= c) {
      k -= c;
      x >>>= 8;
      base += 8;
    }
    for (int i = 0; i < k; i++) {
      x &= x - 1;
    }
    return base + Long.numberOfTrailingZeros(x);
  }

  /** The position in {@code high} of the {@code k}-th zero (from 0), {@code k < zeros}. */
  private long selectZero(long k) {
    long pos = zeroSamples[(int) (k / SAMPLE)];
    long left = k % SAMPLE;
    if (left == 0) {
      return pos;
    }
    // zeros after pos: count word by word
    int w = (int) (pos >>> 6);
    long z = ~high[w] & (-1L << (pos & 63)) & ~(1L << (pos & 63));
    while (true) {
      int c = Long.bitCount(z);
      if (left <= c) {
        return ((long) w << 6) + select(z, (int) (left - 1));
      }
      left -= c;
      z = ~high[++w];
    }
  }

  /**
   * The smallest value {@code >= x}, or {@code -1} if every value is below {@code x}.
   *
   * @param x a value, {@code 0 <= x}
   */
  long successor(long x) {
    if (n == 0 || x >= universe) {
      return -1;
    }
    long h = x >>> lowBits;
    long pos = h == 0 ? 0 : selectZero(h - 1) + 1;
    long i = pos - h; // the values before pos
    long xl = lowBits == 0 ? 0 : x & ((1L << lowBits) - 1);
    int w = (int) (pos >>> 6);
    long word = high[w] >>> (pos & 63);
    // the values in bucket h: the ones from pos up to the next zero
    while (true) {
      if ((word & 1) == 0) {
        break;
      }
      long lv = lowAt(i);
      if (lv >= xl) {
        return (h << lowBits) | lv;
      }
      i++;
      pos++;
      if ((pos & 63) == 0) {
        w++;
        word = high[w];
      } else {
        word >>>= 1;
      }
    }
    if (i >= n) {
      return -1;
    }
    // the next value lies in a later bucket: the next one bit at or after pos
    word = high[w] & (-1L << (pos & 63));
    while (word == 0) {
      word = high[++w];
    }
    long onePos = ((long) w << 6) + Long.numberOfTrailingZeros(word);
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
    long i = 0;
    for (int w = 0; w < high.length && i < n; w++) {
      long word = high[w];
      while (word != 0 && i < n) {
        long pos = ((long) w << 6) + Long.numberOfTrailingZeros(word);
        out[(int) i] = ((pos - i) << lowBits) | lowAt(i);
        i++;
        word &= word - 1;
      }
    }
    return out;
  }

  /** Bits of the serialized arrays (low and high, no samples). */
  long storedBits() {
    return 64L * (low.length + high.length);
  }

  /** Bits in the arrays held in memory (samples included). */
  long sizeInBits() {
    return 64L * (low.length + high.length + zeroSamples.length);
  }

  /**
   * The index of the first value that is not above the one before it, or not below the universe;
   * {@code -1} if the values are strictly increasing and below it (the form's check).
   */
  long firstNotIncreasing() {
    long i = 0;
    long prev = -1;
    for (int w = 0; w < high.length && i < n; w++) {
      long word = high[w];
      while (word != 0 && i < n) {
        long pos = ((long) w << 6) + Long.numberOfTrailingZeros(word);
        long v = ((pos - i) << lowBits) | lowAt(i);
        if (v <= prev || v >= universe) {
          return i;
        }
        prev = v;
        i++;
        word &= word - 1;
      }
    }
    return -1;
  }
}
