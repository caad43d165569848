package dev.sieve.bench.report;

import dev.sieve.bench.Family;
import dev.sieve.bench.SieveAdapters;
import dev.sieve.bloom.BlockedBloomFilter;
import dev.sieve.math.BloomMath;
import java.awt.BasicStroke;
import java.awt.Color;
import java.io.File;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jfree.chart.ChartFactory;
import org.jfree.chart.ChartUtils;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.LogAxis;
import org.jfree.chart.axis.NumberAxis;
import org.jfree.chart.axis.NumberTickUnit;
import org.jfree.chart.plot.CategoryPlot;
import org.jfree.chart.plot.CombinedDomainXYPlot;
import org.jfree.chart.plot.PlotOrientation;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.renderer.category.StatisticalBarRenderer;
import org.jfree.chart.renderer.xy.XYLineAndShapeRenderer;
import org.jfree.data.category.DefaultCategoryDataset;
import org.jfree.data.statistics.DefaultStatisticalCategoryDataset;
import org.jfree.data.xy.XYSeries;
import org.jfree.data.xy.XYSeriesCollection;

/** The report's PNG plots (JFreeChart, headless). */
public final class Charts {
  private Charts() {}

  static {
    System.setProperty("java.awt.headless", "true");
  }

  private static final int W = 1100;
  private static final int H = 700;

  /** A subplot's series: theory drawn as dashed lines, measurements as points. */
  private record Panel(String title, List<XYSeries> theory, List<XYSeries> measured) {}

  /**
   * FPR against bits/key as small multiples sharing the bits/key axis: the Bloom filters against
   * their theory (standard Bloom at optimal k, CacheLocalFpRate at RocksDB's k), Ribbon against its
   * model and the floor 2^-b, and the fixed-size fingerprint filters (run's largest n) against
   * their 2^-r model and the floor. Theory is lines, measurements are points.
   */
  public static void fprVsBitsPerKey(File file, List<Experiments.SweepPoint> sweep, List<Row> rows)
      throws IOException {
    XYSeries standard = new XYSeries("theory: StandardFpRate (optimal k)");
    XYSeries cacheLocal = new XYSeries("theory: CacheLocalFpRate (512-bit, RocksDB k)");
    XYSeries floorBloom = new XYSeries("floor: 2^-b");
    for (double b = 2; b <= 24.001; b += 0.25) {
      standard.add(b, BloomMath.standardFpRate(b, BloomMath.optimalNumProbes(b)));
      int k = BlockedBloomFilter.chooseNumProbes(BlockedBloomFilter.rocksDbMillibitsPerKey(b));
      cacheLocal.add(b, BloomMath.cacheLocalFpRate(b, k, 512));
      floorBloom.add(b, Math.pow(2, -b));
    }
    Map<String, XYSeries> bloom = new LinkedHashMap<>();
    Map<String, XYSeries> ribbon = new LinkedHashMap<>();
    Map<String, XYSeries> ribbonModel = new LinkedHashMap<>();
    for (Experiments.SweepPoint p : sweep) {
      boolean isRibbon = p.name().contains("ribbon");
      if (p.fprMeasured() > 0) {
        (isRibbon ? ribbon : bloom)
            .computeIfAbsent(p.name(), k -> new XYSeries("measured: " + k))
            .add(p.bitsPerKey(), p.fprMeasured());
      }
      if (isRibbon && p.fprModel() > 0) {
        ribbonModel
            .computeIfAbsent(p.name(), k -> new XYSeries("theory: " + k + " model"))
            .add(p.bitsPerKey(), p.fprModel());
      }
    }
    int maxN = rows.stream().mapToInt(r -> r.n).max().orElse(0);
    Map<String, XYSeries> fingerprint = new LinkedHashMap<>();
    XYSeries fingerprintModel = new XYSeries("theory: 2^-r (each filter's model at its size)");
    for (Row r : rows) {
      if (r.n != maxN
          || !r.hasFpr()
          || r.family == Family.EXACT
          || r.family == Family.LIMIT
          || !ReportCommand.baseFilter(r.name).equals(r.name)
          || bloom.containsKey(r.name)
          || ribbon.containsKey(r.name)
          || r.bitsPerKey() > 40) {
        continue;
      }
      if (r.measuredFpr() > 0) {
        fingerprint
            .computeIfAbsent(r.name, k -> new XYSeries("measured: " + k))
            .add(r.bitsPerKey(), r.measuredFpr());
      }
      if (r.modelFpr > 0) {
        fingerprintModel.add(r.bitsPerKey(), r.modelFpr);
      }
    }
    XYSeries floorRibbon = copy(floorBloom, "floor: 2^-b ");
    XYSeries floorFingerprint = copy(floorBloom, "floor: 2^-b  ");
    List<Panel> panels = new ArrayList<>();
    panels.add(
        new Panel(
            "Bloom filters",
            List.of(standard, cacheLocal, floorBloom),
            List.copyOf(bloom.values())));
    if (!ribbon.isEmpty()) {
      List<XYSeries> theory = new ArrayList<>(ribbonModel.values());
      theory.add(floorRibbon);
      panels.add(new Panel("Ribbon", theory, List.copyOf(ribbon.values())));
    }
    if (!fingerprint.isEmpty()) {
      List<XYSeries> theory = new ArrayList<>(List.of(floorFingerprint));
      List<XYSeries> measured = new ArrayList<>(fingerprint.values());
      if (fingerprintModel.getItemCount() > 0) {
        measured.add(0, fingerprintModel); // model points, drawn as black crosses
      }
      panels.add(new Panel("fixed-size filters, n=" + Targets.nLabel(maxN), theory, measured));
    }
    NumberAxis x = new NumberAxis("bits per key");
    x.setRange(2, 24.5);
    CombinedDomainXYPlot combined = new CombinedDomainXYPlot(x);
    combined.setGap(12);
    combined.setDrawingSupplier(palette());
    for (Panel panel : panels) {
      XYSeriesCollection data = new XYSeriesCollection();
      panel.theory().forEach(data::addSeries);
      panel.measured().forEach(data::addSeries);
      XYLineAndShapeRenderer renderer = new XYLineAndShapeRenderer();
      int t = panel.theory().size();
      for (int i = 0; i < data.getSeriesCount(); i++) {
        boolean theory = i < t;
        renderer.setSeriesLinesVisible(i, theory);
        renderer.setSeriesShapesVisible(i, !theory);
        if (theory) {
          renderer.setSeriesStroke(i, DASHED);
        }
        if (data.getSeries(i) == fingerprintModel) {
          renderer.setSeriesPaint(i, Color.BLACK);
          renderer.setSeriesShape(i, org.jfree.chart.util.ShapeUtils.createDiagonalCross(3, 0.5f));
        }
        if (((String) data.getSeriesKey(i)).startsWith("floor")) {
          renderer.setSeriesPaint(i, Color.GRAY);
        }
      }
      LogAxis y = new LogAxis("FPR — " + panel.title());
      y.setBase(10);
      y.setSmallestValue(1e-7);
      y.setTickUnit(new NumberTickUnit(1));
      y.setNumberFormatOverride(new PowerOfTen());
      XYPlot plot = new XYPlot(data, null, y, renderer);
      plot.setSeriesRenderingOrder(org.jfree.chart.plot.SeriesRenderingOrder.FORWARD);
      style(plot);
      combined.add(plot, 1);
    }
    JFreeChart chart =
        new JFreeChart(
            "False-positive rate vs bits/key (points: measured; dashed lines: theory)",
            JFreeChart.DEFAULT_TITLE_FONT,
            combined,
            true);
    chart.setBackgroundPaint(Color.WHITE);
    ChartUtils.saveChartAsPNG(file, chart, W, 350 * panels.size() + 200);
  }

  private static XYSeries copy(XYSeries s, String key) {
    XYSeries c = new XYSeries(key);
    for (int i = 0; i < s.getItemCount(); i++) {
      c.add(s.getX(i), s.getY(i));
    }
    return c;
  }

  private static final BasicStroke DASHED =
      new BasicStroke(
          2.0f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 1f, new float[] {6f, 4f}, 0f);

  /** Twenty colours that stay apart on white (no yellow), shared by every series of a figure. */
  private static final java.awt.Paint[] PALETTE = {
    new Color(0x1f77b4), new Color(0xd62728), new Color(0x2ca02c), new Color(0x9467bd),
    new Color(0xff7f0e), new Color(0x8c564b), new Color(0xe377c2), new Color(0x17becf),
    new Color(0x000080), new Color(0xbcbd22), new Color(0x393b79), new Color(0xad494a),
    new Color(0x637939), new Color(0x7b4173), new Color(0x8c6d31), new Color(0x3182bd),
    new Color(0xe6550d), new Color(0x31a354), new Color(0x756bb1), new Color(0x843c39)
  };

  private static org.jfree.chart.plot.DrawingSupplier palette() {
    return new org.jfree.chart.plot.DefaultDrawingSupplier(
        PALETTE,
        org.jfree.chart.plot.DefaultDrawingSupplier.DEFAULT_FILL_PAINT_SEQUENCE,
        org.jfree.chart.plot.DefaultDrawingSupplier.DEFAULT_OUTLINE_PAINT_SEQUENCE,
        org.jfree.chart.plot.DefaultDrawingSupplier.DEFAULT_STROKE_SEQUENCE,
        org.jfree.chart.plot.DefaultDrawingSupplier.DEFAULT_OUTLINE_STROKE_SEQUENCE,
        org.jfree.chart.plot.DefaultDrawingSupplier.DEFAULT_SHAPE_SEQUENCE);
  }

  /** Tick labels of a log axis: 10^k for powers of ten, else the plain number. */
  static final class PowerOfTen extends java.text.NumberFormat {
    @Override
    public StringBuffer format(double v, StringBuffer sb, java.text.FieldPosition pos) {
      double k = Math.log10(v);
      if (v > 0 && Math.abs(k - Math.rint(k)) < 1e-9) {
        long e = Math.round(k);
        return sb.append(e == 0 ? "1" : e == 1 ? "10" : "10^" + e);
      }
      return sb.append(
          v >= 10
              ? String.format(java.util.Locale.ROOT, "%.0f", v)
              : v >= 1
                  ? String.format(java.util.Locale.ROOT, "%.1f", v)
                  : String.format(java.util.Locale.ROOT, "%.2g", v));
    }

    @Override
    public StringBuffer format(long v, StringBuffer sb, java.text.FieldPosition pos) {
      return format((double) v, sb, pos);
    }

    @Override
    public Number parse(String source, java.text.ParsePosition pos) {
      throw new UnsupportedOperationException("format only");
    }
  }

  private static void style(XYPlot plot) {
    plot.setBackgroundPaint(Color.WHITE);
    plot.setDomainGridlinePaint(Color.LIGHT_GRAY);
    plot.setRangeGridlinePaint(Color.LIGHT_GRAY);
  }

  /** The groups of the query plot's small multiples. */
  static String group(Row r) {
    if (r.family == Family.EXACT || r.family == Family.LIMIT) {
      return "exact sets, raw read";
    }
    String n = r.name;
    if (n.contains("bloom")) {
      return "Bloom filters";
    }
    if (n.contains("xor") || n.contains("fuse")) {
      return "Xor, Binary Fuse";
    }
    return "Ribbon, Cuckoo";
  }

  /**
   * Query ns per lookup ({@code negative} or positive). With one n: a horizontal bar per structure
   * with its 99.9% error bar. With several: ns against n on log-log axes, as small multiples (Bloom
   * filters; Xor and Binary Fuse; Ribbon and Cuckoo; exact sets and the raw read).
   */
  public static void queryTimes(File file, List<Row> rows, boolean negative) throws IOException {
    String what = negative ? "Negative" : "Positive";
    long distinctN = rows.stream().mapToInt(r -> r.n).distinct().count();
    if (distinctN <= 1) {
      DefaultStatisticalCategoryDataset data = new DefaultStatisticalCategoryDataset();
      List<java.awt.Paint> colours = new ArrayList<>();
      int n = rows.isEmpty() ? 0 : rows.get(0).n;
      for (Row r : rows) {
        double ns = negative ? r.negativeNs : r.positiveNs;
        double err = negative ? r.negativeNsError : r.positiveNsError;
        if (!Double.isNaN(ns)) {
          data.add(ns, Double.isNaN(err) ? 0 : err, "ns per lookup", label(r));
          colours.add(PALETTE[r.family.ordinal() % PALETTE.length]);
        }
      }
      JFreeChart chart =
          ChartFactory.createBarChart(
              what
                  + " lookup, ns per lookup at n="
                  + Targets.nLabel(n)
                  + " (whiskers: 99.9% CI; colour: sieve, peer, exact, limit)",
              "structure",
              "ns per lookup",
              data,
              PlotOrientation.HORIZONTAL,
              false,
              false,
              false);
      CategoryPlot plot = chart.getCategoryPlot();
      StatisticalBarRenderer renderer =
          new StatisticalBarRenderer() {
            @Override
            public java.awt.Paint getItemPaint(int row, int column) {
              return colours.get(column);
            }
          };
      renderer.setErrorIndicatorPaint(Color.BLACK);
      renderer.setDrawBarOutline(false);
      renderer.setShadowVisible(false);
      renderer.setBarPainter(new org.jfree.chart.renderer.category.StandardBarPainter());
      plot.setRenderer(renderer);
      plot.setBackgroundPaint(Color.WHITE);
      plot.setRangeGridlinePaint(Color.LIGHT_GRAY);
      ((NumberAxis) plot.getRangeAxis()).setLowerBound(0.0);
      ChartUtils.saveChartAsPNG(file, chart, W, Math.max(H, 120 + 22 * data.getColumnCount()));
      return;
    }
    Map<String, Map<String, XYSeries>> groups = new LinkedHashMap<>();
    for (String g :
        List.of("Bloom filters", "Xor, Binary Fuse", "Ribbon, Cuckoo", "exact sets, raw read")) {
      groups.put(g, new LinkedHashMap<>());
    }
    for (Row r : rows) {
      double ns = negative ? r.negativeNs : r.positiveNs;
      if (!Double.isNaN(ns) && ns > 0) {
        groups.get(group(r)).computeIfAbsent(label(r), XYSeries::new).add(r.n, ns);
      }
    }
    LogAxis x = new LogAxis("n (keys, log scale)");
    x.setBase(10);
    x.setTickUnit(new NumberTickUnit(1));
    x.setNumberFormatOverride(new PowerOfTen());
    int minN = rows.stream().mapToInt(r -> r.n).min().orElse(1);
    int maxN = rows.stream().mapToInt(r -> r.n).max().orElse(10);
    x.setRange(minN / 2.0, maxN * 2.0);
    CombinedDomainXYPlot combined = new CombinedDomainXYPlot(x);
    combined.setGap(12);
    combined.setDrawingSupplier(palette());
    int panels = 0;
    for (Map.Entry<String, Map<String, XYSeries>> g : groups.entrySet()) {
      if (g.getValue().isEmpty()) {
        continue;
      }
      XYSeriesCollection data = new XYSeriesCollection();
      g.getValue().values().forEach(data::addSeries);
      XYLineAndShapeRenderer renderer = new XYLineAndShapeRenderer(true, true);
      for (int i = 0; i < data.getSeriesCount(); i++) {
        String key = (String) data.getSeriesKey(i);
        if (key.endsWith(SieveAdapters.PREHASHED_SUFFIX)
            || key.endsWith(SieveAdapters.BATCH_SUFFIX)) {
          renderer.setSeriesStroke(i, DASHED);
        }
      }
      LogAxis y = new LogAxis("ns — " + g.getKey());
      y.setBase(10);
      y.setNumberFormatOverride(new PowerOfTen());
      XYPlot plot = new XYPlot(data, null, y, renderer);
      style(plot);
      combined.add(plot, 1);
      panels++;
    }
    JFreeChart chart =
        new JFreeChart(
            what + " lookup, ns per lookup vs n (log-log; dashed: batch and pre-hashed rows)",
            JFreeChart.DEFAULT_TITLE_FONT,
            combined,
            true);
    chart.setBackgroundPaint(Color.WHITE);
    ChartUtils.saveChartAsPNG(file, chart, W, 330 * panels + 260);
  }

  private static boolean isSized(Row r) {
    return r.family == Family.SIEVE || r.family == Family.PEER;
  }

  /** A row's label in the plots: its name, with the bits/key setting when it is not 10. */
  private static String label(Row r) {
    return r.name + (r.bitsPerKeySetting != 10 && isSized(r) ? " @" + r.bitsPerKeySetting : "");
  }

  /** Bits/key over the floor log2(1/FPR) per filter (measured FPR and model FPR). */
  public static void overheadOverFloor(File file, List<Row> rows) throws IOException {
    DefaultCategoryDataset data = new DefaultCategoryDataset();
    int maxN = rows.stream().mapToInt(r -> r.n).max().orElse(0);
    for (Row r : rows) {
      if (r.n != maxN
          || (r.family != Family.SIEVE && r.family != Family.PEER)
          || !ReportCommand.baseFilter(r.name).equals(r.name)) {
        continue; // a -batch or -pre-hashed row is the same filter: same bits, same FPR
      }
      String label =
          r.name
              + (rows.stream().filter(o -> o.name.equals(r.name) && o.n == maxN).count() > 1
                  ? " @" + r.bitsPerKeySetting
                  : "");
      double measured = r.overheadMeasured();
      double model = r.overheadModel();
      if (!Double.isNaN(measured)) {
        data.addValue(measured, "bits/key ÷ log2(1/measured FPR)", label);
      }
      if (!Double.isNaN(model)) {
        data.addValue(model, "bits/key ÷ log2(1/model FPR)", label);
      }
    }
    JFreeChart chart =
        ChartFactory.createBarChart(
            "Space over the information floor (1.0 = the floor; n=" + Targets.nLabel(maxN) + ")",
            "filter",
            "bits/key over log2(1/FPR)",
            data,
            PlotOrientation.HORIZONTAL,
            true,
            false,
            false);
    CategoryPlot plot = chart.getCategoryPlot();
    plot.setBackgroundPaint(Color.WHITE);
    plot.setRangeGridlinePaint(Color.LIGHT_GRAY);
    ((NumberAxis) plot.getRangeAxis()).setLowerBound(0.0);
    ChartUtils.saveChartAsPNG(file, chart, W, H);
  }
}
