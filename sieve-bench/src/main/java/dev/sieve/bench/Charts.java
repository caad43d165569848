package dev.sieve.bench;

import dev.sieve.bloom.BlockedBloomFilter;
import dev.sieve.math.BloomMath;
import java.awt.BasicStroke;
import java.awt.Color;
import java.io.File;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jfree.chart.ChartFactory;
import org.jfree.chart.ChartUtils;
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

/** The report's PNG plots (JFreeChart, headless). */
public final class Charts {
  private Charts() {}

  static {
    System.setProperty("java.awt.headless", "true");
  }

  private static final int W = 1100;
  private static final int H = 700;

  /**
   * FPR against bits/key: theory curves (standard Bloom at optimal k, CacheLocalFpRate at RocksDB's
   * k, the floor 2^-b), the 2^-r model points of the fingerprint filters and every measured point.
   */
  public static void fprVsBitsPerKey(File file, List<Map<String, Object>> sweep, List<Row> rows)
      throws IOException {
    XYSeriesCollection data = new XYSeriesCollection();
    XYSeries standard = new XYSeries("theory: StandardFpRate (optimal k)");
    XYSeries cacheLocal = new XYSeries("theory: CacheLocalFpRate (512-bit, RocksDB k)");
    XYSeries floor = new XYSeries("floor: 2^-b (log2(1/FPR) = b)");
    for (double b = 2; b <= 24.001; b += 0.25) {
      standard.add(b, BloomMath.standardFpRate(b, BloomMath.optimalNumProbes(b)));
      int k = BlockedBloomFilter.chooseNumProbes(BlockedBloomFilter.rocksDbMillibitsPerKey(b));
      cacheLocal.add(b, BloomMath.cacheLocalFpRate(b, k, 512));
      floor.add(b, Math.pow(2, -b));
    }
    data.addSeries(standard);
    data.addSeries(cacheLocal);
    data.addSeries(floor);
    int theoryCount = 3;
    XYSeries fingerprint = new XYSeries("theory: 2^-r (fingerprint filters, at their size)");
    Map<String, XYSeries> measured = new LinkedHashMap<>();
    for (Map<String, Object> p : sweep) {
      double f = (Double) p.get("fprMeasured");
      if (f > 0) {
        measured
            .computeIfAbsent((String) p.get("name"), k -> new XYSeries("measured: " + k))
            .add(((Double) p.get("bitsPerKey")).doubleValue(), f);
      }
    }
    int maxN = rows.stream().mapToInt(r -> r.n).max().orElse(0);
    for (Row r : rows) {
      if (r.n != maxN || !r.hasFpr() || r.family == Family.EXACT || measured.containsKey(r.name)) {
        continue;
      }
      if (r.measuredFpr() > 0) {
        measured
            .computeIfAbsent(r.name, k -> new XYSeries("measured: " + k))
            .add(r.bitsPerKey(), r.measuredFpr());
      }
      if (r.modelFpr > 0 && r.bitsPerKey() < 40) {
        fingerprint.add(r.bitsPerKey(), r.modelFpr);
      }
    }
    if (fingerprint.getItemCount() > 0) {
      data.addSeries(fingerprint);
      theoryCount++;
    }
    measured.values().forEach(data::addSeries);
    JFreeChart chart =
        ChartFactory.createXYLineChart(
            "False-positive rate vs bits/key (measured points over theory)",
            "bits per key",
            "FPR",
            data,
            PlotOrientation.VERTICAL,
            true,
            false,
            false);
    XYPlot plot = chart.getXYPlot();
    LogAxis y = new LogAxis("FPR (log scale)");
    y.setBase(10);
    y.setSmallestValue(1e-7);
    plot.setRangeAxis(y);
    XYLineAndShapeRenderer renderer = new XYLineAndShapeRenderer();
    for (int i = 0; i < data.getSeriesCount(); i++) {
      boolean theory = i < 3;
      boolean fp = i == 3 && theoryCount == 4;
      renderer.setSeriesLinesVisible(i, theory || (!fp && measured.size() > 0));
      renderer.setSeriesShapesVisible(i, !theory);
      if (theory) {
        renderer.setSeriesStroke(
            i,
            new BasicStroke(
                2.0f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 1f, new float[] {6f, 4f}, 0f));
      }
      if (fp) {
        renderer.setSeriesLinesVisible(i, false);
        renderer.setSeriesPaint(i, Color.BLACK);
      }
    }
    plot.setRenderer(renderer);
    plot.setBackgroundPaint(Color.WHITE);
    plot.setDomainGridlinePaint(Color.LIGHT_GRAY);
    plot.setRangeGridlinePaint(Color.LIGHT_GRAY);
    ChartUtils.saveChartAsPNG(file, chart, W, H);
  }

  /** Query ns against n, one line per structure ({@code negative} or positive). */
  public static void queryVsN(File file, List<Row> rows, boolean negative) throws IOException {
    XYSeriesCollection data = new XYSeriesCollection();
    Map<String, XYSeries> series = new LinkedHashMap<>();
    for (Row r : rows) {
      double ns = negative ? r.negativeNs : r.positiveNs;
      if (!Double.isNaN(ns)) {
        series
            .computeIfAbsent(
                r.name
                    + (r.bitsPerKeySetting != 10 && isSized(r) ? " @" + r.bitsPerKeySetting : ""),
                XYSeries::new)
            .add(r.n, ns);
      }
    }
    series.values().forEach(data::addSeries);
    JFreeChart chart =
        ChartFactory.createXYLineChart(
            (negative ? "Negative" : "Positive") + " query ns/op vs n",
            "n (keys)",
            "ns per lookup",
            data,
            PlotOrientation.VERTICAL,
            true,
            false,
            false);
    XYPlot plot = chart.getXYPlot();
    LogAxis x = new LogAxis("n (keys, log scale)");
    x.setBase(10);
    plot.setDomainAxis(x);
    LogAxis y = new LogAxis("ns per lookup (log scale)");
    y.setBase(10);
    plot.setRangeAxis(y);
    XYLineAndShapeRenderer renderer = new XYLineAndShapeRenderer(true, true);
    plot.setRenderer(renderer);
    plot.setBackgroundPaint(Color.WHITE);
    plot.setDomainGridlinePaint(Color.LIGHT_GRAY);
    plot.setRangeGridlinePaint(Color.LIGHT_GRAY);
    ChartUtils.saveChartAsPNG(file, chart, W, H);
  }

  private static boolean isSized(Row r) {
    return r.family == Family.SIEVE || r.family == Family.PEER;
  }

  /** Bits/key over the floor log2(1/FPR) per filter (measured FPR and model FPR). */
  public static void overheadOverFloor(File file, List<Row> rows) throws IOException {
    DefaultCategoryDataset data = new DefaultCategoryDataset();
    int maxN = rows.stream().mapToInt(r -> r.n).max().orElse(0);
    for (Row r : rows) {
      if (r.n != maxN || (r.family != Family.SIEVE && r.family != Family.PEER)) {
        continue;
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
            "Space over the information floor (1.0 = the floor; n=" + maxN + ")",
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
