package dev.sieve.bench;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.ToDoubleFunction;

/**
 * The targets, checked against one run's rows: each is PASS or MISS with the measured ratio
 * and its limit, or NOT RUN when a structure it needs was not part of the run (or not in Sieve
 * yet). Evaluated at the largest key count of the run; the issue states them at n = 10^7.
 */
public final class Targets {
  private Targets() {}

  /** Names the targets refer to. */
  public static final String BLOCKED = "sieve-blocked-bloom";

  public static final String RIBBON = "sieve-ribbon";
  public static final String FUSE8 = "sieve-binary-fuse8";

  /** One target's outcome. */
  public record Check(
      String id, String target, String status, double value, double limit, String detail) {
    public Map<String, Object> toMap() {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("id", id);
      m.put("target", target);
      m.put("status", status);
      m.put("value", value);
      m.put("limit", limit);
      m.put("detail", detail);
      return m;
    }
  }

  /** Checks every target. */
  public static List<Check> check(List<Row> rows, double bloomEquivalentBitsPerKey) {
    List<Check> checks = new ArrayList<>();
    int n = rows.stream().mapToInt(r -> r.n).max().orElse(0);
    int nMin = rows.stream().mapToInt(r -> r.n).min().orElse(0);
    String at = " (n=" + n + ")";
    checks.add(
        ratio(
            "T1",
            "blocked Bloom negative query ≤ 1.3× raw random read (same footprint)" + at,
            rows,
            n,
            BLOCKED,
            "raw-read-1x",
            r -> r.negativeNs,
            1.3));
    checks.add(
        ratio(
            "T2",
            "blocked Bloom negative query ≤ 1.0× FastFilter BlockedBloom" + at,
            rows,
            n,
            BLOCKED,
            "fastfilter-blocked-bloom",
            r -> r.negativeNs,
            1.0));
    checks.add(
        ratio(
            "T3",
            "blocked Bloom negative query ≤ 0.2× Guava BloomFilter" + at,
            rows,
            n,
            BLOCKED,
            "guava-bloom",
            r -> r.negativeNs,
            0.2));
    checks.add(
        ratio(
            "T4a",
            "Ribbon positive query ≤ 2× blocked Bloom" + at,
            rows,
            n,
            RIBBON,
            BLOCKED,
            r -> r.positiveNs,
            2.0));
    checks.add(
        ratio(
            "T4b",
            "Ribbon negative query ≤ 2× blocked Bloom" + at,
            rows,
            n,
            RIBBON,
            BLOCKED,
            r -> r.negativeNs,
            2.0));
    Optional<Row> ribbon = find(rows, RIBBON, n, bloomEquivalentBitsPerKey);
    checks.add(
        ribbon.isEmpty()
            ? notRun(
                "T5",
                "Ribbon bits/key ≤ 1.06× log2(1/measured FPR) at bloom-equivalent "
                    + fmt(bloomEquivalentBitsPerKey)
                    + at,
                RIBBON + " not in this run")
            : limit(
                "T5",
                "Ribbon bits/key ≤ 1.06× log2(1/measured FPR) at bloom-equivalent "
                    + fmt(bloomEquivalentBitsPerKey)
                    + at,
                ribbon.get().overheadMeasured(),
                1.06,
                String.format(
                    "%.3f bits/key, floor %.3f",
                    ribbon.get().bitsPerKey(), ribbon.get().floorBitsPerKey())));
    Optional<Row> fuse = rows.stream().filter(r -> r.name.equals(FUSE8) && r.n == n).findFirst();
    checks.add(
        fuse.isEmpty()
            ? notRun("T6", "Binary Fuse 8 ≤ 9.1 bits/key" + at, FUSE8 + " not in this run")
            : limit("T6", "Binary Fuse 8 ≤ 9.1 bits/key" + at, fuse.get().bitsPerKey(), 9.1, ""));
    for (Row big : rows) {
      if (big.family != Family.SIEVE || big.n != n || isDiagnostic(big)) {
        continue;
      }
      String id = "T7 " + big.name;
      String what = big.name + " build ns/key flat in n: at n=" + n + " ≤ 1.5× at n=" + nMin;
      if (n == nMin) {
        checks.add(notRun(id, what, "one key count in this run; run with --n 1000000,10000000"));
        continue;
      }
      Optional<Row> small = find(rows, big.name, nMin, big.bitsPerKeySetting);
      if (small.isEmpty()
          || Double.isNaN(small.get().buildNsPerKey)
          || Double.isNaN(big.buildNsPerKey)) {
        checks.add(notRun(id, what, "build time missing"));
      } else {
        checks.add(
            limit(
                id,
                what,
                big.buildNsPerKey / small.get().buildNsPerKey,
                1.5,
                String.format(
                    "%.1f vs %.1f ns/key", big.buildNsPerKey, small.get().buildNsPerKey)));
      }
    }
    for (Row r : rows) {
      if (r.family != Family.SIEVE || r.n != n || isDiagnostic(r)) {
        continue;
      }
      if (r.objectCount >= 0) {
        // a filter without per-key objects holds O(1) objects: allow 64 regardless of n
        checks.add(
            limit(
                "T8 " + r.name,
                r.name + " has no per-key objects (reachable objects ≤ 64)" + at,
                r.objectCount,
                64,
                r.objectCount + " objects for " + r.n + " keys"));
      }
      if (r.buildAllocatedBytes >= 0) {
        checks.add(
            limit(
                "T9 " + r.name,
                r.name + " build memory ≤ 2× filter + input keys" + at,
                (double) r.buildAllocatedBytes / (2.0 * r.sizeBytes() + 8.0 * r.n),
                1.0,
                String.format(
                    "allocated %,d B; filter %,d B; keys %,d B",
                    r.buildAllocatedBytes, r.sizeBytes(), 8L * r.n)));
      }
      if (r.falseNegatives > 0) {
        checks.add(
            limit(
                "C " + r.name,
                r.name + " no false negatives" + at,
                r.falseNegatives,
                0,
                "CONTRACT VIOLATION"));
      }
    }
    return checks;
  }

  /** Diagnostic rows (bench-only variants) are shown but not held to the targets. */
  static boolean isDiagnostic(Row r) {
    return r.description != null && r.description.startsWith("diagnostic:");
  }

  static Optional<Row> find(List<Row> rows, String name, int n, double b) {
    Optional<Row> exact =
        rows.stream()
            .filter(r -> r.name.equals(name) && r.n == n && r.bitsPerKeySetting == b)
            .findFirst();
    return exact.isPresent()
        ? exact
        : rows.stream().filter(r -> r.name.equals(name) && r.n == n).findFirst();
  }

  private static Check ratio(
      String id,
      String what,
      List<Row> rows,
      int n,
      String subject,
      String reference,
      ToDoubleFunction<Row> metric,
      double limit) {
    Optional<Row> s = rows.stream().filter(r -> r.name.equals(subject) && r.n == n).findFirst();
    if (s.isEmpty()) {
      return notRun(id, what, subject + " not in this run");
    }
    Optional<Row> ref = find(rows, reference, n, s.get().bitsPerKeySetting);
    if (ref.isEmpty()) {
      return notRun(id, what, reference + " not in this run");
    }
    double a = metric.applyAsDouble(s.get());
    double b = metric.applyAsDouble(ref.get());
    if (Double.isNaN(a) || Double.isNaN(b)) {
      return notRun(id, what, "timings missing");
    }
    return limit(id, what, a / b, limit, String.format("%.2f ns vs %.2f ns (%s)", a, b, reference));
  }

  private static Check limit(String id, String what, double value, double limit, String detail) {
    return new Check(id, what, value <= limit ? "PASS" : "MISS", value, limit, detail);
  }

  private static Check notRun(String id, String what, String why) {
    return new Check(id, what, "NOT RUN", Double.NaN, Double.NaN, why);
  }

  private static String fmt(double d) {
    return d == Math.rint(d) ? Long.toString((long) d) : Double.toString(d);
  }
}
