package dev.sieve.bench;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Figures for docs/notes.md questions 4 and 5: build failure/retry counts of the solve-based
 * filters, and the per-level LSM policy (blocked Bloom above level L, Ribbon from L down) priced
 * with this run's measured bits/key, build and query times.
 */
public final class PolicyFigures {
  private PolicyFigures() {}

  /** LSM shape: 7 levels, fan-out 10, the last holding ~90% of the keys, 10^9 keys in all. */
  static final int LEVELS = 7;

  static final double FANOUT = 10;
  static final double TOTAL_KEYS = 1e9;

  /** The figures, keyed for results.json ("buildRetries", "lsmPolicy", "lsmPolicyNote"). */
  public static Map<String, Object> figures(List<Row> rows, int n, long seed) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("buildRetries", BuildRetries.measure(n, seed));
    int maxN = rows.stream().mapToInt(r -> r.n).max().orElse(0);
    Optional<Row> bloom =
        rows.stream().filter(r -> r.name.equals(Targets.BLOCKED) && r.n == maxN).findFirst();
    Optional<Row> ribbon =
        rows.stream().filter(r -> r.name.equals(Targets.RIBBON) && r.n == maxN).findFirst();
    if (bloom.isEmpty() || ribbon.isEmpty()) {
      m.put("lsmPolicy", List.of());
      m.put("lsmPolicyNote", "needs " + Targets.BLOCKED + " and " + Targets.RIBBON + " in the run");
      return m;
    }
    m.put("lsmPolicy", lsm(bloom.get(), ribbon.get()));
    m.put(
        "lsmPolicyNote",
        "levels L0..L6, fan-out 10, 10^9 keys; per policy 'ribbon from level L':"
            + " filter memory, build CPU for writing every level once, and the filter CPU of one absent-key"
            + " lookup (which probes every level's filter), from the measured rows at n="
            + maxN);
    return m;
  }

  static List<Map<String, Object>> lsm(Row bloom, Row ribbon) {
    double[] keys = new double[LEVELS];
    double weight = 0;
    for (int i = 0; i < LEVELS; i++) {
      weight += Math.pow(FANOUT, i);
    }
    for (int i = 0; i < LEVELS; i++) {
      keys[i] = TOTAL_KEYS * Math.pow(FANOUT, i) / weight;
    }
    List<Map<String, Object>> out = new ArrayList<>();
    for (int from = 0; from <= LEVELS; from++) {
      double bytes = 0;
      double buildSeconds = 0;
      double queryNs = 0;
      for (int i = 0; i < LEVELS; i++) {
        Row r = i >= from ? ribbon : bloom;
        bytes += keys[i] * r.bitsPerKey() / 8;
        buildSeconds += keys[i] * r.buildNsPerKey * 1e-9;
        queryNs += r.negativeNs;
      }
      Map<String, Object> row = new LinkedHashMap<>();
      row.put("level", from == LEVELS ? "none (all blocked Bloom)" : "ribbon from L" + from);
      row.put("keys", TOTAL_KEYS);
      row.put(
          "policy",
          from == 0
              ? "all ribbon"
              : from == LEVELS
                  ? "all bloom"
                  : "bloom L0..L" + (from - 1) + ", ribbon L" + from + "..L6");
      row.put("bitsPerKey", bytes * 8 / TOTAL_KEYS);
      row.put("filterBytes", bytes);
      row.put("buildSeconds", buildSeconds);
      row.put("queryNs", queryNs);
      out.add(row);
    }
    return out;
  }
}
