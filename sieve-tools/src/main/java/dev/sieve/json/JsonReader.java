package dev.sieve.json;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A small strict JSON reader (RFC 8259) for the files Sieve's tools read back, a report's {@code
 * results.json} above all: objects as {@link LinkedHashMap}s (key order kept; a repeated key keeps
 * its last value), arrays as {@link List}s, numbers as {@link Double}, strings, {@link Boolean}s
 * and {@code null}. Anything outside the grammar is a {@link JsonFormatException} naming the
 * problem and the character where it was found: white space other than space, tab, line feed and
 * carriage return, a number such as {@code +1}, {@code 01}, {@code 1.} or {@code .5}, an unknown
 * escape, a raw control character in a string, a truncated document or text after the value.
 * Nesting is limited to {@link #MAX_DEPTH} arrays and objects, so that a hostile file cannot
 * overflow the stack.
 */
public final class JsonReader {
  /** The deepest nesting of arrays and objects a document may have. */
  public static final int MAX_DEPTH = 200;

  private final String s;
  private int i;
  private int depth;

  private JsonReader(String s) {
    this.s = s;
  }

  /**
   * Parses {@code text}: one JSON value, with white space only around it.
   *
   * @param text the whole document
   * @return a {@code Map<String, Object>}, {@code List<Object>}, {@code String}, {@code Double},
   *     {@code Boolean} or {@code null}
   * @throws JsonFormatException where {@code text} is not one JSON value
   */
  public static Object parse(String text) {
    JsonReader r = new JsonReader(text);
    Object v = r.value();
    r.ws();
    if (r.i != text.length()) {
      throw r.error("text after the JSON value");
    }
    return v;
  }

  private JsonFormatException error(String what) {
    return new JsonFormatException(what, i);
  }

  private void ws() {
    while (i < s.length() && " \t\r\n".indexOf(s.charAt(i)) >= 0) {
      i++;
    }
  }

  private Object value() {
    ws();
    if (i >= s.length()) {
      throw error("unexpected end");
    }
    char c = s.charAt(i);
    switch (c) {
      case '{':
      case '[':
        if (++depth > MAX_DEPTH) {
          throw error("nesting deeper than " + MAX_DEPTH);
        }
        Object v = c == '{' ? object() : array();
        depth--;
        return v;
      case '"':
        return string();
      case 't':
        return literal("true", Boolean.TRUE);
      case 'f':
        return literal("false", Boolean.FALSE);
      case 'n':
        return literal("null", null);
      default:
        if (c == '-' || isDigit(c)) {
          return number();
        }
        throw error("not a JSON value");
    }
  }

  private Map<String, Object> object() {
    Map<String, Object> m = new LinkedHashMap<>();
    i++; // {
    ws();
    if (i < s.length() && s.charAt(i) == '}') {
      i++;
      return m;
    }
    while (true) {
      ws();
      if (i >= s.length() || s.charAt(i) != '"') {
        throw error("expected a key");
      }
      String k = string();
      ws();
      expect(':');
      m.put(k, value());
      ws();
      if (i < s.length() && s.charAt(i) == ',') {
        i++;
        continue;
      }
      expect('}');
      return m;
    }
  }

  private List<Object> array() {
    List<Object> l = new ArrayList<>();
    i++; // [
    ws();
    if (i < s.length() && s.charAt(i) == ']') {
      i++;
      return l;
    }
    while (true) {
      l.add(value());
      ws();
      if (i < s.length() && s.charAt(i) == ',') {
        i++;
        continue;
      }
      expect(']');
      return l;
    }
  }

  private void expect(char c) {
    if (i >= s.length() || s.charAt(i) != c) {
      throw error("expected '" + c + "'");
    }
    i++;
  }

  private Object literal(String word, Object v) {
    if (!s.startsWith(word, i)) {
      throw error("not a JSON value");
    }
    i += word.length();
    return v;
  }

  /** {@code -? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?} */
  private Double number() {
    int start = i;
    if (s.charAt(i) == '-') {
      i++;
    }
    if (i < s.length() && s.charAt(i) == '0') {
      i++;
    } else if (!digits()) {
      throw error("a number without digits");
    }
    if (i < s.length() && s.charAt(i) == '.') {
      i++;
      if (!digits()) {
        throw error("no digit after a decimal point");
      }
    }
    if (i < s.length() && (s.charAt(i) == 'e' || s.charAt(i) == 'E')) {
      i++;
      if (i < s.length() && (s.charAt(i) == '+' || s.charAt(i) == '-')) {
        i++;
      }
      if (!digits()) {
        throw error("no digit in an exponent");
      }
    }
    return Double.valueOf(s.substring(start, i));
  }

  /** Skips a run of digits; {@return whether there was at least one} */
  private boolean digits() {
    int start = i;
    while (i < s.length() && isDigit(s.charAt(i))) {
      i++;
    }
    return i > start;
  }

  private static boolean isDigit(char c) {
    return c >= '0' && c <= '9';
  }

  private String string() {
    StringBuilder b = new StringBuilder();
    i++; // "
    while (true) {
      if (i >= s.length()) {
        throw error("unterminated string");
      }
      char c = s.charAt(i);
      if (c == '"') {
        i++;
        return b.toString();
      }
      if (c < 0x20) {
        throw error("a control character in a string");
      }
      i++;
      if (c != '\\') {
        b.append(c);
        continue;
      }
      if (i >= s.length()) {
        throw error("unterminated escape");
      }
      char e = s.charAt(i++);
      switch (e) {
        case '"', '\\', '/' -> b.append(e);
        case 'n' -> b.append('\n');
        case 't' -> b.append('\t');
        case 'r' -> b.append('\r');
        case 'b' -> b.append('\b');
        case 'f' -> b.append('\f');
        case 'u' -> b.append(unicodeEscape());
        default -> {
          i--;
          throw error("unknown escape '\\" + e + "'");
        }
      }
    }
  }

  /** The four hex digits of a {@code \\u} escape. */
  private char unicodeEscape() {
    if (i + 4 > s.length()) {
      throw error("short \\u escape");
    }
    int v = 0;
    for (int k = 0; k < 4; k++) {
      int d = Character.digit(s.charAt(i + k), 16);
      if (d < 0) {
        throw error("bad \\u escape");
      }
      v = v << 4 | d;
    }
    i += 4;
    return (char) v;
  }
}
