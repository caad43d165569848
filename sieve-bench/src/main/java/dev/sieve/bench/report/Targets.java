package dev.sieve.bench.report;

import dev.sieve.bench.Family;
import dev.sieve.bench.SieveAdapters;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.ToDoubleFunction;

/**
 * The targets, checked against one run's rows. The primary list is issue 11's table, each target at
 * the key count it is stated for (10^6 or 10^7): PASS or MISS with the measured ratio and its
 * limit, or NOT RUN when the run lacks that n or a structure the target needs. A short secondary
 * list keeps the older targets that still mean something, at the run's largest n.
 */
public final class Targets {
  private Targets() {}

  /** Names the targets refer to. */
  public static final String BLOCKED = "sieve-blocked-bloom";

  public static final String RIBBON = "sieve-ribbon";
  public static final String XOR8 = "sieve-xor8";
  public static final String FUSE8 = "sieve-binary-fuse8";
  public static final String FF_BLOCKED = "fastfilter-blocked-bloom";
  public static final String FF_XOR8 = "fastfilter-xor8";

  /** Sieve's two-word blocked Bloom, which has no SIMD path: flagless in every run. */
  public static final String TWO_WORD = "sieve-two-word-bloom";

  /** The two-word Bloom at two bits per word (a quarter bit per key more; see SieveAdapters). */
  public static final String TWO_WORD_J2 = TWO_WORD + "-j2";

  /** The split-block Bloom, flagless only where the run's SIMD path did not run. */
  public static final String SPLIT_BLOCK = "sieve-split-block-bloom";

  /** The key counts issue 20's target 2 is stated for (the last in DRAM on the 2-core machine). */
  static final int[] ISSUE20_NS = {10_000, 1_000_000, 10_000_000, 100_000_000};

  /** The key counts issue 11's targets are stated for. */
  public static final int N6 = 1_000_000;

  public static final int N7 = 10_000_000;

  /** The marker in a row name of a fast-hash variant (one 64-bit mixer instead of XXPH3). */
  public static final String FAST_HASH = "fasthash";

  /** A target's outcome. */
  public enum Status {
    PASS("PASS"),
    MISS("MISS"),
    NOT_RUN("NOT RUN"),
    /** A row the target needs is not at steady state ({@link SteadyState}): no ratio taken. */
    EXCLUDED("EXCLUDED");

    private final String label;

    Status(String label) {
      this.label = label;
    }

    public String label() {
      return label;
    }

    @Override
    public String toString() {
      return label;
    }
  }

  /**
   * One target's outcome.
   *
   * @param id short id (B1, S2 sieve-xor8, ...)
   * @param target what is asked, in words
   * @param at the key count it is stated for ("n=10^6", "every n", ...)
   * @param status PASS, MISS or NOT RUN
   * @param value the measured ratio (or count), {@code NaN} when not run
   * @param limit the limit it is held to
   * @param detail the figures behind the ratio, or why it did not run
   * @param primary issue 11's table (true) or the older secondary list (false)
   */
  public record Check(
      String id,
      String target,
      String at,
      Status status,
      double value,
      double limit,
      String detail,
      boolean primary) {}

  /** What a ratio compares: ns per positive lookup, per negative lookup, or build ns per key. */
  enum Metric {
    NEG("neg", r -> r.negativeNs, r -> r.negativeNsError),
    POS("pos", r -> r.positiveNs, r -> r.positiveNsError),
    BUILD("build", r -> r.buildNsPerKey, r -> r.buildNsPerKeyError);

    final String label;
    final ToDoubleFunction<Row> value;
    final ToDoubleFunction<Row> error;

    Metric(String label, ToDoubleFunction<Row> value, ToDoubleFunction<Row> error) {
      this.label = label;
      this.value = value;
      this.error = error;
    }
  }

  /** The id prefix of issue 25's range targets ({@link RangeReport#targets}). */
  public static final String RANGE_PREFIX = "G";

  /**
   * Whether a miss of {@code c} is printed with its reason on the console: issue 25's range
   * targets, whose misses can come from the bound itself (a reason, not a ratio of two rows).
   */
  static boolean explainsMiss(Check c) {
    return c.id().startsWith(RANGE_PREFIX) && c.id().length() == 2;
  }

  /**
   * Checks every target but the range ones: issue 11's first, then the secondary list; issue 20's
   * target 2 counts only the two-word Bloom as flagless (as in a run whose SIMD path ran).
   */
  public static List<Check> check(List<Row> rows, double bloomEquivalentBitsPerKey) {
    return check(rows, bloomEquivalentBitsPerKey, true);
  }

  /**
   * Checks every target but the range ones: issue 11's first, issue 20's target 2, then the
   * secondary list. {@code simdPath}: whether the run's blocked and split-block Bloom rows took the
   * SIMD path (then they are not candidates for "without any JVM flag").
   */
  public static List<Check> check(
      List<Row> rows, double bloomEquivalentBitsPerKey, boolean simdPath) {
    List<Check> checks = new ArrayList<>(primary(rows));
    checks.addAll(flaglessMutableBloom(rows, simdPath));
    checks.addAll(secondary(rows, bloomEquivalentBitsPerKey));
    return checks;
  }

  /**
   * Checks every target: issue 11's first, issue 20's target 2, issue 25's range targets ({@code
   * range} {@code null}: NOT RUN), then the secondary list ({@code simdPath} as above).
   */
  public static List<Check> check(
      List<Row> rows,
      double bloomEquivalentBitsPerKey,
      boolean simdPath,
      RangeReport.Section range) {
    List<Check> checks = new ArrayList<>(primary(rows));
    checks.addAll(flaglessMutableBloom(rows, simdPath));
    checks.addAll(RangeReport.targets(range));
    checks.addAll(secondary(rows, bloomEquivalentBitsPerKey));
    return checks;
  }

  /** {@link #check(List, double, boolean, RangeReport.Section)} for a run whose SIMD path ran. */
  public static List<Check> check(
      List<Row> rows, double bloomEquivalentBitsPerKey, RangeReport.Section range) {
    return check(rows, bloomEquivalentBitsPerKey, true, range);
  }

  /**
   * The base names of Sieve's mutable Bloom filters that run without any JVM flag: the two-word
   * Bloom (as the builder sizes it, and at two bits per word) always; the split-block and
   * RocksDB-layout blocked Bloom where the run's SIMD path did not run (their scalar probes are
   * then what was measured).
   */
  static List<String> flaglessMutableBlooms(boolean simdPath) {
    return simdPath
        ? List.of(TWO_WORD, TWO_WORD_J2)
        : List.of(TWO_WORD, TWO_WORD_J2, SPLIT_BLOCK, BLOCKED);
  }

  /**
   * Issue 20's target 2 ("2a" single-key, "2b" batch): Sieve's fastest flagless mutable Bloom
   * filter ≤ 1.0× FastFilter's BlockedBloom, positive and negative, at equal or lower FPR, at each
   * of 10^4, 10^6, 10^7 and 10^8 keys present in the run. The fastest is the candidate row ({@link
   * #flaglessMutableBlooms}, as queried or with the fast long-key hash) with the lowest
   * worse-of-the-two ratio whose measured FPR is not above FastFilter's (their confidence intervals
   * overlap or it is lower).
   */
  static List<Check> flaglessMutableBloom(List<Row> rows, boolean simdPath) {
    List<Check> checks = new ArrayList<>();
    for (boolean batch : new boolean[] {false, true}) {
      String id = batch ? "2b" : "2a";
      String what =
          "fastest flagless mutable Sieve Bloom "
              + (batch ? "batch" : "single-key")
              + " (positive and negative) ≤ 1.0× FastFilter BlockedBloom at ≤ its FPR";
      boolean anyN = false;
      for (int n : ISSUE20_NS) {
        if (rows.stream().noneMatch(r -> r.n == n)) {
          continue;
        }
        anyN = true;
        List<Check> candidates = new ArrayList<>();
        for (Row r : rows) {
          if (r.n != n
              || r.family != Family.SIEVE
              || !isFlaglessCandidate(r.name, batch, simdPath)) {
            continue;
          }
          Optional<Row> ref = find(rows, FF_BLOCKED, n, r.bitsPerKeySetting);
          if (ref.isPresent()
              && r.hasFpr()
              && ref.get().hasFpr()
              && r.measuredFprLow() > ref.get().measuredFprHigh()) {
            continue; // a higher rate than FastFilter's: not "at equal or lower FPR"
          }
          candidates.add(
              compare(
                  id + " " + nLabel(n),
                  what,
                  rows,
                  n,
                  r.name,
                  FF_BLOCKED,
                  List.of(Metric.POS, Metric.NEG),
                  1.0));
        }
        Optional<Check> best =
            candidates.stream()
                .filter(c -> c.status() == Status.PASS || c.status() == Status.MISS)
                .min(Comparator.comparingDouble(Check::value));
        if (best.isPresent()) {
          checks.add(best.get());
        } else if (!candidates.isEmpty()) {
          checks.add(candidates.get(0));
        } else {
          checks.add(
              notRun(
                  id + " " + nLabel(n),
                  what,
                  n,
                  "no flagless mutable Sieve Bloom "
                      + (batch ? "batch " : "")
                      + "row at or under FastFilter's FPR in this run ("
                      + String.join(", ", flaglessMutableBlooms(simdPath))
                      + ")"));
        }
      }
      if (!anyN) {
        checks.add(notRun(id, what, N6, "none of 10^4, 10^6, 10^7, 10^8 in this run"));
      }
    }
    return checks;
  }

  /**
   * Whether {@code name} is a row of a flagless mutable Bloom: the filter as queried or its
   * fast-hash row ({@code batch} false), or its batch or fast-hash batch row ({@code batch} true).
   */
  static boolean isFlaglessCandidate(String name, boolean batch, boolean simdPath) {
    for (String base : flaglessMutableBlooms(simdPath)) {
      String fast = base + "-" + FAST_HASH;
      String suffix = batch ? SieveAdapters.BATCH_SUFFIX : "";
      if (name.equals(base + suffix) || name.equals(fast + suffix)) {
        return true;
      }
    }
    return false;
  }

  /** Issue 11's targets table. */
  static List<Check> primary(List<Row> rows) {
    List<Check> checks = new ArrayList<>();
    String bb = "blocked Bloom batch " + "%s ≤ %s× FastFilter BlockedBloom";
    checks.add(
        compare(
            "B1",
            String.format(bb, "negative", "1.0"),
            rows,
            N7,
            BLOCKED + "-batch",
            FF_BLOCKED,
            List.of(Metric.NEG),
            1.0));
    checks.add(
        compare(
            "B2",
            String.format(bb, "positive", "1.0"),
            rows,
            N7,
            BLOCKED + "-batch",
            FF_BLOCKED,
            List.of(Metric.POS),
            1.0));
    checks.add(
        compare(
            "B3",
            String.format(bb, "negative", "1.5"),
            rows,
            N6,
            BLOCKED + "-batch",
            FF_BLOCKED,
            List.of(Metric.NEG),
            1.5));
    checks.add(
        compare(
            "B4",
            String.format(bb, "positive", "1.5"),
            rows,
            N6,
            BLOCKED + "-batch",
            FF_BLOCKED,
            List.of(Metric.POS),
            1.5));
    checks.add(
        compare(
            "S1",
            "blocked Bloom single-key negative ≤ 1.8× FastFilter BlockedBloom",
            rows,
            N6,
            BLOCKED,
            FF_BLOCKED,
            List.of(Metric.NEG),
            1.8));
    checks.addAll(batchOverSingle(rows));
    checks.add(bestOf("X1", "Xor8", XOR8, rows));
    checks.add(bestOf("X2", "Binary Fuse 8", FUSE8, rows));
    checks.add(
        compare(
            "R1",
            "Ribbon single lookup (positive and negative) ≤ 1.6× blocked Bloom single",
            rows,
            N6,
            RIBBON,
            BLOCKED,
            List.of(Metric.POS, Metric.NEG),
            1.6));
    for (int n : new int[] {N6, N7}) {
      checks.add(
          compare(
              n == N6 ? "X3a" : "X3b",
              "Xor8 build ≤ 1.1× FastFilter Xor8, after warm-up",
              rows,
              n,
              XOR8,
              FF_XOR8,
              List.of(Metric.BUILD),
              1.1));
    }
    checks.add(contract(rows));
    return checks;
  }

  /** S2: each filter's batch row ≤ 0.65× its single row at 10^7 (positive and negative). */
  private static List<Check> batchOverSingle(List<Row> rows) {
    String what = "Sieve batch ≤ 0.65× Sieve single (positive and negative)";
    List<Check> checks = new ArrayList<>();
    for (Row batch : rows) {
      if (batch.n != N7 || batch.family != Family.SIEVE || !batch.isBatch()) {
        continue;
      }
      String single =
          batch.name.substring(0, batch.name.length() - SieveAdapters.BATCH_SUFFIX.length());
      checks.add(
          compare(
              "S2 " + single,
              what + ": " + single,
              rows,
              N7,
              batch.name,
              single,
              List.of(Metric.POS, Metric.NEG),
              0.65));
    }
    if (checks.isEmpty()) {
      checks.add(notRun("S2", what, N7, "no -batch row at n=" + nLabel(N7) + " in this run"));
    }
    return checks;
  }

  /**
   * X1/X2: the family's best real lookup row (its batch row, or a fast-hash row) ≤ 1.0× FastFilter
   * Xor8 at 10^6, positive and negative.
   */
  private static Check bestOf(String id, String label, String base, List<Row> rows) {
    String what =
        label
            + " lookup (positive and negative) ≤ 1.0× FastFilter Xor8, best of batch or fast-hash";
    List<Check> candidates = new ArrayList<>();
    for (Row r : rows) {
      if (r.n == N6 && r.family == Family.SIEVE && isBestOfCandidate(base, r.name)) {
        candidates.add(
            compare(id, what, rows, N6, r.name, FF_XOR8, List.of(Metric.POS, Metric.NEG), 1.0));
      }
    }
    Optional<Check> best =
        candidates.stream()
            .filter(c -> c.status() != Status.NOT_RUN && c.status() != Status.EXCLUDED)
            .min(Comparator.comparingDouble(Check::value));
    if (best.isPresent()) {
      return best.get();
    }
    return candidates.isEmpty()
        ? notRun(
            id,
            what,
            N6,
            base + "-batch (or a " + FAST_HASH + " row) not in this run at n=" + nLabel(N6))
        : candidates.get(0);
  }

  /**
   * Whether {@code name} is a real-lookup variant of {@code base}: its batch or a fast-hash row.
   */
  static boolean isBestOfCandidate(String base, String name) {
    if (name.equals(base + SieveAdapters.BATCH_SUFFIX)) {
      return true;
    }
    return name.startsWith(base + "-")
        && name.contains(FAST_HASH)
        && !name.endsWith(SieveAdapters.PREHASHED_SUFFIX);
  }

  /** The contract: no false negatives on any path of any row at any n. */
  private static Check contract(List<Row> rows) {
    String what = "no false negative in any path (single, batch, pre-hashed) of any filter";
    long total = 0;
    List<String> bad = new ArrayList<>();
    boolean any = false;
    for (Row r : rows) {
      if (r.falseNegatives < 0) {
        continue;
      }
      any = true;
      if (r.falseNegatives > 0) {
        total += r.falseNegatives;
        bad.add(r.name + " at n=" + nLabel(r.n) + ": " + r.falseNegatives);
      }
    }
    if (!any) {
      return new Check(
          "C", what, "every n", Status.NOT_RUN, Double.NaN, 0, "no set in this run", true);
    }
    return new Check(
        "C",
        what,
        "every n",
        total == 0 ? Status.PASS : Status.MISS,
        total,
        0,
        total == 0
            ? "every key of every row found"
            : "CONTRACT VIOLATION: " + String.join("; ", bad),
        true);
  }

  /** The older targets still worth a line, at the run's largest n. */
  static List<Check> secondary(List<Row> rows, double bloomEquivalentBitsPerKey) {
    List<Check> checks = new ArrayList<>();
    int n = rows.stream().mapToInt(r -> r.n).max().orElse(0);
    int nMin = rows.stream().mapToInt(r -> r.n).min().orElse(0);
    checks.add(
        secondary(
            compare(
                "T1",
                "blocked Bloom negative ≤ 1.3× one raw random read of the same footprint",
                rows,
                n,
                BLOCKED,
                "raw-read-1x",
                List.of(Metric.NEG),
                1.3)));
    checks.add(
        secondary(
            compare(
                "T3",
                "blocked Bloom negative ≤ 0.2× Guava BloomFilter",
                rows,
                n,
                BLOCKED,
                "guava-bloom",
                List.of(Metric.NEG),
                0.2)));
    String t5 =
        "Ribbon bits/key ≤ 1.06× log2(1/measured FPR) at bloom-equivalent "
            + fmt(bloomEquivalentBitsPerKey);
    Optional<Row> ribbon = find(rows, RIBBON, n, bloomEquivalentBitsPerKey);
    checks.add(
        ribbon.isEmpty()
            ? secondary(notRun("T5", t5, n, RIBBON + " not in this run"))
            : secondary(
                limit(
                    "T5",
                    t5,
                    n,
                    ribbon.get().overheadMeasured(),
                    1.06,
                    String.format(
                        Locale.ROOT,
                        "%.3f bits/key, floor %.3f",
                        ribbon.get().bitsPerKey(),
                        ribbon.get().floorBitsPerKey()))));
    Optional<Row> fuse = find(rows, FUSE8, n, bloomEquivalentBitsPerKey);
    checks.add(
        secondary(
            fuse.isEmpty()
                ? notRun("T6", "Binary Fuse 8 ≤ 9.1 bits/key", n, FUSE8 + " not in this run")
                : limit(
                    "T6", "Binary Fuse 8 ≤ 9.1 bits/key", n, fuse.get().bitsPerKey(), 9.1, "")));
    for (Row big : rows) {
      if (!isHeldToSecondary(big) || big.n != n) {
        continue;
      }
      String id = "T7 " + big.name;
      String what = big.name + " build ns/key flat in n: ≤ 1.5× its figure at n=" + nLabel(nMin);
      Optional<Row> small = find(rows, big.name, nMin, big.bitsPerKeySetting);
      if (n == nMin) {
        checks.add(secondary(notRun(id, what, n, "one key count in this run")));
      } else if (small.isEmpty()
          || Double.isNaN(small.get().buildNsPerKey)
          || Double.isNaN(big.buildNsPerKey)) {
        checks.add(secondary(notRun(id, what, n, "build time missing")));
      } else if (big.buildExcluded() || small.get().buildExcluded()) {
        checks.add(secondary(excluded(id, what, n, big.buildExcluded() ? big : small.get())));
      } else {
        checks.add(
            secondary(
                limit(
                    id,
                    what,
                    n,
                    big.buildNsPerKey / small.get().buildNsPerKey,
                    1.5,
                    String.format(
                        Locale.ROOT,
                        "%.1f vs %.1f ns/key",
                        big.buildNsPerKey,
                        small.get().buildNsPerKey))));
      }
    }
    for (Row r : rows) {
      if (!isHeldToSecondary(r) || r.n != n) {
        continue;
      }
      if (r.objectCount >= 0) {
        // a filter without per-key objects holds O(1) objects: allow 64 regardless of n
        checks.add(
            secondary(
                limit(
                    "T8 " + r.name,
                    r.name + " has no per-key objects (reachable objects ≤ 64)",
                    n,
                    r.objectCount,
                    64,
                    r.objectCount + " objects for " + r.n + " keys")));
      }
      if (r.buildAllocatedBytes >= 0) {
        checks.add(
            secondary(
                limit(
                    "T9 " + r.name,
                    r.name + " build memory ≤ 2× filter + input keys",
                    n,
                    (double) r.buildAllocatedBytes / (2.0 * r.sizeBytes() + 8.0 * r.n),
                    1.0,
                    String.format(
                        Locale.ROOT,
                        "allocated %,d B; filter %,d B; keys %,d B",
                        r.buildAllocatedBytes,
                        r.sizeBytes(),
                        8L * r.n))));
      }
    }
    return checks;
  }

  /**
   * Sieve's own filters as callers use them: not the batch/pre-hashed variants, not diagnostics.
   */
  private static boolean isHeldToSecondary(Row r) {
    return r.family == Family.SIEVE && !isDiagnostic(r) && !r.isBatch() && !r.isPrehashed();
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

  /**
   * {@code subject} over {@code reference} at {@code n} on each metric; the value held to the limit
   * is the largest of the ratios (every metric must pass).
   */
  static Check compare(
      String id,
      String what,
      List<Row> rows,
      int n,
      String subject,
      String reference,
      List<Metric> metrics,
      double limit) {
    if (rows.stream().noneMatch(r -> r.n == n)) {
      return notRun(id, what, n, "n=" + nLabel(n) + " not in this run");
    }
    Optional<Row> s = rows.stream().filter(r -> r.name.equals(subject) && r.n == n).findFirst();
    if (s.isEmpty()) {
      return notRun(id, what, n, subject + " not in this run");
    }
    Optional<Row> ref = find(rows, reference, n, s.get().bitsPerKeySetting);
    if (ref.isEmpty()) {
      return notRun(id, what, n, reference + " not in this run");
    }
    boolean lookups = metrics.contains(Metric.POS) || metrics.contains(Metric.NEG);
    boolean builds = metrics.contains(Metric.BUILD);
    for (Row x : List.of(s.get(), ref.get())) {
      if ((lookups && x.excluded()) || (builds && x.buildExcluded())) {
        return excluded(id, what, n, x);
      }
    }
    double worst = Double.NEGATIVE_INFINITY;
    List<String> parts = new ArrayList<>();
    for (Metric m : metrics) {
      double a = m.value.applyAsDouble(s.get());
      double b = m.value.applyAsDouble(ref.get());
      if (Double.isNaN(a) || Double.isNaN(b)) {
        return notRun(id, what, n, "timings missing");
      }
      worst = Math.max(worst, a / b);
      parts.add(
          String.format(
              Locale.ROOT,
              "%s %s ± %s vs %s ± %s ns%s (%.2f×)",
              m.label,
              Cells.num(a, 2),
              Cells.num(m.error.applyAsDouble(s.get()), 2),
              Cells.num(b, 2),
              Cells.num(m.error.applyAsDouble(ref.get()), 2),
              m == Metric.BUILD ? "/key" : "",
              a / b));
    }
    return limit(
        id, what, n, worst, limit, subject + " vs " + reference + ": " + String.join("; ", parts));
  }

  private static Check limit(
      String id, String what, int n, double value, double limit, String detail) {
    return new Check(
        id,
        what,
        "n=" + nLabel(n),
        value <= limit ? Status.PASS : Status.MISS,
        value,
        limit,
        detail,
        true);
  }

  /** A target not computed because {@code flagged} is not at steady state. */
  static Check excluded(String id, String what, int n, Row flagged) {
    return new Check(
        id,
        what,
        "n=" + nLabel(n),
        Status.EXCLUDED,
        Double.NaN,
        Double.NaN,
        flagged.name
            + " at n="
            + nLabel(flagged.n)
            + " not at steady state: "
            + (flagged.unsteady != null ? flagged.unsteady : flagged.buildUnsteady),
        true);
  }

  private static Check notRun(String id, String what, int n, String why) {
    return new Check(id, what, "n=" + nLabel(n), Status.NOT_RUN, Double.NaN, Double.NaN, why, true);
  }

  private static Check secondary(Check c) {
    return new Check(
        c.id(), c.target(), c.at(), c.status(), c.value(), c.limit(), c.detail(), false);
  }

  /** {@code 10^k} for a power of ten, else the number with separators. */
  public static String nLabel(int n) {
    int k = 0;
    long p = 1;
    while (p < n) {
      p *= 10;
      k++;
    }
    return p == n && k > 0 ? "10^" + k : String.format(Locale.ROOT, "%,d", n);
  }

  private static String fmt(double d) {
    return d == Math.rint(d) ? Long.toString((long) d) : Double.toString(d);
  }
}
