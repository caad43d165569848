package dev.sieve.bench;

import dev.sieve.bloom.TwoWordBloomFilter;
import dev.sieve.hash.KeyHash;
import java.lang.reflect.Field;
import java.util.Locale;

/**
 * The single-key probe of the two-word Bloom filter far out of cache, by form: the experiment
 * behind the questions of where the out-of-cache lookup loses time to a bare pair of loads. Each
 * row asks a copy of the words of a real Sieve two-word filter (its default builder, so its default
 * key scheme: one {@link KeyHash#mix64} per key) by the library's layout; only the form differs:
 *
 * <ul>
 *   <li>{@code copy}: the library's probe (the first word, then the second only where the first
 *       passes; the mask bits and the second word from small tables, as the library's) over a plain
 *       copy of the words, the control;
 *   <li>{@code aligned}: the same probe over the words placed {@value #PAD} longs into a larger
 *       array, so that where the array starts on a 64-byte boundary (a humongous array under G1,
 *       which starts at a region; the array's header 16 bytes) every block is one cache line, not
 *       the two a plain array's 16-byte header makes of it;
 *   <li>{@code both}: both words loaded for every key and tested branch-free;
 *   <li>{@code aligned-both}: both.
 * </ul>
 *
 * The rows live here, not in sieve-core, so the library keeps one probe form; the tests check that
 * every form answers as the library's filter.
 */
public final class TwoWordProbeForms {
  private TwoWordProbeForms() {}

  /** Longs before block 0 in the aligned forms: a 16-byte header plus 48 bytes is one line. */
  static final int PAD = 6;

  /** The forms, by the suffix of their row name {@code two-word-form-<form>}. */
  public enum Form {
    COPY(0, false),
    ALIGNED(PAD, false),
    BOTH(0, true),
    ALIGNED_BOTH(PAD, true);

    final int pad;
    final boolean both;

    Form(int pad, boolean both) {
      this.pad = pad;
      this.both = both;
    }

    /** The row's name. */
    public String rowName() {
      return "two-word-form-" + name().toLowerCase(Locale.ROOT).replace('_', '-');
    }
  }

  /** The form whose row is {@code name}, or {@code null}. */
  static Form byRowName(String name) {
    for (Form f : Form.values()) {
      if (f.rowName().equals(name)) {
        return f;
      }
    }
    return null;
  }

  /** The words of {@code filter} (a heap filter), queried by {@code form}. */
  static Membership of(TwoWordBloomFilter filter, Form form) {
    long[] words = words(filter);
    long[] placed = new long[words.length + form.pad + (form.pad == 0 ? 0 : Long.BYTES - form.pad)];
    System.arraycopy(words, 0, placed, form.pad, words.length);
    int j = filter.bitsPerWord();
    if (j != 3) {
      throw new IllegalArgumentException(
          "the probe forms are written for 3 bits per word (10 bits/key), got " + j);
    }
    return form.both
        ? new Both(placed, filter.numBlocks(), form.pad, filter.sizeInBits())
        : new Early(placed, filter.numBlocks(), form.pad, filter.sizeInBits());
  }

  static long[] words(TwoWordBloomFilter filter) {
    try {
      Field f = TwoWordBloomFilter.class.getDeclaredField("words");
      f.setAccessible(true);
      long[] w = (long[]) f.get(filter);
      if (w == null) {
        throw new IllegalArgumentException("the probe forms need a heap filter");
      }
      return w;
    } catch (ReflectiveOperationException | RuntimeException e) {
      throw new IllegalStateException("cannot read the two-word filter's words", e);
    }
  }

  /** The word index of the block's first long, {@code pad} added. */
  static int base(long h, int numBlocks, int pad) {
    return (int) (((h >>> 32) * numBlocks) >>> 32) * 8 + pad;
  }

  /**
   * The second word, {@code w1 ^ d} with {@code d = x == 0 ? 1 : x} ({@code x = (g >>> 3) & 7}),
   * from a 64-entry table as the library reads it.
   */
  static int second(long g) {
    return SECOND[(int) g & 63];
  }

  private static final byte[] SECOND = new byte[64];

  /** {@code 1L << i}, read from a table as the library reads its mask bits. */
  private static final long[] BIT = new long[64];

  static {
    for (int v = 0; v < 64; v++) {
      int x = v >>> 3;
      SECOND[v] = (byte) ((v & 7) ^ (x == 0 ? 1 : x));
      BIT[v] = 1L << v;
    }
  }

  /** The first word's three bits: fields 0 to 2 of {@code g}, six bits each from the top. */
  static long firstMask(long g) {
    return BIT[(int) (g >>> 58)] | BIT[(int) (g >>> 52) & 63] | BIT[(int) (g >>> 46) & 63];
  }

  /** The second word's three bits: fields 3 to 5. */
  static long secondMask(long g) {
    return BIT[(int) (g >>> 40) & 63] | BIT[(int) (g >>> 34) & 63] | BIT[(int) (g >>> 28) & 63];
  }

  private abstract static class Rows implements Membership {
    final long[] w;
    final int numBlocks;
    final int pad;
    private final long bits;

    Rows(long[] w, int numBlocks, int pad, long bits) {
      this.w = w;
      this.numBlocks = numBlocks;
      this.pad = pad;
      this.bits = bits;
    }

    @Override
    public long sizeInBits() {
      return bits;
    }

    @Override
    public double modelFpRate() {
      return Double.NaN;
    }
  }

  /** The library's order: the first word, the second only where it passes. */
  private static final class Early extends Rows {
    Early(long[] w, int numBlocks, int pad, long bits) {
      super(w, numBlocks, pad, bits);
    }

    @Override
    public boolean mayContain(long key) {
      long h = KeyHash.mix64(key);
      int b = base(h, numBlocks, pad);
      long g = h * 0x9E3779B97F4A7C15L;
      if ((~w[b + ((int) g & 7)] & firstMask(g)) != 0) {
        return false;
      }
      return (~w[b + second(g)] & secondMask(g)) == 0;
    }
  }

  /** Both words for every key, one branch-free test. */
  private static final class Both extends Rows {
    Both(long[] w, int numBlocks, int pad, long bits) {
      super(w, numBlocks, pad, bits);
    }

    @Override
    public boolean mayContain(long key) {
      long h = KeyHash.mix64(key);
      int b = base(h, numBlocks, pad);
      long g = h * 0x9E3779B97F4A7C15L;
      long missing = (~w[b + ((int) g & 7)] & firstMask(g)) | (~w[b + second(g)] & secondMask(g));
      return missing == 0;
    }
  }
}
