package dev.sieve.report;

import dev.sieve.MutableFilter;
import dev.sieve.bloom.BlockedBloomFilter;
import dev.sieve.bloom.FastLocalBloomSizing;
import dev.sieve.bloom.ScalableBloomFilter;
import dev.sieve.expand.ExpandableFilter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.TreeSet;
import java.util.function.ToIntFunction;

/**
 * The growth measurement: growable filters grown key by key up to {@code --max-n}, side by side
 * with a right-sized filter, measured at checkpoints (ten per decade from 10^3, and just after each
 * growth step of each growable filter: a stage opening or a doubling, the worst moment for memory).
 * The structures: {@code scalable}, a {@link ScalableBloomFilter} from a guess of {@code --guess}
 * (10^3) keys; {@code expandable}, an {@link ExpandableFilter} with no hint, from its smallest
 * table; {@code expandable-hinted}, an {@link ExpandableFilter} with an {@code expectedKeys} hint
 * ({@code --hints}, by default {@code max-n / 2} and {@code max-n}: a hint 2× under the truth at
 * the end and one right); and {@code rightsized}, a {@link BlockedBloomFilter} built for each
 * ten-per-decade count at the same rate (sized by {@link ScalableBloomFilter#stageMillibitsPerKey},
 * the model with probe collisions, so that it delivers the rate; RocksDB's own rule is printed
 * too). At each checkpoint: the FPR over {@code --queries} random absent hashes with its 99.9%
 * Wilson interval, the filter's own model ({@code modelledFpRate()}), bits per key, and memory
 * against the right-sized blocked Bloom filter's bits. Then the verdicts ({@link
 * GrowthVerdicts#verdicts}): FPR ≤ f at the 99.9% upper bound at every checkpoint; memory ≤ 1.5×
 * the right-sized filter at every checkpoint after the first growth step; the moonshot, ≤ 1.2× with
 * a hint within 2× of the count. Writes {@code growth.md}, {@code growth.csv} and three plots (FPR,
 * bits/key and memory ÷ right-sized against keys added) to {@code --out}. Keys are random 64-bit
 * hashes added through {@code addHash} (the key hash is not what is measured). Then, unless {@code
 * --no-timings}, the timings section ({@link GrowthTimingsRun}): lookups, amortized and worst
 * inserts and concurrent writers, by JMH in forks, appended to {@code growth.md}.
 *
 * <p>Also from the report: {@code ./sieve report --growth-max-n 10000000} (f = 1%, into {@code
 * report/growth}). Run: {@code java -Xmx8g -cp sieve-report/target/sieve-report-all.jar
 * dev.sieve.report.GrowthReport --max-n 100000000 --fp 0.01,0.001 --out report/growth}.
 */
public final class GrowthReport {
  private GrowthReport() {}

  /** The ScalableBloomFilter from a guess. */
  static final String SCALABLE = "scalable";

  /** The ExpandableFilter with no hint. */
  static final String EXPANDABLE = "expandable";

  /** The ExpandableFilter with an expectedKeys hint ({@link Point#hint()}). */
  static final String EXPANDABLE_HINTED = "expandable-hinted";

  /** The blocked Bloom filter built right-sized for each count. */
  static final String RIGHT_SIZED = "rightsized";

  /** Every structure, the default of {@code --structures}. */
  static final Set<String> ALL_STRUCTURES =
      Set.of(SCALABLE, EXPANDABLE, EXPANDABLE_HINTED, RIGHT_SIZED);

  /**
   * One checkpoint's figures: {@code steps} is the growth steps taken (stages opened after the
   * first for the scalable filter, doublings for the expandable one, 0 for the right-sized one),
   * {@code hint} the expectedKeys hint (0: none), {@code justOpened} that a growth step happened on
   * the add just before.
   */
  record Point(
      String structure,
      long hint,
      double fpRate,
      long keys,
      int steps,
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

    /** {@return the structure, with its hint if any} */
    String label() {
      return hint > 0 ? String.format(Locale.ROOT, "%s (hint %,d)", structure, hint) : structure;
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

  public static void main(String[] args) throws Exception {
    long maxN = 100_000_000L;
    long guess = 1_000;
    long queries = 0; // 0: queriesFor(f), enough that the interval is narrower than f's margin
    List<Double> rates = List.of(0.01);
    List<Long> hints = null;
    Path out = Path.of("report/growth");
    Set<String> structures = ALL_STRUCTURES;
    boolean timings = true;
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--no-timings" -> timings = false;
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
        case "--structures" -> {
          structures = Set.of(args[++i].split(","));
          if (!ALL_STRUCTURES.containsAll(structures)) {
            System.err.println("unknown structure in " + structures + "; known: " + ALL_STRUCTURES);
            System.exit(2);
          }
        }
        case "--hints" -> {
          List<Long> h = new ArrayList<>();
          for (String s : args[++i].split(",")) {
            if (!s.isBlank()) {
              h.add(Long.parseLong(s));
            }
          }
          hints = h;
        }
        default -> {
          System.err.println(
              "usage: GrowthReport [--max-n N] [--guess N] [--queries Q] [--fp F,F]"
                  + " [--hints H,H (empty: none)] [--structures S,S] [--out DIR] [--no-timings]");
          System.exit(2);
        }
      }
    }
    List<Point> points = new ArrayList<>();
    for (double f : rates) {
      points.addAll(
          measureAll(
              f,
              guess,
              maxN,
              queries > 0 ? queries : queriesFor(f),
              hints == null ? defaultHints(maxN) : hints,
              structures));
    }
    GrowthOutput.write(out, points, guess, maxN, "GrowthReport " + String.join(" ", List.of(args)));
    long q = queries;
    GrowthOperationsSection.run(out, rates, maxN, f -> q > 0 ? q : queriesFor(f));
    if (timings) {
      GrowthTimingsRun.run(
          out, GrowthTimingsRun.rates(rates), maxN, GrowthTimingsRun.Settings.standard());
    }
  }

  /**
   * {@return the absent queries per checkpoint at rate {@code f}: 10^6, or 10^4 / f where that is
   * more} At f = 0.1% 10^6 queries give about 900 false positives, so the 99.9% upper bound sits
   * about 11% above the measured rate, and an expandable filter whose model is 0.089% (its rate at
   * 10^8 keys) failed "FPR ≤ f at the upper bound" at 4 of 67 checkpoints for want of queries; with
   * 10^7 the bound is 3.5% above, and every checkpoint passed.
   */
  static long queriesFor(double f) {
    return Math.max(1_000_000L, Math.round(10_000 / f));
  }

  /** {@return the default hints for a run to {@code maxN}: 2× under the end, and the end} */
  static List<Long> defaultHints(long maxN) {
    return maxN >= 2 ? List.of(maxN / 2, maxN) : List.of(maxN);
  }

  /**
   * Every structure at rate {@code f}: the scalable Bloom filter from {@code guess}, the expandable
   * filter with no hint and with each of {@code hints}, and the right-sized blocked Bloom filter.
   */
  static List<Point> measureAll(double f, long guess, long maxN, long queries, List<Long> hints) {
    return measureAll(f, guess, maxN, queries, hints, ALL_STRUCTURES);
  }

  /**
   * {@link #measureAll(double, long, long, long, List)} for the named {@code structures} only: a
   * run to 10^9 can leave out the right-sized filter's FPR rows (rebuilt at every checkpoint, the
   * slowest part), since every memory ratio uses the right-sized filter's computed size.
   */
  static List<Point> measureAll(
      double f, long guess, long maxN, long queries, List<Long> hints, Set<String> structures) {
    long start = Math.min(1_000, maxN);
    List<Point> points = new ArrayList<>();
    if (structures.contains(SCALABLE)) {
      points.addAll(measure(f, guess, maxN, queries));
    } else {
      printSizing(f);
    }
    if (structures.contains(EXPANDABLE)) {
      points.addAll(
          grow(
              EXPANDABLE,
              0,
              f,
              ExpandableFilter.builder().fpRate(f).create(),
              x -> ((ExpandableFilter) x).doublings(),
              start,
              maxN,
              queries));
    }
    for (long h : structures.contains(EXPANDABLE_HINTED) ? hints : List.<Long>of()) {
      points.addAll(
          grow(
              EXPANDABLE_HINTED,
              h,
              f,
              ExpandableFilter.builder().fpRate(f).expectedKeys(h).create(),
              x -> ((ExpandableFilter) x).doublings(),
              start,
              maxN,
              queries));
    }
    if (structures.contains(RIGHT_SIZED)) {
      points.addAll(measureRightSized(f, start, maxN, queries));
    }
    return points;
  }

  /** The scalable Bloom filter alone, grown from a guess of {@code guess} keys. */
  static List<Point> measure(double f, long guess, long maxN, long queries) {
    printSizing(f);
    return grow(
        SCALABLE,
        0,
        f,
        ScalableBloomFilter.builder().expectedKeys(guess).fpRate(f).create(),
        x -> ((ScalableBloomFilter) x).numStages() - 1,
        guess,
        maxN,
        queries);
  }

  private static void printSizing(double f) {
    System.out.printf(
        Locale.ROOT,
        "right-sized blocked Bloom for f=%g: %.3f bits/key (RocksDB's own rule: %.3f)%n",
        f,
        ScalableBloomFilter.stageMillibitsPerKey(f) / 1000.0,
        FastLocalBloomSizing.millibitsPerKeyForFpRate(f) / 1000.0);
  }

  /** Ten checkpoints per decade from {@code start} to {@code maxN}, and {@code maxN}. */
  static TreeSet<Long> checkpoints(long start, long maxN) {
    TreeSet<Long> checkpoints = new TreeSet<>();
    for (double x = Math.log10(start); x <= Math.log10(maxN) + 1e-9; x += 0.1) {
      checkpoints.add(Math.round(Math.pow(10, x)));
    }
    checkpoints.add(maxN);
    return checkpoints;
  }

  /**
   * Grows {@code filter} with the keys of seed 1 to {@code maxN}, measuring at the checkpoints from
   * {@code start} and just after every growth step ({@code steps} rose) past {@code start}.
   */
  private static List<Point> grow(
      String structure,
      long hint,
      double f,
      MutableFilter filter,
      ToIntFunction<MutableFilter> steps,
      long start,
      long maxN,
      long queries) {
    TreeSet<Long> checkpoints = checkpoints(start, maxN);
    int millibits = ScalableBloomFilter.stageMillibitsPerKey(f);
    SplittableRandom keys = new SplittableRandom(1);
    SplittableRandom absent = new SplittableRandom(2);
    List<Point> points = new ArrayList<>();
    int before = steps.applyAsInt(filter);
    long begin = System.nanoTime();
    for (long added = 1; added <= maxN; added++) {
      filter.addHash(keys.nextLong());
      int now = steps.applyAsInt(filter);
      boolean stepped = now > before;
      before = now;
      if (!checkpoints.contains(added) && !(stepped && added >= start)) {
        continue;
      }
      Point p =
          new Point(
              structure,
              hint,
              f,
              added,
              now,
              filter.sizeInBits(),
              FastLocalBloomSizing.rocksDbDataBytes(added, millibits) * 8,
              falsePositives(filter, absent, queries),
              queries,
              filter.modelledFpRate(),
              stepped);
      points.add(p);
      print(p, begin);
    }
    return points;
  }

  /** A blocked Bloom filter built for each checkpoint's count from the same keys. */
  private static List<Point> measureRightSized(double f, long start, long maxN, long queries) {
    int millibits = ScalableBloomFilter.stageMillibitsPerKey(f);
    SplittableRandom absent = new SplittableRandom(2);
    List<Point> points = new ArrayList<>();
    long begin = System.nanoTime();
    for (long cp : checkpoints(start, maxN)) {
      BlockedBloomFilter filter = BlockedBloomFilter.createWithBitsPerKey(cp, millibits / 1000.0);
      SplittableRandom keys = new SplittableRandom(1);
      for (long i = 0; i < cp; i++) {
        filter.addHash(keys.nextLong());
      }
      Point p =
          new Point(
              RIGHT_SIZED,
              0,
              f,
              cp,
              0,
              filter.sizeInBits(),
              FastLocalBloomSizing.rocksDbDataBytes(cp, millibits) * 8,
              falsePositives(filter, absent, queries),
              queries,
              filter.modelledFpRate(),
              false);
      points.add(p);
      print(p, begin);
    }
    return points;
  }

  private static long falsePositives(MutableFilter filter, SplittableRandom absent, long queries) {
    long fp = 0;
    for (long q = 0; q < queries; q++) {
      if (filter.mayContainHash(absent.nextLong())) {
        fp++;
      }
    }
    return fp;
  }

  private static void print(Point p, long begin) {
    System.out.printf(
        Locale.ROOT,
        "%s f=%g keys=%d steps=%d%s FPR=%.5f%% [%.5f%%, %.5f%%] model=%.5f%% bits/key=%.2f"
            + " right-sized=%.2f memory=%.3fx (%.0f s)%n",
        p.label(),
        p.fpRate(),
        p.keys(),
        p.steps(),
        p.justOpened() ? "*" : "",
        100 * p.measured(),
        100 * p.lower(),
        100 * p.upper(),
        100 * p.model(),
        (double) p.bits() / p.keys(),
        (double) p.rightSizedBits() / p.keys(),
        p.memoryRatio(),
        (System.nanoTime() - begin) / 1e9);
  }
}
