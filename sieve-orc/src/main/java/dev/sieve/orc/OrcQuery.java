package dev.sieve.orc;

import dev.sieve.interop.OrcBloomFilter;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;

/**
 * How ORC's reader decides whether a row group can hold {@code column = value} (its {@code
 * RecordReaderImpl.evaluatePredicateProto} for an EQUALS leaf): first the row index's minimum and
 * maximum ({@link OrcStats}), then, when the range allows the value, the Bloom filter; the group is
 * skipped when either says no. A value is given as text and read as the column's type: an integer
 * column (dates as epoch days or {@code yyyy-mm-dd}) a long, a float or double column a double, a
 * string, char, varchar or decimal column text (UTF-8), a binary column its UTF-8 bytes (ORC's
 * search arguments have no binary type, so ORC itself never skips by these; Sieve answers what the
 * filter holds).
 *
 * <p>Timestamps: ORC's writer adds to the Bloom filter (the UTF-8 one, since ORC-135) the value's
 * epoch milliseconds ({@code TimestampTreeWriter}: {@code utc}), and ORC's reader tests a {@code
 * java.sql.Timestamp} literal's {@code getTime()} moved by the JVM default zone's offset ({@code
 * RecordReaderImpl.checkInBloomFilter}, {@code SerializationUtils.convertToUtc}); the row index's
 * {@code minimumUtc}/{@code maximumUtc} are compared the same way. So, whatever zone wrote or reads
 * the file, a {@code timestamp} column (no zone) is matched by its wall-clock time read as UTC: a
 * {@code VALUE} is an ISO-8601 local date-time ({@code 2024-03-01T12:30:00.250}, a space allowed
 * for the {@code T}, or a date for its midnight), hashed as {@code
 * LocalDateTime.toEpochSecond(UTC)·1000 + milliseconds}. A {@code timestamp with local time zone}
 * column holds instants, hashed as their epoch milliseconds: a {@code VALUE} is an ISO-8601 instant
 * or offset date-time ({@code 2024-03-01T12:30:00Z}, {@code ...+01:00}); a local date-time is read
 * as UTC. ORC's reader agrees on instants only where it reads with {@code useUTCTimestamp} or in a
 * JVM whose zone is UTC (elsewhere it moves the literal by the zone's offset and skips groups that
 * hold it). One exception to the zone not mattering: a wall-clock time inside a daylight-saving gap
 * of the JVM zone (02:30 on a spring-forward night) does not exist there, and {@code
 * java.sql.Timestamp} moves it an hour on in ORC's writer and reader alike; Sieve takes the time as
 * written. Only milliseconds reach the filter; the range test also compares the nanoseconds below
 * the millisecond. Files before ORC-135 have neither UTC statistics nor a usable filter: every
 * group is read, as ORC reads them.
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
   *     has no Bloom filter Sieve can query (nested types)
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
    } else if (kind == OrcFile.Kind.TIMESTAMP || kind == OrcFile.Kind.TIMESTAMP_INSTANT) {
      long[] t = parseTimestamp(kind, value);
      inRange = stats == null || stats.mayHoldTimestamp(t[0], (int) t[1]);
      bloom = (f == null || !inRange) ? null : f.mayContain(t[0]);
    } else if (kind == OrcFile.Kind.BINARY) {
      inRange = true;
      bloom = f == null ? null : f.mayContain(value.getBytes(StandardCharsets.UTF_8));
    } else {
      throw new IllegalArgumentException(
          "querying a "
              + kind
              + " column is not supported (integer, floating, text, binary, timestamp are)");
    }
    return new Answer(inRange, bloom, inRange && (bloom == null || bloom));
  }

  /**
   * {@code {epoch milliseconds, nanoseconds below the millisecond}} of a timestamp {@code VALUE}:
   * see the class comment.
   */
  static long[] parseTimestamp(OrcFile.Kind kind, String value) {
    String v = value.strip();
    long seconds;
    int nanos;
    try {
      if (kind == OrcFile.Kind.TIMESTAMP_INSTANT && (v.endsWith("Z") || hasOffset(v))) {
        Instant instant = OffsetDateTime.parse(v.replace(' ', 'T')).toInstant();
        seconds = instant.getEpochSecond();
        nanos = instant.getNano();
      } else {
        LocalDateTime ldt =
            v.length() <= 10
                ? LocalDate.parse(v).atStartOfDay()
                : LocalDateTime.parse(v.replace(' ', 'T'));
        Instant wallAsUtc = ldt.toInstant(ZoneOffset.UTC);
        seconds = wallAsUtc.getEpochSecond();
        nanos = wallAsUtc.getNano();
      }
    } catch (DateTimeParseException e) {
      throw new IllegalArgumentException(
          "'"
              + value
              + "' is no timestamp (ISO-8601: 2024-03-01T12:30:00.250"
              + (kind == OrcFile.Kind.TIMESTAMP_INSTANT
                  ? ", with Z or an offset for an instant"
                  : "")
              + ")",
          e);
    }
    // as ORC's writer: seconds·1000 plus the nanoseconds' milliseconds (nanos >= 0, so a floor)
    long millis;
    try {
      millis = Math.addExact(Math.multiplyExact(seconds, 1000L), nanos / 1_000_000);
    } catch (ArithmeticException e) {
      throw new IllegalArgumentException(
          "'" + value + "' is outside the timestamps of 64-bit epoch milliseconds", e);
    }
    return new long[] {millis, nanos % 1_000_000};
  }

  private static boolean hasOffset(String v) {
    int t = Math.max(v.indexOf('T'), v.indexOf(' '));
    return t >= 0 && (v.indexOf('+', t) >= 0 || v.indexOf('-', t) >= 0);
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
