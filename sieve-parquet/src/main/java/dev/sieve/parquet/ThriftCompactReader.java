package dev.sieve.parquet;

import dev.sieve.SieveFormatException;

/**
 * A minimal reader of the Thrift compact protocol, the encoding of Parquet's footer ({@code
 * FileMetaData}) and page and Bloom filter headers: just enough to walk a struct field by field,
 * read the scalar fields Sieve needs and skip everything else, of every type.
 *
 * <h2>The encoding (Apache Thrift, doc/specs/thrift-compact-protocol.md)</h2>
 *
 * <ul>
 *   <li>A struct is a sequence of fields ended by a stop byte {@code 0x00}. A field header is one
 *       byte: the high nibble is the field id's delta to the previous field (1..15), the low nibble
 *       the type; a delta of 0 means the id follows as a zigzag varint.
 *   <li>Types: 1 and 2 a boolean (true, false: the value is in the header), 3 i8 (one byte), 4 i16,
 *       5 i32, 6 i64 (zigzag varints), 7 double (8 bytes, little-endian), 8 binary/string (varint
 *       length, then the bytes), 9 list and 10 set (a header byte: size in the high nibble, or 15
 *       and a varint size, element type in the low nibble), 11 map (varint size, then a byte with
 *       the key and value types, absent for an empty map), 12 struct, 13 uuid (16 bytes).
 *   <li>In a list, a boolean element is one byte.
 * </ul>
 *
 * <h2>Hostile input</h2>
 *
 * Every problem is a {@link SieveFormatException} naming the absolute offset (the base given plus
 * the position): a read past the end, a varint longer than its type allows (5 bytes for i32, 10 for
 * i64), a negative length, a length or element count larger than the bytes left (every element
 * takes at least one byte, so a count is checked before any loop or allocation: no {@code
 * OutOfMemoryError} and no endless loop from a length field), an unknown type, and nesting deeper
 * than {@link #MAX_DEPTH} (no stack overflow).
 */
final class ThriftCompactReader {

  /** The deepest nesting of structs, lists, sets and maps accepted (Parquet's own is about 6). */
  static final int MAX_DEPTH = 64;

  static final int STOP = 0;
  static final int BOOL_TRUE = 1;
  static final int BOOL_FALSE = 2;
  static final int I8 = 3;
  static final int I16 = 4;
  static final int I32 = 5;
  static final int I64 = 6;
  static final int DOUBLE = 7;
  static final int BINARY = 8;
  static final int LIST = 9;
  static final int SET = 10;
  static final int MAP = 11;
  static final int STRUCT = 12;
  static final int UUID = 13;

  private final byte[] buf;
  private final int end;
  private final long base;
  private int pos;
  private int depth;

  /**
   * Reads {@code buf[off, off + len)}; offsets in errors are {@code base + (position - off)}, the
   * position of the bytes in the file they came from.
   */
  ThriftCompactReader(byte[] buf, int off, int len, long base) {
    java.util.Objects.checkFromIndexSize(off, len, buf.length);
    this.buf = buf;
    this.pos = off;
    this.end = off + len;
    this.base = base - off;
  }

  /** The absolute offset of the next byte. */
  long offset() {
    return base + pos;
  }

  /** The position in the array of the next byte. */
  int position() {
    return pos;
  }

  SieveFormatException error(String what) {
    return new SieveFormatException(Math.max(0, offset()), what);
  }

  private int remaining() {
    return end - pos;
  }

  int readByte() {
    if (pos >= end) {
      throw error("Thrift data ends early");
    }
    return buf[pos++] & 0xFF;
  }

  private long readVarint(int maxBytes) {
    long result = 0;
    for (int i = 0; i < maxBytes; i++) {
      int b = readByte();
      result |= (long) (b & 0x7F) << (7 * i);
      if ((b & 0x80) == 0) {
        return result;
      }
    }
    throw error("Thrift varint longer than " + maxBytes + " bytes");
  }

  /** An unsigned 32-bit varint (lengths and sizes), as a long. */
  private long readUnsignedVarint32() {
    long v = readVarint(5);
    if (v > 0xFFFFFFFFL) {
      throw error("Thrift varint " + v + " exceeds 32 bits");
    }
    return v;
  }

  int readI32() {
    long v = readUnsignedVarint32();
    return (int) (v >>> 1) ^ -(int) (v & 1);
  }

  long readI64() {
    long v = readVarint(10);
    return (v >>> 1) ^ -(v & 1);
  }

  /** A length or count: at most the bytes left times {@code minBytesEach}'s inverse. */
  private int readCount(String what, int minBytesEach) {
    long at = offset();
    long n = readUnsignedVarint32();
    if (n > Integer.MAX_VALUE || n * minBytesEach > remaining()) {
      throw new SieveFormatException(
          at, "Thrift " + what + " " + n + " exceeds the " + remaining() + " bytes left");
    }
    return (int) n;
  }

  /** A binary or string field: its bytes, length-checked before allocating. */
  byte[] readBinary() {
    int n = readCount("binary length", 1);
    byte[] out = java.util.Arrays.copyOfRange(buf, pos, pos + n);
    pos += n;
    return out;
  }

  String readString() {
    return new String(readBinary(), java.nio.charset.StandardCharsets.UTF_8);
  }

  /** A field header; {@code lastId} is the previous field's id in this struct (0 at the start). */
  record Field(int type, int id) {}

  /** The next field of the current struct, or {@code null} at its stop byte. */
  Field readField(int lastId) {
    int b = readByte();
    int type = b & 0x0F;
    if (type == STOP) {
      if (b != 0) {
        throw error("Thrift stop byte 0x" + Integer.toHexString(b) + " is not 0x00");
      }
      return null;
    }
    int delta = b >>> 4;
    int id;
    if (delta != 0) {
      id = lastId + delta;
    } else {
      id = readI32();
      if (id < Short.MIN_VALUE || id > Short.MAX_VALUE) {
        throw error("Thrift field id " + id + " outside i16");
      }
    }
    checkType(type);
    return new Field(type, id);
  }

  private void checkType(int type) {
    if (type < BOOL_TRUE || type > UUID) {
      throw error("unknown Thrift compact type " + type);
    }
  }

  /** A list or set header: element type and count (count checked against the bytes left). */
  record ListHeader(int elementType, int size) {}

  ListHeader readListHeader() {
    long at = offset();
    int b = readByte();
    int type = b & 0x0F;
    checkType(type);
    int size = b >>> 4;
    if (size == 15) {
      size = readCount("list size", minBytes(type));
    } else if ((long) size * minBytes(type) > remaining()) {
      throw new SieveFormatException(
          at, "Thrift list size " + size + " exceeds the " + remaining() + " bytes left");
    }
    return new ListHeader(type, size);
  }

  /** The fewest bytes one value of {@code type} takes in a list (a struct: its stop byte). */
  private static int minBytes(int type) {
    return switch (type) {
      case DOUBLE -> 8;
      case UUID -> 16;
      default -> 1;
    };
  }

  /** Enters a nested struct, list, set or map; refuses nesting past {@link #MAX_DEPTH}. */
  void enter() {
    if (++depth > MAX_DEPTH) {
      throw error("Thrift nesting deeper than " + MAX_DEPTH);
    }
  }

  void leave() {
    depth--;
  }

  /** Reads a boolean field's value from its header type. */
  static boolean fieldBool(int type) {
    return type == BOOL_TRUE;
  }

  /** Skips one value of {@code type}; {@code inList} for list elements (booleans take a byte). */
  // arms with side effects and recursion; statement form kept
  @SuppressWarnings("StatementSwitchToExpressionSwitch")
  void skip(int type, boolean inList) {
    switch (type) {
      case BOOL_TRUE:
      case BOOL_FALSE:
        if (inList) {
          readByte();
        }
        return;
      case I8:
        readByte();
        return;
      case I16:
      case I32:
        readUnsignedVarint32();
        return;
      case I64:
        readVarint(10);
        return;
      case DOUBLE:
        skipBytes(8);
        return;
      case UUID:
        skipBytes(16);
        return;
      case BINARY:
        skipBytes(readCount("binary length", 1));
        return;
      case LIST:
      case SET:
        {
          enter();
          ListHeader h = readListHeader();
          for (int i = 0; i < h.size(); i++) {
            skip(h.elementType(), true);
          }
          leave();
          return;
        }
      case MAP:
        {
          enter();
          int n = readCount("map size", 2);
          if (n > 0) {
            int kv = readByte();
            int k = kv >>> 4;
            int v = kv & 0x0F;
            checkType(k);
            checkType(v);
            for (int i = 0; i < n; i++) {
              skip(k, true);
              skip(v, true);
            }
          }
          leave();
          return;
        }
      case STRUCT:
        skipStruct();
        return;
      default:
        throw error("unknown Thrift compact type " + type);
    }
  }

  /** Skips a struct's fields up to and including its stop byte. */
  void skipStruct() {
    enter();
    int last = 0;
    for (Field f = readField(last); f != null; f = readField(last)) {
      skip(f.type(), false);
      last = f.id();
    }
    leave();
  }

  private void skipBytes(int n) {
    if (n > remaining()) {
      throw error("Thrift value of " + n + " bytes exceeds the " + remaining() + " bytes left");
    }
    pos += n;
  }

  /** Requires a field's wire type, naming the struct and field otherwise. */
  void expect(Field f, int type, String where) {
    boolean ok = f.type() == type || (type == BOOL_TRUE && f.type() == BOOL_FALSE);
    if (!ok) {
      throw error(where + " (field " + f.id() + ") has Thrift type " + f.type() + ", not " + type);
    }
  }
}
