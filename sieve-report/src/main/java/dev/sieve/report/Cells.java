package dev.sieve.report;

import java.util.Locale;

/** How the report writes one figure in a table cell or a sentence ("—" where there is none). */
final class Cells {
  private Cells() {}

  /** "12.3 ± 0.4" (the error omitted when unknown). */
  static String pm(double value, double error) {
    if (Double.isNaN(value)) {
      return "—";
    }
    int digits = value >= 100 ? 0 : 1;
    return Double.isNaN(error)
        ? num(value, digits)
        : num(value, digits) + " ± " + num(error, Math.max(digits, error < 0.1 ? 2 : 1));
  }

  /** " **(!)**" after the figures of a row not at steady state. */
  static String flagMark(Row r) {
    return r.excluded() ? " **(!)**" : "";
  }

  /** The value as text, "—" for {@code null}. */
  static String str(Object o) {
    return o == null ? "—" : o.toString();
  }

  /** {@code o} with {@code digits} decimals, "—" if it is not a finite number. */
  static String num(Object o, int digits) {
    if (!(o instanceof Number x)) {
      return "—";
    }
    double d = x.doubleValue();
    if (Double.isNaN(d) || Double.isInfinite(d)) {
      return "—";
    }
    return String.format(Locale.ROOT, "%." + digits + "f", d);
  }

  /** A fraction as a percentage: 4 decimals, or 3 significant digits below 0.01%. */
  static String pct(Object o) {
    if (!(o instanceof Number x) || Double.isNaN(x.doubleValue())) {
      return "—";
    }
    double d = x.doubleValue() * 100;
    if (d == 0) {
      return "0%";
    }
    return d >= 0.01
        ? String.format(Locale.ROOT, "%.4f%%", d)
        : String.format(Locale.ROOT, "%.3e%%", d);
  }
}
