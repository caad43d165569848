package dev.sieve.format;

/**
 * Exact two-sided quantiles of the binomial distribution, for the contract's false-positive checks
 * ({@link FilterContract}): with {@code X ~ Binomial(n, p)}, {@link #lower} is the largest {@code
 * lo} with {@code P(X < lo) <= alpha/2} and {@link #upper} the smallest {@code hi} with {@code P(X
 * > hi) <= alpha/2}, so a correct filter falls outside {@code [lo, hi]} with probability at most
 * {@code alpha}.
 *
 * <p>The probabilities are summed exactly (in doubles), not approximated by a normal: the
 * probability mass function is built outward from the mode by its ratio {@code P(k+1)/P(k) = (n -
 * k)/(k + 1) · p/(1 - p)} until the terms fall below {@code 10^-40} of the mode's, then normalised.
 * That stays exact at the small expected counts of the 16-bit filters (a few hundred false
 * positives), where a normal interval is skewed.
 */
final class BinomialBound {
  private BinomialBound() {}

  private static final double NEGLIGIBLE = 1e-40;

  /** {@return the lower end: the largest {@code lo} with {@code P(X < lo) <= alpha / 2}} */
  static long lower(long n, double p, double alpha) {
    return bounds(n, p, alpha)[0];
  }

  /** {@return the upper end: the smallest {@code hi} with {@code P(X > hi) <= alpha / 2}} */
  static long upper(long n, double p, double alpha) {
    return bounds(n, p, alpha)[1];
  }

  /** {@return {@code {lo, hi}}} */
  static long[] bounds(long n, double p, double alpha) {
    if (n < 0 || !(p >= 0 && p <= 1) || !(alpha > 0 && alpha < 1)) {
      throw new IllegalArgumentException("n=" + n + " p=" + p + " alpha=" + alpha);
    }
    if (p == 0) {
      return new long[] {0, 0};
    }
    if (p == 1) {
      return new long[] {n, n};
    }
    long mode = Math.min(n, (long) Math.floor((n + 1) * p));
    double ratio = p / (1 - p);
    // weights below the mode, mode-1 down to `from`
    int capacity = 1 << 12;
    double[] below = new double[capacity];
    int nb = 0;
    double w = 1;
    for (long k = mode; k > 0; k--) {
      w *= k / ((n - k + 1) * ratio); // P(k-1)/P(k)
      if (w < NEGLIGIBLE) {
        break;
      }
      if (nb == below.length) {
        below = java.util.Arrays.copyOf(below, nb * 2);
      }
      below[nb++] = w;
    }
    double[] above = new double[capacity];
    int na = 0;
    w = 1;
    for (long k = mode; k < n; k++) {
      w *= (n - k) / (double) (k + 1) * ratio; // P(k+1)/P(k)
      if (w < NEGLIGIBLE) {
        break;
      }
      if (na == above.length) {
        above = java.util.Arrays.copyOf(above, na * 2);
      }
      above[na++] = w;
    }
    double total = 1;
    for (int i = 0; i < nb; i++) {
      total += below[i];
    }
    for (int i = 0; i < na; i++) {
      total += above[i];
    }
    double tail = alpha / 2 * total;
    // lower: add P(mode - nb), P(mode - nb + 1), ... while the sum stays within the tail
    long lo = mode - nb;
    double sum = 0;
    for (int i = nb - 1; i >= 0 && sum + below[i] <= tail; i--) {
      sum += below[i];
      lo++;
    }
    long hi = mode + na;
    sum = 0;
    for (int i = na - 1; i >= 0 && sum + above[i] <= tail; i--) {
      sum += above[i];
      hi--;
    }
    return new long[] {lo, hi};
  }
}
