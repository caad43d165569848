package dev.sieve.format;

import static dev.sieve.format.SieveFormat.CHECKSUM_BYTES;
import static dev.sieve.format.SieveFormat.FLAGS_OFFSET;
import static dev.sieve.format.SieveFormat.HEADER_BYTES;
import static dev.sieve.format.SieveFormat.HEADER_CRC_OFFSET;
import static dev.sieve.format.SieveFormat.KEYS_OFFSET;
import static dev.sieve.format.SieveFormat.KNOWN_FLAGS;
import static dev.sieve.format.SieveFormat.MAGIC;
import static dev.sieve.format.SieveFormat.PARAM_A_OFFSET;
import static dev.sieve.format.SieveFormat.PARAM_B_OFFSET;
import static dev.sieve.format.SieveFormat.PAYLOAD_LENGTH_OFFSET;
import static dev.sieve.format.SieveFormat.RESERVED_OFFSET;
import static dev.sieve.format.SieveFormat.SIZE_OFFSET;
import static dev.sieve.format.SieveFormat.TYPE_OFFSET;
import static dev.sieve.format.SieveFormat.VERSION;
import static dev.sieve.format.SieveFormat.VERSION_OFFSET;

import dev.sieve.KeyFilter;
import dev.sieve.SieveFormatException;
import dev.sieve.registry.FilterType;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * The validated header of a Sieve container ({@code docs/format.md}). The record owns the header's
 * 64 bytes: it parses and validates them ({@link SieveFormat#readHeader}) and writes them, at the
 * offsets {@link SieveFormat}'s layout table gives.
 *
 * @param version the format version (1)
 * @param type the filter type
 * @param numKeys the key count the filter was written with
 * @param payloadLength the payload's length in bytes
 * @param parameterA the type's first parameter (probes or fingerprint bits)
 * @param parameterB the type's second parameter (arity, slots per bucket, or 0)
 * @param sizeInBits the filter's {@link dev.sieve.KeyFilter#sizeInBits()}
 * @param flags the flags ({@link SieveFormat#FLAG_MIX64_LONG_KEYS}, {@link
 *     SieveFormat#FLAG_IDENTITY_LONG_KEYS})
 */
public record ContainerHeader(
    int version,
    FilterType type,
    long numKeys,
    long payloadLength,
    int parameterA,
    int parameterB,
    long sizeInBits,
    int flags) {

  /**
   * The container's total length: header, payload and the payload checksum.
   *
   * @return the length in bytes
   */
  public long totalLength() {
    return HEADER_BYTES + payloadLength + CHECKSUM_BYTES;
  }

  /** The header a container of {@code f} (of {@code type}) is written with. */
  static ContainerHeader of(FilterType type, KeyFilter f, int flags, long payloadLength) {
    long numKeys = f.numKeys();
    int a = TypeForms.of(type).parameterA(f);
    int b = TypeForms.of(type).parameterB(f);
    return new ContainerHeader(VERSION, type, numKeys, payloadLength, a, b, f.sizeInBits(), flags);
  }

  /** Writes the 64 header bytes, checksum included, at absolute indexes from {@code at}'s 0. */
  void write(ByteBuffer at) {
    ByteBuffer h = at.duplicate().order(ByteOrder.LITTLE_ENDIAN);
    h.putLong(0, MAGIC);
    h.putShort(VERSION_OFFSET, (short) version);
    h.putShort(TYPE_OFFSET, (short) type.id());
    h.putInt(FLAGS_OFFSET, flags);
    h.putLong(KEYS_OFFSET, numKeys);
    h.putLong(PAYLOAD_LENGTH_OFFSET, payloadLength);
    h.putInt(PARAM_A_OFFSET, parameterA);
    h.putInt(PARAM_B_OFFSET, parameterB);
    h.putLong(SIZE_OFFSET, sizeInBits);
    for (int i = RESERVED_OFFSET; i < HEADER_CRC_OFFSET; i++) {
      h.put(i, (byte) 0);
    }
    h.putInt(HEADER_CRC_OFFSET, Crc32c.of(h.duplicate().position(0).limit(HEADER_CRC_OFFSET)));
  }

  /**
   * Reads and validates the header at the start of {@code buffer} (absolute indexes from its
   * position); {@code available} is the total number of bytes the input holds.
   */
  static ContainerHeader read(ByteBuffer buffer, long available) {
    ByteBuffer in = buffer.slice().order(ByteOrder.LITTLE_ENDIAN);
    int have = in.remaining();
    if (have < 8 || in.getLong(0) != MAGIC) {
      int magicBytes = Math.min(have, 8);
      for (int i = 0; i < magicBytes; i++) {
        if (in.get(i) != (byte) (MAGIC >>> (8 * i))) {
          throw new SieveFormatException(i, "not a Sieve container: wrong magic byte " + i);
        }
      }
      throw new SieveFormatException(
          have, "truncated: " + have + " bytes, the header needs " + HEADER_BYTES);
    }
    if (have < HEADER_BYTES) {
      throw new SieveFormatException(
          have, "truncated: " + have + " bytes, the header needs " + HEADER_BYTES);
    }
    int version = in.getShort(VERSION_OFFSET) & 0xFFFF;
    if (version != VERSION) {
      throw new SieveFormatException(
          VERSION_OFFSET,
          "format version " + version + " is not supported (this reader reads " + VERSION + ")");
    }
    int headerCrc = Crc32c.of(in.duplicate().position(0).limit(HEADER_CRC_OFFSET));
    Crc32c.check(HEADER_CRC_OFFSET, headerCrc, in.getInt(HEADER_CRC_OFFSET));
    int typeId = in.getShort(TYPE_OFFSET) & 0xFFFF;
    FilterType type = FilterType.forId(typeId);
    if (type == null) {
      throw new SieveFormatException(
          TYPE_OFFSET, "unknown filter type id " + typeId + " (known: " + knownTypes() + ")");
    }
    int flags = in.getInt(FLAGS_OFFSET);
    if ((flags & ~KNOWN_FLAGS) != 0) {
      throw new SieveFormatException(
          FLAGS_OFFSET,
          "unknown flags 0x"
              + Integer.toHexString(flags & ~KNOWN_FLAGS)
              + " set; version 1 defines 0x1 (long keys hashed by mix64), 0x2 (long keys as"
              + " their own hashes), 0x4 (keys hashed as Parquet does), 0x100 (keys hashed as ORC"
              + " does), 0x200 (keys hashed by the FAST scheme: numbers mixed, bytes by XXPH3)"
              + " and 0x10000 (keys added as longs, XXPH3)");
    }
    if ((flags & SieveFormat.FLAG_LONG_KEYS) != 0 && (flags & SieveFormat.SCHEME_FLAGS) != 0) {
      throw new SieveFormatException(
          FLAGS_OFFSET,
          "flags 0x"
              + Integer.toHexString(flags)
              + ": the long-keys flag 0x10000 goes with the XXPH3 key scheme (no scheme flag) only");
    }
    if (Integer.bitCount(flags & SieveFormat.SCHEME_FLAGS) > 1) {
      throw new SieveFormatException(
          FLAGS_OFFSET,
          "flags 0x"
              + Integer.toHexString(flags)
              + ": more than one key-scheme flag set, a filter has one key scheme");
    }
    for (int i = RESERVED_OFFSET; i < HEADER_CRC_OFFSET; i++) {
      if (in.get(i) != 0) {
        throw new SieveFormatException(i, "reserved header byte is not zero");
      }
    }
    long numKeys = in.getLong(KEYS_OFFSET);
    if (numKeys < 0) {
      throw new SieveFormatException(KEYS_OFFSET, "negative key count " + numKeys);
    }
    long payloadLength = in.getLong(PAYLOAD_LENGTH_OFFSET);
    long room = available - HEADER_BYTES - CHECKSUM_BYTES;
    if (payloadLength < 0 || payloadLength > room) {
      throw new SieveFormatException(
          PAYLOAD_LENGTH_OFFSET,
          "payload length "
              + payloadLength
              + " does not fit the input of "
              + available
              + " bytes (at most "
              + Math.max(0, room)
              + ")");
    }
    long sizeInBits = in.getLong(SIZE_OFFSET);
    if (sizeInBits < 0 || (sizeInBits >>> 3) > payloadLength) {
      throw new SieveFormatException(
          SIZE_OFFSET,
          "filter size " + sizeInBits + " bits exceeds the payload's " + payloadLength + " bytes");
    }
    if (sizeInBits == 0 && numKeys != 0) {
      // a filter of no bits answers "absent" for everything: it cannot hold a key
      throw new SieveFormatException(
          KEYS_OFFSET, "key count " + numKeys + " for an empty filter (0 bits), which holds none");
    }
    return new ContainerHeader(
        version,
        type,
        numKeys,
        payloadLength,
        in.getInt(PARAM_A_OFFSET),
        in.getInt(PARAM_B_OFFSET),
        sizeInBits,
        flags);
  }

  private static String knownTypes() {
    StringBuilder s = new StringBuilder();
    for (FilterType t : FilterType.values()) {
      s.append(s.length() == 0 ? "" : ", ").append(t.id()).append('=').append(t);
    }
    return s.toString();
  }

  /** Checks that the input of {@code size} bytes is exactly this container, nothing trailing. */
  void checkTotal(long size) {
    long total = totalLength();
    if (size != total) {
      throw new SieveFormatException(
          total, "the container is " + total + " bytes but the input has " + size + " (trailing)");
    }
  }
}
