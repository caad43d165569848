package dev.sieve.json;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class JsonReaderTest {

  @Test
  void readsObjectsArraysStringsNumbersAndLiterals() {
    Object v =
        JsonReader.parse(
            " {\"a\": [1, -2.5e3, true, false, null, 0, -0.5, 1E+2, 2e-1],\n"
                + "\t\"b\": \"x\\\"\\u0041\\\\\\/\\n\\t\\r\\b\\f\", \"c\": {}, \"d\": []}\r\n");
    Map<?, ?> m = (Map<?, ?>) v;
    assertTrue(m instanceof LinkedHashMap, "key order kept");
    assertEquals(List.of("a", "b", "c", "d"), List.copyOf(m.keySet()));
    List<?> a = (List<?>) m.get("a");
    assertEquals(List.of(1.0, -2500.0, true, false), a.subList(0, 4));
    assertNull(a.get(4));
    assertEquals(List.of(0.0, -0.5, 100.0, 0.2), a.subList(5, 9));
    assertEquals("x\"A\\/\n\t\r\b\f", m.get("b"));
    assertEquals(Map.of(), m.get("c"));
    assertEquals(List.of(), m.get("d"));
    assertEquals("é", JsonReader.parse("\"\\u00E9\""));
    assertEquals(1.5e-4, JsonReader.parse("1.5E-4"));
  }

  @Test
  void aRepeatedKeyKeepsItsLastValue() {
    assertEquals(Map.of("k", 2.0), JsonReader.parse("{\"k\": 1, \"k\": 2}"));
  }

  @Test
  void everyErrorNamesTheProblemAndTheCharacter() {
    assertError("[1] x", "text after the JSON value", 4);
    assertError("{\"rows\": [{\"n\": 1e6, ", "expected a key", 21);
    assertError("[1, 2", "expected ']'", 5);
    assertError("{\"a\" 1}", "expected ':'", 5);
    assertError("", "unexpected end", 0);
    assertError("\"abc", "unterminated string", 4);
    assertError("\"abc\\", "unterminated escape", 5);
    assertError("\"\\x\"", "unknown escape '\\x'", 2);
    assertError("\"\\u00zz\"", "bad \\u escape", 3);
    assertError("\"\\u00", "short \\u escape", 3);
    assertError("\"a\u0001\"", "a control character in a string", 2);
    assertError("tru", "not a JSON value", 0);
    assertError("nul", "not a JSON value", 0);
    assertError("x", "not a JSON value", 0);
  }

  @Test
  void numbersFollowTheGrammar() {
    for (String bad : List.of("+1", ".5")) {
      assertError(bad, "not a JSON value", 0);
    }
    assertError("-", "a number without digits", 1);
    assertError("-x", "a number without digits", 1);
    assertError("1.", "no digit after a decimal point", 2);
    assertError("1.e3", "no digit after a decimal point", 2);
    assertError("1e", "no digit in an exponent", 2);
    assertError("1e+", "no digit in an exponent", 3);
    // a leading zero ends the number: what follows is text after the value
    assertError("01", "text after the JSON value", 1);
    assertError("[-01]", "expected ']'", 3);
  }

  @Test
  void onlyJsonWhiteSpaceSeparates() {
    assertEquals(List.of(1.0), JsonReader.parse(" \t\r\n[ 1 ]\n"));
    // a no-break space and a form feed are white space to Java, not to JSON
    assertError("[1,\u00a02]", "not a JSON value", 3);
    assertError("\f1", "not a JSON value", 0);
  }

  @Test
  void nestingIsLimited() {
    String ok = "[".repeat(JsonReader.MAX_DEPTH) + "]".repeat(JsonReader.MAX_DEPTH);
    Object v = JsonReader.parse(ok);
    for (int d = 1; d < JsonReader.MAX_DEPTH; d++) {
      v = ((List<?>) v).get(0);
    }
    assertEquals(List.of(), v);
    char[] deep = new char[JsonReader.MAX_DEPTH + 1];
    Arrays.fill(deep, '[');
    assertError(new String(deep), "nesting deeper than 200", JsonReader.MAX_DEPTH);
    assertError("{\"a\":".repeat(100_000), "nesting deeper than 200", 5 * JsonReader.MAX_DEPTH);
  }

  private static void assertError(String text, String problem, int offset) {
    JsonFormatException e =
        assertThrows(JsonFormatException.class, () -> JsonReader.parse(text), text);
    assertEquals(problem, e.problem(), text);
    assertEquals(offset, e.offset(), text);
    assertEquals("JSON: " + problem + " at character " + offset, e.getMessage());
    assertTrue(e instanceof IllegalArgumentException);
  }
}
