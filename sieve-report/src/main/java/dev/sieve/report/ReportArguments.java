package dev.sieve.report;

/** The report's argument checks: each names the option that is wrong, in one line. */
final class ReportArguments {
  private ReportArguments() {}

  /** Throws an {@link IllegalArgumentException} naming the first option out of range. */
  static void check(ReportCommand c) {
    for (int n : c.ns) {
      if (n < 1) {
        throw new IllegalArgumentException("--n must be positive, got " + n);
      }
    }
    if (c.fprQueries < 1 || c.experimentKeys < 1 || c.experimentQueries < 1) {
      throw new IllegalArgumentException(
          "--fpr-queries, --experiment-keys and --experiment-queries must be positive");
    }
    if (c.rounds < 1) {
      throw new IllegalArgumentException("--rounds must be positive, got " + c.rounds);
    }
    if (c.coldSamples < 1) {
      throw new IllegalArgumentException("--cold-samples must be positive, got " + c.coldSamples);
    }
    if (c.rangeKeys < 0 || c.rangeKeys > RangeReport.MAX_KEYS) {
      throw new IllegalArgumentException(
          "--range-keys must be 0 (off) to " + RangeReport.MAX_KEYS + ", got " + c.rangeKeys);
    }
    if (c.rangeKeys > 0 && (c.rangeQueries < 1 || !(c.rangeBits > 0))) {
      throw new IllegalArgumentException("--range-queries and --range-bits must be positive");
    }
    if (c.baseline != null && !c.baseline.isFile()) {
      throw new IllegalArgumentException("--baseline " + c.baseline + ": no such file");
    }
  }

  /** The JMH forks' heap: {@code --fork-heap}, else by the largest n. */
  static String forkHeap(ReportCommand c) {
    int maxN = maxN(c);
    return c.forkHeap != null
        ? c.forkHeap
        : maxN <= 2_000_000 ? "2g" : maxN <= 20_000_000 ? "6g" : "16g";
  }

  static int maxN(ReportCommand c) {
    return c.ns.stream().mapToInt(Integer::intValue).max().orElse(1);
  }
}
