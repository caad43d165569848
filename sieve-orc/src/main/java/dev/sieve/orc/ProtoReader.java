package dev.sieve.orc;

import dev.sieve.SieveFormatException;
import java.util.Objects;

/**
 * A minimal reader of the protocol buffers wire format (protobuf.dev, "Encoding"), the encoding of
 * every ORC metadata message: just enough to walk a message field by field, read the scalars Sieve
 * needs and skip the rest.
 *
 * <h2>The encoding</h2>
 *
 * A message is a sequence of fields, each a varint tag {@code (fieldNumber << 3) | wireType}
 * followed by the value: wire type 0 a varint (at most 10 bytes), 1 eight bytes little-endian, 2 a
 * varint length and that many bytes (strings, bytes, nested messages, packed repeated scalars), 5
 * four bytes little-endian. Types 3 and 4 (groups) are deprecated, never used by ORC, and refused.
 *
 * <h2>Hostile input</h2>
 *
 * Every problem is a {@link SieveFormatException} naming the absolute offset and the field: a read
 * past the end, a varint over 10 bytes, a field number of 0 or over 2^29 - 1, an unknown wire type,
 * a length larger than the bytes left (checked before anything is allocated or sliced), and a
 * scalar outside the range its field allows ({@link #uint32}, {@link #intIn}). A nested message is
 * read by a new reader over its bytes, so nothing recurses on the input's say-so.
 */
final class ProtoReader {
  static final int VARINT = 0;
  static final int FIXED64 = 1;
  static final int LENGTH_DELIMITED = 2;
  static final int FIXED32 = 5;

  private final byte[] buf;
  private final int end;
  private final long base;
  private final String message;
  private int pos;
  private int field;
  private int wireType;

  /**
   * Reads {@code buf[off, off + len)}, the message named {@code message} (for errors); offsets in
   * errors are {@code base + (position - off)}.
   */
  ProtoReader(byte[] buf, int off, int len, long base, String message) {
    Objects.checkFromIndexSize(off, len, buf.length);
    this.buf = buf;
    this.pos = off;
    this.end = off + len;
    this.base = base - off;
    this.message = message;
  }

  long offset() {
    return base + pos;
  }

  SieveFormatException error(String what) {
    return new SieveFormatException(Math.max(0, offset()), message + ": " + what);
  }

  /** Reads the next field's tag; false at the end of the message. */
  boolean next() {
    if (pos >= end) {
      return false;
    }
    long tag = varint("field tag");
    if (tag > 0xFFFFFFFFL || (tag >>> 3) == 0 || (tag >>> 3) > (1 << 29) - 1) {
      throw error("field tag " + tag + " names no valid field number (1 to 2^29 - 1)");
    }
    field = (int) (tag >>> 3);
    wireType = (int) (tag & 7);
    if (wireType != VARINT
        && wireType != FIXED64
        && wireType != LENGTH_DELIMITED
        && wireType != FIXED32) {
      throw error(
          "field " + field + " has wire type " + wireType + " (groups and types 6-7 refused)");
    }
    return true;
  }

  int field() {
    return field;
  }

  int wireType() {
    return wireType;
  }

  private int readByte(String what) {
    if (pos >= end) {
      throw error(what + " ends early");
    }
    return buf[pos++] & 0xFF;
  }

  private long varint(String what) {
    long result = 0;
    for (int i = 0; i < 10; i++) {
      int b = readByte(what);
      result |= (long) (b & 0x7F) << (7 * i);
      if ((b & 0x80) == 0) {
        return result;
      }
    }
    throw error(what + ": varint longer than 10 bytes");
  }

  private void expect(int type, String name) {
    if (wireType != type) {
      throw error("field " + field + " (" + name + ") has wire type " + wireType + ", not " + type);
    }
  }

  /** The current field as a varint (uint64, int64 or enum). */
  long uint64(String name) {
    expect(VARINT, name);
    return varint(name);
  }

  /** The current field as a uint32. */
  long uint32(String name) {
    long v = uint64(name);
    if (v < 0 || v > 0xFFFFFFFFL) {
      throw error(name + " " + Long.toUnsignedString(v) + " exceeds 32 bits");
    }
    return v;
  }

  /** The current field as a zigzag sint64. */
  long sint64(String name) {
    long v = uint64(name);
    return (v >>> 1) ^ -(v & 1);
  }

  /** The current field as a varint in [min, max]. */
  long longIn(String name, long min, long max) {
    long v = uint64(name);
    if (v < min || v > max) {
      throw error(name + " " + v + " outside [" + min + ", " + max + "]");
    }
    return v;
  }

  /** The current field as a varint in [min, max], an int. */
  int intIn(String name, int min, int max) {
    return (int) longIn(name, min, max);
  }

  /** The current field as eight little-endian bytes. */
  long fixed64(String name) {
    expect(FIXED64, name);
    if (end - pos < 8) {
      throw error(name + " ends early");
    }
    long v = 0;
    for (int i = 7; i >= 0; i--) {
      v = (v << 8) | (buf[pos + i] & 0xFFL);
    }
    pos += 8;
    return v;
  }

  /** The current length-delimited field's length, checked against the bytes left. */
  private int length(String name) {
    expect(LENGTH_DELIMITED, name);
    long len = varint(name + " length");
    if (len < 0 || len > end - pos) {
      throw error(name + " length " + len + " exceeds the " + (end - pos) + " bytes left");
    }
    return (int) len;
  }

  /** The current field as a nested message's reader; this reader moves past it. */
  ProtoReader message(String name) {
    int len = length(name);
    ProtoReader r = new ProtoReader(buf, pos, len, offset(), name);
    pos += len;
    return r;
  }

  /** The current field's bytes, copied (its length checked first). */
  byte[] bytes(String name) {
    int len = length(name);
    byte[] out = java.util.Arrays.copyOfRange(buf, pos, pos + len);
    pos += len;
    return out;
  }

  /** The current field as UTF-8 text. */
  String string(String name) {
    return new String(bytes(name), java.nio.charset.StandardCharsets.UTF_8);
  }

  /**
   * The current field of a repeated uint32, packed (a length-delimited run of varints) or not (one
   * varint): the values are passed to {@code sink}.
   */
  void repeatedUint32(String name, java.util.function.LongConsumer sink) {
    if (wireType == VARINT) {
      sink.accept(uint32(name));
      return;
    }
    ProtoReader packed = message(name);
    while (packed.pos < packed.end) {
      long v = packed.varint(name);
      if (v > 0xFFFFFFFFL || v < 0) {
        throw packed.error(name + " value exceeds 32 bits");
      }
      sink.accept(v);
    }
  }

  /** The number of bytes left in the message. */
  int remaining() {
    return end - pos;
  }

  /**
   * The current field of a repeated fixed64, packed or not: the packed run's values, or one. A
   * packed run's length must be a multiple of 8.
   */
  long[] repeatedFixed64(String name) {
    if (wireType == FIXED64) {
      return new long[] {fixed64(name)};
    }
    int len = length(name);
    if (len % 8 != 0) {
      throw error(name + " packed length " + len + " is not a multiple of 8");
    }
    long[] out = new long[len / 8];
    for (int i = 0; i < out.length; i++) {
      long v = 0;
      for (int b = 7; b >= 0; b--) {
        v = (v << 8) | (buf[pos + 8 * i + b] & 0xFFL);
      }
      out[i] = v;
    }
    pos += len;
    return out;
  }

  /** Skips the current field's value, whatever its wire type. */
  void skip() {
    switch (wireType) {
      case VARINT -> varint("field " + field);
      case FIXED64 -> advance(8);
      case FIXED32 -> advance(4);
      case LENGTH_DELIMITED -> advance(length("field " + field));
      default -> throw error("field " + field + " wire type " + wireType);
    }
  }

  private void advance(int n) {
    if (end - pos < n) {
      throw error("field " + field + " ends early");
    }
    pos += n;
  }
}
