package dev.sieve.internal.base;

/** Argument checks with messages that name the value and the limit. */
public final class Checks {
  private Checks() {}

  /** {@code bitsPerKey} must be finite and within {@code [min, max]}. */
  public static double bitsPerKey(double bitsPerKey, double min, double max) {
    if (!(bitsPerKey >= min && bitsPerKey <= max)) {
      throw new IllegalArgumentException(
          "bits per key must be in [" + min + ", " + max + "], got " + bitsPerKey);
    }
    return bitsPerKey;
  }

  /** {@code fpRate} must lie strictly inside (0, 1). */
  public static double fpRate(double fpRate) {
    if (!(fpRate > 0.0 && fpRate < 1.0)) {
      throw new IllegalArgumentException(
          "false-positive rate must be in the open interval (0, 1), got " + fpRate);
    }
    return fpRate;
  }

  /** {@code count} must lie in {@code [0, max]}. */
  public static long count(String what, long count, long max) {
    if (count < 0 || count > max) {
      throw new IllegalArgumentException(what + " must be in [0, " + max + "], got " + count);
    }
    return count;
  }
}
