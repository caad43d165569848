package dev.sieve.orc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sieve.SieveFormatException;
import java.io.ByteArrayOutputStream;
import org.junit.jupiter.api.Test;

/**
 * The timestamp statistics of a row index entry ({@code ColumnStatistics.timestampStatistics}),
 * assembled field by field here: the UTC minimum and maximum with their sub-millisecond nanoseconds
 * (stored plus one), the range test ORC's reader applies, and a hostile nanosecond field refused
 * with its name and limit.
 */
class OrcStatsTest {

  private static void varint(ByteArrayOutputStream out, long v) {
    while ((v & ~0x7FL) != 0) {
      out.write((int) ((v & 0x7F) | 0x80));
      v >>>= 7;
    }
    out.write((int) v);
  }

  private static byte[] stats(
      long minUtc, long maxUtc, long minNanosPlusOne, long maxNanosPlusOne) {
    ByteArrayOutputStream ts = new ByteArrayOutputStream();
    ts.write(3 << 3); // minimumUtc, sint64
    varint(ts, (minUtc << 1) ^ (minUtc >> 63));
    ts.write(4 << 3); // maximumUtc
    varint(ts, (maxUtc << 1) ^ (maxUtc >> 63));
    if (minNanosPlusOne >= 0) {
      ts.write(5 << 3);
      varint(ts, minNanosPlusOne);
    }
    if (maxNanosPlusOne >= 0) {
      ts.write(6 << 3);
      varint(ts, maxNanosPlusOne);
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.write(1 << 3); // numberOfValues
    varint(out, 10);
    out.write((9 << 3) | 2); // timestampStatistics
    varint(out, ts.size());
    out.writeBytes(ts.toByteArray());
    return out.toByteArray();
  }

  private static OrcStats read(byte[] b) {
    return OrcStats.read(new ProtoReader(b, 0, b.length, 0, "ColumnStatistics"));
  }

  @Test
  void timestampRangeWithNanos() {
    long min = -86_400_000L; // 1969-12-31, a negative time
    long max = 1_709_294_400_123L;
    OrcStats s = read(stats(min, max, 500_001, 250_001));
    assertEquals(min, s.timestampMin());
    assertEquals(max, s.timestampMax());
    assertEquals(500_000, s.timestampMinNanos());
    assertEquals(250_000, s.timestampMaxNanos());
    assertTrue(s.mayHoldTimestamp(min, 500_000));
    assertFalse(s.mayHoldTimestamp(min, 499_999));
    assertFalse(s.mayHoldTimestamp(min - 1, 999_999));
    assertTrue(s.mayHoldTimestamp(max, 250_000));
    assertFalse(s.mayHoldTimestamp(max, 250_001));
    assertFalse(s.mayHoldTimestamp(max + 1, 0));
    assertTrue(s.mayHoldTimestamp(0, 0));
    // no nanosecond fields: the whole of the minimum's and maximum's milliseconds
    OrcStats plain = read(stats(min, max, -1, -1));
    assertTrue(plain.mayHoldTimestamp(min, 0));
    assertTrue(plain.mayHoldTimestamp(max, 999_999));
    // no timestamp statistics at all (files before ORC-135): every value may be there
    OrcStats none = read(new byte[] {1 << 3, 10});
    assertTrue(none.mayHoldTimestamp(Long.MIN_VALUE, 0));
  }

  @Test
  void hostileNanosAreNamed() {
    SieveFormatException e =
        assertThrows(SieveFormatException.class, () -> read(stats(0, 1, 0, -1)));
    assertTrue(e.getMessage().contains("minimumNanos 0 outside [1, 1000000]"), e.getMessage());
    e = assertThrows(SieveFormatException.class, () -> read(stats(0, 1, -1, 1_000_001)));
    assertTrue(e.getMessage().contains("maximumNanos 1000001"), e.getMessage());
  }
}
