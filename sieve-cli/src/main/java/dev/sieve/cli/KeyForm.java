package dev.sieve.cli;

import java.nio.ByteBuffer;
import java.util.regex.Pattern;

/**
 * How a key given on the command line (an argument, a key-file line, a line of standard input)
 * becomes the key's bytes: UTF-8 text (the default), hex digits ({@code --hex}), or a decimal
 * number ({@code --long}: its eight big-endian bytes, {@code --int}: its four), the bytes that
 * {@code Filter.mayContain(long)} and {@code mayContainInt(int)} hash, and the usual encoding of a
 * numeric RocksDB key. Text {@code 42} and {@code --long 42} are different keys: two bytes against
 * eight.
 */
enum KeyForm {
  /** The text's UTF-8 bytes. */
  TEXT,
  /** Hex digits, {@code 6b6579} or {@code 0x6b6579}. */
  HEX,
  /** A decimal {@code long}, as its eight big-endian bytes. */
  LONG,
  /** A decimal {@code int}, as its four big-endian bytes. */
  INT;

  private static final Pattern NUMERIC = Pattern.compile("[+-]?[0-9]{1,19}");

  /**
   * The form the options choose.
   *
   * @throws IllegalArgumentException if more than one is given
   */
  static KeyForm of(boolean hex, boolean asLong, boolean asInt) {
    int n = (hex ? 1 : 0) + (asLong ? 1 : 0) + (asInt ? 1 : 0);
    if (n > 1) {
      throw new IllegalArgumentException("--hex, --long and --int exclude each other; give one");
    }
    return hex ? HEX : asLong ? LONG : asInt ? INT : TEXT;
  }

  /** The option that selects this form ({@code "--long"}), or {@code "text"}. */
  String option() {
    return this == TEXT ? "text" : "--" + name().toLowerCase(java.util.Locale.ROOT);
  }

  /**
   * The key's bytes.
   *
   * @throws IllegalArgumentException naming the key and the form if it is not one
   */
  byte[] decode(String text) {
    switch (this) {
      case HEX:
        return SstCliSupport.decodeKey(text, true);
      case LONG:
        return ByteBuffer.allocate(Long.BYTES).putLong(parseLong(text)).array();
      case INT:
        try {
          return ByteBuffer.allocate(Integer.BYTES).putInt(Integer.parseInt(text.strip())).array();
        } catch (NumberFormatException e) {
          throw new IllegalArgumentException(
              "key '" + text + "' is not a decimal int in [-2^31, 2^31 - 1] (--int)");
        }
      default:
        return SstCliSupport.decodeKey(text, false);
    }
  }

  /**
   * The decimal {@code long} {@code text} holds.
   *
   * @throws IllegalArgumentException naming the key if it is not one
   */
  static long parseLong(String text) {
    try {
      return Long.parseLong(text.strip());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(
          "key '" + text + "' is not a decimal long in [-2^63, 2^63 - 1] (--long)");
    }
  }

  /** Whether a text key looks like a number a filter may hold as a {@code long} or {@code int}. */
  static boolean looksNumeric(String text) {
    if (!NUMERIC.matcher(text).matches()) {
      return false;
    }
    try {
      Long.parseLong(text);
      return true;
    } catch (NumberFormatException e) {
      return false;
    }
  }
}
