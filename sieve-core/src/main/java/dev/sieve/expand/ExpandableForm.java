package dev.sieve.expand;

import dev.sieve.SieveFormatException;
import dev.sieve.internal.ChannelReads;
import dev.sieve.internal.ChannelWrites;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.channels.WritableByteChannel;

/**
 * The expandable filter's serialized form; the container's payload for {@link ExpandableFilter}
 * ({@link ExpandablePayload}).
 *
 * <p>Little-endian, offsets from the payload's first byte:
 *
 * <pre>
 *   0   1  type tag 0x45 ('E')
 *   1   1  payload version, 3
 *   2   1  log2 of the slots rounded down, [6, 32]
 *   3   1  the same at creation, [6, byte 2]
 *   4   1  slot width in bits: [bits + 3, 57]
 *   5   1  mant: the slots are 2^log (mant 0) or (256 + mant) · 2^(log − 8) (mant > 0, start ≥ 8)
 *   6   1  bits: the fingerprint length of new entries, [1, min(54, 64 − log)]
 *   7   1  reserved, 0
 *   8   8  target rate f (IEEE double): in (0, 0.25], F = baseFingerprintBits(f) ≤ 28
 *   16  8  entries stored (void copies each), [0, floor(0.85 · slots)]
 *   24  8  keys (adds minus removes), at least 0
 *   32  .  ceil(blocks · (64 · width + 16) / 64) words: blocks of 64 slots (ExpandableSlots: offset,
 *          occupieds, runends, values), bits past the last block 0
 * </pre>
 *
 * <p>Bytes 5 and 6 are stored because neither can be derived: a table sized from a key-count hint
 * need not have a power of two of slots, and the fingerprint length of new entries is the budget
 * policy's choice at the last doubling, which the entries present do not determine after removes.
 * The table is in RSQF blocks so that a query takes O(1). A payload of any other version is refused
 * with a {@link SieveFormatException} naming the version.
 *
 * <p>{@link #read} validates a form once, before any filter sees it: every header field, then the
 * exact length (before anything is allocated), the zero padding, and the slots decoded: an empty
 * slot carries no metadata bit (nor does a slot past the last of a partial block), every entry's
 * known bits fit its hash, the non-empty slots number the stored entries, in every cluster (a
 * maximal run of non-empty slots) the entry of the k-th run has k occupied bits at or before it and
 * the cluster ends with as many run ends as occupied bits, and every block's offset is the one its
 * runs give (saturated at 65535). The kernel's selects then terminate (at most 85% of the slots are
 * non-empty) and find every run. Every error is a {@link SieveFormatException} with the offset of
 * the field and the limit it broke.
 */
final class ExpandableForm {

  /** The version this code writes and reads. */
  static final int VERSION = 3;

  static final int TYPE_TAG = 0x45;

  static final int HEADER_BYTES = 32;

  private ExpandableForm() {}

  /**
   * {@return the length in bytes of the form of a table of {@code slots} slots of {@code width}}
   */
  static long length(long slots, int width) {
    return HEADER_BYTES + ExpandableSlots.wordsFor(slots, width) * Long.BYTES;
  }

  /** {@return the 32 header bytes of {@code f}'s form, little-endian} */
  private static ByteBuffer header(ExpandableFilter f) {
    ByteBuffer out = ByteBuffer.allocate(HEADER_BYTES).order(ByteOrder.LITTLE_ENDIAN);
    out.put((byte) TYPE_TAG).put((byte) VERSION).put((byte) f.log).put((byte) f.startLog);
    out.put((byte) f.width).put((byte) f.mant).put((byte) f.newBits).put((byte) 0);
    out.putDouble(f.fpRate).putLong(f.used).putLong(f.numKeys);
    return out.flip();
  }

  /**
   * The form of a filter: its header, then its slot words from {@code words}, or from {@code
   * wrapped} when {@code words} is null.
   *
   * @throws IllegalStateException if the form does not fit one array (a table past 2 GiB: {@link
   *     #write(ExpandableFilter, long[], ExpandableSegments, WritableByteChannel)} streams it)
   */
  static byte[] write(ExpandableFilter f, long[] words, ExpandableSegments wrapped) {
    long length = length(f.slots, f.width);
    if (length > Integer.MAX_VALUE - 8) {
      throw new IllegalStateException(
          "an expandable filter's form of "
              + length
              + " bytes does not fit one byte[]; write it to a file or channel"
              + " (SieveFormat.write streams it)");
    }
    ByteBuffer out = ByteBuffer.allocate((int) length).order(ByteOrder.LITTLE_ENDIAN);
    out.put(header(f));
    if (words != null) {
      out.asLongBuffer().put(words);
    } else {
      wrapped.copyTo(out);
    }
    return out.array();
  }

  /** Words written per chunk by the streamed write (64 KiB). */
  private static final int CHUNK_WORDS = 8192;

  /**
   * Writes the form of a filter to {@code out}: its header, then its slot words from {@code words}
   * in 64 KiB chunks, or from {@code wrapped}'s buffers (not copied) when {@code words} is null. No
   * length limit but the table's.
   */
  static void write(
      ExpandableFilter f, long[] words, ExpandableSegments wrapped, WritableByteChannel out)
      throws IOException {
    ChannelWrites.writeFully(out, header(f));
    if (words == null) {
      wrapped.writeTo(out);
      return;
    }
    ByteBuffer chunk = ByteBuffer.allocate(CHUNK_WORDS * Long.BYTES).order(ByteOrder.LITTLE_ENDIAN);
    for (int from = 0; from < words.length; from += CHUNK_WORDS) {
      int n = Math.min(CHUNK_WORDS, words.length - from);
      chunk.clear();
      chunk.asLongBuffer().put(words, from, n);
      chunk.limit(n * Long.BYTES);
      ChannelWrites.writeFully(out, chunk);
    }
  }

  /** {@return the slot words of a wrapped filter's buffer (little-endian, from 0), on the heap} */
  static long[] words(ByteBuffer data) {
    long[] out = new long[data.capacity() / Long.BYTES];
    data.duplicate().clear().order(ByteOrder.LITTLE_ENDIAN).asLongBuffer().get(out);
    return out;
  }

  /**
   * Reads the form from {@code bytes}' position to its limit: onto the heap (a mutable filter), or,
   * with {@code inPlace}, in place: the slots are not copied and queries read the buffer (heap,
   * direct or memory-mapped); the filter is then read-only ({@link ExpandableFilter#copy()} gives a
   * mutable one). The checks are the same (the slots decoded from the buffer), with offsets
   * relative to the position. The buffer's position and limit may change afterwards; its bytes must
   * not while the filter is in use.
   *
   * @throws SieveFormatException if the bytes are truncated, too long or inconsistent
   */
  static ExpandableFilter read(ByteBuffer bytes, boolean inPlace) {
    ByteBuffer in = bytes.slice().order(ByteOrder.LITTLE_ENDIAN);
    int size = in.remaining();
    Shape h = shape(in, size);
    ByteBuffer data =
        in.slice(HEADER_BYTES, (int) h.numWords() * Long.BYTES).order(ByteOrder.LITTLE_ENDIAN);
    return inBlocks(h, ExpandableSegments.of(data), inPlace);
  }

  /**
   * Maps a form of {@code length} bytes at {@code offset} of {@code channel} past one buffer: its
   * header read and checked as {@link #read} checks it, its table mapped read-only in segments of
   * {@code 2^segmentShift} bytes and decoded in place (every block checked, as {@link #read} does),
   * then queried in place (read-only). Zero copy: a block that straddles two segments is read word
   * by word ({@link ExpandableSegments}).
   *
   * @throws SieveFormatException with file offsets: a bad header field, a length that is not the
   *     header's, a table past the largest one heap array holds, or a table that breaks its
   *     structure
   */
  static ExpandableFilter map(FileChannel channel, long offset, long length, int segmentShift)
      throws IOException {
    if (segmentShift < 3 || segmentShift > 30) {
      throw new IllegalArgumentException("segment shift must be in [3, 30], got " + segmentShift);
    }
    try {
      ByteBuffer head =
          ChannelReads.readSmall(channel, offset, (int) Math.min(length, HEADER_BYTES));
      return segmented(
          head,
          length,
          segmentShift,
          bytes -> ChannelReads.mapSegments(channel, offset + HEADER_BYTES, bytes, segmentShift));
    } catch (SieveFormatException e) {
      throw new SieveFormatException(
          offset + e.offset(), e.getMessage().replaceFirst("^at offset -?\\d+: ", ""), e);
    }
  }

  /**
   * {@link #map}'s reading of a payload already in memory: the same checks, the table cut into
   * segments of {@code 2^segmentShift} bytes (views of {@code payload}, from its position to its
   * limit) and read in place through {@link ExpandableSegments}, as a mapped file past 2 GiB is.
   * For the tests and the fuzz target, which compare it with {@link #read}; small shifts put blocks
   * across segments.
   *
   * @throws SieveFormatException as {@link #map}, with payload offsets
   */
  static ExpandableFilter readSegmented(ByteBuffer payload, int segmentShift) {
    if (segmentShift < 3 || segmentShift > 30) {
      throw new IllegalArgumentException("segment shift must be in [3, 30], got " + segmentShift);
    }
    ByteBuffer p = payload.slice();
    int length = p.remaining();
    ByteBuffer head = p.slice(0, Math.min(length, HEADER_BYTES));
    try {
      return segmented(
          head,
          length,
          segmentShift,
          bytes -> {
            long size = 1L << segmentShift;
            int count = (int) Math.max(1, (bytes + size - 1) >>> segmentShift);
            ByteBuffer[] out = new ByteBuffer[count];
            for (int i = 0; i < count; i++) {
              long from = (long) i << segmentShift;
              out[i] = p.slice((int) (HEADER_BYTES + from), (int) Math.min(size, bytes - from));
            }
            return out;
          });
    } catch (IOException e) {
      throw new AssertionError("no I/O on the heap", e);
    }
  }

  /** The table's segments: {@code bytes} bytes from the payload's {@code HEADER_BYTES}. */
  @FunctionalInterface
  private interface Segmenter {
    ByteBuffer[] segments(long bytes) throws IOException;
  }

  /** {@link #map} and {@link #readSegmented}: {@code first}, the payload's first bytes. */
  private static ExpandableFilter segmented(
      ByteBuffer first, long length, int segmentShift, Segmenter segmenter) throws IOException {
    ByteBuffer head = first.order(ByteOrder.LITTLE_ENDIAN);
    Shape h = shape(head, length);
    if (h.numWords() > Integer.MAX_VALUE - 8) {
      throw new SieveFormatException(
          2,
          "a table of "
              + h.slots()
              + " slots of "
              + h.width()
              + " bits needs "
              + h.numWords()
              + " words, more than the largest table, "
              + (Integer.MAX_VALUE - 8)
              + " (one long[])");
    }
    ByteBuffer[] segments = segmenter.segments(h.numWords() * Long.BYTES);
    return inBlocks(h, new ExpandableSegments(segments, segmentShift, h.numWords()), true);
  }

  /** Checks that the bits past the table in its last word are 0. */
  private static void checkPadding(Shape h, ExpandableSlots.Words t) {
    long tableBits = ExpandableSlots.tableBits(h.slots(), h.width());
    int usedBits = (int) (tableBits & 63);
    if (usedBits != 0 && (t.word((int) (h.numWords() - 1)) >>> usedBits) != 0) {
      throw new SieveFormatException(
          HEADER_BYTES + (h.numWords() - 1) * Long.BYTES,
          "nonzero bits past the last slot in the final word");
    }
  }

  /** The filter of a table in {@code table}, checked: read in place, or copied onto the heap. */
  private static ExpandableFilter inBlocks(Shape h, ExpandableSegments table, boolean inPlace) {
    ExpandableSlots.Words t = table.words();
    checkPadding(h, t);
    long[] byKnownBits = decodeBlocks(t, h.slots(), h.log(), h.width(), h.used());
    return filter(h, inPlace ? null : table.toArray(), inPlace ? table : null, byKnownBits);
  }

  private static ExpandableFilter filter(
      Shape h, long[] words, ExpandableSegments wrapped, long[] byKnownBits) {
    return new ExpandableFilter(
        h.fpRate(),
        h.startLog(),
        h.mant(),
        h.log(),
        h.width(),
        h.bits(),
        words,
        wrapped,
        h.used(),
        h.numKeys(),
        byKnownBits);
  }

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
   * index 0, little-endian; at least {@link #HEADER_BYTES} of them when {@code size} is), and its
   * exact length.
   *
   * @throws SieveFormatException naming the field and its limit
   */
  static Shape shape(ByteBuffer in, long size) {
    if (size < HEADER_BYTES) {
      throw new SieveFormatException(
          size,
          "truncated expandable filter: the header needs " + HEADER_BYTES + " bytes, got " + size);
    }
    int tag = in.get(0) & 0xFF;
    if (tag != TYPE_TAG) {
      throw new SieveFormatException(
          0,
          "not an expandable filter: type tag 0x" + Integer.toHexString(tag) + ", expected 0x45");
    }
    int version = in.get(1) & 0xFF;
    if (version != VERSION) {
      throw new SieveFormatException(
          1,
          "expandable payload version "
              + version
              + " is not supported (this reader reads "
              + VERSION
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
    long expected = HEADER_BYTES + numWords * Long.BYTES;
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
    return HEADER_BYTES + (ExpandableSlots.base(i >>> 6, width) >>> 3);
  }

  /**
   * Decodes a table (see the class comment) and returns the entries by known hash bits.
   *
   * @throws SieveFormatException at the first block or slot that breaks the table's structure
   */
  private static long[] decodeBlocks(
      ExpandableSlots.Words t, long slots, int log, int width, long used) {
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
