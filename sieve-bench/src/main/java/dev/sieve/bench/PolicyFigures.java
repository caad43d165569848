package dev.sieve.bench;

import dev.sieve.ribbon.LsmFilterReport;
import dev.sieve.ribbon.LsmShape;
import dev.sieve.ribbon.RibbonFilterPolicy;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Figures for docs/notes.md questions 4 and 5: build failure/retry counts of the solve-based
 * filters, and RocksDB's per-level policy ({@code RibbonFilterPolicy(10, bloomBeforeLevel)}:
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

  /** The figures, keyed for results.json ("buildRetries", "lsmPolicy", "lsmPolicyNote"). */
  public static Map<String, Object> figures(List<Row> rows, int n, long seed) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("buildRetries", BuildRetries.measure(n, seed));
    int maxN = rows.stream().mapToInt(r -> r.n).max().orElse(0);
    Optional<Row> bloom = Targets.find(rows, Targets.BLOCKED, maxN, 10.0);
    Optional<Row> ribbon = Targets.find(rows, Targets.RIBBON, maxN, 10.0);
    if (bloom.isEmpty() || ribbon.isEmpty()) {
      m.put("lsmPolicy", List.of());
      m.put("lsmPolicyNote", "needs " + Targets.BLOCKED + " and " + Targets.RIBBON + " in the run");
      return m;
    }
    m.put("lsmPolicy", lsm(bloom.get(), ribbon.get()));
    m.put(
        "lsmPolicyNote",
        "LsmShape.leveled(7 levels, fan-out 10, 10^9 last-level keys, 10^6 keys per filter, 10^6"
            + " absent-key lookups); memory and false-positive probes from RibbonFilterPolicy(10,"
            + " bloomBeforeLevel).report; build CPU = keys × measured build ns/key; query CPU ="
            + " filter probes × measured negative-query ns, from the rows at n="
            + maxN);
    return m;
  }

  static List<Map<String, Object>> lsm(Row bloom, Row ribbon) {
    LsmShape shape = LsmShape.leveled(LEVELS, FANOUT, LAST_LEVEL_KEYS, KEYS_PER_FILTER, LOOKUPS);
    List<Map<String, Object>> out = new ArrayList<>();
    int[] choices = {
      RibbonFilterPolicy.ALWAYS_BLOOM, 6, 5, 4, 3, 1, RibbonFilterPolicy.ALWAYS_RIBBON
    };
    for (int before : choices) {
      LsmFilterReport report = new RibbonFilterPolicy(10, before).report(shape);
      double buildSeconds = 0;
      double querySeconds = 0;
      long keys = 0;
      for (LsmFilterReport.Level level : report.levels()) {
        Row r = level.type() == LsmFilterReport.FilterType.STANDARD128_RIBBON ? ribbon : bloom;
        buildSeconds += level.keys() * r.buildNsPerKey * 1e-9;
        querySeconds += level.probes() * r.negativeNs * 1e-9;
        keys += level.keys();
      }
      Map<String, Object> row = new LinkedHashMap<>();
      row.put(
          "bloomBeforeLevel",
          before == RibbonFilterPolicy.ALWAYS_BLOOM
              ? "always bloom"
              : before == RibbonFilterPolicy.ALWAYS_RIBBON
                  ? "always ribbon"
                  : Integer.toString(before));
      row.put("keys", keys);
      row.put("filterBytes", report.totalBytes());
      row.put("bitsPerKey", 8.0 * report.totalBytes() / keys);
      row.put("memoryVsAllBloom", (double) report.totalBytes() / report.allBloomBytes());
      row.put("falsePositiveProbes", report.totalExpectedFalsePositiveProbes());
      row.put("buildCpuSeconds", buildSeconds);
      row.put("queryCpuSeconds", querySeconds);
      out.add(row);
    }
    return out;
  }
}
