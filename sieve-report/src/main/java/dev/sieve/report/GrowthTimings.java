package dev.sieve.report;

import dev.sieve.report.GrowthVerdicts.Outcome;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * The growth report's timings: the figures JMH gave for the growable {@link
 * dev.sieve.expand.ExpandableFilter} beside a right-sized blocked Bloom filter, the worst single
 * insert, and their verdicts against the library's speed goals (lookups at most {@value
 * #LOOKUP_GOAL}× the right-sized filter's, amortized inserts at most {@value #INSERT_GOAL}× its
 * add, no single insert over {@value #WORST_INSERT_GOAL_NS} ns, two writers no slower than one). A
 * ratio is judged only when the interval spanned by both sides' 99.9% errors lies wholly on one
 * side of its goal: a figure whose errors straddle the goal is printed, but not judged. The runs
 * themselves are {@link GrowthTimingsRun}'s.
 */
final class GrowthTimings {
  private GrowthTimings() {}

  /** Lookups of the expandable filter ÷ the right-sized filter's, at most. */
  static final double LOOKUP_GOAL = 1.5;

  /** The expandable filter's amortized insert ÷ the right-sized filter's add, at most. */
  static final double INSERT_GOAL = 2.0;

  /** The worst single insert, at most (1 ms). */
  static final long WORST_INSERT_GOAL_NS = 1_000_000;

  /** The benchmark of a {@link Timing}: lookups ({@code GrowthQueryBenchmark}). */
  static final String LOOKUP = "lookup";

  /** Amortized inserts ({@code GrowthInsertBenchmark}: one fill of n keys, ÷ n). */
  static final String INSERT = "insert";

  /** Fills by concurrent writers ({@code ConcurrentWritersBenchmark}). */
  static final String WRITERS = "writers";

  /** The verdict of figures whose errors straddle the goal. */
  static final String UNDECIDED = "errors too large to decide";

  /**
   * One JMH figure: the mean score and JMH's 99.9% error (half the interval; NaN where one
   * iteration gives no estimate).
   *
   * @param benchmark {@link #LOOKUP}, {@link #INSERT} or {@link #WRITERS}
   * @param variant {@code positive} or {@code negative} (lookups), {@code fill} (inserts), the
   *     number of writers (writers)
   * @param unit {@code ns/lookup}, {@code ns/insert} or {@code ms/fill}
   */
  record Timing(
      String benchmark,
      long n,
      double fpRate,
      String structure,
      String variant,
      double score,
      double error,
      String unit) {
    double low() {
      return Double.isNaN(error) ? Double.NEGATIVE_INFINITY : score - error;
    }

    double high() {
      return Double.isNaN(error) ? Double.POSITIVE_INFINITY : score + error;
    }
  }

  /**
   * The worst single insert of one fill of {@code n} keys, as {@code GrowthInsertLatency} prints
   * it: the insert's time and index, whether that insert grew the filter (its size changed: a
   * doubling step), the growth steps of the fill and the timer's own cost (in every figure).
   */
  record WorstInsert(
      long n,
      double fpRate,
      String structure,
      long maxNs,
      long index,
      boolean grew,
      int growthSteps,
      long p9999Ns,
      long timerNs) {}

  /**
   * A ratio with the interval spanned by both sides' errors: {@code low} = (a − error) ÷ (b +
   * error), {@code high} = (a + error) ÷ (b − error), infinite where an error is unknown or the
   * divisor's interval reaches 0.
   */
  record Ratio(double value, double low, double high) {
    static Ratio of(Timing a, Timing b) {
      double high = b.low() > 0 ? a.high() / b.low() : Double.POSITIVE_INFINITY;
      double low = Math.max(0, a.low() / b.high());
      return new Ratio(a.score() / b.score(), Double.isNaN(low) ? 0 : low, high);
    }

    /** MET when the whole interval is at or under {@code goal}, MISSED when wholly over. */
    Outcome against(double goal) {
      return high <= goal ? Outcome.MET : low > goal ? Outcome.MISSED : Outcome.NOT_MEASURED;
    }

    String text() {
      return String.format(
          Locale.ROOT,
          "%.2f× [%.2f×, %s]",
          value,
          low,
          Double.isInfinite(high) ? "∞" : String.format(Locale.ROOT, "%.2f×", high));
    }
  }

  /** One timing verdict at one size and rate. */
  record Verdict(long n, double fpRate, String what, String goal, Outcome outcome, String figure) {
    String line() {
      return String.format(
          Locale.ROOT,
          "timings n=%s f=%g %s, %s: %s (%s)",
          Names.nLabel(n),
          fpRate,
          what,
          goal,
          outcome.mark,
          figure);
    }
  }

  /** {@return the figure of {@code benchmark}, {@code structure} and {@code variant}, if run} */
  static Optional<Timing> find(
      List<Timing> timings, long n, double f, String benchmark, String structure, String variant) {
    return timings.stream()
        .filter(
            t ->
                t.n() == n
                    && t.fpRate() == f
                    && t.benchmark().equals(benchmark)
                    && t.structure().equals(structure)
                    && t.variant().equals(variant))
        .findFirst();
  }

  /**
   * The verdicts of every size and rate in {@code timings}: the lookup ratios (single and batch,
   * negative and positive), the amortized insert ratio, two writers against one, and each worst
   * insert. A ratio one of whose sides was not run is left out.
   */
  static List<Verdict> verdicts(List<Timing> timings, List<WorstInsert> worst) {
    List<Verdict> verdicts = new ArrayList<>();
    Set<List<Object>> sizes = new LinkedHashSet<>();
    timings.forEach(t -> sizes.add(List.of(t.n(), t.fpRate())));
    for (List<Object> size : sizes) {
      long n = (Long) size.get(0);
      double f = (Double) size.get(1);
      String lookupGoal = String.format(Locale.ROOT, "≤ %.1f× the right-sized filter", LOOKUP_GOAL);
      for (String form : new String[] {"", GrowthTimingsRun.BATCH}) {
        for (String variant : new String[] {"negative", "positive"}) {
          String what =
              String.format(
                  Locale.ROOT, "expandable%s ÷ rightsized%s, %s lookups", form, form, variant);
          ratioVerdict(timings, n, f, LOOKUP, "expandable" + form, "rightsized" + form, variant)
              .ifPresent(r -> verdicts.add(judged(n, f, what, lookupGoal, r, LOOKUP_GOAL)));
        }
      }
      ratioVerdict(timings, n, f, INSERT, "expandable", "rightsized", "fill")
          .ifPresent(
              r ->
                  verdicts.add(
                      judged(
                          n,
                          f,
                          "expandable ÷ rightsized, amortized insert",
                          String.format(
                              Locale.ROOT, "≤ %.0f× the blocked Bloom filter's add", INSERT_GOAL),
                          r,
                          INSERT_GOAL)));
      Optional<Timing> one = find(timings, n, f, WRITERS, "expandable", "1");
      Optional<Timing> two = find(timings, n, f, WRITERS, "expandable", "2");
      if (one.isPresent() && two.isPresent()) {
        verdicts.add(writers(n, f, one.get(), two.get()));
      }
    }
    for (WorstInsert w : worst) {
      verdicts.add(
          new Verdict(
              w.n(),
              w.fpRate(),
              w.structure() + ", worst single insert",
              "≤ 1 ms",
              w.maxNs() <= WORST_INSERT_GOAL_NS ? Outcome.MET : Outcome.MISSED,
              worstText(w)));
    }
    return verdicts;
  }

  private static Optional<Ratio> ratioVerdict(
      List<Timing> timings,
      long n,
      double f,
      String benchmark,
      String a,
      String b,
      String variant) {
    Optional<Timing> x = find(timings, n, f, benchmark, a, variant);
    Optional<Timing> y = find(timings, n, f, benchmark, b, variant);
    return x.isPresent() && y.isPresent()
        ? Optional.of(Ratio.of(x.get(), y.get()))
        : Optional.empty();
  }

  private static Verdict judged(long n, double f, String what, String goal, Ratio r, double limit) {
    Outcome o = r.against(limit);
    return new Verdict(
        n, f, what, goal, o, r.text() + (o == Outcome.NOT_MEASURED ? ": " + UNDECIDED : ""));
  }

  /**
   * Two writers against one: MET only when the two writers' whole interval lies under the one
   * writer's, MISSED when wholly over; intervals that overlap (often, with few free cores) are not
   * readable.
   */
  static Verdict writers(long n, double f, Timing one, Timing two) {
    Outcome o =
        two.high() < one.low()
            ? Outcome.MET
            : two.low() > one.high() ? Outcome.MISSED : Outcome.NOT_MEASURED;
    return new Verdict(
        n,
        f,
        "expandable, 2 writers ÷ 1 writer, fill time",
        "2 writers no slower than one",
        o,
        Ratio.of(two, one).text()
            + (o == Outcome.NOT_MEASURED
                ? ": not readable, the error intervals of 1 and 2 writers overlap"
                : ""));
  }

  /** {@return the worst insert's figure: time, which insert, whether it began a doubling} */
  static String worstText(WorstInsert w) {
    return String.format(
        Locale.ROOT,
        "%,d ns at insert #%,d of %,d, %s; %d growth steps in the fill; p99.99 %,d ns;"
            + " timer %d ns included",
        w.maxNs(),
        w.index(),
        w.n(),
        w.grew() ? "which grew the filter (a doubling step)" : "which did not grow the filter",
        w.growthSteps(),
        w.p9999Ns(),
        w.timerNs());
  }

  /** {@code growth-timings.csv}: every figure, then each worst insert (its index as variant). */
  static String csv(List<Timing> timings, List<WorstInsert> worst) {
    StringBuilder csv =
        new StringBuilder("benchmark,n,fp_rate,structure,variant,score,error999,unit\n");
    for (Timing t : timings) {
      csv.append(
          String.format(
              Locale.ROOT,
              "%s,%d,%g,%s,%s,%.6g,%.6g,%s%n",
              t.benchmark(),
              t.n(),
              t.fpRate(),
              t.structure(),
              t.variant(),
              t.score(),
              t.error(),
              t.unit()));
    }
    for (WorstInsert w : worst) {
      csv.append(
          String.format(
              Locale.ROOT,
              "worst-insert,%d,%g,%s,insert #%d%s,%d,,ns%n",
              w.n(),
              w.fpRate(),
              w.structure(),
              w.index(),
              w.grew() ? " (grew the filter)" : "",
              w.maxNs()));
    }
    return csv.toString();
  }

  /**
   * The markdown section: {@code about} (how it was measured), the verdicts, and the figures' table
   * (lookups with positive and negative side by side).
   */
  static String markdown(
      String about, List<Timing> timings, List<WorstInsert> worst, List<Verdict> verdicts) {
    StringBuilder md = new StringBuilder("\n## Timings\n\n").append(about).append("\n\n");
    md.append("| n | f | measured | goal | verdict | figure [99.9% interval] |\n")
        .append("|---:|---:|---|---|:---:|---|\n");
    for (Verdict v : verdicts) {
      md.append(
          String.format(
              Locale.ROOT,
              "| %s | %g | %s | %s | %s | %s |%n",
              Names.nLabel(v.n()),
              v.fpRate(),
              v.what(),
              v.goal(),
              v.outcome().mark,
              v.figure()));
    }
    md.append("\n| n | f | benchmark | structure | figure ± 99.9% error | unit |\n")
        .append("|---:|---:|---|---|---|---|\n");
    for (Timing t : timings) {
      md.append(
          String.format(
              Locale.ROOT,
              "| %s | %g | %s | %s | %s%s | %s |%n",
              Names.nLabel(t.n()),
              t.fpRate(),
              t.benchmark().equals(WRITERS) ? t.variant() + " writer(s)" : t.benchmark(),
              t.structure(),
              t.benchmark().equals(LOOKUP) ? t.variant() + ": " : "",
              plusMinus(t),
              t.unit()));
    }
    for (WorstInsert w : worst) {
      md.append(
          String.format(
              Locale.ROOT,
              "| %s | %g | worst single insert | %s | %s | ns |%n",
              Names.nLabel(w.n()),
              w.fpRate(),
              w.structure(),
              worstText(w)));
    }
    return md.toString();
  }

  /** {@return "12.3 ± 0.4", or "12.3 ± ?" where JMH gave no error} */
  static String plusMinus(Timing t) {
    return number(t.score(), "%.4g")
        + " ± "
        + (Double.isNaN(t.error()) ? "?" : number(t.error(), "%.2g"));
  }

  /** {@code x} in {@code format} (significant digits), or whole where it has more digits. */
  private static String number(double x, String format) {
    return String.format(Locale.ROOT, Math.abs(x) >= 100 ? "%.0f" : format, x);
  }
}
