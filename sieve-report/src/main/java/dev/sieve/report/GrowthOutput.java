package dev.sieve.report;

import static dev.sieve.report.GrowthReport.RIGHT_SIZED;
import static dev.sieve.report.GrowthVerdicts.MEMORY_TARGET;
import static dev.sieve.report.GrowthVerdicts.MOONSHOT_TARGET;
import static dev.sieve.report.GrowthVerdicts.verdicts;
import static dev.sieve.report.GrowthVerdicts.withinTwiceOfHint;

import dev.sieve.report.GrowthReport.Point;
import dev.sieve.report.GrowthVerdicts.Verdict;
import java.awt.BasicStroke;
import java.awt.Color;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
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
 * What the growth report writes from its checkpoints: {@code growth.csv} (every point), {@code
 * growth.md} (the verdicts, then per rate and structure the summary and the table) and the three
 * plots (FPR, bits/key and memory ÷ right-sized against keys added); the verdicts are also printed.
 */
final class GrowthOutput {
  private GrowthOutput() {}

  /** The queries per point, per rate where they differ: "1,000,000 (f = 0.01), ...". */
  static String queriesText(List<Point> points) {
    java.util.Map<Double, Long> byRate = new java.util.TreeMap<>(Comparator.reverseOrder());
    for (Point p : points) {
      byRate.merge(p.fpRate(), p.queries(), Math::max);
    }
    if (new TreeSet<>(byRate.values()).size() <= 1) {
      return byRate.isEmpty()
          ? "0"
          : String.format(Locale.ROOT, "%,d", byRate.values().iterator().next());
    }
    List<String> parts = new ArrayList<>();
    byRate.forEach((f, q) -> parts.add(String.format(Locale.ROOT, "%,d (f = %s)", q, f)));
    return String.join(", ", parts);
  }

  static void write(Path out, List<Point> points, long guess, long maxN) throws IOException {
    write(out, points, guess, maxN, null);
  }

  /**
   * {@link #write(Path, List, long, long)}, the page opening with the machine and, where not null,
   * the command that ran it.
   */
  static void write(Path out, List<Point> points, long guess, long maxN, String command)
      throws IOException {
    Files.createDirectories(out);
    StringBuilder csv =
        new StringBuilder(
            "structure,hint,fp_rate,keys,steps,bits,right_sized_bits,false_positives,queries,fpr,"
                + "fpr_low999,fpr_high999,model,memory_ratio,just_opened\n");
    for (Point p : points) {
      csv.append(
          String.format(
              Locale.ROOT,
              "%s,%d,%g,%d,%d,%d,%d,%d,%d,%.7g,%.7g,%.7g,%.7g,%.5f,%b%n",
              p.structure(),
              p.hint(),
              p.fpRate(),
              p.keys(),
              p.steps(),
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
    MachineInfo m = MachineInfo.current();
    md.append("# Growable filters: FPR and memory against keys added\n\n")
        .append(
            String.format(
                Locale.ROOT,
                "Machine: %s, %d cores; caches: %s; memory %s; %s. JDK: Java %s (%s).%s%n%n",
                m.cpu(),
                m.cores(),
                m.caches(),
                m.memory(),
                m.os(),
                System.getProperty("java.version"),
                System.getProperty("java.vm.name"),
                command == null ? "" : " Command: `" + command + "`."))
        .append(
            String.format(
                Locale.ROOT,
                "Grown key by key to %,d keys, %s absent queries per point; FPR with its 99.9%%"
                    + " Wilson interval and the filter's own model; memory against a blocked"
                    + " Bloom filter sized right for the count at the same rate. `scalable`:"
                    + " ScalableBloomFilter (growth 2, tightening 0.9) from a guess of %,d keys;"
                    + " `expandable`: ExpandableFilter from its smallest table, no hint;"
                    + " `expandable-hinted`: with an expectedKeys hint; `rightsized`: a"
                    + " BlockedBloomFilter built for each count. Steps: stages opened after the"
                    + " first, or doublings. `*` = just after a growth step. Query and insert"
                    + " times: the Timings section at the end (unless left out).%n%n",
                maxN,
                queriesText(points),
                guess));
    List<Verdict> verdicts = verdicts(points);
    md.append("## Verdicts\n\n")
        .append("| f | structure | target | verdict | figure |\n|---:|---|---|:---:|---|\n");
    for (Verdict v : verdicts) {
      md.append(
          String.format(
              Locale.ROOT,
              "| %g | %s | %s | %s | %s |%n",
              v.fpRate(),
              v.structure(),
              v.target(),
              v.outcome().mark,
              v.figure()));
    }
    md.append('\n');
    for (double f : points.stream().map(Point::fpRate).distinct().toList()) {
      List<Point> mine =
          points.stream()
              .filter(p -> p.fpRate() == f)
              .sorted(Comparator.comparingLong(Point::keys))
              .toList();
      md.append(String.format(Locale.ROOT, "## f = %g%n%n", f));
      for (String label : mine.stream().map(Point::label).distinct().toList()) {
        List<Point> one = mine.stream().filter(p -> p.label().equals(label)).toList();
        // a hinted filter holds the table of its hint far below it: its memory is judged where
        // the count is within 2x of the hint, as in the verdicts and the plots
        List<Point> sized = one.stream().filter(GrowthVerdicts::withinTwiceOfHint).toList();
        md.append(
            String.format(
                Locale.ROOT,
                "- %s: FPR significantly above f (99.9%% lower bound > f) at %d of %d points,"
                    + " upper bound above f at %d; memory ÷ right-sized%s worst %.2f×, worst at"
                    + " powers of ten %.2f×, mean %.2f×%n",
                label,
                one.stream().filter(p -> p.lower() > f).count(),
                one.size(),
                one.stream().filter(p -> p.upper() > f).count(),
                one.get(0).hint() > 0 ? " (counts within 2× of the hint)" : "",
                sized.stream().mapToDouble(Point::memoryRatio).max().orElse(0),
                sized.stream()
                    .filter(p -> isPowerOfTen(p.keys()))
                    .mapToDouble(Point::memoryRatio)
                    .max()
                    .orElse(0),
                sized.stream().mapToDouble(Point::memoryRatio).average().orElse(0)));
      }
      md.append(
          "\n| keys | structure | steps | FPR | 99.9% interval | model | bits/key"
              + " | right-sized bits/key | memory ÷ right-sized |\n"
              + "|---:|---|---:|---:|---|---:|---:|---:|---:|\n");
      for (Point p : mine) {
        md.append(
            String.format(
                Locale.ROOT,
                "| %,d%s | %s | %d | %.4f%% | [%.4f%%, %.4f%%] | %.4f%% | %.2f | %.2f | %.2f× |%n",
                p.keys(),
                p.justOpened() ? " *" : "",
                p.label(),
                p.steps(),
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
        "![FPR against keys](fpr-vs-keys.png)\n\n![bits/key against keys](bits-per-key.png)\n\n"
            + "![memory ÷ right-sized against keys](memory-ratio.png)\n\n"
            + "The bits/key and memory plots show a hinted filter only where the count is within"
            + " 2× of its hint (where the moonshot judges it): far below its hint it holds a"
            + " table sized for the hint.\n");
    Files.writeString(out.resolve("growth.md"), md);
    plots(out, points);
    for (Verdict v : verdicts) {
      System.out.printf(
          Locale.ROOT,
          "%s f=%g %s: %s (%s)%n",
          v.structure(),
          v.fpRate(),
          v.target(),
          v.outcome().mark,
          v.figure());
    }
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
    XYSeriesCollection ratio = new XYSeriesCollection();
    List<Double> rates = points.stream().map(Point::fpRate).distinct().toList();
    for (double f : rates) {
      String rate = String.format(Locale.ROOT, "f=%g", f);
      XYSeries target = new XYSeries("requested " + rate);
      XYSeries limit =
          new XYSeries(String.format(Locale.ROOT, "target %.1f×, %s", MEMORY_TARGET, rate));
      XYSeries moonshot =
          new XYSeries(
              String.format(Locale.ROOT, "moonshot %.1f× (hinted), %s", MOONSHOT_TARGET, rate));
      for (String label :
          points.stream().filter(p -> p.fpRate() == f).map(Point::label).distinct().toList()) {
        XYSeries measured = new XYSeries("FPR " + label + ", " + rate);
        XYSeries upper = new XYSeries("99.9% upper bound " + label + ", " + rate);
        XYSeries perKey = new XYSeries("bits/key " + label + ", " + rate);
        XYSeries memory = new XYSeries("memory ÷ right-sized " + label + ", " + rate);
        for (Point p : points) {
          if (p.fpRate() != f || !p.label().equals(label)) {
            continue;
          }
          measured.add(p.keys(), Math.max(p.measured(), 1e-9));
          upper.add(p.keys(), Math.max(p.upper(), 1e-9));
          target.addOrUpdate(p.keys(), f);
          limit.addOrUpdate(p.keys(), MEMORY_TARGET);
          moonshot.addOrUpdate(p.keys(), MOONSHOT_TARGET);
          if (!withinTwiceOfHint(p)) {
            continue; // a hinted filter far below its hint: tens of times the memory, unreadable
          }
          perKey.add(p.keys(), (double) p.bits() / p.keys());
          if (!p.structure().equals(RIGHT_SIZED)) {
            memory.add(p.keys(), p.memoryRatio());
          }
        }
        fpr.addSeries(measured);
        if (rates.size() == 1) {
          fpr.addSeries(upper); // one rate: the bounds too (two: too many lines to read)
        }
        if (!perKey.isEmpty()) {
          bits.addSeries(perKey);
        }
        if (!memory.isEmpty()) {
          ratio.addSeries(memory);
        }
      }
      fpr.addSeries(target);
      ratio.addSeries(limit);
      ratio.addSeries(moonshot);
    }
    save(out.resolve("fpr-vs-keys.png").toFile(), "FPR against keys added", "FPR", fpr, true);
    save(
        out.resolve("bits-per-key.png").toFile(),
        "Bits per key against keys added",
        "bits/key",
        bits,
        false);
    save(
        out.resolve("memory-ratio.png").toFile(),
        "Memory ÷ right-sized blocked Bloom filter against keys added",
        "memory ÷ right-sized",
        ratio,
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
