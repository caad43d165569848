package dev.sieve.report;

import dev.sieve.bench.Family;
import dev.sieve.bench.SieveAdapters;
import java.awt.Color;
import java.io.File;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jfree.chart.ChartFactory;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.LogAxis;
import org.jfree.chart.axis.NumberAxis;
import org.jfree.chart.plot.CategoryPlot;
import org.jfree.chart.plot.PlotOrientation;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.renderer.xy.XYLineAndShapeRenderer;
import org.jfree.data.category.DefaultCategoryDataset;
import org.jfree.data.xy.XYSeries;
import org.jfree.data.xy.XYSeriesCollection;

/**
 * The report's lookup-time plots: the rows grouped into panels by family, drawn against n (three or
 * more n) or as bars at each n, with the raw random read as the limit in every panel. The style,
 * palette and grid layout are {@link Charts}'.
 */
public final class LookupCharts {
  private LookupCharts() {}

  static {
    System.setProperty("java.awt.headless", "true");
  }

  /** One lookup plot file: its name under plots/ and its alt text. */
  public record Plot(String file, String alt) {}

  /** At most this many series per panel (the raw-read reference counts as one). */
  static final int MAX_SERIES = 6;

  /** The lookup plots' panel families, in order. */
  static final List<String> FAMILIES =
      List.of(
          "Blocked, split-block and two-word Bloom",
          "Standard Bloom and growable filters",
          "Xor and Binary Fuse",
          "Ribbon",
          "Cuckoo",
          "Exact sets and other limits");

  /** The panel family of a row; {@code null} for the raw read, drawn in every panel. */
  static String family(Row r) {
    if (r.name.equals(SteadyState.RAW_READ)) {
      return null;
    }
    if (r.family == Family.EXACT || r.family == Family.LIMIT) {
      return FAMILIES.get(5);
    }
    String n = r.name;
    if (n.contains("blocked-bloom") || n.contains("split-block") || n.contains("two-word")) {
      return FAMILIES.get(0);
    }
    if (n.contains("bloom") || n.contains("sharded") || n.contains("expandable")) {
      return FAMILIES.get(1);
    }
    if (n.contains("xor") || n.contains("fuse")) {
      return FAMILIES.get(2);
    }
    if (n.contains("ribbon")) {
      return FAMILIES.get(3);
    }
    return n.contains("cuckoo") ? FAMILIES.get(4) : FAMILIES.get(5);
  }

  /** A panel: its title and the structures it draws (the raw read comes on top). */
  record LookupPanel(String title, List<String> structures) {}

  /**
   * The panels: one per family with timed, unflagged rows, each with at most {@link #MAX_SERIES} -
   * 1 structures (a family with more is split into "(1 of 2)", "(2 of 2)" panels), so that with the
   * raw read no panel draws more than {@link #MAX_SERIES} series.
   */
  static List<LookupPanel> panels(List<Row> rows) {
    Map<String, List<String>> byFamily = new LinkedHashMap<>();
    FAMILIES.forEach(f -> byFamily.put(f, new ArrayList<>()));
    for (Row r : rows) {
      String f = family(r);
      if (f != null && timed(r) && !byFamily.get(f).contains(label(r))) {
        byFamily.get(f).add(label(r));
      }
    }
    List<LookupPanel> out = new ArrayList<>();
    int per = MAX_SERIES - 1;
    for (Map.Entry<String, List<String>> e : byFamily.entrySet()) {
      List<String> s = e.getValue();
      int parts = (s.size() + per - 1) / per;
      for (int p = 0; p < parts; p++) {
        out.add(
            new LookupPanel(
                e.getKey() + (parts > 1 ? " (" + (p + 1) + " of " + parts + ")" : ""),
                s.subList(p * per, Math.min(s.size(), (p + 1) * per))));
      }
    }
    return out;
  }

  /** Whether a row has a lookup time the plots may draw (measured, at steady state). */
  private static boolean timed(Row r) {
    return !r.excluded() && !(Double.isNaN(r.negativeNs) && Double.isNaN(r.positiveNs));
  }

  private static List<Integer> distinctN(List<Row> rows) {
    return rows.stream().map(r -> r.n).distinct().sorted().toList();
  }

  /**
   * The lookup plots {@link #lookupTimes} writes: with at least three n, negative and positive
   * lookups against n (one file each); with fewer, one bar chart per n.
   */
  public static List<Plot> lookupPlots(List<Row> rows) {
    List<Integer> ns = distinctN(rows);
    List<Plot> out = new ArrayList<>();
    if (ns.size() >= 3) {
      out.add(new Plot("lookup-negative-vs-n.png", "negative lookup ns against n, per family"));
      out.add(new Plot("lookup-positive-vs-n.png", "positive lookup ns against n, per family"));
    } else {
      for (int n : ns) {
        out.add(
            new Plot(
                "lookup-n" + n + ".png",
                "lookup ns at n = " + Names.nLabel(n) + ", per family (bars)"));
      }
    }
    return out;
  }

  /**
   * Writes the lookup plots into {@code dir} (see {@link #lookupPlots}): small multiples, one panel
   * per family, each its own chart with its own legend, at most {@link #MAX_SERIES} series, the raw
   * random read at the same n drawn in every panel as the limit. Rows not at steady state are left
   * out (the title says so).
   */
  public static void lookupTimes(File dir, List<Row> rows) throws IOException {
    List<Integer> ns = distinctN(rows);
    List<LookupPanel> panels = panels(rows);
    List<String> flagged = rows.stream().filter(Row::excluded).map(r -> r.name).distinct().toList();
    String left =
        flagged.isEmpty()
            ? ""
            : " — not at steady state, left out: "
                + String.join(", ", flagged.subList(0, Math.min(3, flagged.size())))
                + (flagged.size() > 3 ? " and " + (flagged.size() - 3) + " more" : "");
    if (ns.size() >= 3) {
      for (boolean negative : new boolean[] {true, false}) {
        List<JFreeChart> charts = new ArrayList<>();
        for (LookupPanel p : panels) {
          charts.add(lineChart(p, rows, negative));
        }
        Charts.grid(
            new File(dir, negative ? "lookup-negative-vs-n.png" : "lookup-positive-vs-n.png"),
            (negative ? "Negative" : "Positive")
                + " lookups: ns per lookup against n (log-log; dashed: batch and pre-hashed;"
                + " grey: one raw random read)"
                + left,
            charts,
            420);
      }
      return;
    }
    for (int n : ns) {
      List<JFreeChart> charts = new ArrayList<>();
      int most = 1;
      for (LookupPanel p : panels) {
        JFreeChart c = barChart(p, rows, n);
        if (c != null) {
          charts.add(c);
          most = Math.max(most, p.structures().size() + 1);
        }
      }
      Charts.grid(
          new File(dir, "lookup-n" + n + ".png"),
          "ns per lookup at n = "
              + Names.nLabel(n)
              + " (bars labelled with their value; last bar of each panel: one raw random read)"
              + left,
          charts,
          140 + 46 * most);
    }
  }

  private static Optional<Row> rowAt(List<Row> rows, String label, int n) {
    return rows.stream().filter(r -> r.n == n && label(r).equals(label) && timed(r)).findFirst();
  }

  /** One family at one n: negative and positive bars per structure, then the raw read. */
  private static JFreeChart barChart(LookupPanel p, List<Row> rows, int n) {
    DefaultCategoryDataset data = new DefaultCategoryDataset();
    List<String> labels = new ArrayList<>(p.structures());
    labels.add(SteadyState.RAW_READ);
    boolean any = false;
    for (String label : labels) {
      Optional<Row> r = rowAt(rows, label, n);
      if (r.isEmpty()) {
        continue;
      }
      any |= !label.equals(SteadyState.RAW_READ);
      if (!Double.isNaN(r.get().negativeNs)) {
        data.addValue(r.get().negativeNs, "negative (absent key)", label);
      }
      if (!Double.isNaN(r.get().positiveNs)) {
        data.addValue(r.get().positiveNs, "positive (added key)", label);
      }
    }
    if (!any) {
      return null;
    }
    JFreeChart chart =
        ChartFactory.createBarChart(
            p.title(), null, "ns per lookup", data, PlotOrientation.HORIZONTAL, true, false, false);
    CategoryPlot plot = chart.getCategoryPlot();
    plot.setBackgroundPaint(Color.WHITE);
    plot.setRangeGridlinePaint(Color.LIGHT_GRAY);
    org.jfree.chart.renderer.category.BarRenderer renderer =
        (org.jfree.chart.renderer.category.BarRenderer) plot.getRenderer();
    renderer.setBarPainter(new org.jfree.chart.renderer.category.StandardBarPainter());
    renderer.setShadowVisible(false);
    renderer.setSeriesPaint(0, Charts.PALETTE[0]);
    renderer.setSeriesPaint(1, Charts.PALETTE[4]);
    renderer.setDefaultItemLabelGenerator(
        new org.jfree.chart.labels.StandardCategoryItemLabelGenerator(
            "{2}", new java.text.DecimalFormat("0.0")));
    renderer.setDefaultItemLabelsVisible(true);
    renderer.setDefaultItemLabelFont(new java.awt.Font("SansSerif", java.awt.Font.PLAIN, 11));
    NumberAxis axis = (NumberAxis) plot.getRangeAxis();
    axis.setAutoRangeIncludesZero(true); // auto-ranged: a fixed bound would drop the margin
    axis.setUpperMargin(0.15); // room for the value labels
    plot.getDomainAxis().setMaximumCategoryLabelWidthRatio(0.45f);
    chart.setBackgroundPaint(Color.WHITE);
    return chart;
  }

  /** One family's lookups against n (log-log), the raw read as a grey line. */
  private static JFreeChart lineChart(LookupPanel p, List<Row> rows, boolean negative) {
    XYSeriesCollection data = new XYSeriesCollection();
    List<String> labels = new ArrayList<>(p.structures());
    labels.add(SteadyState.RAW_READ);
    for (String label : labels) {
      XYSeries s = new XYSeries(label);
      for (Row r : rows) {
        double ns = negative ? r.negativeNs : r.positiveNs;
        if (label(r).equals(label) && timed(r) && ns > 0) {
          s.add(r.n, ns);
        }
      }
      if (s.getItemCount() > 0) {
        data.addSeries(s);
      }
    }
    XYLineAndShapeRenderer renderer = new XYLineAndShapeRenderer(true, true);
    for (int i = 0; i < data.getSeriesCount(); i++) {
      String key = (String) data.getSeriesKey(i);
      renderer.setSeriesPaint(i, Charts.PALETTE[i % Charts.PALETTE.length]);
      if (key.equals(SteadyState.RAW_READ)) {
        renderer.setSeriesPaint(i, Color.GRAY);
        renderer.setSeriesStroke(i, Charts.DASHED);
      } else if (key.endsWith(SieveAdapters.PREHASHED_SUFFIX)
          || key.endsWith(SieveAdapters.BATCH_SUFFIX)) {
        renderer.setSeriesStroke(i, Charts.DASHED);
      }
    }
    LogAxis x = LogAxes.of("n (keys)", 10, 1, LogAxes.Ticks.POWER_OF_TEN);
    int minN = rows.stream().mapToInt(r -> r.n).min().orElse(1);
    int maxN = rows.stream().mapToInt(r -> r.n).max().orElse(10);
    x.setRange(minN / 2.0, maxN * 2.0);
    LogAxis y = LogAxes.of("ns per lookup", 10, 0, LogAxes.Ticks.POWER_OF_TEN);
    XYPlot plot = new XYPlot(data, x, y, renderer);
    Charts.style(plot);
    JFreeChart chart = new JFreeChart(p.title(), JFreeChart.DEFAULT_TITLE_FONT, plot, true);
    chart.setBackgroundPaint(Color.WHITE);
    return chart;
  }

  private static boolean isSized(Row r) {
    return r.family == Family.SIEVE || r.family == Family.PEER;
  }

  /** A row's label in the plots: its name, with the bits/key setting when it is not 10. */
  private static String label(Row r) {
    return r.name + (r.bitsPerKeySetting != 10 && isSized(r) ? " @" + r.bitsPerKeySetting : "");
  }
}
