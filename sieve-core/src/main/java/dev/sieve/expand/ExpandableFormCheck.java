package dev.sieve.expand;

import dev.sieve.SieveFormatException;
import java.nio.ByteBuffer;

/**
 * The validation of an expandable filter's serialized form ({@link ExpandableForm}, whose class
 * comment has the layout and what is checked): the header fields with the exact length, then the
 * table's blocks, decoded once before any filter sees them. Every error is a {@link
 * SieveFormatException} with the offset of the field and the limit it broke.
 */
final class ExpandableFormCheck {
  private ExpandableFormCheck() {}

  /** The header fields of a form, validated, and its table's size in words. */
  record Shape(
      int log,
      int startLog,
      int width,
      int mant,
      int bits,
      double fpRate,
      long slots,
      long used,
      long numKeys,
      long numWords) {}

  /**
   * Validates the header of a form of {@code size} bytes whose first bytes {@code in} holds (from
   * index 0, little-endian; at least {@link #ExpandableForm.HEADER_BYTES} of them when {@code size}
   * is), and its exact length.
   *
   * @throws SieveFormatException naming the field and its limit
   */
  static Shape shape(ByteBuffer in, long size) {
    if (size < ExpandableForm.HEADER_BYTES) {
      throw new SieveFormatException(
          size,
          "truncated expandable filter: the header needs "
              + ExpandableForm.HEADER_BYTES
              + " bytes, got "
              + size);
    }
    int tag = in.get(0) & 0xFF;
    if (tag != ExpandableForm.TYPE_TAG) {
      throw new SieveFormatException(
          0,
          "not an expandable filter: type tag 0x" + Integer.toHexString(tag) + ", expected 0x45");
    }
    int version = in.get(1) & 0xFF;
    if (version != ExpandableForm.VERSION) {
      throw new SieveFormatException(
          1,
          "expandable payload version "
              + version
              + " is not supported (this reader reads "
              + ExpandableForm.VERSION
              + ")");
    }
    int log = in.get(2) & 0xFF;
    if (log < ExpandableMath.MIN_LOG_SLOTS || log > ExpandableMath.MAX_LOG_SLOTS) {
      throw new SieveFormatException(
          2,
          "log2 of the slots must be in ["
              + ExpandableMath.MIN_LOG_SLOTS
              + ", "
              + ExpandableMath.MAX_LOG_SLOTS
              + "], got "
              + log);
    }
    int startLog = in.get(3) & 0xFF;
    if (startLog < ExpandableMath.MIN_LOG_SLOTS || startLog > log) {
      throw new SieveFormatException(
          3,
          "log2 of the starting slots must be in ["
              + ExpandableMath.MIN_LOG_SLOTS
              + ", "
              + log
              + "], got "
              + startLog);
    }
    if (in.get(7) != 0) {
      throw new SieveFormatException(7, "reserved byte 7 must be 0");
    }
    double fpRate = in.getDouble(8);
    if (!(fpRate > 0 && fpRate <= ExpandableMath.MAX_FP_RATE)
        || ExpandableMath.baseFingerprintBits(fpRate) > ExpandableMath.MAX_BASE_FINGERPRINT_BITS) {
      throw new SieveFormatException(
          8,
          "target rate "
              + fpRate
              + " outside (0, "
              + ExpandableMath.MAX_FP_RATE
              + "] or below the lowest, that of "
              + ExpandableMath.MAX_BASE_FINGERPRINT_BITS
              + "-bit fingerprints");
    }
    int mant = in.get(5) & 0xFF;
    if (mant != 0 && startLog < 8) {
      throw new SieveFormatException(
          5, "mant " + mant + " needs a starting log2 of at least 8, got " + startLog);
    }
    int bits = in.get(6) & 0xFF;
    int maxBits = Math.min(ExpandableSlots.MAX_WIDTH - ExpandableMath.SLOT_OVERHEAD_BITS, 64 - log);
    if (bits < 1 || bits > maxBits) {
      throw new SieveFormatException(
          6, "fingerprint length must be in [1, " + maxBits + "] bits, got " + bits);
    }
    int width = in.get(4) & 0xFF;
    int minWidth = bits + ExpandableMath.SLOT_OVERHEAD_BITS;
    int maxWidth = ExpandableSlots.MAX_WIDTH;
    if (width < minWidth || width > maxWidth) {
      throw new SieveFormatException(
          4, "slot width must be in [" + minWidth + ", " + maxWidth + "] bits, got " + width);
    }
    long slots = ExpandableMath.slots(log, mant);
    long maxEntries = ExpandableMath.maxEntries(slots);
    long used = in.getLong(16);
    if (used < 0 || used > maxEntries) {
      throw new SieveFormatException(
          16, "entries " + used + " outside [0, " + maxEntries + "] (load 0.85 of " + slots + ")");
    }
    long numKeys = in.getLong(24);
    // adds past a run's bound on equal entries are counted but not stored (ExpandableDuplicates),
    // so the count has no upper bound in the entries
    if (numKeys < 0) {
      throw new SieveFormatException(24, "negative key count " + numKeys);
    }
    long numWords = ExpandableSlots.wordsFor(slots, width);
    long expected = ExpandableForm.HEADER_BYTES + numWords * Long.BYTES;
    if (size != expected) {
      throw new SieveFormatException(
          Math.min(size, expected),
          "expandable filter of "
              + slots
              + " slots of "
              + width
              + " bits needs "
              + expected
              + " bytes, got "
              + size
              + (size < expected ? " (truncated)" : " (trailing bytes)"));
    }
    return new Shape(log, startLog, width, mant, bits, fpRate, slots, used, numKeys, numWords);
  }

  /** The offset of slot {@code i}'s block, for messages. */
  private static long blockOffsetOf(long i, int width) {
    return ExpandableForm.HEADER_BYTES + (ExpandableSlots.base(i >>> 6, width) >>> 3);
  }

  /**
   * Decodes a table (see the class comment) and returns the entries by known hash bits.
   *
   * @throws SieveFormatException at the first block or slot that breaks the table's structure
   */
  static long[] decodeBlocks(ExpandableSlots.Words t, long slots, int log, int width, long used) {
    long blocks = ExpandableSlots.blocks(slots);
    int tail = (int) (slots & 63);
    if (tail != 0) {
      long last = blocks - 1;
      if ((ExpandableSlots.occupieds(t, width, last) >>> tail) != 0
          || (ExpandableSlots.runends(t, width, last) >>> tail) != 0) {
        throw new SieveFormatException(
            blockOffsetOf(slots, width), "metadata bits set past the last slot " + (slots - 1));
      }
      for (long i = slots; i < blocks << 6; i++) {
        if (ExpandableSlots.value(t, width, i) != 0) {
          throw new SieveFormatException(
              blockOffsetOf(i, width), "value set in slot " + i + ", past the last slot");
        }
      }
    }
    long[] byKnownBits = new long[65];
    long nonEmpty = 0;
    long empty = -1;
    for (long i = 0; i < slots; i++) {
      long value = ExpandableSlots.value(t, width, i);
      if (value == 0) {
        if (ExpandableSlots.occupied(t, width, i) || ExpandableSlots.runend(t, width, i)) {
          throw new SieveFormatException(
              blockOffsetOf(i, width), "empty slot " + i + " has its occupied or run-end bit set");
        }
        empty = empty < 0 ? i : empty;
        continue;
      }
      int known = log + ExpandableKernel.length(value);
      if (known > 64) {
        throw new SieveFormatException(
            blockOffsetOf(i, width),
            "slot " + i + " knows " + known + " hash bits, more than the 64 of a key hash");
      }
      byKnownBits[known]++;
      nonEmpty++;
    }
    if (nonEmpty != used) {
      throw new SieveFormatException(
          16, "header says " + used + " entries, the slots hold " + nonEmpty);
    }
    // empty >= 0: used <= 0.85 · slots. In every cluster (maximal run of non-empty slots) the
    // entry of the k-th run needs k occupied bits at or before it, and the runs end as often as
    // there are occupied bits.
    long occupied = 0;
    long ended = 0;
    for (long rel = 1; rel <= slots; rel++) {
      long i = (empty + rel) % slots;
      if (ExpandableSlots.value(t, width, i) == 0) {
        if (ended != occupied) {
          throw new SieveFormatException(
              blockOffsetOf(i, width),
              "the cluster ending before slot "
                  + i
                  + " has "
                  + ended
                  + " run ends, "
                  + occupied
                  + " occupied");
        }
        occupied = 0;
        ended = 0;
        continue;
      }
      occupied += ExpandableSlots.occupied(t, width, i) ? 1 : 0;
      if (ended >= occupied) {
        throw new SieveFormatException(
            blockOffsetOf(i, width), "slot " + i + " is in a run before its canonical slot");
      }
      ended += ExpandableSlots.runend(t, width, i) ? 1 : 0;
    }
    ExpandableWrites.forEachOffset(
        t,
        slots,
        width,
        (b, exact) -> {
          long stored = ExpandableSlots.offset(t, width, b);
          if (stored != Math.min(exact, ExpandableSlots.SATURATED)) {
            throw new SieveFormatException(
                blockOffsetOf(b << 6, width),
                "block "
                    + b
                    + " has offset "
                    + stored
                    + ", its runs give "
                    + Math.min(exact, ExpandableSlots.SATURATED)
                    + " (saturated at "
                    + ExpandableSlots.SATURATED
                    + ")");
          }
        });
    return byKnownBits;
  }
}
