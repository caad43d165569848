package dev.sieve.orc;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * A row group's column statistics from ORC's row index ({@code ColumnStatistics}): the value count,
 * whether there are nulls, and the minimum and maximum where the writer stored them (integer,
 * double and string statistics), with the range test ORC's reader applies to an equality predicate
 * before it looks at the Bloom filter.
 *
 * @param numberOfValues the non-null values
 * @param hasNull whether the group has nulls
 * @param intMin the integer minimum, or {@code null}
 * @param intMax the integer maximum, or {@code null}
 * @param doubleMin the double minimum, or {@code null}
 * @param doubleMax the double maximum, or {@code null}
 * @param doubleSumIsNaN whether the double sum is NaN (ORC then ignores the range)
 * @param stringMin the string minimum (or its lower bound), or {@code null}
 * @param stringMax the string maximum (or its upper bound), or {@code null}
 * @param timestampMin the timestamp minimum in milliseconds ({@code minimumUtc}: a {@code
 *     timestamp} column's wall-clock time read as UTC, a {@code timestamp with local time zone}
 *     column's instant), or {@code null} (files before ORC-135 store none; ORC then does not skip)
 * @param timestampMax the timestamp maximum, likewise, or {@code null}
 * @param timestampMinNanos the minimum's nanoseconds below the millisecond (0 when not stored)
 * @param timestampMaxNanos the maximum's nanoseconds below the millisecond (999999 when not stored)
 */
public record OrcStats(
    long numberOfValues,
    boolean hasNull,
    Long intMin,
    Long intMax,
    Double doubleMin,
    Double doubleMax,
    boolean doubleSumIsNaN,
    String stringMin,
    String stringMax,
    Long timestampMin,
    Long timestampMax,
    int timestampMinNanos,
    int timestampMaxNanos) {

  /**
   * {@return false if the timestamp {@code millis} plus {@code subMilliNanos} nanoseconds is
   * outside the timestamp range (ORC skips), else true}: ORC compares {@code java.sql.Timestamp}s,
   * the milliseconds first, then the nanoseconds.
   */
  public boolean mayHoldTimestamp(long millis, int subMilliNanos) {
    if (timestampMin == null || timestampMax == null) {
      return true;
    }
    boolean aboveMin =
        millis > timestampMin || (millis == timestampMin && subMilliNanos >= timestampMinNanos);
    boolean belowMax =
        millis < timestampMax || (millis == timestampMax && subMilliNanos <= timestampMaxNanos);
    return aboveMin && belowMax;
  }

  /** {@return false if {@code v} is outside the integer range (ORC skips), else true} */
  public boolean mayHoldLong(long v) {
    return intMin == null || intMax == null || (v >= intMin && v <= intMax);
  }

  /** {@return false if {@code v} is outside the double range (ORC skips), else true} */
  public boolean mayHoldDouble(double v) {
    if (doubleMin == null || doubleMax == null || doubleSumIsNaN || Double.isNaN(v)) {
      return true;
    }
    return v >= doubleMin && v <= doubleMax;
  }

  /** {@return false if {@code v} is outside the string range, by UTF-8 bytes (ORC skips)} */
  public boolean mayHoldString(String v) {
    if (stringMin == null || stringMax == null) {
      return true;
    }
    byte[] b = v.getBytes(StandardCharsets.UTF_8);
    return Arrays.compareUnsigned(b, utf8(stringMin)) >= 0
        && Arrays.compareUnsigned(b, utf8(stringMax)) <= 0;
  }

  private static byte[] utf8(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  static OrcStats read(ProtoReader r) {
    long values = 0;
    boolean hasNull = false;
    Long iMin = null;
    Long iMax = null;
    Double dMin = null;
    Double dMax = null;
    boolean nanSum = false;
    String sMin = null;
    String sMax = null;
    String lower = null;
    String upper = null;
    Long tMin = null;
    Long tMax = null;
    int tMinNanos = 0;
    int tMaxNanos = 999_999;
    while (r.next()) {
      switch (r.field()) {
        case 1 -> values = r.longIn("numberOfValues", 0, Long.MAX_VALUE);
        case 2 -> {
          ProtoReader s = r.message("intStatistics");
          while (s.next()) {
            switch (s.field()) {
              case 1 -> iMin = s.sint64("minimum");
              case 2 -> iMax = s.sint64("maximum");
              default -> s.skip();
            }
          }
        }
        case 3 -> {
          ProtoReader s = r.message("doubleStatistics");
          while (s.next()) {
            switch (s.field()) {
              case 1 -> dMin = Double.longBitsToDouble(s.fixed64("minimum"));
              case 2 -> dMax = Double.longBitsToDouble(s.fixed64("maximum"));
              case 3 -> nanSum = Double.isNaN(Double.longBitsToDouble(s.fixed64("sum")));
              default -> s.skip();
            }
          }
        }
        case 4 -> {
          ProtoReader s = r.message("stringStatistics");
          while (s.next()) {
            switch (s.field()) {
              case 1 -> sMin = s.string("minimum");
              case 2 -> sMax = s.string("maximum");
              case 4 -> lower = s.string("lowerBound");
              case 5 -> upper = s.string("upperBound");
              default -> s.skip();
            }
          }
        }
        case 9 -> {
          ProtoReader s = r.message("timestampStatistics");
          while (s.next()) {
            switch (s.field()) {
              case 3 -> tMin = s.sint64("minimumUtc");
              case 4 -> tMax = s.sint64("maximumUtc");
              // stored plus one, so that 0 means absent
              case 5 -> tMinNanos = s.intIn("minimumNanos", 1, 1_000_000) - 1;
              case 6 -> tMaxNanos = s.intIn("maximumNanos", 1, 1_000_000) - 1;
              default -> s.skip();
            }
          }
        }
        case 10 -> hasNull = r.uint64("hasNull") != 0;
        default -> r.skip();
      }
    }
    return new OrcStats(
        values,
        hasNull,
        iMin,
        iMax,
        dMin,
        dMax,
        nanSum,
        sMin != null ? sMin : lower,
        sMax != null ? sMax : upper,
        tMin,
        tMax,
        tMinNanos,
        tMaxNanos);
  }
}
