package dev.sieve.report;

import dev.sieve.bench.RangeCells.Structure;
import dev.sieve.bench.RangeCells.Workload;
import java.awt.BasicStroke;
import java.awt.Color;
import java.io.File;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.LogAxis;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.renderer.xy.XYLineAndShapeRenderer;
import org.jfree.data.xy.XYSeries;
import org.jfree.data.xy.XYSeriesCollection;

/**
 * The range section's plots, in the house style of {@link Charts} (white panels, grey grid, its
 * palette, dashed lines for theory, two panels a line): FPR against range length, one panel per
 * workload (Grafite measured, Grafite's bound, the prefix-Bloom baseline measured, a reference FPR
 * line), and ns per range against range length, one panel per workload, both filters. Both axes are
 * logarithmic; a cell with no false positive, or a time not at steady state, is not drawn (the
 * title says so).
 */
final class RangeCharts {
  private RangeCharts() {}

  static {
    System.setProperty("java.awt.headless", "true");
  }

  /** The FPR plot's file name. */
  static final String FPR_PLOT = "range-fpr-vs-length.png";

  /** The query-time plot's file name. */
  static final String TIME_PLOT = "range-ns-vs-length.png";

  private static final BasicStroke DOTTED =
      new BasicStroke(
          1.5f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 1f, new float[] {2f, 4f}, 0f);

  /** Writes both plots into {@code dir}. */
  static void write(File dir, RangeFigures.Section s) throws IOException {
    fpr(new File(dir, FPR_PLOT), s);
    times(new File(dir, TIME_PLOT), s);
  }

  /** FPR against range length, one panel per workload. */
  static void fpr(File file, RangeFigures.Section s) throws IOException {
    List<JFreeChart> charts = new ArrayList<>();
    boolean zeros = false;
    for (Workload w : Workload.values()) {
      XYSeries grafite = new XYSeries("Grafite, measured");
      XYSeries bound = new XYSeries("Grafite's bound ℓ/2^(B−2)");
      XYSeries prefix = new XYSeries("prefix-Bloom at Grafite's memory, measured");
      double limit =
          w == Workload.UNIFORM ? RangeReport.REFERENCE_FPR : 2 * RangeReport.REFERENCE_FPR;
      XYSeries reference =
          new XYSeries(
              String.format(Locale.ROOT, "reference %s (ℓ ≤ 2^10)", Advice.shortPct(limit)));
      for (RangeFigures.Point p : s.points()) {
        if (p.workload() != w) {
          continue;
        }
        if (p.grafiteFp() > 0) {
          grafite.add(p.length(), p.grafiteRate());
        }
        if (p.prefixFp() > 0) {
          prefix.add(p.length(), p.prefixRate());
        }
        zeros |= p.grafiteFp() == 0 || p.prefixFp() == 0;
        bound.add(p.length(), p.grafiteBound());
        if (p.length() <= RangeReport.SHORT_RANGE_MAX) {
          reference.add(p.length(), limit);
        }
      }
      XYSeriesCollection data = new XYSeriesCollection();
      for (XYSeries x : List.of(grafite, bound, prefix, reference)) {
        if (x.getItemCount() > 0) {
          data.addSeries(x);
        }
      }
      XYLineAndShapeRenderer r = new XYLineAndShapeRenderer(true, true);
      for (int i = 0; i < data.getSeriesCount(); i++) {
        XYSeries x = data.getSeries(i);
        r.setSeriesStroke(i, new BasicStroke(2f));
        if (x == grafite) {
          r.setSeriesPaint(i, Charts.PALETTE[0]);
        } else if (x == bound) {
          r.setSeriesPaint(i, Charts.PALETTE[0]);
          r.setSeriesStroke(i, Charts.DASHED);
          r.setSeriesShapesVisible(i, false);
        } else if (x == prefix) {
          r.setSeriesPaint(i, Charts.PALETTE[1]);
        } else {
          r.setSeriesPaint(i, Color.GRAY);
          r.setSeriesStroke(i, DOTTED);
          r.setSeriesShapesVisible(i, false);
        }
      }
      LogAxis y =
          LogAxes.of("false-positive rate (empty ranges)", 10, 1, LogAxes.Ticks.POWER_OF_TEN);
      y.setSmallestValue(1e-7);
      charts.add(chart(w, data, y, r, s));
    }
    Charts.grid(
        file,
        String.format(
            Locale.ROOT,
            "Range filters: FPR against range length at %s bits/key (lines with points: measured;"
                + " dashed: Grafite's bound; dotted: the reference FPR)%s",
            Cells.num(s.bitsPerKey(), 0),
            zeros ? " — cells with no false positive not drawn" : ""),
        charts,
        460);
  }

  /** ns per range against range length, one panel per workload, both filters. */
  static void times(File file, RangeFigures.Section s) throws IOException {
    List<JFreeChart> charts = new ArrayList<>();
    int left = 0;
    int drawn = 0;
    for (Workload w : Workload.values()) {
      XYSeriesCollection data = new XYSeriesCollection();
      for (Structure st : Structure.values()) {
        XYSeries x = new XYSeries(RangeSection.label(st));
        for (RangeFigures.Point p : s.points()) {
          if (p.workload() != w || !p.time(st).timed()) {
            continue;
          }
          if (p.time(st).steady()) {
            x.add(p.length(), p.time(st).ns());
          } else {
            left++;
          }
        }
        if (x.getItemCount() > 0) {
          data.addSeries(x);
          drawn += x.getItemCount();
        }
      }
      XYLineAndShapeRenderer r = new XYLineAndShapeRenderer(true, true);
      for (int i = 0; i < data.getSeriesCount(); i++) {
        String key = (String) data.getSeriesKey(i);
        r.setSeriesPaint(i, Charts.PALETTE[key.startsWith("Grafite") ? 0 : 1]);
        r.setSeriesStroke(i, new BasicStroke(2f));
      }
      LogAxis y = LogAxes.of("ns per range query", 2, 1, LogAxes.Ticks.PLAIN);
      charts.add(chart(w, data, y, r, s));
    }
    String engine =
        s.timer().startsWith("JMH")
            ? "JMH"
            : s.timer().startsWith("quick") ? "in-process timer" : s.timer();
    Charts.grid(
        file,
        drawn == 0 && left == 0
            ? "Range filters: ns per range query — not timed in this run"
            : "Range filters: mean ns per range query against range length ("
                + engine
                + ")"
                + (left == 0
                    ? ""
                    : " — "
                        + left
                        + " cell(s) not at steady state left out (marked (!) in the table)"),
        charts,
        460);
  }

  /** One panel, the workload's: log2 range length across, the given y axis. */
  private static JFreeChart chart(
      Workload w,
      XYSeriesCollection data,
      LogAxis y,
      XYLineAndShapeRenderer renderer,
      RangeFigures.Section s) {
    String title =
        (w == Workload.UNIFORM ? "uniform ranges" : "correlated: lo just after a key")
            + " — n = "
            + Names.nLabel(s.n());
    LogAxis x = LogAxes.of("range length ℓ (values)", 2, 2, LogAxes.Ticks.POWER_OF_TWO);
    long max = s.points().stream().mapToLong(RangeFigures.Point::length).max().orElse(2);
    x.setRange(0.5, 2.0 * max);
    XYPlot plot = new XYPlot(data, x, y, renderer);
    Charts.style(plot);
    JFreeChart chart =
        new JFreeChart(
            title.length() > 110 ? title.substring(0, 109) + "…" : title,
            new java.awt.Font("SansSerif", java.awt.Font.BOLD, 13),
            plot,
            true);
    chart.setBackgroundPaint(Color.WHITE);
    return chart;
  }
}
