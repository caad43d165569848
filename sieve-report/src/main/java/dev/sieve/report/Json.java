package dev.sieve.report;

import java.util.Collection;
import java.util.Map;

/**
 * A minimal JSON writer for records (as objects of their components), maps, lists, strings, numbers
 * and booleans (NaN and ±∞ as null).
 */
public final class Json {
  private Json() {}

  /** The JSON text of {@code value}, indented by two spaces per level. */
  public static String write(Object value) {
    StringBuilder sb = new StringBuilder();
    write(sb, value, 0);
    return sb.append('\n').toString();
  }

  private static void write(StringBuilder sb, Object v, int depth) {
    if (v == null) {
      sb.append("null");
    } else if (v instanceof String s) {
      string(sb, s);
    } else if (v instanceof Double d) {
      number(sb, d);
    } else if (v instanceof Float f) {
      number(sb, f.doubleValue());
    } else if (v instanceof Number || v instanceof Boolean) {
      sb.append(v);
    } else if (v instanceof Record r) {
      Map<String, Object> fields = new java.util.LinkedHashMap<>();
      for (java.lang.reflect.RecordComponent c : r.getClass().getRecordComponents()) {
        try {
          java.lang.reflect.Method accessor = c.getAccessor();
          accessor.setAccessible(true);
          fields.put(c.getName(), accessor.invoke(r));
        } catch (ReflectiveOperationException e) {
          throw new IllegalStateException("cannot read " + c.getName() + " of " + r, e);
        }
      }
      write(sb, fields, depth);
    } else if (v instanceof Enum<?> e) {
      string(sb, e.name().toLowerCase(java.util.Locale.ROOT));
    } else if (v instanceof Map<?, ?> map) {
      sb.append('{');
      boolean first = true;
      for (Map.Entry<?, ?> e : map.entrySet()) {
        sb.append(first ? "\n" : ",\n");
        first = false;
        indent(sb, depth + 1);
        string(sb, String.valueOf(e.getKey()));
        sb.append(": ");
        write(sb, e.getValue(), depth + 1);
      }
      if (!first) {
        sb.append('\n');
        indent(sb, depth);
      }
      sb.append('}');
    } else if (v instanceof Collection<?> list) {
      sb.append('[');
      boolean first = true;
      for (Object o : list) {
        sb.append(first ? "\n" : ",\n");
        first = false;
        indent(sb, depth + 1);
        write(sb, o, depth + 1);
      }
      if (!first) {
        sb.append('\n');
        indent(sb, depth);
      }
      sb.append(']');
    } else if (v instanceof double[] arr) {
      sb.append('[');
      for (int i = 0; i < arr.length; i++) {
        if (i > 0) {
          sb.append(", ");
        }
        number(sb, arr[i]);
      }
      sb.append(']');
    } else {
      string(sb, v.toString());
    }
  }

  private static void number(StringBuilder sb, double d) {
    if (Double.isNaN(d) || Double.isInfinite(d)) {
      sb.append("null");
    } else if (d == Math.rint(d) && Math.abs(d) < 1e15) {
      sb.append((long) d);
    } else {
      sb.append(d);
    }
  }

  private static void indent(StringBuilder sb, int depth) {
    sb.append("  ".repeat(depth));
  }

  private static void string(StringBuilder sb, String s) {
    sb.append('"');
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '"' -> sb.append("\\\"");
        case '\\' -> sb.append("\\\\");
        case '\n' -> sb.append("\\n");
        case '\r' -> sb.append("\\r");
        case '\t' -> sb.append("\\t");
        default -> {
          if (c < 0x20) {
            sb.append(String.format("\\u%04x", (int) c));
          } else {
            sb.append(c);
          }
        }
      }
    }
    sb.append('"');
  }
}
