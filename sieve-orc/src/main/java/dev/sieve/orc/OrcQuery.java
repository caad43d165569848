package dev.sieve.orc;

import dev.sieve.interop.OrcBloomFilter;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.time.format.DateTimeParseException;

/**
 * How ORC's reader decides whether a row group can hold {@code column = value} (its {@code
 * RecordReaderImpl.evaluatePredicateProto} for an EQUALS leaf): first the row index's minimum and
 * maximum ({@link OrcStats}), then, when the range allows the value, the Bloom filter; the group is
 * skipped when either says no. A value is given as text and read as the column's type: an integer
 * column (dates as epoch days or {@code yyyy-mm-dd}) a long, a float or double column a double, a
 * string, char, varchar or decimal column text (UTF-8), a binary column its UTF-8 bytes (ORC's
 * search arguments have no binary type, so ORC itself never skips by these; Sieve answers what the
 * filter holds). Timestamps are refused (their hash depends on ORC's time zone settings).
 */
public final class OrcQuery {
  private OrcQuery() {}

  /**
   * The answer for one row group.
   *
   * @param inRange whether the statistics' range allows the value (true when there are none)
   * @param bloom the Bloom filter's answer, or {@code null} when the group has none ORC uses or the
   *     range already excluded the value (ORC then does not consult the filter)
   * @param mayMatch whether ORC reads the group
   */
  public record Answer(boolean inRange, Boolean bloom, boolean mayMatch) {}

  /** {@return whether ORC reads the group for {@code column = value}} */
  public static boolean mayMatch(OrcFile.RowGroup group, String value) {
    return answer(group, value).mayMatch();
  }

  /**
   * The answer for {@code column = value} in {@code group}.
   *
   * @throws IllegalArgumentException if the value does not parse as the column's type, or the type
   *     has no Bloom filter Sieve can query (timestamps, nested types)
   */
  public static Answer answer(OrcFile.RowGroup group, String value) {
    OrcFile.Kind kind = group.column().kind();
    OrcStats stats = group.stats();
    OrcBloomFilter f = group.filter();
    boolean inRange;
    Boolean bloom;
    if (kind.isInteger()) {
      long v = parseLong(kind, value);
      inRange = stats == null || stats.mayHoldLong(v);
      bloom = (f == null || !inRange) ? null : f.mayContain(v);
    } else if (kind.isFloating()) {
      double v;
      try {
        v = Double.parseDouble(value);
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException("'" + value + "' is not a number", e);
      }
      inRange = stats == null || stats.mayHoldDouble(v);
      bloom = (f == null || !inRange) ? null : f.mayContainDouble(v);
    } else if (kind.isText()) {
      inRange = stats == null || kind == OrcFile.Kind.DECIMAL || stats.mayHoldString(value);
      bloom = (f == null || !inRange) ? null : f.mayContain(value);
    } else if (kind == OrcFile.Kind.BINARY) {
      inRange = true;
      bloom = f == null ? null : f.mayContain(value.getBytes(StandardCharsets.UTF_8));
    } else {
      throw new IllegalArgumentException(
          "querying a " + kind + " column is not supported (integer, floating, text, binary are)");
    }
    return new Answer(inRange, bloom, inRange && (bloom == null || bloom));
  }

  private static long parseLong(OrcFile.Kind kind, String value) {
    if (kind == OrcFile.Kind.BOOLEAN) {
      if (value.equalsIgnoreCase("true")) {
        return 1;
      }
      if (value.equalsIgnoreCase("false")) {
        return 0;
      }
    }
    try {
      return Long.parseLong(value);
    } catch (NumberFormatException e) {
      if (kind == OrcFile.Kind.DATE) {
        try {
          return LocalDate.parse(value).toEpochDay();
        } catch (DateTimeParseException d) {
          throw new IllegalArgumentException("'" + value + "' is no date (yyyy-mm-dd)", d);
        }
      }
      throw new IllegalArgumentException("'" + value + "' is not an integer", e);
    }
  }
}
