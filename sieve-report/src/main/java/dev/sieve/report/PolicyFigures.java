package dev.sieve.report;

import dev.sieve.policy.FilterPolicy;
import dev.sieve.policy.LsmFilterReport;
import dev.sieve.policy.LsmShape;
import dev.sieve.registry.FilterType;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Figures for docs/notes.md questions 4 and 5: build failure/retry counts of the solve-based
 * filters, and RocksDB's per-level policy ({@code FilterPolicy.ribbon(10, bloomBeforeLevel)}:
 * blocked Bloom above the level, Ribbon from it down) on a leveled LSM shape — memory from Sieve's
 * policy model, build and query CPU priced with this run's measured ns.
 */
public final class PolicyFigures {
  private PolicyFigures() {}

  /** LSM shape: L0..L6, fan-out 10, 10^9 keys on the last level, 10^6 keys per SST filter. */
  static final int LEVELS = 7;

  static final double FANOUT = 10;
  static final long LAST_LEVEL_KEYS = 1_000_000_000L;
  static final long KEYS_PER_FILTER = 1_000_000L;
  static final long LOOKUPS = 1_000_000L;

  /**
   * The build-failure and LSM-policy figures.
   *
   * @param lsmPolicyNote how the LSM figures were priced, or why they are missing
   */
  public record Figures(
      List<BuildRetries.Result> buildRetries, List<LsmPolicy> lsmPolicy, String lsmPolicyNote) {}

  /** One {@code bloomBeforeLevel} setting priced on the LSM shape. */
  public record LsmPolicy(
      String bloomBeforeLevel,
      long keys,
      long filterBytes,
      double bitsPerKey,
      double memoryVsAllBloom,
      double falsePositiveProbes,
      double buildCpuSeconds,
      double queryCpuSeconds) {}

  /** The figures for results.json ("buildRetries", "lsmPolicy", "lsmPolicyNote"). */
  public static Figures figures(List<Row> rows, int n, long seed) {
    List<BuildRetries.Result> retries = BuildRetries.measure(n, seed);
    int maxN = rows.stream().mapToInt(r -> r.n).max().orElse(0);
    Optional<Row> bloom = Names.find(rows, Names.BLOCKED, maxN, 10.0);
    Optional<Row> ribbon = Names.find(rows, Names.RIBBON, maxN, 10.0);
    if (bloom.isEmpty() || ribbon.isEmpty()) {
      return new Figures(
          retries, List.of(), "needs " + Names.BLOCKED + " and " + Names.RIBBON + " in the run");
    }
    if (bloom.get().excluded()
        || ribbon.get().excluded()
        || bloom.get().buildExcluded()
        || ribbon.get().buildExcluded()) {
      return new Figures(
          retries,
          List.of(),
          "not priced: "
              + Names.BLOCKED
              + " or "
              + Names.RIBBON
              + " at n="
              + Names.nLabel(maxN)
              + " is not at steady state");
    }
    return new Figures(
        retries,
        lsm(bloom.get(), ribbon.get()),
        "LsmShape.leveled(7 levels, fan-out 10, 10^9 last-level keys, 10^6 keys per filter, 10^6"
            + " absent-key lookups); memory and false-positive probes from FilterPolicy.ribbon(10,"
            + " bloomBeforeLevel).report; build CPU = keys × measured build ns/key; query CPU ="
            + " filter probes × measured negative-query ns, from the rows at n="
            + maxN);
  }

  static List<LsmPolicy> lsm(Row bloom, Row ribbon) {
    LsmShape shape = LsmShape.leveled(LEVELS, FANOUT, LAST_LEVEL_KEYS, KEYS_PER_FILTER, LOOKUPS);
    List<LsmPolicy> out = new ArrayList<>();
    int[] choices = {FilterPolicy.ALWAYS_BLOOM, 6, 5, 4, 3, 1, FilterPolicy.ALWAYS_RIBBON};
    for (int before : choices) {
      LsmFilterReport report = FilterPolicy.ribbon(10, before).report(shape);
      double buildSeconds = 0;
      double querySeconds = 0;
      long keys = 0;
      for (LsmFilterReport.Level level : report.levels()) {
        Row r = level.type() == FilterType.RIBBON ? ribbon : bloom;
        buildSeconds += level.keys() * r.buildNsPerKey * 1e-9;
        querySeconds += level.probes() * r.negativeNs * 1e-9;
        keys += level.keys();
      }
      out.add(
          new LsmPolicy(
              before == FilterPolicy.ALWAYS_BLOOM
                  ? "always bloom"
                  : before == FilterPolicy.ALWAYS_RIBBON
                      ? "always ribbon"
                      : Integer.toString(before),
              keys,
              report.totalBytes(),
              8.0 * report.totalBytes() / keys,
              (double) report.totalBytes() / report.allBloomBytes(),
              report.totalExpectedFalsePositiveProbes(),
              buildSeconds,
              querySeconds));
    }
    return out;
  }
}
