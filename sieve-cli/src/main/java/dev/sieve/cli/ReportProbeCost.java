package dev.sieve.cli;

import dev.sieve.SieveFormatException;
import dev.sieve.sst.DbFilterReport;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The what-if's per-probe CPU prices read from a {@code ./sieve report} {@code results.json}
 * ({@code inspect DBDIR --cpu-from FILE}): the absent-key single-lookup times ({@code
 * negativeQueryNs}) of the rows {@code sieve-blocked-bloom} and {@code sieve-ribbon}, at n = 10^6
 * if the report has it, else at its largest n, at 10 bits/key if it has that setting.
 */
final class ReportProbeCost {
  /** A results.json larger than this is not a report (the full 10^7 run writes ~1 MB). */
  static final long MAX_BYTES = 64L << 20;

  private ReportProbeCost() {}

  static DbFilterReport.ProbeCost read(Path file) throws IOException {
    long size = Files.size(file);
    if (size > MAX_BYTES) {
      throw new SieveFormatException(
          0, "report of " + size + " bytes is larger than the limit of " + MAX_BYTES);
    }
    Object root = new Parser(Files.readString(file, StandardCharsets.UTF_8)).document();
    if (!(root instanceof Map<?, ?> m) || !(m.get("rows") instanceof List<?> rows)) {
      throw new SieveFormatException(0, "not a sieve report results.json: no \"rows\" array");
    }
    Map<?, ?> bloom = pick(rows, "sieve-blocked-bloom");
    Map<?, ?> ribbon = pick(rows, "sieve-ribbon");
    double b = number(bloom, "negativeQueryNs");
    double r = number(ribbon, "negativeQueryNs");
    String date =
        m.get("meta") instanceof Map<?, ?> meta && meta.get("date") instanceof String d ? d : "?";
    String source =
        String.format(
            Locale.ROOT,
            "%s (report of %s): sieve-blocked-bloom %.1f ns, sieve-ribbon %.1f ns per absent-key"
                + " lookup at n=%d (ratio %.2f)",
            file,
            date,
            b,
            r,
            (long) number(bloom, "n"),
            r / b);
    try {
      return new DbFilterReport.ProbeCost(b, r, source);
    } catch (IllegalArgumentException e) {
      throw new SieveFormatException(0, e.getMessage());
    }
  }

  private static Map<?, ?> pick(List<?> rows, String name) {
    Map<?, ?> best = null;
    for (Object o : rows) {
      if (!(o instanceof Map<?, ?> row) || !name.equals(row.get("name"))) {
        continue;
      }
      if (!(row.get("negativeQueryNs") instanceof Double) || !(row.get("n") instanceof Double)) {
        continue;
      }
      if (best == null || better(row, best)) {
        best = row;
      }
    }
    if (best == null) {
      throw new SieveFormatException(0, "the report has no timed row " + name);
    }
    return best;
  }

  /** n = 10^6 first, then the larger n; at equal n, 10 bits/key. */
  private static boolean better(Map<?, ?> a, Map<?, ?> b) {
    double na = (Double) a.get("n");
    double nb = (Double) b.get("n");
    if ((na == 1e6) != (nb == 1e6)) {
      return na == 1e6;
    }
    if (na != nb) {
      return na > nb;
    }
    return Double.valueOf(10).equals(a.get("bitsPerKeySetting"))
        && !Double.valueOf(10).equals(b.get("bitsPerKeySetting"));
  }

  private static double number(Map<?, ?> row, String key) {
    return (Double) row.get(key);
  }

  /** A small strict JSON reader: objects, arrays, strings, numbers (as Double), literals. */
  static final class Parser {
    private final String s;
    private int i;
    private int depth;

    Parser(String s) {
      this.s = s;
    }

    Object document() {
      Object v = value();
      ws();
      if (i != s.length()) {
        throw error("text after the JSON value");
      }
      return v;
    }

    private SieveFormatException error(String what) {
      return new SieveFormatException(i, "report JSON: " + what + " at character " + i);
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
      if (c == '{' || c == '[') {
        if (++depth > 200) {
          throw error("nesting deeper than 200");
        }
        Object v = c == '{' ? object() : array();
        depth--;
        return v;
      }
      if (c == '"') {
        return string();
      }
      for (String lit : new String[] {"true", "false", "null"}) {
        if (s.startsWith(lit, i)) {
          i += lit.length();
          return lit.equals("null") ? null : Boolean.valueOf(lit);
        }
      }
      int start = i;
      while (i < s.length() && "+-0123456789.eE".indexOf(s.charAt(i)) >= 0) {
        i++;
      }
      try {
        return Double.valueOf(s.substring(start, i));
      } catch (NumberFormatException e) {
        i = start;
        throw error("not a JSON value");
      }
    }

    private Map<String, Object> object() {
      Map<String, Object> m = new LinkedHashMap<>();
      i++;
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
      i++;
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

    private String string() {
      StringBuilder b = new StringBuilder();
      i++;
      while (true) {
        if (i >= s.length()) {
          throw error("unterminated string");
        }
        char c = s.charAt(i++);
        if (c == '"') {
          return b.toString();
        }
        if (c != '\\') {
          b.append(c);
          continue;
        }
        if (i >= s.length()) {
          throw error("unterminated escape");
        }
        char e = s.charAt(i++);
        switch (e) {
          case 'n' -> b.append('\n');
          case 't' -> b.append('\t');
          case 'r' -> b.append('\r');
          case 'b' -> b.append('\b');
          case 'f' -> b.append('\f');
          case 'u' -> {
            if (i + 4 > s.length()) {
              throw error("short \\u escape");
            }
            try {
              b.append((char) Integer.parseInt(s.substring(i, i + 4), 16));
            } catch (NumberFormatException x) {
              throw error("bad \\u escape");
            }
            i += 4;
          }
          default -> b.append(e);
        }
      }
    }
  }
}
