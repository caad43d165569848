package dev.sieve.expand;

import java.nio.ByteBuffer;

/**
 * The storage of an {@link ExpandableFilter} (payload version 3): the slots in blocks of 64, each
 * block {@code 64 · width + 16} bits of one little-endian bit string (block {@code b} from bit
 * {@code b · (64 · width + 16)}; a field may straddle two words):
 *
 * <pre>
 *   bits 0..15      offset: how many slots from the block's first one hold entries of quotients
 *                   before it (saturated at {@value #SATURATED}: then computed from earlier blocks)
 *   bits 16..79     occupieds: bit j set when the block's slot j is the canonical slot of a run
 *   bits 80..143    runends: bit j set when the block's slot j holds the last entry of a run
 *   bits 144..      64 values of width − 2 bits (the value of {@link ExpandableKernel}: 0 = empty)
 * </pre>
 *
 * A table of {@code n} slots has {@code ceil(n / 64)} blocks; the slots of the last block past
 * {@code n} stay empty. Reads go through {@link Words}, so one kernel serves the heap array and a
 * buffer read in place; writes are on the heap array only.
 */
final class ExpandableSlots {
  private ExpandableSlots() {}

  /** The widest slot: a value of {@code width − 2} bits must fit in the 64 bits of two words. */
  static final int MAX_WIDTH = 57;

  /** Bits of a block's offset field. */
  static final int OFFSET_BITS = 16;

  /** The offset stored for an offset of this or more: computed from earlier blocks when read. */
  static final int SATURATED = (1 << OFFSET_BITS) - 1;

  static final int OCCUPIEDS_AT = OFFSET_BITS;
  static final int RUNENDS_AT = OFFSET_BITS + 64;
  static final int VALUES_AT = OFFSET_BITS + 128;

  /** 64-bit words read by the kernel: the heap array or a little-endian buffer. */
  interface Words {
    long word(int i);
  }

  /** The words of a heap array. */
  static final class Heap implements Words {
    final long[] a;

    Heap(long[] a) {
      this.a = a;
    }

    @Override
    public long word(int i) {
      return a[i];
    }
  }

  /** The words of a little-endian buffer from index 0 (a filter read in place). */
  static final class Buffer implements Words {
    private final ByteBuffer b;

    Buffer(ByteBuffer b) {
      this.b = b;
    }

    @Override
    public long word(int i) {
      return b.getLong(i << 3);
    }
  }

  /** {@return the bits of one block of slots {@code width} bits wide} */
  static long blockBits(int width) {
    return 64L * width + OFFSET_BITS;
  }

  /** {@return the number of blocks of {@code slots} slots} */
  static long blocks(long slots) {
    return (slots + 63) >>> 6;
  }

  /** {@return the bits of a table of {@code slots} slots of {@code width} bits, blocks and all} */
  static long tableBits(long slots, int width) {
    return blocks(slots) * blockBits(width);
  }

  /** {@return the number of words holding {@code slots} slots of {@code width} bits} */
  static long wordsFor(long slots, int width) {
    return (tableBits(slots, width) + 63) >>> 6;
  }

  /** {@return the {@code len} bits ({@code 1..64}) from bit {@code pos}} */
  static long bits(Words t, long pos, int len) {
    int w = (int) (pos >>> 6);
    int shift = (int) (pos & 63);
    long v = t.word(w) >>> shift;
    if (shift + len > 64) {
      v |= t.word(w + 1) << (64 - shift);
    }
    return v & (-1L >>> (64 - len));
  }

  /** Sets the {@code len} bits ({@code 1..64}) from bit {@code pos} to {@code v}. */
  static void setBits(long[] t, long pos, int len, long v) {
    int w = (int) (pos >>> 6);
    int shift = (int) (pos & 63);
    long mask = -1L >>> (64 - len);
    t[w] = (t[w] & ~(mask << shift)) | (v << shift);
    if (shift + len > 64) {
      int high = 64 - shift;
      t[w + 1] = (t[w + 1] & ~(mask >>> high)) | (v >>> high);
    }
  }

  /** {@return the first bit of block {@code b}} */
  static long base(long b, int width) {
    return b * blockBits(width);
  }

  /** {@return the value of slot {@code i}} */
  static long value(Words t, int width, long i) {
    return bits(t, base(i >>> 6, width) + VALUES_AT + (i & 63) * (width - 2), width - 2);
  }

  static void setValue(long[] t, int width, long i, long v) {
    setBits(t, base(i >>> 6, width) + VALUES_AT + (i & 63) * (width - 2), width - 2, v);
  }

  /** {@return the occupieds word of block {@code b}} */
  static long occupieds(Words t, int width, long b) {
    return bits(t, base(b, width) + OCCUPIEDS_AT, 64);
  }

  /** {@return the runends word of block {@code b}} */
  static long runends(Words t, int width, long b) {
    return bits(t, base(b, width) + RUNENDS_AT, 64);
  }

  /** {@return the stored offset of block {@code b}} */
  static int offset(Words t, int width, long b) {
    return (int) bits(t, base(b, width), OFFSET_BITS);
  }

  static void setOffset(long[] t, int width, long b, long offset) {
    setBits(t, base(b, width), OFFSET_BITS, Math.min(offset, SATURATED));
  }

  static boolean occupied(Words t, int width, long i) {
    return (occupieds(t, width, i >>> 6) >>> (i & 63) & 1) != 0;
  }

  static boolean runend(Words t, int width, long i) {
    return (runends(t, width, i >>> 6) >>> (i & 63) & 1) != 0;
  }

  static void setOccupied(long[] t, int width, long i, boolean on) {
    setFlag(t, base(i >>> 6, width) + OCCUPIEDS_AT + (i & 63), on);
  }

  static void setRunend(long[] t, int width, long i, boolean on) {
    setFlag(t, base(i >>> 6, width) + RUNENDS_AT + (i & 63), on);
  }

  private static void setFlag(long[] t, long pos, boolean on) {
    int w = (int) (pos >>> 6);
    long bit = 1L << (pos & 63);
    t[w] = on ? t[w] | bit : t[w] & ~bit;
  }
}
