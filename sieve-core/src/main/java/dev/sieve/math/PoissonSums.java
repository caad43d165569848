package dev.sieve.math;

import java.util.function.DoubleUnaryOperator;

/**
 * Expectations over the Poisson distribution of keys per block, the sum behind the exact blocked
 * and split-block Bloom models ({@link BloomMath#poissonBlockedFpRate}, {@link
 * SplitBlockMath#splitBlockFpRate}, {@link GrowthMath#blockedBloomFpRateWithProbeCollisions}): a
 * bounded number of steps for every mean, and a log-space pmf that neither underflows nor loses
 * precision far from the mean.
 */
final class PoissonSums {
  private PoissonSums() {}

  /** The arguments of the exact blocked models: bits per key, probes and block bits, each named. */
  static void checkBlockShape(double bitsPerKey, int numProbes, int blockBits) {
    if (!(bitsPerKey > 0.0) || numProbes < 1 || blockBits < 1) {
      throw new IllegalArgumentException(
          "need bitsPerKey > 0, numProbes >= 1, blockBits >= 1; got "
              + bitsPerKey
              + ", "
              + numProbes
              + ", "
              + blockBits);
    }
  }

  /**
   * {@code E[g(J)]} for {@code J ~ Poisson(λ)}, the sum the blocked and split-block models share,
   * in a bounded number of steps for every {@code λ}.
   *
   * <p>Only the terms within {@code 12√λ + 20} of {@code λ} are summed: the Poisson tails beyond
   * hold less than {@code e^-72} of the mass, and since every {@code g} here is a probability that
   * grows with the load, the terms below the window weigh less than their share of the mass against
   * the sum. The first term's pmf is computed directly in log space ({@link #logPmf}, Stirling's
   * series with Loader's deviance), the later ones by the recurrence {@code ln p(j) = ln p(j−1) +
   * ln(λ/j)}, which is what the models summed from {@code j = 0} before; below {@code λ ≈ 180} the
   * window starts at 0 and the sum is the same.
   *
   * <p>Where the window holds more than {@code 24 · 32} terms ({@code λ ≥ 1024}) it is sampled
   * every {@code h = ⌊√λ / 8⌋} terms, each sample weighted {@code h}, with its pmf from {@link
   * #logPmf}: the summand is smooth on the scale of the standard deviation {@code √λ}, and by the
   * Poisson summation formula a step-{@code h} sum of a function of width {@code σ} differs from
   * the step-1 sum by about {@code e^(-2π²σ²/h²) = e^-1263}, far below rounding. That bounds the
   * work at about 200 evaluations of {@code g}. Where {@code λ > 2^50} (bits per key below {@code
   * 2^-41} of a block) the sum is {@code g(λ)}: every term of the window is saturated to 1 in
   * double precision for these models. The result is clamped to {@code [0, 1]}.
   *
   * @param lambda the Poisson mean, {@code ≥ 0} or {@code +∞}
   * @param g the per-load value, a probability non-decreasing in the load
   */
  static double expectation(double lambda, DoubleUnaryOperator g) {
    if (Double.isNaN(lambda) || lambda < 0) {
      throw new IllegalArgumentException("Poisson mean must be >= 0, got " + lambda);
    }
    if (lambda > 0x1p50) {
      return clampProbability(g.applyAsDouble(lambda));
    }
    double sigma = Math.sqrt(lambda);
    double reach = 12 * sigma + 20;
    long first = (long) Math.max(0.0, Math.floor(lambda - reach));
    long last = (long) Math.ceil(lambda + reach);
    double sum = 0.0;
    if (sigma < 32) {
      double logPoisson = logPmf(first, lambda);
      for (long j = first; j <= last; j++) {
        if (j > first) {
          logPoisson += Math.log(lambda / j);
        }
        sum += Math.exp(logPoisson) * g.applyAsDouble((double) j);
      }
    } else {
      long step = (long) Math.floor(sigma / 8);
      for (long j = first; j <= last; j += step) {
        sum += Math.exp(logPmf(j, lambda)) * g.applyAsDouble((double) j);
      }
      sum *= step;
    }
    return clampProbability(sum);
  }

  private static double clampProbability(double p) {
    return Math.max(0.0, Math.min(1.0, p));
  }

  /**
   * {@code ln(e^-λ λ^j / j!)}, accurate to about {@code 1e-13} absolute for every {@code j ≥ 0} and
   * {@code λ ≥ 0}: exact sums of logarithms below {@code j = 16}; above, Stirling's series {@code
   * ln j! = j ln j − j + ½ ln(2πj) + 1/(12j) − 1/(360j³) + 1/(1260j⁵) − 1/(1680j⁷)} with the large
   * terms gathered into the deviance {@code j ln(j/λ) + λ − j} (C. Loader, "Fast and Accurate
   * Computation of Binomial Probabilities", 2000), which is evaluated by its series in {@code v =
   * (j − λ)/(j + λ)} near the mean so that no two large numbers cancel.
   */
  static double logPmf(long j, double lambda) {
    if (lambda == 0) {
      return j == 0 ? 0.0 : Double.NEGATIVE_INFINITY;
    }
    if (j < 16) {
      double logFactorial = 0;
      for (int i = 2; i <= j; i++) {
        logFactorial += Math.log(i);
      }
      return -lambda + j * Math.log(lambda) - logFactorial;
    }
    double x = j;
    double inv = 1.0 / x;
    double inv2 = inv * inv;
    double stirlingTail =
        inv * (1.0 / 12 - inv2 * (1.0 / 360 - inv2 * (1.0 / 1260 - inv2 * (1.0 / 1680))));
    return -deviance(x, lambda) - 0.5 * Math.log(2 * Math.PI * x) - stirlingTail;
  }

  /** {@code x ln(x/μ) + μ − x ≥ 0}, by its series in {@code v = (x − μ)/(x + μ)} where small. */
  private static double deviance(double x, double mu) {
    double diff = x - mu;
    double sum = x + mu;
    if (Math.abs(diff) < 0.1 * sum) {
      double v = diff / sum;
      double v2 = v * v;
      double term = 2 * x * v;
      double total = diff * v;
      for (int k = 1; k < 40; k++) {
        term *= v2;
        double next = total + term / (2 * k + 1);
        if (next == total) {
          break;
        }
        total = next;
      }
      return total;
    }
    return x * Math.log(x / mu) + mu - x;
  }
}
