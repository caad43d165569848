package dev.sieve.report;

/** The Wilson score interval of a measured rate. */
public final class Stats {
  private Stats() {}

  /** The two-sided 95% normal quantile. */
  public static final double Z95 = 1.959963984540054;

  /** Lower end of the Wilson score interval (95%) for {@code k} successes in {@code n} trials. */
  public static double wilsonLow(long k, long n) {
    return wilson(k, n, -1);
  }

  /** Upper end of the Wilson score interval (95%). */
  public static double wilsonHigh(long k, long n) {
    return wilson(k, n, +1);
  }

  private static double wilson(long k, long n, int sign) {
    if (n <= 0) {
      return Double.NaN;
    }
    if (sign < 0 && k == 0) {
      return 0.0; // exact: the formula leaves a rounding residue of ~1e-19
    }
    if (sign > 0 && k == n) {
      return 1.0;
    }
    double p = (double) k / n;
    double z2 = Z95 * Z95;
    double centre = p + z2 / (2.0 * n);
    double spread = Z95 * Math.sqrt(p * (1 - p) / n + z2 / (4.0 * n * n));
    double v = (centre + sign * spread) / (1 + z2 / n);
    return Math.max(0.0, Math.min(1.0, v));
  }
}
