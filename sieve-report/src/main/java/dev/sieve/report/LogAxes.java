package dev.sieve.report;

import java.text.FieldPosition;
import java.text.NumberFormat;
import java.text.ParsePosition;
import java.util.Locale;
import org.jfree.chart.axis.LogAxis;
import org.jfree.chart.axis.NumberTickUnit;

/**
 * The logarithmic axes of the report's plots ({@link Charts}, {@link RangeCharts}) and their tick
 * labels, in one place: an axis is its label, its base, how many powers of the base lie between
 * ticks (or JFreeChart's own choice) and one of the three labellings below.
 */
final class LogAxes {
  private LogAxes() {}

  /** How the ticks read. */
  enum Ticks {
    /** 1, 10, 10^k at the powers of ten; between them the number (0.5, 2.5, 300). */
    POWER_OF_TEN,
    /** 1, 2, 4, 8, 16, then 2^k at the powers of two; between them three digits. */
    POWER_OF_TWO,
    /** Plain numbers: 128, 256, 0.5. */
    PLAIN;

    /** {@return the label of tick value {@code v}} */
    String label(double v) {
      return switch (this) {
        case POWER_OF_TEN -> powerOf(10, v, e -> e == 1 ? "10" : "10^" + e, LogAxes::number);
        case POWER_OF_TWO ->
            powerOf(
                2,
                v,
                e -> e <= 4 ? Long.toString(1L << e) : "2^" + e,
                x -> String.format(Locale.ROOT, "%.3g", x));
        case PLAIN -> fixed(v, "%.0f");
      };
    }

    /** {@return the labels as the {@link NumberFormat} JFreeChart takes} */
    NumberFormat format() {
      return new TickFormat(this);
    }
  }

  /**
   * A log axis.
   *
   * @param label the axis title
   * @param base the logarithm's base (10 or 2)
   * @param powersPerTick powers of {@code base} from one tick to the next; 0 leaves the ticks to
   *     JFreeChart
   * @param ticks how the ticks read
   */
  static LogAxis of(String label, double base, double powersPerTick, Ticks ticks) {
    LogAxis axis = new LogAxis(label);
    axis.setBase(base);
    if (powersPerTick > 0) {
      axis.setTickUnit(new NumberTickUnit(powersPerTick));
    }
    axis.setNumberFormatOverride(ticks.format());
    return axis;
  }

  /**
   * {@code base^e} as {@code power(e)} ("1" for {@code e = 0}), any other value as {@code other}.
   */
  private static String powerOf(
      double base,
      double v,
      java.util.function.LongFunction<String> power,
      java.util.function.DoubleFunction<String> other) {
    double k = Math.log(v) / Math.log(base);
    if (v > 0 && Math.abs(k - Math.rint(k)) < 1e-9) {
      long e = Math.round(k);
      return e == 0 ? "1" : power.apply(e);
    }
    return other.apply(v);
  }

  /** Whole from 10, one decimal from 1, two significant digits below. */
  private static String number(double v) {
    return v >= 10 ? fixed(v, "%.0f") : v >= 1 ? fixed(v, "%.1f") : fixed(v, "%.2g");
  }

  /** {@code v} by {@code pattern} from 1, by two significant digits below 1. */
  private static String fixed(double v, String pattern) {
    return String.format(Locale.ROOT, v >= 1 ? pattern : "%.2g", v);
  }

  /** The labels of a {@link Ticks}, formatting only. */
  private static final class TickFormat extends NumberFormat {
    private static final long serialVersionUID = 1L;

    private final Ticks ticks;

    TickFormat(Ticks ticks) {
      this.ticks = ticks;
    }

    @Override
    public StringBuffer format(double v, StringBuffer sb, FieldPosition pos) {
      return sb.append(ticks.label(v));
    }

    @Override
    public StringBuffer format(long v, StringBuffer sb, FieldPosition pos) {
      return format((double) v, sb, pos);
    }

    @Override
    public Number parse(String source, ParsePosition pos) {
      throw new UnsupportedOperationException("format only");
    }
  }
}
