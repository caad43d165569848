package dev.sieve.cli;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * Keys one a line, from a key file or standard input: the CLI's one reading of key files.
 *
 * <ul>
 *   <li>A line ends at {@code \n}; a {@code \r} just before it is dropped (CRLF files). A final
 *       {@code \n} ends the last line; it does not start an empty one.
 *   <li>Lines are UTF-8 text, decoded strictly, and the key is the line's UTF-8 bytes (as {@code
 *       query KEY} takes them). A line that is not valid UTF-8 is an error naming the line and the
 *       byte, pointing to {@code --hex}; it is never decoded with replacement characters.
 *   <li>With {@code --hex} a line is hex digits ({@code 6b6579} or {@code 0x6b6579}), the way to
 *       give binary keys; with {@code --long} or {@code --int} a decimal number, the key its eight
 *       or four big-endian bytes ({@link KeyForm}).
 *   <li>An empty line is an error naming the line, unless {@code --allow-empty-key} makes it the
 *       empty key (which RocksDB allows).
 * </ul>
 */
final class KeyLines {
  /** A bad line: {@link #getMessage()} starts with "line N". */
  static final class BadLine extends Exception {
    private static final long serialVersionUID = 1L;

    BadLine(String message) {
      super(message);
    }
  }

  private final InputStream in;
  private final KeyForm form;
  private final boolean allowEmpty;
  private final CharsetDecoder decoder =
      StandardCharsets.UTF_8
          .newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT);
  private final ByteArrayOutputStream line = new ByteArrayOutputStream();
  private int lineNumber;
  private String text;

  KeyLines(InputStream in, boolean hex, boolean allowEmpty) {
    this(in, hex ? KeyForm.HEX : KeyForm.TEXT, allowEmpty);
  }

  KeyLines(InputStream in, KeyForm form, boolean allowEmpty) {
    this.in = new BufferedInputStream(in, 1 << 16);
    this.form = form;
    this.allowEmpty = allowEmpty;
  }

  /** The 1-based number of the line {@link #next()} returned last. */
  int lineNumber() {
    return lineNumber;
  }

  /** The text of the line {@link #next()} returned last, without its line end. */
  String text() {
    return text;
  }

  /**
   * The next key, or {@code null} at the end of the input.
   *
   * @throws BadLine for a line that is not UTF-8, not hex with {@code --hex}, or empty
   */
  byte[] next() throws IOException, BadLine {
    line.reset();
    int b = in.read();
    if (b < 0) {
      return null;
    }
    while (b >= 0 && b != '\n') {
      line.write(b);
      b = in.read();
    }
    lineNumber++;
    byte[] raw = line.toByteArray();
    int length = raw.length;
    if (b == '\n' && length > 0 && raw[length - 1] == '\r') {
      length--;
    }
    text = decode(raw, length);
    // with --hex, --long or --int, blanks are no digits
    boolean empty = form != KeyForm.TEXT ? text.isBlank() : length == 0;
    if (empty && !allowEmpty) {
      throw new BadLine(
          "line "
              + lineNumber
              + " is empty; an empty key needs --allow-empty-key (a final newline makes no"
              + " empty line)");
    }
    if (form == KeyForm.TEXT) {
      return length == raw.length ? raw : java.util.Arrays.copyOf(raw, length);
    }
    if (empty) {
      return new byte[0]; // --allow-empty-key: the empty key
    }
    try {
      return form.decode(text);
    } catch (IllegalArgumentException e) {
      throw new BadLine("line " + lineNumber + ": " + e.getMessage());
    }
  }

  private String decode(byte[] raw, int length) throws BadLine {
    ByteBuffer bytes = ByteBuffer.wrap(raw, 0, length);
    CharBuffer chars = CharBuffer.allocate(length);
    decoder.reset();
    CoderResult r = decoder.decode(bytes, chars, true);
    if (!r.isError()) {
      r = decoder.flush(chars);
    }
    if (r.isError()) {
      int at = bytes.position();
      throw new BadLine(
          String.format(
              Locale.ROOT,
              "line %d is not UTF-8 text (byte %d of the line, 0x%02x); key files are UTF-8 text,"
                  + " one key a line: give binary keys as hex digits with --hex",
              lineNumber,
              at + 1,
              raw[at] & 0xFF));
    }
    return chars.flip().toString();
  }
}
