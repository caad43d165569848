package dev.sieve.sst;

import dev.sieve.hash.XxHash64;
import dev.sieve.hash.Xxh3;
import java.util.zip.CRC32C;

/**
 * The block checksum types of RocksDB's block-based tables (include/rocksdb/table.h {@code
 * ChecksumType}), by the byte the footer stores.
 *
 * <p>Every block is followed by a 5-byte trailer: the compression type byte and a 32-bit
 * little-endian checksum over the block contents <em>and</em> that compression byte (RocksDB
 * table/format.cc {@code ComputeBuiltinChecksumWithLastByte}). From format_version 6 on, a
 * per-file, per-offset "context" value is added to the stored checksum ({@link #contextModifier}),
 * so a block copied to another place or file fails verification.
 */
public enum ChecksumType {
  /** No checksum (byte 0): the trailer's checksum field is not checked. */
  NONE(0, "none"),
  /**
   * CRC32C (Castagnoli) of the bytes, masked as LevelDB does: {@code rotr(crc, 15) + 0xa282ead8},
   * so that a CRC of data containing CRCs stays well-mixed (util/crc32c.h {@code Mask}).
   */
  CRC32C(1, "crc32c"),
  /** xxHash32 with seed 0. */
  XXHASH32(2, "xxhash"),
  /** The lower 32 bits of xxHash64 with seed 0. */
  XXHASH64(3, "xxhash64"),
  /**
   * The lower 32 bits of the final XXH3 64-bit hash of all bytes but the last, xor-ed with {@code
   * lastByte · 0x6b9083d9} (RocksDB's way to add the compression byte without a streaming XXH3).
   * The default since RocksDB 8.
   */
  XXH3(4, "xxh3");

  private static final int MASK_DELTA = 0xa282ead8;
  private static final int LAST_BYTE_PRIME = 0x6b9083d9;

  private final int code;
  private final String label;

  ChecksumType(int code, String label) {
    this.code = code;
    this.label = label;
  }

  /** {@return the byte the footer stores} */
  public int code() {
    return code;
  }

  /** {@return a short lower-case name, as the CLI prints it} */
  public String label() {
    return label;
  }

  /**
   * {@return the type for footer byte {@code code}, or {@code null} if RocksDB defines none}
   *
   * @param code the footer's checksum-type byte
   */
  public static ChecksumType ofCode(int code) {
    for (ChecksumType t : values()) {
      if (t.code == code) {
        return t;
      }
    }
    return null;
  }

  /**
   * The checksum of {@code data[off, off + len)} followed by the single byte {@code lastByte}, as a
   * block trailer stores it (before any context modifier).
   *
   * @param data the bytes
   * @param off where they start
   * @param len how many
   * @param lastByte the byte after them (the block trailer's compression type)
   * @return the checksum
   */
  // block arms with fall-through labels; statement form kept
  @SuppressWarnings("StatementSwitchToExpressionSwitch")
  public int blockChecksum(byte[] data, int off, int len, byte lastByte) {
    switch (this) {
      case NONE:
        return 0;
      case CRC32C:
        {
          CRC32C crc = new CRC32C();
          crc.update(data, off, len);
          crc.update(lastByte);
          return mask((int) crc.getValue());
        }
      case XXHASH32:
      case XXHASH64:
        {
          byte[] joined = new byte[len + 1];
          System.arraycopy(data, off, joined, 0, len);
          joined[len] = lastByte;
          return this == XXHASH32
              ? XxHash32.hash(joined, 0, joined.length, 0)
              : (int) XxHash64.hash(joined, 0, joined.length, 0);
        }
      case XXH3:
        return (int) Xxh3.hash64(data, off, len) ^ ((lastByte & 0xFF) * LAST_BYTE_PRIME);
      default:
        throw new AssertionError(this);
    }
  }

  /**
   * The checksum of all of {@code data[off, off + len)} (RocksDB {@code ComputeBuiltinChecksum}),
   * as the format_version ≥ 6 footer stores it. For XXH3 the last byte is treated as in {@link
   * #blockChecksum}, and an empty input gives 0.
   *
   * @param data the bytes
   * @param off where they start
   * @param len how many
   * @return the checksum
   */
  public int checksum(byte[] data, int off, int len) {
    if (this == XXH3) {
      return len == 0 ? 0 : blockChecksum(data, off, len - 1, data[off + len - 1]);
    }
    return whole(data, off, len);
  }

  private int whole(byte[] data, int off, int len) {
    return switch (this) {
      case CRC32C -> {
        CRC32C crc = new CRC32C();
        crc.update(data, off, len);
        yield mask((int) crc.getValue());
      }
      case XXHASH32 -> XxHash32.hash(data, off, len, 0);
      case XXHASH64 -> (int) XxHash64.hash(data, off, len, 0);
      default -> 0;
    };
  }

  /** LevelDB's CRC mask: {@code rotr(crc, 15) + 0xa282ead8}. */
  static int mask(int crc) {
    return Integer.rotateRight(crc, 15) + MASK_DELTA;
  }

  /**
   * The value format_version ≥ 6 adds to a block's checksum: {@code base ^ (lower32(offset) +
   * upper32(offset))}, or 0 when the file has no base context ({@code base == 0}, older formats)
   * (table/format.h {@code ChecksumModifierForContext}).
   *
   * @param baseContextChecksum the footer's base context checksum
   * @param offset the block's file offset
   * @return the value to add
   */
  public static int contextModifier(int baseContextChecksum, long offset) {
    if (baseContextChecksum == 0) {
      return 0;
    }
    return baseContextChecksum ^ ((int) offset + (int) (offset >>> 32));
  }
}
