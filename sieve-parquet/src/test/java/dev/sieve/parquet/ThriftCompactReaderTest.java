package dev.sieve.parquet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sieve.SieveFormatException;
import java.io.ByteArrayOutputStream;
import org.junit.jupiter.api.Test;

/**
 * {@link ThriftCompactReader} on crafted input: values of every type are skipped exactly, and
 * malformed input (truncation, overlong varints, lengths and counts past the input, unknown types,
 * deep nesting) is a {@link SieveFormatException} with the offset, before any large allocation.
 */
class ThriftCompactReaderTest {

  private static ThriftCompactReader reader(byte[] b) {
    return new ThriftCompactReader(b, 0, b.length, 1000);
  }

  private static byte[] bytes(int... v) {
    byte[] out = new byte[v.length];
    for (int i = 0; i < v.length; i++) {
      out[i] = (byte) v[i];
    }
    return out;
  }

  /** A struct with one field of every type, then an i32 field 20 the test reads back. */
  @Test
  void skipsEveryTypeExactly() {
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    b.writeBytes(bytes(0x11)); // field 1: bool true
    b.writeBytes(bytes(0x12)); // field 2: bool false
    b.writeBytes(bytes(0x13, 0x7F)); // 3: i8
    b.writeBytes(bytes(0x14, 0xFE, 0x03)); // 4: i16
    b.writeBytes(bytes(0x15, 0x80, 0x80, 0x04)); // 5: i32
    b.writeBytes(bytes(0x16, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01)); // i64
    b.writeBytes(bytes(0x17, 1, 2, 3, 4, 5, 6, 7, 8)); // 7: double
    b.writeBytes(bytes(0x18, 0x03, 'a', 'b', 'c')); // 8: binary
    b.writeBytes(bytes(0x19, 0x35, 0x02, 0x04, 0x06)); // 9: list<i32> of 3
    b.writeBytes(bytes(0x1A, 0x21, 0x01, 0x02)); // 10: set<bool> of 2, one byte each
    b.writeBytes(bytes(0x1B, 0x02, 0x85, 0x01, 'k', 0x02, 0x01, 'l', 0x04)); // 11: map<bin,i32>
    b.writeBytes(bytes(0x1B, 0x00)); // 12: empty map
    b.writeBytes(bytes(0x1C, 0x15, 0x02, 0x00)); // 13: struct {1: i32}
    b.writeBytes(bytes(0x1D)); // 14: uuid
    b.writeBytes(new byte[16]);
    b.writeBytes(bytes(0x19, 0xF5, 0x10)); // 15: list<i32> of 16 with the long size form
    b.writeBytes(new byte[16]);
    b.writeBytes(bytes(0x05, 0x28, 0x54)); // field 20 (id as a zigzag varint), i32 42
    b.writeBytes(bytes(0x00));
    ThriftCompactReader r = reader(b.toByteArray());
    int last = 0;
    int seen = 0;
    for (ThriftCompactReader.Field f = r.readField(last); f != null; f = r.readField(last)) {
      if (f.id() == 20) {
        assertEquals(ThriftCompactReader.I32, f.type());
        assertEquals(42, r.readI32());
      } else {
        r.skip(f.type(), false);
      }
      last = f.id();
      seen++;
    }
    assertEquals(16, seen);
    assertEquals(1000 + b.size(), r.offset());
  }

  @Test
  void zigzagVarints() {
    assertEquals(-1, reader(bytes(0x01)).readI32());
    assertEquals(1, reader(bytes(0x02)).readI32());
    assertEquals(Integer.MIN_VALUE, reader(bytes(0xFF, 0xFF, 0xFF, 0xFF, 0x0F)).readI32());
    assertEquals(
        Long.MIN_VALUE,
        reader(bytes(0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01)).readI64());
  }

  private static SieveFormatException refused(byte[] b) {
    return assertThrows(SieveFormatException.class, () -> reader(b).skipStruct());
  }

  @Test
  void malformedInputIsRefused() {
    // truncated anywhere
    assertTrue(refused(bytes(0x18, 0x05, 'a')).getMessage().contains("exceeds"));
    refused(bytes(0x15));
    refused(bytes(0x15, 0x80));
    refused(bytes());
    // an i32 varint of 6 bytes, an i64 varint of 11
    assertTrue(
        refused(bytes(0x15, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01, 0x00))
            .getMessage()
            .contains("varint"));
    refused(bytes(0x16, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01, 0x00));
    // a 32-bit varint over 32 bits
    refused(bytes(0x15, 0xFF, 0xFF, 0xFF, 0xFF, 0x1F, 0x00));
    // a binary of 2^31 bytes, a list of 2^31 elements: refused before any allocation
    SieveFormatException big = refused(bytes(0x18, 0xFF, 0xFF, 0xFF, 0xFF, 0x07, 0x00));
    assertEquals(1001, big.offset());
    refused(bytes(0x19, 0xF5, 0xFF, 0xFF, 0xFF, 0xFF, 0x07, 0x00));
    refused(bytes(0x19, 0xE7, 0x00)); // 14 doubles in no bytes
    refused(bytes(0x1B, 0xFF, 0xFF, 0xFF, 0xFF, 0x07, 0x55, 0x00)); // a map of 2^31 - 1 entries
    // unknown types: 14 and 15 as a field, 0 as a list element
    assertTrue(refused(bytes(0x1E, 0x00)).getMessage().contains("unknown Thrift compact type 14"));
    refused(bytes(0x1F, 0x00));
    refused(bytes(0x19, 0x10, 0x00, 0x00));
    // a field id outside i16
    refused(bytes(0x05, 0xFE, 0xFF, 0x07, 0x00, 0x00));
  }

  @Test
  void nestingIsBounded() {
    // struct in struct in ... 10,000 deep: refused at the limit, no StackOverflowError
    int depth = 10_000;
    byte[] deep = new byte[depth + depth];
    for (int i = 0; i < depth; i++) {
      deep[i] = 0x1C;
    }
    SieveFormatException e = refused(deep);
    assertTrue(e.getMessage().contains("nesting deeper than 64"), e.getMessage());
    // lists of lists
    byte[] lists = new byte[2 * depth];
    lists[0] = 0x19;
    for (int i = 1; i < lists.length; i++) {
      lists[i] = 0x19; // a list of one list each
    }
    refused(lists);
    // exactly at the limit reads
    byte[] ok = new byte[2 * (ThriftCompactReader.MAX_DEPTH - 1) + 1];
    for (int i = 0; i < ThriftCompactReader.MAX_DEPTH - 1; i++) {
      ok[i] = 0x1C;
    }
    ThriftCompactReader r = reader(ok);
    r.skipStruct();
    assertEquals(1000 + ok.length, r.offset());
  }

  @Test
  void stopByteEndsTheStruct() {
    ThriftCompactReader r = reader(bytes(0x00));
    assertNull(r.readField(0));
  }
}
