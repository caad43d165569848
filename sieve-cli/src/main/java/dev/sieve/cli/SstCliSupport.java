package dev.sieve.cli;

import dev.sieve.SieveFormatException;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/** What the RocksDB subcommands share: key decoding and the one-line error contract. */
final class SstCliSupport {
  private SstCliSupport() {}

  /** Exit status of a command that found its input file bad (unreadable, corrupt, foreign). */
  static final int BAD_FILE = 1;

  /** A key as the user wrote it: UTF-8 text, or hex digits with {@code --hex}. */
  static byte[] decodeKey(String text, boolean hex) {
    if (!hex) {
      return text.getBytes(StandardCharsets.UTF_8);
    }
    String s = text.trim();
    if (s.startsWith("0x") || s.startsWith("0X")) {
      s = s.substring(2);
    }
    if (s.length() % 2 != 0) {
      throw new IllegalArgumentException("hex key '" + text + "' has an odd number of digits");
    }
    byte[] out = new byte[s.length() / 2];
    for (int i = 0; i < out.length; i++) {
      int hi = Character.digit(s.charAt(2 * i), 16);
      int lo = Character.digit(s.charAt(2 * i + 1), 16);
      if (hi < 0 || lo < 0) {
        throw new IllegalArgumentException("hex key '" + text + "' has a non-hex digit");
      }
      out[i] = (byte) (hi << 4 | lo);
    }
    return out;
  }

  /** Prints the one-line message for a bad file and returns {@link #BAD_FILE}. */
  static int badFile(PrintWriter err, String command, String file, Exception e) {
    String what;
    if (e instanceof SieveFormatException) {
      what = e.getMessage();
    } else if (e instanceof java.nio.file.NoSuchFileException) {
      // name the file that is missing where it is not the one given (a MANIFEST CURRENT names)
      java.nio.file.NoSuchFileException missing = (java.nio.file.NoSuchFileException) e;
      String reason = missing.getReason();
      what =
          reason != null && reason.startsWith("no such directory")
              ? "no such directory: " + missing.getFile()
              : missing.getFile() == null || missing.getFile().equals(file)
                  ? "no such file"
                  : "no such file: "
                      + missing.getFile()
                      + (reason == null ? "" : " (" + reason + ")");
    } else if (e instanceof IOException) {
      what = e.getClass().getSimpleName() + (e.getMessage() == null ? "" : ": " + e.getMessage());
    } else {
      what = String.valueOf(e.getMessage());
    }
    err.println("sieve " + command + ": " + file + ": " + what.replace('\n', ' '));
    err.flush();
    return BAD_FILE;
  }

  /** A JSON string literal. */
  static String jsonString(String s) {
    if (s == null) {
      return "null";
    }
    StringBuilder b = new StringBuilder(s.length() + 2).append('"');
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '"':
          b.append("\\\"");
          break;
        case '\\':
          b.append("\\\\");
          break;
        case '\n':
          b.append("\\n");
          break;
        case '\r':
          b.append("\\r");
          break;
        case '\t':
          b.append("\\t");
          break;
        default:
          if (c < 0x20 || c == 0x2028 || c == 0x2029) {
            b.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
          } else {
            b.append(c);
          }
      }
    }
    return b.append('"').toString();
  }

  /** A JSON number; {@code null} for NaN and infinities, which JSON cannot hold. */
  static String jsonNumber(double d) {
    if (Double.isNaN(d) || Double.isInfinite(d)) {
      return "null";
    }
    if (d == Math.rint(d) && Math.abs(d) < 1e15) {
      return Long.toString((long) d);
    }
    return Double.toString(d);
  }
}
