package dev.sieve.report;

import dev.sieve.bench.Family;
import java.io.File;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;

/**
 * What {@code sieve report} prints on stdout when it ends: plain text that fits a terminal, no line
 * over {@value #WIDTH} columns (long sentences wrapped, table names shortened to fit). In order:
 * the header (machine, JDK, SIMD path, load), which filter to pick, one compact lookup table per n
 * (every row's ratio to the raw read at that n), the rows not at steady state, the contract, and
 * the files that hold the full tables.
 */
public final class ConsoleSummary {
  private ConsoleSummary() {}

  /** The widest line printed. */
  public static final int WIDTH = 100;

  /** Flagged rows listed with their reasons; the rest are counted. */
  static final int MAX_FLAGGED_LISTED = 8;

  /** The marker of a row not at steady state. */
  static final String FLAG = "!";

  /** The summary text. */
  public static String render(ReportWriter.Run run, File dir) {
    List<String> out = new ArrayList<>();
    ReportWriter.Meta meta = run.meta();
    out.add("Sieve report");
    for (String line : RunHeader.lines(meta)) {
      wrap(out, line, "", "  ");
    }
    out.add("");
    out.add("Which filter to pick");
    for (String advice : Advice.recommend(run.rows(), meta.simdPath())) {
      wrap(out, advice, "- ", "  ");
    }
    if (run.range() != null) {
      wrap(out, RangeAdvice.advice(run.range()) + ".", "- ", "  ");
    }
    TreeSet<Integer> ns = new TreeSet<>();
    run.rows().forEach(r -> ns.add(r.n));
    for (int n : ns) {
      out.add("");
      wrap(
          out,
          "Lookups at n = "
              + Names.nLabel(n)
              + ": ns per lookup, mean ± 99.9% CI; ÷ raw: over one random read at this n",
          "",
          "  ");
      table(out, run.rows(), n);
    }
    List<Row> flagged = run.rows().stream().filter(SteadyState::flagged).toList();
    out.add("");
    if (flagged.isEmpty()) {
      wrap(
          out,
          "Steady state: every row's errors are below its mean and every filter is within "
              + Cells.num(SteadyState.MAX_OVER_RAW_READ, 0)
              + "× the raw read.",
          "",
          "  ");
    } else {
      wrap(
          out,
          FLAG
              + " Not at steady state after one longer re-measurement (printed, but no ratio"
              + " or recommendation uses them):",
          "",
          "  ");
      for (Row r : flagged.subList(0, Math.min(flagged.size(), MAX_FLAGGED_LISTED))) {
        wrap(
            out,
            r.name + " at n = " + Names.nLabel(r.n) + ": " + SteadyState.describe(r),
            "- ",
            "  ");
      }
      if (flagged.size() > MAX_FLAGGED_LISTED) {
        wrap(
            out,
            "and " + (flagged.size() - MAX_FLAGGED_LISTED) + " more (every reason: report.md)",
            "- ",
            "  ");
      }
    }
    long fn = run.rows().stream().filter(r -> r.falseNegatives > 0).count();
    wrap(
        out,
        fn == 0
            ? "No false negative: every added key was found, on every path timed."
            : "CONTRACT VIOLATION: " + fn + " row(s) with false negatives (see report.md).",
        "",
        "  ");
    if (run.guard() != null) {
      wrap(out, SummarySection.baselineLine(run), "", "  ");
    }
    if (run.coldStart() != null) {
      coldStart(out, run.coldStart());
    }
    out.add("");
    out.add("Full tables, plots and every figure:");
    for (String f : List.of("report.md", "report.html", "results.json", "plots")) {
      wrap(out, new File(dir, f).toString(), "  ", "    ");
    }
    return String.join("\n", out) + "\n";
  }

  /** The cold-start block: scalar/simd medians per checkpoint, and simd/scalar at the last. */
  static void coldStart(List<String> out, ColdStart.Section c) {
    out.add("");
    wrap(
        out,
        "Cold start (fresh JVM, n = "
            + Names.nLabel(c.n())
            + ", median of "
            + c.samples()
            + "): ns per lookup over the first lookups, scalar/simd JVM",
        "",
        "  ");
    List<String> header = new ArrayList<>(List.of("filter"));
    for (int l : c.lookups()) {
      header.add(Names.nLabel(l));
    }
    int last = c.lookups().get(c.lookups().size() - 1);
    header.add("simd/sc " + Names.nLabel(last));
    List<List<String>> lines = new ArrayList<>();
    for (String f : c.filters()) {
      List<String> line = new ArrayList<>(List.of(f));
      for (int l : c.lookups()) {
        line.add(
            Cells.num(c.cell(f, "scalar", l).median(), 0)
                + "/"
                + Cells.num(c.cell(f, "simd", l).median(), 0));
      }
      line.add(Cells.num(c.cell(f, "simd", last).median() / c.cell(f, "scalar", last).median(), 2));
      lines.add(line);
    }
    textTable(out, header, lines);
  }

  /** The compact lookup table at {@code n}. */
  private static void table(List<String> out, List<Row> rows, int n) {
    List<String> header =
        List.of("structure", "neg ns", "pos ns", "neg ÷ raw", "pos ÷ raw", "bits/key", "FPR");
    List<List<String>> lines = new ArrayList<>();
    RowRatios ratios = new RowRatios(rows);
    for (Row r : rows) {
      if (r.n != n || (Double.isNaN(r.negativeNs) && Double.isNaN(r.positiveNs))) {
        continue;
      }
      ReportWriter.Ratios x = ratios.of(r);
      lines.add(
          List.of(
              r.name + (r.excluded() ? " " + FLAG : ""),
              compact(r.negativeNs, r.negativeNsError),
              compact(r.positiveNs, r.positiveNsError),
              ratio(x.negativeOverRawRead()),
              ratio(x.positiveOverRawRead()),
              r.family == Family.LIMIT ? "—" : Cells.num(r.bitsPerKey(), 2),
              r.hasFpr() ? Advice.shortPct(r.measuredFpr()) : "—"));
    }
    textTable(out, header, lines);
  }

  private static String ratio(double v) {
    return Double.isNaN(v) ? "—" : Cells.num(v, v >= 100 ? 0 : 1) + "×";
  }

  /** "12.3±0.4" (no spaces: the table stays narrow). */
  static String compact(double value, double error) {
    return Cells.pm(value, error).replace(" ± ", "±");
  }

  /**
   * A left-aligned first column and right-aligned figures, two spaces apart; the first column is
   * shortened (ending in "…") so that no line exceeds {@link #WIDTH}.
   */
  static void textTable(List<String> out, List<String> header, List<List<String>> lines) {
    int cols = header.size();
    int[] w = new int[cols];
    List<List<String>> all = new ArrayList<>();
    all.add(header);
    all.addAll(lines);
    for (List<String> l : all) {
      for (int i = 0; i < cols; i++) {
        w[i] = Math.max(w[i], l.get(i).length());
      }
    }
    int rest = 0;
    for (int i = 1; i < cols; i++) {
      rest += 2 + w[i];
    }
    w[0] = Math.max(8, Math.min(w[0], WIDTH - rest));
    for (List<String> l : all) {
      StringBuilder sb = new StringBuilder();
      String first = l.get(0);
      if (first.length() > w[0]) {
        first = first.substring(0, w[0] - 1) + "…";
      }
      sb.append(first).append(" ".repeat(w[0] - first.length()));
      for (int i = 1; i < cols; i++) {
        String c = l.get(i);
        sb.append("  ").append(" ".repeat(Math.max(0, w[i] - c.length()))).append(c);
      }
      out.add(sb.toString().stripTrailing());
    }
  }

  /** Appends {@code text} wrapped at word boundaries to {@link #WIDTH} columns. */
  static void wrap(List<String> out, String text, String first, String indent) {
    StringBuilder line = new StringBuilder(first);
    int lineStart = first.length();
    boolean empty = true;
    for (String word : text.split(" ")) {
      if (word.isEmpty()) {
        continue;
      }
      if (!empty && line.length() + 1 + word.length() > WIDTH) {
        out.add(line.toString());
        line = new StringBuilder(indent);
        lineStart = indent.length();
        empty = true;
      }
      while (line.length() - lineStart == 0 && lineStart + word.length() > WIDTH) {
        int cut = WIDTH - lineStart; // a word longer than a line (a path): split it
        out.add(line + word.substring(0, cut));
        word = word.substring(cut);
        line = new StringBuilder(indent);
        lineStart = indent.length();
      }
      if (!empty) {
        line.append(' ');
      }
      line.append(word);
      empty = false;
    }
    out.add(line.toString());
  }
}
