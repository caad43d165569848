package dev.sieve.report;

import dev.sieve.bench.Family;
import dev.sieve.bloom.FastLocalBloomSizing;
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
import org.jfree.chart.plot.CategoryPlot;
import org.jfree.chart.plot.CombinedDomainXYPlot;
import org.jfree.chart.plot.PlotOrientation;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.renderer.xy.XYLineAndShapeRenderer;
import org.jfree.data.category.DefaultCategoryDataset;
import org.jfree.data.xy.XYSeries;
import org.jfree.data.xy.XYSeriesCollection;

/**
 * The report's false-positive and space plots (JFreeChart, headless), and what every plot shares:
 * the palette, the dashed theory stroke, the plot style and the grid of panels ({@link
 * LookupCharts} draws the lookup times, {@link RangeCharts} the range section).
 */
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
      int k = FastLocalBloomSizing.chooseNumProbes(FastLocalBloomSizing.rocksDbMillibitsPerKey(b));
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
          || !RowSets.baseFilter(r.name).equals(r.name)
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
      panels.add(new Panel("fixed-size filters, n=" + Names.nLabel(maxN), theory, measured));
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
      LogAxis y = LogAxes.of("FPR — " + panel.title(), 10, 1, LogAxes.Ticks.POWER_OF_TEN);
      y.setSmallestValue(1e-7);
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

  static final BasicStroke DASHED =
      new BasicStroke(
          2.0f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 1f, new float[] {6f, 4f}, 0f);

  /** Twenty colours that stay apart on white (no yellow), shared by every series of a figure. */
  static final java.awt.Paint[] PALETTE = {
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

  static void style(XYPlot plot) {
    plot.setBackgroundPaint(Color.WHITE);
    plot.setDomainGridlinePaint(Color.LIGHT_GRAY);
    plot.setRangeGridlinePaint(Color.LIGHT_GRAY);
  }

  /** Panel width in the grids. */
  static final int PANEL_W = 720;

  /** Lays {@code charts} out two per line under {@code title} and writes one PNG. */
  static void grid(File file, String title, List<JFreeChart> charts, int panelH)
      throws IOException {
    int cols = charts.size() <= 1 ? 1 : 2;
    int lines = Math.max(1, (charts.size() + cols - 1) / cols);
    int top = 44;
    java.awt.image.BufferedImage img =
        new java.awt.image.BufferedImage(
            cols * PANEL_W, top + lines * panelH, java.awt.image.BufferedImage.TYPE_INT_RGB);
    java.awt.Graphics2D g = img.createGraphics();
    try {
      g.setRenderingHint(
          java.awt.RenderingHints.KEY_TEXT_ANTIALIASING,
          java.awt.RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
      g.setColor(Color.WHITE);
      g.fillRect(0, 0, img.getWidth(), img.getHeight());
      g.setColor(Color.BLACK);
      java.awt.Font font = new java.awt.Font("SansSerif", java.awt.Font.BOLD, 15);
      g.setFont(font);
      String t = title;
      while (g.getFontMetrics().stringWidth(t) > img.getWidth() - 20 && font.getSize() > 9) {
        font = font.deriveFont(font.getSize2D() - 1);
        g.setFont(font);
      }
      g.drawString(t, 10, 28);
      for (int i = 0; i < charts.size(); i++) {
        int cx = (i % cols) * PANEL_W;
        int cy = top + (i / cols) * panelH;
        charts.get(i).draw(g, new java.awt.geom.Rectangle2D.Double(cx, cy, PANEL_W, panelH));
      }
    } finally {
      g.dispose();
    }
    javax.imageio.ImageIO.write(img, "png", file);
  }

  /** Bits/key over the floor log2(1/FPR) per filter (measured FPR and model FPR). */
  public static void overheadOverFloor(File file, List<Row> rows) throws IOException {
    DefaultCategoryDataset data = new DefaultCategoryDataset();
    int maxN = rows.stream().mapToInt(r -> r.n).max().orElse(0);
    for (Row r : rows) {
      if (r.n != maxN
          || (r.family != Family.SIEVE && r.family != Family.PEER)
          || !RowSets.baseFilter(r.name).equals(r.name)) {
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
            "Space over the information floor (1.0 = the floor; n=" + Names.nLabel(maxN) + ")",
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
