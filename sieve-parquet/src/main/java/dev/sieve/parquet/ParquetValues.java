package dev.sieve.parquet;

import dev.sieve.hash.ParquetHash;
import java.nio.charset.StandardCharsets;

/**
 * A value written as text, parsed for a column's physical type and hashed as Parquet hashes it
 * ({@link ParquetHash}): the hash a Parquet reader's Bloom filter check computes for an equality
 * predicate on that column.
 *
 * <ul>
 *   <li>INT32, INT64: a decimal integer in the type's range (the stored integer: a DATE is its day
 *       number, a TIMESTAMP its count of units, a DECIMAL its unscaled value);
 *   <li>FLOAT, DOUBLE: a Java floating-point literal ({@code 1.5}, {@code -0.0}, {@code NaN},
 *       {@code Infinity}); a FLOAT is parsed as a float, not rounded from a double;
 *   <li>BYTE_ARRAY: the UTF-8 bytes of the text, or with {@code hex} the bytes written in hex;
 *   <li>FIXED_LEN_BYTE_ARRAY: as BYTE_ARRAY, and the bytes must have the column's length.
 * </ul>
 *
 * BOOLEAN and INT96 columns carry no Bloom filter in Parquet's writers, and are refused.
 */
public final class ParquetValues {
  private ParquetValues() {}

  /**
   * The Parquet hash of {@code text} as a value of {@code column}.
   *
   * @throws IllegalArgumentException naming the value and the column's type if the text is not such
   *     a value
   */
  @SuppressWarnings("StatementSwitchToExpressionSwitch") // arms with try/catch; statement form kept
  public static long hash(ParquetFile.Column column, String text, boolean hex) {
    String what =
        "'" + text + "' is not a value of column " + column.dottedPath() + ", " + typeName(column);
    switch (column.type()) {
      case INT32:
        try {
          return ParquetHash.ofInt(Integer.parseInt(text.trim()));
        } catch (NumberFormatException e) {
          throw new IllegalArgumentException(what + " (a decimal 32-bit integer)");
        }
      case INT64:
        try {
          return ParquetHash.ofLong(Long.parseLong(text.trim()));
        } catch (NumberFormatException e) {
          throw new IllegalArgumentException(what + " (a decimal 64-bit integer)");
        }
      case FLOAT:
        try {
          return ParquetHash.ofFloat(Float.parseFloat(text.trim()));
        } catch (NumberFormatException e) {
          throw new IllegalArgumentException(what + " (a floating-point number)");
        }
      case DOUBLE:
        try {
          return ParquetHash.ofDouble(Double.parseDouble(text.trim()));
        } catch (NumberFormatException e) {
          throw new IllegalArgumentException(what + " (a floating-point number)");
        }
      case BYTE_ARRAY:
        return ParquetHash.ofBinary(bytes(text, hex, what));
      case FIXED_LEN_BYTE_ARRAY:
        {
          byte[] b = bytes(text, hex, what);
          if (column.typeLength() >= 0 && b.length != column.typeLength()) {
            throw new IllegalArgumentException(
                what
                    + " ("
                    + b.length
                    + " bytes, the column holds values of exactly "
                    + column.typeLength()
                    + ")");
          }
          return ParquetHash.ofBinary(b);
        }
      default:
        throw new IllegalArgumentException(
            "column "
                + column.dottedPath()
                + " is "
                + column.type()
                + ", a type Parquet writes no Bloom filter for");
    }
  }

  private static String typeName(ParquetFile.Column c) {
    return c.type()
        + (c.annotation() != null ? " (" + c.annotation() + ")" : "")
        + (c.type() == ParquetFile.PhysicalType.FIXED_LEN_BYTE_ARRAY
            ? "[" + c.typeLength() + "]"
            : "");
  }

  private static byte[] bytes(String text, boolean hex, String what) {
    if (!hex) {
      return text.getBytes(StandardCharsets.UTF_8);
    }
    String s = text.trim();
    if (s.startsWith("0x") || s.startsWith("0X")) {
      s = s.substring(2);
    }
    if (s.length() % 2 != 0) {
      throw new IllegalArgumentException(what + " (hex with an odd number of digits)");
    }
    byte[] out = new byte[s.length() / 2];
    for (int i = 0; i < out.length; i++) {
      int hi = Character.digit(s.charAt(2 * i), 16);
      int lo = Character.digit(s.charAt(2 * i + 1), 16);
      if (hi < 0 || lo < 0) {
        throw new IllegalArgumentException(what + " (a non-hex digit)");
      }
      out[i] = (byte) (hi << 4 | lo);
    }
    return out;
  }
}
