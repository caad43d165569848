package dev.sieve.report;

import static dev.sieve.report.GrowthOperations.interval;
import static dev.sieve.report.GrowthOperations.pct;

import dev.sieve.report.GrowthOperations.CliSizing;
import dev.sieve.report.GrowthOperations.Figures;
import dev.sieve.report.GrowthOperations.Fpr;
import dev.sieve.report.GrowthOperations.RemoveCompact;
import dev.sieve.report.GrowthOperations.Sizing;
import dev.sieve.report.GrowthOperations.Union;
import dev.sieve.report.GrowthVerdicts.Outcome;
import dev.sieve.report.GrowthVerdicts.Verdict;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.function.DoubleToLongFunction;

/**
 * The growth report's section "Operations: union, remove, compact and sizing" from {@link
 * GrowthOperations}' figures: the tables and verdict lines appended to {@code growth.md}, every
 * figure in {@code growth-operations.csv} ({@link GrowthOperationsCsv}), and the verdicts printed
 * as the growth verdicts are.
 */
final class GrowthOperationsSection {
  private GrowthOperationsSection() {}

  /** The section's heading in {@code growth.md}. */
  static final String HEADING = "## Operations: union, remove, compact and sizing";

  /** A union's memory at most this many times one filter given all the keys. */
  static final double UNION_MEMORY_TARGET = 1.1;

  /** After removing half the keys and shrinkToFit(), memory at most this × right-sized. */
  static final double COMPACT_MEMORY_TARGET = 1.5;

  /** The modelled rate of a filter built for its key count, ÷ f: at least this, at most 1. */
  static final double SIZING_LOWEST_RATIO = 0.5;

  /** The verdicts' rate for the sweep, which spans every rate swept. */
  static final double EVERY_RATE = Double.NaN;

  /**
   * Measures the operations at each of {@code rates} with {@code queries} absent hashes, appends
   * the section to {@code out/growth.md} (written before), writes {@code growth-operations.csv} and
   * prints the verdicts.
   */
  static Figures run(Path out, List<Double> rates, long maxN, DoubleToLongFunction queries)
      throws IOException {
    long begin = System.nanoTime();
    Figures figures = GrowthOperations.measure(rates, maxN, queries);
    System.out.printf(
        Locale.ROOT,
        "operations measured at %,d keys (%.0f s)%n",
        GrowthOperations.keysFor(maxN),
        (System.nanoTime() - begin) / 1e9);
    write(out, figures);
    return figures;
  }

  static void write(Path out, Figures figures) throws IOException {
    Files.createDirectories(out);
    List<Verdict> verdicts = verdicts(figures);
    Files.writeString(
        out.resolve("growth.md"),
        markdown(figures, verdicts),
        StandardOpenOption.CREATE,
        StandardOpenOption.APPEND);
    Files.writeString(out.resolve("growth-operations.csv"), GrowthOperationsCsv.csv(figures));
    for (Verdict v : verdicts) {
      System.out.printf(
          Locale.ROOT,
          "%s f=%s %s: %s (%s)%n",
          v.structure(),
          rate(v.fpRate()),
          v.target(),
          v.outcome().mark,
          v.figure());
    }
  }

  private static Outcome outcome(boolean met) {
    return met ? Outcome.MET : Outcome.MISSED;
  }

  private static String rate(double f) {
    return Double.isNaN(f) ? "every rate swept" : String.format(Locale.ROOT, "%g", f);
  }

  private static boolean inSizingWindow(double ratio) {
    return ratio >= SIZING_LOWEST_RATIO && ratio <= 1;
  }

  /** {@return the section's verdicts, per rate: union, remove and compact, sizing} */
  static List<Verdict> verdicts(Figures figures) {
    List<Verdict> v = new ArrayList<>();
    for (Union u : figures.unions()) {
      double f = u.fpRate();
      v.add(
          new Verdict(
              "union",
              f,
              String.format(
                  Locale.ROOT,
                  "memory ≤ %.1f× one filter given the same keys",
                  UNION_MEMORY_TARGET),
              outcome(u.memoryRatio() <= UNION_MEMORY_TARGET),
              String.format(Locale.ROOT, "%.3f× at %,d keys", u.memoryRatio(), u.keys())));
      v.add(
          new Verdict(
              "union",
              f,
              "FPR ≤ f at the 99.9% upper bound",
              outcome(u.union().upper() <= f),
              String.format(
                  Locale.ROOT,
                  "%s %s, model %s; the sides %s + %s = %s",
                  pct(u.union().measured()),
                  interval(u.union()),
                  pct(u.unionModel()),
                  pct(u.sideA().measured()),
                  pct(u.sideB().measured()),
                  pct(u.sidesSum()))));
      v.add(
          new Verdict(
              "union of two filters built at f/2",
              f,
              "FPR ≤ f at the 99.9% upper bound",
              outcome(u.recipe().upper() <= f),
              String.format(
                  Locale.ROOT,
                  "%s %s, model %s",
                  pct(u.recipe().measured()),
                  interval(u.recipe()),
                  pct(u.recipeModel()))));
      v.add(
          new Verdict(
              "union",
              f,
              "no false negative among the keys of both sides",
              outcome(u.falseNegatives() == 0 && u.recipeFalseNegatives() == 0),
              String.format(
                  Locale.ROOT,
                  "%d of %,d absent (the f/2 recipe: %d)",
                  u.falseNegatives(),
                  u.keys(),
                  u.recipeFalseNegatives())));
    }
    for (RemoveCompact r : figures.removes()) {
      double f = r.fpRate();
      String label = "remove and compact, " + r.label();
      v.add(
          new Verdict(
              label,
              f,
              "every remove of an added key returns true",
              outcome(r.removeFailures() == 0),
              String.format(
                  Locale.ROOT, "%d of %,d returned false", r.removeFailures(), r.keys() / 2)));
      double worst =
          Math.max(
              r.afterRemove().upper(), Math.max(r.afterCompact().upper(), r.afterShrink().upper()));
      v.add(
          new Verdict(
              label,
              f,
              "FPR ≤ f at the 99.9% upper bound, after the removes, compact() and shrinkToFit()",
              outcome(worst <= f),
              String.format(
                  Locale.ROOT,
                  "%s %s, %s %s, %s %s",
                  pct(r.afterRemove().measured()),
                  interval(r.afterRemove()),
                  pct(r.afterCompact().measured()),
                  interval(r.afterCompact()),
                  pct(r.afterShrink().measured()),
                  interval(r.afterShrink()))));
      v.add(
          new Verdict(
              label,
              f,
              "no false negative among the remaining keys after each",
              outcome(
                  r.removedFalseNegatives() == 0
                      && r.compactFalseNegatives() == 0
                      && r.shrinkFalseNegatives() == 0),
              String.format(
                  Locale.ROOT,
                  "%d, %d and %d of %,d absent",
                  r.removedFalseNegatives(),
                  r.compactFalseNegatives(),
                  r.shrinkFalseNegatives(),
                  r.remaining())));
      v.add(
          new Verdict(
              label,
              f,
              String.format(
                  Locale.ROOT,
                  "memory ≤ %.1f× right-sized for the remaining keys after shrinkToFit()",
                  COMPACT_MEMORY_TARGET),
              outcome(r.ratioShrunk() <= COMPACT_MEMORY_TARGET),
              String.format(
                  Locale.ROOT,
                  "%.2f× (%s), after compact() %.2f× (%d halving%s), %.2f× before",
                  r.ratioShrunk(),
                  r.refitted() ? "re-fitted" : "not re-fitted",
                  r.ratioAfter(),
                  r.halvings(),
                  r.halvings() == 1 ? "" : "s",
                  r.ratioBefore())));
    }
    List<Sizing> sweep = figures.sweep();
    if (!sweep.isEmpty()) {
      Sizing low = sweep.stream().min(Comparator.comparingDouble(Sizing::ratio)).orElseThrow();
      Sizing high = sweep.stream().max(Comparator.comparingDouble(Sizing::ratio)).orElseThrow();
      long outside = sweep.stream().filter(s -> !inSizingWindow(s.ratio())).count();
      v.add(
          new Verdict(
              "sizing, expectedKeys(n)",
              EVERY_RATE,
              "modelled rate at n keys within [f/2, f]",
              outcome(outside == 0),
              String.format(
                  Locale.ROOT,
                  "modelled ÷ f from %.3f (f = %.3g) to %.3f (f = %.3g); %d of %d rates outside",
                  low.ratio(),
                  low.fpRate(),
                  high.ratio(),
                  high.fpRate(),
                  outside,
                  sweep.size())));
    }
    for (CliSizing c : figures.cli()) {
      double f = c.fpRate();
      v.add(
          new Verdict(
              "sizing, sieve build's path",
              f,
              "modelled rate at n keys within [f/2, f]",
              outcome(inSizingWindow(c.cliRatio())),
              String.format(Locale.ROOT, "modelled ÷ f = %.3f", c.cliRatio())));
      Fpr worse = c.hinted().upper() >= c.cli().upper() ? c.hinted() : c.cli();
      v.add(
          new Verdict(
              "sizing, both paths",
              f,
              "FPR ≤ f at the 99.9% upper bound at n keys",
              outcome(worse.upper() <= f),
              String.format(
                  Locale.ROOT,
                  "expectedKeys(n) %s %s, sieve build's path %s %s",
                  pct(c.hinted().measured()),
                  interval(c.hinted()),
                  pct(c.cli().measured()),
                  interval(c.cli()))));
    }
    return v;
  }

  /** {@return the section's markdown: what was done, a table per operation, the verdicts} */
  static String markdown(Figures figures, List<Verdict> verdicts) {
    StringBuilder md = new StringBuilder("\n").append(HEADING).append("\n\n");
    long keys = figures.unions().isEmpty() ? 0 : figures.unions().get(0).keys();
    md.append(
        String.format(
            Locale.ROOT,
            "What ExpandableFilter promises about its other operations, measured at %,d keys (the"
                + " run's count, at most %,d). Union: two unhinted filters grown from the smallest"
                + " table with half the keys each, merged, against one unhinted filter given all"
                + " of them; a union's rate is the sum of both sides' (the sides' measured rates"
                + " and their sum are shown), so the recipe for keeping f is to build each side at"
                + " f/2, measured too. Remove and compact: a filter of all the keys (unhinted, and"
                + " sized with expectedKeys), the first half removed, then compact(), then"
                + " shrinkToFit(); memory per remaining key against a blocked Bloom filter"
                + " right-sized for them. Sizing: a"
                + " filter built with expectedKeys(%,d) and given that many keys, its modelled"
                + " rate ÷ f over %d rates from 10^-4 to 0.2 and the report's; and the path of"
                + " `sieve build --type expandable --fp-rate f` (the registry type's builder with"
                + " the rate, built from the keys: a different entry point from the hint, sized"
                + " by the same rule), at the report's rates. FPR over the same absent queries as"
                + " the checkpoints, with its 99.9%% Wilson interval; false negatives are added"
                + " keys answered absent; bits are sizeInBits(), which counts both tables while a"
                + " doubling is under way and a next table allocated ahead of one.%n%n",
            keys,
            GrowthOperations.MAX_KEYS,
            GrowthOperations.SIZING_KEYS,
            figures.sweep().size()));
    md.append("### Union\n\n")
        .append(
            "| f | keys | union bits/key | one filter bits/key | union ÷ one | union FPR"
                + " | 99.9% interval | model | side A FPR | side B FPR | sides' sum"
                + " | false negatives | f/2 recipe FPR | 99.9% interval | model"
                + " | false negatives |\n"
                + "|---:|---:|---:|---:|---:|---:|---|---:|---:|---:|---:|---:|---:|---|---:|---:|\n");
    for (Union u : figures.unions()) {
      md.append(
          String.format(
              Locale.ROOT,
              "| %g | %,d | %.2f | %.2f | %.3f× | %s | %s | %s | %s | %s | %s | %d | %s | %s | %s"
                  + " | %d |%n",
              u.fpRate(),
              u.keys(),
              (double) u.unionBits() / u.keys(),
              (double) u.oneBits() / u.keys(),
              u.memoryRatio(),
              pct(u.union().measured()),
              interval(u.union()),
              pct(u.unionModel()),
              pct(u.sideA().measured()),
              pct(u.sideB().measured()),
              pct(u.sidesSum()),
              u.falseNegatives(),
              pct(u.recipe().measured()),
              interval(u.recipe()),
              pct(u.recipeModel()),
              u.recipeFalseNegatives()));
    }
    md.append("\n### Remove and compact\n\n")
        .append(
            "| f | filter | keys | removed | removes false | FPR after removes | 99.9% interval"
                + " | false negatives | bits/remaining key | ÷ right-sized | halvings"
                + " | bits/remaining key after compact() | ÷ right-sized | FPR after compact()"
                + " | 99.9% interval | false negatives | after shrinkToFit(): bits/remaining key"
                + " | ÷ right-sized | FPR | 99.9% interval | false negatives |\n"
                + "|---:|---|---:|---:|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|---|---:"
                + "|---:|---:|---:|---|---:|\n");
    for (RemoveCompact r : figures.removes()) {
      md.append(
          String.format(
              Locale.ROOT,
              "| %g | %s | %,d | %,d | %d | %s | %s | %d | %.2f | %.2f× | %d | %.2f | %.2f× | %s"
                  + " | %s | %d | %.2f | %.2f× | %s | %s | %d |%n",
              r.fpRate(),
              r.label(),
              r.keys(),
              r.keys() / 2,
              r.removeFailures(),
              pct(r.afterRemove().measured()),
              interval(r.afterRemove()),
              r.removedFalseNegatives(),
              (double) r.bitsBefore() / r.remaining(),
              r.ratioBefore(),
              r.halvings(),
              (double) r.bitsAfter() / r.remaining(),
              r.ratioAfter(),
              pct(r.afterCompact().measured()),
              interval(r.afterCompact()),
              r.compactFalseNegatives(),
              (double) r.bitsShrunk() / r.remaining(),
              r.ratioShrunk(),
              pct(r.afterShrink().measured()),
              interval(r.afterShrink()),
              r.shrinkFalseNegatives()));
    }
    md.append(
            String.format(Locale.ROOT, "%n### Sizing (%,d keys)%n%n", GrowthOperations.SIZING_KEYS))
        .append(
            "| f | expectedKeys(n): modelled ÷ f | FPR | 99.9% interval | sieve build's path:"
                + " modelled ÷ f | FPR | 99.9% interval |\n"
                + "|---:|---:|---:|---|---:|---:|---|\n");
    for (CliSizing c : figures.cli()) {
      md.append(
          String.format(
              Locale.ROOT,
              "| %g | %.3f | %s | %s | %.3f | %s | %s |%n",
              c.fpRate(),
              c.hintedModel() / c.fpRate(),
              pct(c.hinted().measured()),
              interval(c.hinted()),
              c.cliRatio(),
              pct(c.cli().measured()),
              interval(c.cli())));
    }
    md.append(
        "\nThe sweep's every rate and ratio are in `growth-operations.csv`.\n\n"
            + "### Verdicts: operations\n\n"
            + "| f | operation | target | verdict | figure |\n|---:|---|---|:---:|---|\n");
    for (Verdict v : verdicts) {
      md.append(
          String.format(
              Locale.ROOT,
              "| %s | %s | %s | %s | %s |%n",
              rate(v.fpRate()),
              v.structure(),
              v.target(),
              v.outcome().mark,
              v.figure()));
    }
    return md.toString();
  }
}
