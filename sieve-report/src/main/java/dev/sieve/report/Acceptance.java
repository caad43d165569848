package dev.sieve.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.ToDoubleFunction;

/**
 * The acceptance check's goals, held against one report's figures: ratios of Sieve's rows to their
 * peers ({@link AcceptanceLookups}), the fastest Bloom filter that needs no JVM flag against
 * FastFilter's ({@link AcceptanceFlagless}), space and build cost ({@link AcceptanceFootprint}) and
 * the range filters ({@link AcceptanceRange}). Each goal is named by what it measures, and is
 * stated at the key count it holds for: PASS or MISS with the measured value and its limit, NOT RUN
 * where the report lacks that n or a structure the goal needs, EXCLUDED where a row it needs is not
 * at steady state. {@link AcceptanceCheck} runs them over a report's {@code results.json}; the
 * report itself prints none of them.
 */
public final class Acceptance {
  private Acceptance() {}

  /** The key counts most goals are stated for. */
  public static final int N6 = 1_000_000;

  public static final int N7 = 10_000_000;

  /** FastFilter's BlockedBloom, the mutable Bloom filters' peer. */
  public static final String FF_BLOCKED = "fastfilter-blocked-bloom";

  /** FastFilter's Xor8, the static filters' peer. */
  public static final String FF_XOR8 = "fastfilter-xor8";

  public static final String XOR8 = "sieve-xor8";
  public static final String FUSE8 = "sieve-binary-fuse8";

  /** A goal's outcome. */
  public enum Status {
    PASS("PASS"),
    MISS("MISS"),
    NOT_RUN("NOT RUN"),
    /** A row the goal needs is not at steady state ({@link SteadyState}): no ratio taken. */
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
   * One goal's outcome.
   *
   * @param name what it measures, short and unique within one check (it names the goal)
   * @param what what is asked, in words, with its limit
   * @param at the key count it is stated for ("n=10^6", "every n", ...)
   * @param status PASS, MISS, NOT RUN or EXCLUDED
   * @param value the measured ratio (or count), {@code NaN} when not run
   * @param limit the limit it is held to
   * @param detail the figures behind the value, or why it did not run
   */
  public record Check(
      String name,
      String what,
      String at,
      Status status,
      double value,
      double limit,
      String detail) {}

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

  /**
   * Every goal but the range ones, for a run whose SIMD path ran (the blocked and split-block Bloom
   * rows are then no candidates for "without any JVM flag").
   */
  public static List<Check> check(List<Row> rows, double bloomEquivalentBitsPerKey) {
    return check(rows, bloomEquivalentBitsPerKey, true);
  }

  /**
   * Every goal but the range ones: the peer ratios, the flagless Bloom filter ({@code simdPath}:
   * whether the run's blocked and split-block Bloom rows took the SIMD path), space and build.
   */
  public static List<Check> check(
      List<Row> rows, double bloomEquivalentBitsPerKey, boolean simdPath) {
    List<Check> checks = new ArrayList<>(AcceptanceLookups.checks(rows));
    checks.addAll(AcceptanceFlagless.checks(rows, simdPath));
    checks.addAll(AcceptanceFootprint.checks(rows, bloomEquivalentBitsPerKey));
    return checks;
  }

  /** Every goal, the range ones from {@code range} ({@code null}: NOT RUN). */
  public static List<Check> check(
      List<Row> rows,
      double bloomEquivalentBitsPerKey,
      boolean simdPath,
      RangeFigures.Section range) {
    List<Check> checks = new ArrayList<>(check(rows, bloomEquivalentBitsPerKey, simdPath));
    checks.addAll(AcceptanceRange.checks(range));
    return checks;
  }

  /**
   * {@code subject} over {@code reference} at {@code n} on each metric; the value held to the limit
   * is the largest of the ratios (every metric must pass).
   */
  static Check compare(
      String name,
      String what,
      List<Row> rows,
      int n,
      String subject,
      String reference,
      List<Metric> metrics,
      double limit) {
    if (rows.stream().noneMatch(r -> r.n == n)) {
      return notRun(name, what, n, "n=" + Names.nLabel(n) + " not in this run");
    }
    Optional<Row> s = rows.stream().filter(r -> r.name.equals(subject) && r.n == n).findFirst();
    if (s.isEmpty()) {
      return notRun(name, what, n, subject + " not in this run");
    }
    Optional<Row> ref = Names.find(rows, reference, n, s.get().bitsPerKeySetting);
    if (ref.isEmpty()) {
      return notRun(name, what, n, reference + " not in this run");
    }
    boolean lookups = metrics.contains(Metric.POS) || metrics.contains(Metric.NEG);
    boolean builds = metrics.contains(Metric.BUILD);
    for (Row x : List.of(s.get(), ref.get())) {
      if ((lookups && x.excluded()) || (builds && x.buildExcluded())) {
        return excluded(name, what, n, x);
      }
    }
    double worst = Double.NEGATIVE_INFINITY;
    List<String> parts = new ArrayList<>();
    for (Metric m : metrics) {
      double a = m.value.applyAsDouble(s.get());
      double b = m.value.applyAsDouble(ref.get());
      if (Double.isNaN(a) || Double.isNaN(b)) {
        return notRun(name, what, n, "timings missing");
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
        name,
        what,
        n,
        worst,
        limit,
        subject + " vs " + reference + ": " + String.join("; ", parts));
  }

  /** PASS where {@code value} is at most {@code limit}, else MISS. */
  static Check limit(String name, String what, int n, double value, double limit, String detail) {
    return new Check(
        name,
        what,
        "n=" + Names.nLabel(n),
        value <= limit ? Status.PASS : Status.MISS,
        value,
        limit,
        detail);
  }

  /** A goal not computed because {@code flagged} is not at steady state. */
  static Check excluded(String name, String what, int n, Row flagged) {
    return new Check(
        name,
        what,
        "n=" + Names.nLabel(n),
        Status.EXCLUDED,
        Double.NaN,
        Double.NaN,
        flagged.name
            + " at n="
            + Names.nLabel(flagged.n)
            + " not at steady state: "
            + (flagged.unsteady != null ? flagged.unsteady : flagged.buildUnsteady));
  }

  static Check notRun(String name, String what, int n, String why) {
    return new Check(
        name, what, "n=" + Names.nLabel(n), Status.NOT_RUN, Double.NaN, Double.NaN, why);
  }
}
