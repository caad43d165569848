package dev.sieve.bench.report;

import dev.sieve.bloom.BlockedBloomFilter;
import dev.sieve.bloom.FastLocalBloomSizing;
import dev.sieve.bloom.ScalableBloomFilter;
import dev.sieve.math.GrowthMath;
import java.awt.BasicStroke;
import java.awt.Color;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.TreeSet;
import org.jfree.chart.ChartUtils;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.LogAxis;
import org.jfree.chart.axis.NumberAxis;
import org.jfree.chart.axis.ValueAxis;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.renderer.xy.XYLineAndShapeRenderer;
import org.jfree.data.xy.XYSeries;
import org.jfree.data.xy.XYSeriesCollection;

/**
 * Issue 16's growth measurement: a {@link ScalableBloomFilter} grown key by key from a guess of
 * 10^3 keys up to {@code --max-n}, measured at checkpoints (ten per decade, and just after each
 * stage opens, the worst moment for memory): its FPR over {@code --queries} random absent hashes
 * with the 99.9% Wilson interval, and its bits against a {@link BlockedBloomFilter} sized right for
 * the count at the same rate (sized by {@link ScalableBloomFilter#stageMillibitsPerKey}, the model
 * with probe collisions, so that both deliver the rate; RocksDB's own rule is printed too). Writes
 * {@code growth.md}, {@code growth.csv} and two plots (FPR and bits/key against keys added) to
 * {@code --out}. Keys are random 64-bit hashes added through {@code addHash} (the key hash is not
 * what is measured). Query times are JMH's, {@link GrowthQueryBenchmark}.
 *
 * <p>Also from the report: {@code ./sieve report --growth-max-n 10000000} (f = 1%, into {@code
 * report/growth}). Run: {@code java -Xmx8g -cp sieve-bench/target/sieve-bench-all.jar
 * dev.sieve.bench.GrowthReport --max-n 100000000 --fp 0.01,0.001 --out report/growth}.
 */
public final class GrowthReport {
  private GrowthReport() {}

  /** One checkpoint's figures. */
  record Point(
      double fpRate,
      long keys,
      int stages,
      long bits,
      long rightSizedBits,
      long falsePositives,
      long queries,
      double model,
      boolean justOpened) {
    double measured() {
      return (double) falsePositives / queries;
    }

    double upper() {
      return wilson(falsePositives, queries, Z999)[1];
    }

    double lower() {
      return wilson(falsePositives, queries, Z999)[0];
    }

    double memoryRatio() {
      return (double) bits / rightSizedBits;
    }
  }

  /** Two-sided 99.9% normal quantile. */
  static final double Z999 = 3.2905;

  /** The Wilson score interval of {@code x} successes in {@code n} trials. */
  static double[] wilson(long x, long n, double z) {
    double p = (double) x / n;
    double z2 = z * z;
    double centre = (p + z2 / (2 * n)) / (1 + z2 / n);
    double half = z * Math.sqrt(p * (1 - p) / n + z2 / (4.0 * n * n)) / (1 + z2 / n);
    return new double[] {Math.max(0, centre - half), Math.min(1, centre + half)};
  }

  public static void main(String[] args) throws IOException {
    long maxN = 100_000_000L;
    long guess = 1_000;
    long queries = 1_000_000;
    List<Double> rates = List.of(0.01);
    Path out = Path.of("report/growth");
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--max-n" -> maxN = Long.parseLong(args[++i]);
        case "--guess" -> guess = Long.parseLong(args[++i]);
        case "--queries" -> queries = Long.parseLong(args[++i]);
        case "--out" -> out = Path.of(args[++i]);
        case "--fp" -> {
          List<Double> r = new ArrayList<>();
          for (String s : args[++i].split(",")) {
            r.add(Double.parseDouble(s));
          }
          rates = r;
        }
        default -> {
          System.err.println(
              "usage: GrowthReport [--max-n N] [--guess N] [--queries Q] [--fp F,F] [--out DIR]");
          System.exit(2);
        }
      }
    }
    List<Point> points = new ArrayList<>();
    for (double f : rates) {
      points.addAll(measure(f, guess, maxN, queries));
    }
    write(out, points, guess, maxN, queries);
  }

  static List<Point> measure(double f, long guess, long maxN, long queries) {
    TreeSet<Long> checkpoints = new TreeSet<>();
    for (double x = Math.log10(guess); x <= Math.log10(maxN) + 1e-9; x += 0.1) {
      checkpoints.add(Math.round(Math.pow(10, x)));
    }
    checkpoints.add(maxN);
    // just after each stage opens (cumulative capacity + 1): the worst moment for memory
    long cumulative = 0;
    for (int i = 0; i < ScalableBloomFilter.MAX_STAGES; i++) {
      cumulative += GrowthMath.scalableStageCapacity(guess, 2.0, i);
      if (cumulative + 1 > maxN) {
        break;
      }
      checkpoints.add(cumulative + 1);
    }
    ScalableBloomFilter filter =
        ScalableBloomFilter.builder().expectedKeys(guess).fpRate(f).create();
    int millibits = ScalableBloomFilter.stageMillibitsPerKey(f);
    int rocksDbMillibits = FastLocalBloomSizing.millibitsPerKeyForFpRate(f);
    System.out.printf(
        Locale.ROOT,
        "right-sized blocked Bloom for f=%g: %.3f bits/key (RocksDB's own rule: %.3f)%n",
        f,
        millibits / 1000.0,
        rocksDbMillibits / 1000.0);
    SplittableRandom keys = new SplittableRandom(1);
    SplittableRandom absent = new SplittableRandom(2);
    List<Point> points = new ArrayList<>();
    long added = 0;
    int stagesBefore = 1;
    long start = System.nanoTime();
    for (long cp : checkpoints) {
      while (added < cp) {
        filter.addHash(keys.nextLong());
        added++;
      }
      long fp = 0;
      for (long q = 0; q < queries; q++) {
        if (filter.mayContainHash(absent.nextLong())) {
          fp++;
        }
      }
      boolean opened = filter.numStages() > stagesBefore;
      stagesBefore = filter.numStages();
      Point p =
          new Point(
              f,
              added,
              filter.numStages(),
              filter.sizeInBits(),
              FastLocalBloomSizing.rocksDbDataBytes(added, millibits) * 8,
              fp,
              queries,
              filter.modelledFpRate(),
              opened);
      points.add(p);
      System.out.printf(
          Locale.ROOT,
          "f=%g keys=%d stages=%d FPR=%.5f%% [%.5f%%, %.5f%%] model=%.5f%% bits/key=%.2f"
              + " right-sized=%.2f memory=%.3fx (%.0f s)%n",
          f,
          added,
          p.stages(),
          100 * p.measured(),
          100 * p.lower(),
          100 * p.upper(),
          100 * p.model(),
          (double) p.bits() / added,
          (double) p.rightSizedBits() / added,
          p.memoryRatio(),
          (System.nanoTime() - start) / 1e9);
    }
    return points;
  }

  static void write(Path out, List<Point> points, long guess, long maxN, long queries)
      throws IOException {
    Files.createDirectories(out);
    StringBuilder csv =
        new StringBuilder(
            "fp_rate,keys,stages,bits,right_sized_bits,false_positives,queries,fpr,fpr_low999,"
                + "fpr_high999,model,memory_ratio,just_opened\n");
    for (Point p : points) {
      csv.append(
          String.format(
              Locale.ROOT,
              "%g,%d,%d,%d,%d,%d,%d,%.7g,%.7g,%.7g,%.7g,%.5f,%b%n",
              p.fpRate(),
              p.keys(),
              p.stages(),
              p.bits(),
              p.rightSizedBits(),
              p.falsePositives(),
              p.queries(),
              p.measured(),
              p.lower(),
              p.upper(),
              p.model(),
              p.memoryRatio(),
              p.justOpened()));
    }
    Files.writeString(out.resolve("growth.csv"), csv);

    StringBuilder md = new StringBuilder();
    md.append("# Growable filter: FPR and memory against keys added\n\n")
        .append(
            String.format(
                Locale.ROOT,
                "ScalableBloomFilter (growth 2, tightening 0.9) from a guess of %d keys to %d,"
                    + " %d absent queries per point; FPR with its 99.9%% Wilson interval;"
                    + " memory against a blocked Bloom filter sized right for the count at the"
                    + " same rate. `*` = just after a stage opened.%n%n",
                guess,
                maxN,
                queries));
    for (double f : points.stream().map(Point::fpRate).distinct().toList()) {
      List<Point> mine = points.stream().filter(p -> p.fpRate() == f).toList();
      long above = mine.stream().filter(p -> p.lower() > f).count();
      long notShownBelow = mine.stream().filter(p -> p.upper() > f).count();
      double worst = mine.stream().mapToDouble(Point::memoryRatio).max().orElse(0);
      double atPowers =
          mine.stream()
              .filter(p -> isPowerOfTen(p.keys()))
              .mapToDouble(Point::memoryRatio)
              .max()
              .orElse(0);
      md.append(String.format(Locale.ROOT, "## f = %g%n%n", f))
          .append(
              String.format(
                  Locale.ROOT,
                  "- FPR significantly above f (99.9%% lower bound > f): %d of %d points;"
                      + " upper bound above f: %d%n",
                  above,
                  mine.size(),
                  notShownBelow))
          .append(
              String.format(
                  Locale.ROOT,
                  "- memory ÷ right-sized: worst %.2f×, worst at powers of ten %.2f×, mean"
                      + " %.2f×%n%n",
                  worst,
                  atPowers,
                  mine.stream().mapToDouble(Point::memoryRatio).average().orElse(0)))
          .append(
              "| keys | stages | FPR | 99.9% interval | model | bits/key | right-sized bits/key"
                  + " | memory ÷ right-sized |\n|---:|---:|---:|---|---:|---:|---:|---:|\n");
      for (Point p : mine) {
        md.append(
            String.format(
                Locale.ROOT,
                "| %,d%s | %d | %.4f%% | [%.4f%%, %.4f%%] | %.4f%% | %.2f | %.2f | %.2f× |%n",
                p.keys(),
                p.justOpened() ? " *" : "",
                p.stages(),
                100 * p.measured(),
                100 * p.lower(),
                100 * p.upper(),
                100 * p.model(),
                (double) p.bits() / p.keys(),
                (double) p.rightSizedBits() / p.keys(),
                p.memoryRatio()));
      }
      md.append('\n');
    }
    md.append(
        "![FPR against keys](fpr-vs-keys.png)\n\n![bits/key against keys](bits-per-key.png)\n");
    Files.writeString(out.resolve("growth.md"), md);
    plots(out, points);
    System.out.println("wrote " + out.resolve("growth.md"));
  }

  private static boolean isPowerOfTen(long x) {
    while (x >= 10 && x % 10 == 0) {
      x /= 10;
    }
    return x == 1;
  }

  static {
    System.setProperty("java.awt.headless", "true");
  }

  private static void plots(Path out, List<Point> points) throws IOException {
    XYSeriesCollection fpr = new XYSeriesCollection();
    XYSeriesCollection bits = new XYSeriesCollection();
    for (double f : points.stream().map(Point::fpRate).distinct().toList()) {
      String label = String.format(Locale.ROOT, "f=%g", f);
      XYSeries measured = new XYSeries("measured FPR, " + label);
      XYSeries upper = new XYSeries("99.9% upper bound, " + label);
      XYSeries target = new XYSeries("requested " + label);
      XYSeries chain = new XYSeries("scalable bits/key, " + label);
      XYSeries right = new XYSeries("right-sized blocked Bloom, " + label);
      for (Point p : points) {
        if (p.fpRate() != f) {
          continue;
        }
        measured.add(p.keys(), Math.max(p.measured(), 1e-9));
        upper.add(p.keys(), Math.max(p.upper(), 1e-9));
        target.add(p.keys(), f);
        chain.add(p.keys(), (double) p.bits() / p.keys());
        right.add(p.keys(), (double) p.rightSizedBits() / p.keys());
      }
      fpr.addSeries(measured);
      fpr.addSeries(upper);
      fpr.addSeries(target);
      bits.addSeries(chain);
      bits.addSeries(right);
    }
    save(out.resolve("fpr-vs-keys.png").toFile(), "FPR against keys added", "FPR", fpr, true);
    save(
        out.resolve("bits-per-key.png").toFile(),
        "Bits per key against keys added",
        "bits/key",
        bits,
        false);
  }

  private static void save(
      File file, String title, String yLabel, XYSeriesCollection data, boolean logY)
      throws IOException {
    LogAxis x = new LogAxis("keys added");
    x.setBase(10);
    ValueAxis y;
    if (logY) {
      LogAxis ly = new LogAxis(yLabel);
      ly.setBase(10);
      y = ly;
    } else {
      NumberAxis ny = new NumberAxis(yLabel);
      ny.setAutoRangeIncludesZero(true);
      y = ny;
    }
    XYLineAndShapeRenderer renderer = new XYLineAndShapeRenderer(true, true);
    for (int i = 0; i < data.getSeriesCount(); i++) {
      renderer.setSeriesStroke(i, new BasicStroke(1.5f));
    }
    XYPlot plot = new XYPlot(data, x, y, renderer);
    plot.setBackgroundPaint(Color.WHITE);
    plot.setDomainGridlinePaint(Color.LIGHT_GRAY);
    plot.setRangeGridlinePaint(Color.LIGHT_GRAY);
    ChartUtils.saveChartAsPNG(file, new JFreeChart(title, plot), 1100, 700);
  }
}
