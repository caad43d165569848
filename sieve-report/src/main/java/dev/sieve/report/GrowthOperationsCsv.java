package dev.sieve.report;

import dev.sieve.report.GrowthOperations.CliSizing;
import dev.sieve.report.GrowthOperations.Figures;
import dev.sieve.report.GrowthOperations.Fpr;
import dev.sieve.report.GrowthOperations.RemoveCompact;
import dev.sieve.report.GrowthOperations.Sizing;
import dev.sieve.report.GrowthOperations.Union;
import java.util.Locale;

/**
 * {@code growth-operations.csv}: every figure of the growth report's operations section ({@link
 * GrowthOperations}), one a line, the sizing sweep's every rate included.
 */
final class GrowthOperationsCsv {
  private GrowthOperationsCsv() {}

  /** {@return every figure, one a line: operation, filter, rate, keys, figure, value} */
  static String csv(Figures figures) {
    StringBuilder csv = new StringBuilder("operation,filter,fp_rate,keys,figure,value\n");
    for (Union u : figures.unions()) {
      String head = String.format(Locale.ROOT, "union,unhinted,%g,%d,", u.fpRate(), u.keys());
      row(csv, head, "union_bits", u.unionBits());
      row(csv, head, "one_filter_bits", u.oneBits());
      row(csv, head, "memory_ratio", u.memoryRatio());
      fpr(csv, head, "union", u.union());
      row(csv, head, "union_model", u.unionModel());
      fpr(csv, head, "side_a", u.sideA());
      fpr(csv, head, "side_b", u.sideB());
      row(csv, head, "sides_sum", u.sidesSum());
      row(csv, head, "false_negatives", u.falseNegatives());
      fpr(csv, head, "recipe", u.recipe());
      row(csv, head, "recipe_model", u.recipeModel());
      row(csv, head, "recipe_false_negatives", u.recipeFalseNegatives());
    }
    for (RemoveCompact r : figures.removes()) {
      String head =
          String.format(
              Locale.ROOT,
              "remove-compact,%s,%g,%d,",
              r.hint() == 0 ? "unhinted" : "sized",
              r.fpRate(),
              r.keys());
      row(csv, head, "hint", r.hint());
      row(csv, head, "remove_failures", r.removeFailures());
      fpr(csv, head, "after_remove", r.afterRemove());
      row(csv, head, "after_remove_false_negatives", r.removedFalseNegatives());
      row(csv, head, "bits_before_compact", r.bitsBefore());
      row(csv, head, "ratio_before_compact", r.ratioBefore());
      row(csv, head, "halvings", r.halvings());
      row(csv, head, "bits_after_compact", r.bitsAfter());
      row(csv, head, "ratio_after_compact", r.ratioAfter());
      fpr(csv, head, "after_compact", r.afterCompact());
      row(csv, head, "refitted", r.refitted() ? 1 : 0);
      row(csv, head, "bits_after_shrink_to_fit", r.bitsShrunk());
      fpr(csv, head, "after_shrink_to_fit", r.afterShrink());
      row(csv, head, "ratio_after_shrink_to_fit", r.ratioShrunk());
      row(csv, head, "after_compact_false_negatives", r.compactFalseNegatives());
      row(csv, head, "after_shrink_to_fit_false_negatives", r.shrinkFalseNegatives());
      row(csv, head, "right_sized_bits", r.rightSizedBits());
    }
    for (Sizing s : figures.sweep()) {
      String head =
          String.format(
              Locale.ROOT, "sizing,expected-keys,%g,%d,", s.fpRate(), GrowthOperations.SIZING_KEYS);
      row(csv, head, "model", s.model());
      row(csv, head, "model_ratio", s.ratio());
    }
    for (CliSizing c : figures.cli()) {
      String head =
          String.format(
              Locale.ROOT, "sizing,sieve-build,%g,%d,", c.fpRate(), GrowthOperations.SIZING_KEYS);
      row(csv, head, "model", c.cliModel());
      row(csv, head, "model_ratio", c.cliRatio());
      fpr(csv, head, "measured", c.cli());
      String hinted =
          String.format(
              Locale.ROOT, "sizing,expected-keys,%g,%d,", c.fpRate(), GrowthOperations.SIZING_KEYS);
      fpr(csv, hinted, "measured", c.hinted());
    }
    return csv.toString();
  }

  private static void row(StringBuilder csv, String head, String figure, double value) {
    csv.append(head).append(figure).append(',').append(String.format(Locale.ROOT, "%.7g", value));
    csv.append('\n');
  }

  private static void row(StringBuilder csv, String head, String figure, long value) {
    csv.append(head).append(figure).append(',').append(value).append('\n');
  }

  private static void fpr(StringBuilder csv, String head, String name, Fpr r) {
    row(csv, head, name + "_false_positives", r.falsePositives());
    row(csv, head, name + "_queries", r.queries());
    row(csv, head, name + "_fpr", r.measured());
    row(csv, head, name + "_fpr_low999", r.lower());
    row(csv, head, name + "_fpr_high999", r.upper());
  }
}
