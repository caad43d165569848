package dev.sieve.cli;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

/** Keys one per line: UTF-8 text, or hex bytes with {@code --hex}. */
final class KeyInput {
  private KeyInput() {}

  /** Decodes one line into key bytes. */
  static byte[] decode(String line, boolean hex, long lineNumber) {
    if (!hex) {
      return line.getBytes(StandardCharsets.UTF_8);
    }
    String trimmed = line.strip();
    try {
      return HexFormat.of().parseHex(trimmed);
    } catch (IllegalArgumentException e) {
      throw new BadInputException(
          "line " + lineNumber + ": not an even number of hex digits: " + abbreviate(trimmed));
    }
  }

  /** Reads every line of {@code reader} as a key (a final empty line is not a key). */
  static List<byte[]> readAll(BufferedReader reader, boolean hex) throws IOException {
    List<byte[]> keys = new ArrayList<>();
    String line;
    long number = 0;
    while ((line = reader.readLine()) != null) {
      number++;
      keys.add(decode(line, hex, number));
    }
    return keys;
  }

  static String abbreviate(String s) {
    return s.length() <= 40 ? s : s.substring(0, 37) + "...";
  }

  /** Input that cannot be read as keys: exit status 1. */
  static final class BadInputException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    BadInputException(String message) {
      super(message);
    }
  }
}
