package dev.sieve.expand;

import dev.sieve.KeyScheme;
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
 *   3   1  the same at creation, or the smallest since (compact), [6, byte 2]
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
 * policy's choice at the last doubling or halving, which the entries present do not determine after
 * removes. The table is in RSQF blocks so that a query takes O(1). A payload of any other version
 * is refused with a {@link SieveFormatException} naming the version.
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
    ExpandableFormCheck.Shape h = ExpandableFormCheck.shape(in, size);
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

  /** The table's segments: {@code bytes} bytes from the payload's {@code HEADER_BYTES}. */
  @FunctionalInterface
  interface Segmenter {
    ByteBuffer[] segments(long bytes) throws IOException;
  }

  /**
   * {@link #map}, and the tests' reads of a payload on the heap in segments: {@code first}, the
   * payload's first bytes.
   */
  static ExpandableFilter segmented(
      ByteBuffer first, long length, int segmentShift, Segmenter segmenter) throws IOException {
    ByteBuffer head = first.order(ByteOrder.LITTLE_ENDIAN);
    ExpandableFormCheck.Shape h = ExpandableFormCheck.shape(head, length);
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
  private static void checkPadding(ExpandableFormCheck.Shape h, ExpandableSlots.Words t) {
    long tableBits = ExpandableSlots.tableBits(h.slots(), h.width());
    int usedBits = (int) (tableBits & 63);
    if (usedBits != 0 && (t.word((int) (h.numWords() - 1)) >>> usedBits) != 0) {
      throw new SieveFormatException(
          HEADER_BYTES + (h.numWords() - 1) * Long.BYTES,
          "nonzero bits past the last slot in the final word");
    }
  }

  /** The filter of a table in {@code table}, checked: read in place, or copied onto the heap. */
  private static ExpandableFilter inBlocks(
      ExpandableFormCheck.Shape h, ExpandableSegments table, boolean inPlace) {
    ExpandableSlots.Words t = table.words();
    checkPadding(h, t);
    long[] byKnownBits =
        ExpandableFormCheck.decodeBlocks(t, h.slots(), h.log(), h.width(), h.used());
    return filter(h, inPlace ? null : table.toArray(), inPlace ? table : null, byKnownBits);
  }

  private static ExpandableFilter filter(
      ExpandableFormCheck.Shape h, long[] words, ExpandableSegments wrapped, long[] byKnownBits) {
    return ExpandableOps.of(
        new ExpandableFilter(KeyScheme.XXPH3, h.fpRate(), h.mant(), wrapped, false),
        h.startLog(),
        h.log(),
        h.width(),
        h.bits(),
        words,
        h.used(),
        h.numKeys(),
        byKnownBits);
  }
}
