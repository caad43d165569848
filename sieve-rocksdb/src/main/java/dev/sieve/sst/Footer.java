package dev.sieve.sst;

import dev.sieve.SieveFormatException;

/**
 * The fixed-size footer at the end of a block-based SST file (table/format.cc, {@code
 * FooterBuilder} / {@code Footer::DecodeFrom}), 53 bytes for every format version Sieve reads (2 to
 * 7):
 *
 * <pre>
 *  [0]      checksum type (1 byte)
 *  [1..40]  format_version ≤ 5: metaindex handle, index handle (varints), zero padding to 40 bytes
 *           format_version ≥ 6: extended magic 3e 00 7a 00, footer checksum (u32), base context
 *           checksum (u32), metaindex size (u32; the metaindex ends right before the footer,
 *           trailer excluded), 16 unchecked + 8 zero reserved bytes
 *  [41..44] format_version (u32)
 *  [45..52] magic number 0x88e241b785f4cff7 (u64)
 * </pre>
 *
 * From format_version 6 the footer checksums itself: the checksum of the whole 53 bytes with the
 * checksum field zeroed, plus the context modifier of the footer's own offset; the index handle
 * moves into the metaindex (key {@code rocksdb.index}).
 *
 * @param formatVersion 2..7
 * @param checksumType the block checksum of every block in the file
 * @param metaindexHandle where the metaindex block is
 * @param indexHandle where the index block is; {@code null} from format_version 6 (it is in the
 *     metaindex)
 * @param baseContextChecksum the per-file base of the context checksums (0 before version 6)
 * @param footerOffset the file offset of the footer's first byte
 */
public record Footer(
    int formatVersion,
    ChecksumType checksumType,
    BlockHandle metaindexHandle,
    BlockHandle indexHandle,
    int baseContextChecksum,
    long footerOffset) {

  /** The footer length of format versions 1 and later. */
  public static final int ENCODED_LENGTH = 53;

  /** The magic number of block-based tables. */
  public static final long BLOCK_BASED_MAGIC = 0x88e241b785f4cff7L;

  static final long LEGACY_BLOCK_BASED_MAGIC = 0xdb4775248b80fb57L;
  static final long PLAIN_MAGIC = 0x8242229663bf9564L;
  static final long LEGACY_PLAIN_MAGIC = 0x4f3418eb7a8f13b8L;
  static final long CUCKOO_MAGIC = 0x926789d0c5f17873L;

  /** The oldest and newest format versions Sieve reads (RocksDB 11 reads the same range). */
  public static final int MIN_FORMAT_VERSION = 2;

  /** The newest format version Sieve reads. */
  public static final int MAX_FORMAT_VERSION = 7;

  /** The size of the trailer after every block: compression type and checksum. */
  public static final int BLOCK_TRAILER_BYTES = 5;

  private static final byte[] EXTENDED_MAGIC = {0x3e, 0x00, 0x7a, 0x00};

  /**
   * Decodes the footer from the last {@link #ENCODED_LENGTH} bytes of a file of {@code fileSize}
   * bytes, checking magic, version, checksum type and (version ≥ 6) the footer checksum.
   *
   * @param tail the file's last {@link #ENCODED_LENGTH} bytes
   * @param fileSize the file's size
   * @return the footer
   * @throws SieveFormatException naming the problem and the file offset
   */
  public static Footer decode(byte[] tail, long fileSize) {
    if (fileSize < ENCODED_LENGTH || tail.length != ENCODED_LENGTH) {
      throw new SieveFormatException(
          0,
          "file of "
              + fileSize
              + " bytes is too short to be an SST file (the footer alone is "
              + ENCODED_LENGTH
              + " bytes): truncated, or not an SST file");
    }
    long footerOffset = fileSize - ENCODED_LENGTH;
    long magicOffset = fileSize - 8;
    long magic = LittleEndian.u64(tail, 45);
    if (magic != BLOCK_BASED_MAGIC) {
      throw new SieveFormatException(magicOffset, describeForeignMagic(magic));
    }
    long version = LittleEndian.u32(tail, 41);
    if (version < MIN_FORMAT_VERSION || version > MAX_FORMAT_VERSION) {
      throw new SieveFormatException(
          footerOffset + 41,
          "format_version "
              + version
              + " is not supported (block-based tables "
              + MIN_FORMAT_VERSION
              + ".."
              + MAX_FORMAT_VERSION
              + ")");
    }
    int fv = (int) version;
    ChecksumType type = ChecksumType.ofCode(tail[0] & 0xFF);
    if (type == null) {
      throw new SieveFormatException(
          footerOffset, "unknown checksum type " + (tail[0] & 0xFF) + " (RocksDB defines 0..4)");
    }
    if (fv >= 6) {
      for (int i = 0; i < 4; i++) {
        if (tail[1 + i] != EXTENDED_MAGIC[i]) {
          throw new SieveFormatException(
              footerOffset + 1, "bad extended magic in a format_version " + fv + " footer");
        }
      }
      int stored = LittleEndian.i32(tail, 5);
      int base = LittleEndian.i32(tail, 9);
      if (base == 0) {
        throw new SieveFormatException(footerOffset + 9, "base context checksum is 0 (invalid)");
      }
      {
        // RocksDB compares even for checksum type NONE (then the stored value is the modifier)
        byte[] copy = tail.clone();
        LittleEndian.putI32(copy, 5, 0);
        int computed =
            type.checksum(copy, 0, ENCODED_LENGTH)
                + ChecksumType.contextModifier(base, footerOffset);
        if (computed != stored) {
          throw new SieveFormatException(
              footerOffset,
              "footer checksum mismatch ("
                  + type.label()
                  + ": stored 0x"
                  + Integer.toHexString(stored)
                  + ", computed 0x"
                  + Integer.toHexString(computed)
                  + ")");
        }
      }
      long metaSize = LittleEndian.u32(tail, 13);
      if (LittleEndian.u64(tail, 33) != 0) {
        throw new SieveFormatException(
            footerOffset + 33, "reserved footer bytes are not zero (a future RocksDB feature)");
      }
      long metaEnd = footerOffset - BLOCK_TRAILER_BYTES;
      if (metaSize > metaEnd) {
        throw new SieveFormatException(
            footerOffset + 13, "metaindex size " + metaSize + " exceeds the file");
      }
      return new Footer(
          fv, type, new BlockHandle(metaEnd - metaSize, metaSize), null, base, footerOffset);
    }
    if (tail[1] == EXTENDED_MAGIC[0]
        && tail[2] == EXTENDED_MAGIC[1]
        && tail[3] == EXTENDED_MAGIC[2]
        && tail[4] == EXTENDED_MAGIC[3]) {
      // RocksDB chose these bytes so that a version-6+ footer read as an older one fails
      throw new SieveFormatException(
          footerOffset + 41,
          "format_version "
              + fv
              + " footer holds the format_version >= 6 extended magic: corrupt version field");
    }
    ByteCursor c = new ByteCursor(tail, 1, 41, footerOffset);
    BlockHandle meta = c.blockHandle("metaindex handle");
    BlockHandle index = c.blockHandle("index handle");
    return new Footer(fv, type, meta, index, 0, footerOffset);
  }

  /**
   * Whether {@code magic}, a file's last 8 bytes read little-endian, is the magic of one of
   * RocksDB's table formats (block-based, legacy block-based, plain, legacy plain, cuckoo): the
   * file is then some SST, and {@link #decode} says what it is if not one Sieve reads.
   */
  public static boolean isTableMagic(long magic) {
    return magic == BLOCK_BASED_MAGIC
        || magic == LEGACY_BLOCK_BASED_MAGIC
        || magic == PLAIN_MAGIC
        || magic == LEGACY_PLAIN_MAGIC
        || magic == CUCKOO_MAGIC;
  }

  private static String describeForeignMagic(long magic) {
    if (magic == LEGACY_BLOCK_BASED_MAGIC) {
      return "legacy block-based table (format_version 0/1) is no longer supported by RocksDB or"
          + " Sieve";
    }
    if (magic == PLAIN_MAGIC || magic == LEGACY_PLAIN_MAGIC) {
      return "a RocksDB plain table, not a block-based table (plain tables have no filter block)";
    }
    if (magic == CUCKOO_MAGIC) {
      return "a RocksDB cuckoo table, not a block-based table";
    }
    return "no SST footer at the end of the file: the file is truncated (its footer cut off), or"
        + " is not a RocksDB block-based SST file (its last 8 bytes are 0x"
        + Long.toHexString(magic)
        + ", not the table magic 0x"
        + Long.toHexString(BLOCK_BASED_MAGIC)
        + ")";
  }
}
