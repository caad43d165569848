package dev.sieve.cli;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.util.Locale;

/**
 * How the CLI prints each kind of figure for people, in every command: a rate (a false-positive
 * rate, a fill) as a percentage with three significant digits ({@code 0.951%}), bits per key with
 * two decimals ({@code 10.00}). One place, so that the same figure never reads two ways in two
 * commands; {@code --json} prints the full double instead.
 */
final class Figures {
  private Figures() {}

  private static final MathContext THREE_DIGITS = new MathContext(3, RoundingMode.HALF_EVEN);

  /**
   * {@code rate} (a fraction, 0.00951) as a percentage with three significant digits ("0.951%");
   * "0%" for zero and "-" for NaN or an infinity. Never in scientific notation.
   */
  static String percent(double rate) {
    if (!Double.isFinite(rate)) {
      return "-";
    }
    if (rate == 0) {
      return "0%";
    }
    BigDecimal p = new BigDecimal(rate * 100).round(THREE_DIGITS);
    int scale = Math.max(0, p.scale() + THREE_DIGITS.getPrecision() - p.precision());
    return p.setScale(scale, RoundingMode.HALF_EVEN).toPlainString() + "%";
  }

  /** Bits per key with two decimals ("10.00"); "-" for NaN or an infinity. */
  static String bitsPerKey(double bits) {
    return Double.isFinite(bits) ? String.format(Locale.ROOT, "%.2f", bits) : "-";
  }
}
