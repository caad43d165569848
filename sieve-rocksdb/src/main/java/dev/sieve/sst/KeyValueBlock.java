package dev.sieve.sst;

import dev.sieve.SieveFormatException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Decodes the key/value block format shared by RocksDB's data, index and meta blocks
 * (table/block_based/block_builder.cc, block.cc, data_block_footer.h).
 *
 * <pre>
 *  entry*          shared (varint32), non_shared (varint32), [value_length (varint32)],
 *                  key bytes [shared..] (non_shared bytes), value bytes
 *  restarts        num_restarts × u32 offsets of entries whose key is stored whole
 *  footer          u32: bits 0..27 num_restarts, 31 data-block hash index, 30 reserved,
 *                  29 "uniform keys" hint, 28 separated key/value sections
 * </pre>
 *
 * Index blocks of format_version ≥ 4 drop {@code value_length} and store BlockHandles as values
 * with delta encoding: an entry whose key shares bytes with the previous one stores only the
 * zig-zag varint of {@code size - previousSize}; its offset is {@code previousOffset + previousSize
 * + 5} (the blocks are consecutive). Entries with {@code shared == 0} (every restart point) store
 * the full handle.
 */
final class KeyValueBlock {
  private KeyValueBlock() {}

  private static final int HASH_INDEX_BIT = 1 << 31;
  private static final int RESERVED_BIT = 1 << 30;
  private static final int SEPARATED_KV_BIT = 1 << 28;
  private static final int NUM_RESTARTS_MASK = (1 << 28) - 1;

  /**
   * One decoded entry; {@code handle} is set for index blocks, {@code valueOff/valueLen} for
   * others.
   */
  @SuppressWarnings("ArrayRecordComponent") // key bytes held as read, no copy
  record Entry(byte[] key, int valueOff, int valueLen, BlockHandle handle) {}

  /**
   * Decodes all entries of {@code block} (its contents, trailer excluded), which starts at file
   * offset {@code fileOffset}.
   *
   * @param handleValues values are BlockHandles (index format); with {@code valueDeltaEncoded} they
   *     follow the format_version ≥ 4 delta scheme
   */
  static List<Entry> decode(
      byte[] block, long fileOffset, String what, boolean handleValues, boolean valueDeltaEncoded) {
    if (block.length < 4) {
      throw new SieveFormatException(
          fileOffset, what + ": block of " + block.length + " bytes has no restart footer");
    }
    int packed = LittleEndian.i32(block, block.length - 4);
    long footerAt = fileOffset + block.length - 4;
    if ((packed & RESERVED_BIT) != 0) {
      throw new SieveFormatException(footerAt, what + ": reserved block footer bit 30 is set");
    }
    if ((packed & HASH_INDEX_BIT) != 0) {
      throw new SieveFormatException(
          footerAt, what + ": has a data-block hash index, which only data blocks use");
    }
    if ((packed & SEPARATED_KV_BIT) != 0) {
      throw new SieveFormatException(
          footerAt, what + ": separated key/value storage, which only data blocks use");
    }
    long numRestarts = packed & NUM_RESTARTS_MASK;
    long restartsAt = block.length - 4 - 4 * numRestarts;
    if (numRestarts == 0 && block.length > 4) {
      throw new SieveFormatException(footerAt, what + ": non-empty block with zero restarts");
    }
    if (restartsAt < 0) {
      throw new SieveFormatException(
          footerAt,
          what + ": " + numRestarts + " restart points do not fit in " + block.length + " bytes");
    }
    int end = (int) restartsAt;
    for (int r = 0; r < numRestarts; r++) {
      long off = LittleEndian.u32(block, end + 4 * r);
      if (off >= end) {
        throw new SieveFormatException(
            fileOffset + end + 4L * r, what + ": restart offset " + off + " past the entries");
      }
    }
    ByteCursor c = new ByteCursor(block, 0, end, fileOffset);
    List<Entry> entries = new ArrayList<>();
    byte[] prevKey = new byte[0];
    BlockHandle prevHandle = null;
    while (c.remaining() > 0) {
      long entryAt = c.fileOffset();
      long shared = c.varint32(what + " shared key length");
      long nonShared = c.varint32(what + " key length");
      long valueLen = valueDeltaEncoded ? -1 : c.varint32(what + " value length");
      if (shared > prevKey.length) {
        throw new SieveFormatException(
            entryAt,
            what
                + ": entry shares "
                + shared
                + " key bytes, the previous key has "
                + prevKey.length);
      }
      int keyAt = c.take(nonShared, what + " key");
      byte[] key = Arrays.copyOf(prevKey, (int) (shared + nonShared));
      System.arraycopy(block, keyAt, key, (int) shared, (int) nonShared);
      Entry e;
      if (!valueDeltaEncoded) {
        int valAt = c.take(valueLen, what + " value");
        BlockHandle h = null;
        if (handleValues) {
          ByteCursor v = new ByteCursor(block, valAt, valAt + (int) valueLen, fileOffset);
          h = v.blockHandle(what + " block handle");
        }
        e = new Entry(key, valAt, (int) valueLen, h);
      } else {
        int valAt = c.position();
        BlockHandle h;
        if (shared == 0 || prevHandle == null) {
          if (shared != 0) {
            throw new SieveFormatException(
                entryAt, what + ": first entry is delta-encoded against nothing");
          }
          h = c.blockHandle(what + " block handle");
        } else {
          long delta = c.varsigned64(what + " block size delta");
          h =
              new BlockHandle(
                  prevHandle.offset() + prevHandle.size() + Footer.BLOCK_TRAILER_BYTES,
                  prevHandle.size() + delta);
          if (h.size() < 0) {
            throw new SieveFormatException(entryAt, what + ": negative block size after delta");
          }
        }
        prevHandle = h;
        e = new Entry(key, valAt, c.position() - valAt, h);
      }
      entries.add(e);
      prevKey = key;
    }
    return entries;
  }
}
