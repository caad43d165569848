package dev.sieve.report;

import dev.sieve.bench.RangeCells;
import dev.sieve.bench.RangeCells.Structure;
import dev.sieve.bench.RangeCells.Workload;
import dev.sieve.range.GrafiteFilter;
import dev.sieve.range.PrefixBloomRangeFilter;
import dev.sieve.range.RangeFilter;
import dev.sieve.report.RangeFigures.Point;
import dev.sieve.report.RangeFigures.Section;
import dev.sieve.report.RangeFigures.Time;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.function.UnaryOperator;

/**
 * The range section: Grafite's measured false-positive rate against its bound {@code ℓ/2^(B−2)} and
 * against the prefix-Bloom baseline given the same memory (the baseline is sized to Grafite's bits
 * per key in memory, its in-memory select index included), for range lengths 1, 16, 2^10 and 2^20,
 * on the uniform workload (uniform keys, uniform ranges) and the correlated one (ranges that start
 * just after a key, {@code lo = key + 1 + gap}, gap in [0, 16)), with each filter's query time per
 * range. The baseline cannot go below one bit per stored prefix (the blocked Bloom filter's floor),
 * so at 2^20 (21 levels) it takes more memory than Grafite; its bits per key are printed beside.
 * Each filter is built for its range length ({@code maxRangeLength = ℓ}). Only empty ranges are
 * asked (checked against the sorted keys), so every "maybe" is a false positive; the 99.9% Wilson
 * interval is printed. Query times come from the report's timer ({@link RangeTimer}: JMH forks, or
 * the in-process timer with {@code --timer quick}); a cell whose 99.9% interval is wider than its
 * mean is re-measured once with twice the iterations and, if still so, marked and kept out of the
 * advice, as the point-lookup rows' {@link SteadyState} guard does.
 *
 * <p>In the default {@code ./sieve report} at 10^6 keys ({@code --range-keys}, 0: off). Alone:
 * {@code java -cp sieve-report/target/sieve-report-all.jar dev.sieve.report.RangeReport --keys
 * 10000000 --queries 1000000 --bits 16 --timer jmh --out report/range}.
 */
public final class RangeReport {
  private RangeReport() {}

  /** The range lengths of the section. */
  static final long[] LENGTHS = {1, 16, 1L << 10, 1L << 20};

  /** The largest key count the section takes (its arrays: 16 bytes per key and the filters). */
  static final int MAX_KEYS = 100_000_000;

  /**
   * The longest range the pick is judged on: the short ranges a key-value store asks (longer ones
   * are better answered by a scan).
   */
  static final long SHORT_RANGE_MAX = 1L << 10;

  /** The FPR the plots draw as a reference line on the uniform workload (2× on the correlated). */
  static final double REFERENCE_FPR = 0.01;

  /**
   * Ns per asked range of the FPR loop (drawing, the emptiness check, both filters), for the plan:
   * an upper estimate from runs on 2 cores.
   */
  static final double FPR_NS_PER_QUERY = 1000;

  public static void main(String[] args) throws Exception {
    int keys = 10_000_000;
    long queries = 1_000_000;
    double bits = 16;
    long seed = 25;
    String timer = "none";
    Path out = Path.of("report/range");
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--keys" -> keys = Integer.parseInt(args[++i]);
        case "--queries" -> queries = Long.parseLong(args[++i]);
        case "--bits" -> bits = Double.parseDouble(args[++i]);
        case "--seed" -> seed = Long.parseLong(args[++i]);
        case "--timer" -> timer = args[++i];
        case "--out" -> out = Path.of(args[++i]);
        default -> {
          System.err.println(
              "usage: RangeReport [--keys N] [--queries Q] [--bits B] [--seed S]"
                  + " [--timer none|quick|jmh] [--out DIR]");
          System.exit(2);
        }
      }
    }
    Section s = measure(keys, queries, bits, seed);
    RangeTimer t =
        switch (timer) {
          case "none" -> null;
          case "quick" -> defaultQuickTimer();
          case "jmh" -> defaultJmhTimer(keys, System.out);
          default -> throw new IllegalArgumentException("--timer must be none, quick or jmh");
        };
    if (t != null) {
      s = timed(s, t, true);
    }
    write(out, s);
  }

  /** The section's JMH timer in the report: 2 warm-up and 5 measured 100 ms iterations per cell. */
  static RangeTimer defaultJmhTimer(int n, PrintStream log) {
    return RangeTimer.jmh(2, 5, 100, forkHeap(n), log);
  }

  /** The section's in-process timer: 5 passes of 2^16 ranges per cell. */
  static RangeTimer defaultQuickTimer() {
    return RangeTimer.quick(5, 1 << 16);
  }

  /**
   * The timing forks' heap: the keys (8 bytes each), four filters of at most about 40 bits per key
   * each and the streams, and the prefix-Bloom build's peak, one 8-byte hash per stored prefix (21
   * levels at ℓ = 2^20: 168 bytes per key), with room: 1 GiB plus 256 bytes per key (3.4 GiB at
   * 10^7; 1.5 GiB plus 48 bytes per key ran out of memory there).
   */
  static String forkHeap(int n) {
    return (1024 + (256L * n >> 20)) + "m";
  }

  /**
   * Seconds the section takes by the plan: the builds and the FPR loop in this JVM, and one timing
   * fork per filter ({@code NaN} where the timer has no plan).
   */
  static double plannedSeconds(int n, long queries, RangeTimer timer) {
    double own =
        RangeTimer.KEYS_NS_PER_KEY * 1e-9 * n
            + FPR_NS_PER_QUERY * 1e-9 * queries * LENGTHS.length * RangeTimer.WORKLOADS;
    for (Structure s : Structure.values()) {
      own += RangeTimer.buildSeconds(s, n, LENGTHS) + timer.plannedSeconds(s, n, LENGTHS);
    }
    return own;
  }

  /** Seconds of re-measuring one filter's cells with the longer timer, by the plan. */
  static double plannedRemeasureSeconds(int n, RangeTimer timer) {
    double worst = 0;
    for (Structure s : Structure.values()) {
      worst = Math.max(worst, timer.longer().plannedSeconds(s, n, LENGTHS));
    }
    return worst;
  }

  /** Measures every cell's FPR with the keys of seed 25 (the JMH benchmark's). */
  static List<Point> measure(int n, long queries, double bitsPerKey) {
    return measure(n, queries, bitsPerKey, 25).points();
  }

  /** Ranges holding a key asked per cell (the contract), at most. */
  static final long POSITIVES = 10_000;

  /** Measures every cell's FPR: {@code n} uniform keys, {@code queries} empty ranges each. */
  static Section measure(int n, long queries, double bitsPerKey, long seed) {
    return measure(n, queries, bitsPerKey, seed, UnaryOperator.identity());
  }

  /**
   * Measures every cell: {@code queries} empty ranges (the FPR) and up to {@value #POSITIVES}
   * ranges that hold a key (the contract) per cell, asked of each filter as seen through {@code
   * view} (the identity in the report; a test plants a false negative there).
   */
  static Section measure(
      int n, long queries, double bitsPerKey, long seed, UnaryOperator<RangeFilter> view) {
    if (n < 1 || n > MAX_KEYS) {
      throw new IllegalArgumentException(
          "--range-keys must be 0 (off) or 1 to " + MAX_KEYS + ", got " + n);
    }
    if (queries < 1) {
      throw new IllegalArgumentException("--range-queries must be positive, got " + queries);
    }
    long[] keys = RangeCells.keys(n, seed);
    long[] sortedSigned = Arrays.stream(keys).map(RangeFilter::signedKey).sorted().toArray();
    List<Point> points = new ArrayList<>();
    for (long len : LENGTHS) {
      GrafiteFilter built = RangeCells.grafite(keys, len, bitsPerKey);
      double gBits = RangeCells.memoryBitsPerKey(built, n);
      double bound = built.fpBound(len);
      PrefixBloomRangeFilter pBuilt = RangeCells.prefixBloom(keys, len, gBits);
      double pBits = (double) pBuilt.sizeInBits() / n;
      RangeFilter g = view.apply(built);
      RangeFilter p = view.apply(pBuilt);
      for (Workload w : Workload.values()) {
        SplittableRandom rnd = new SplittableRandom(seed * 31 + len * 31 + w.ordinal());
        long asked = 0;
        long gFp = 0;
        long pFp = 0;
        while (asked < queries) {
          long lo = RangeCells.low(w, keys, rnd);
          long hi = lo + len - 1;
          if (Long.compareUnsigned(lo, hi) > 0 || !empty(sortedSigned, lo, hi)) {
            continue;
          }
          asked++;
          gFp += g.mayContainRange(lo, hi) ? 1 : 0;
          pFp += p.mayContainRange(lo, hi) ? 1 : 0;
        }
        // ranges that hold a key: it lies at a random place of the range (the range clipped to
        // [0, 2^64 - 1]), the key itself drawn as the workload draws the ranges' keys
        long positives = Math.min(queries, POSITIVES);
        long gFn = 0;
        long pFn = 0;
        for (long i = 0; i < positives; i++) {
          long key = keys[rnd.nextInt(n)];
          long before = len == 1 ? 0 : Math.floorMod(rnd.nextLong(), len);
          long lo = Long.compareUnsigned(key, before) < 0 ? 0 : key - before;
          long hi = lo + len - 1;
          if (Long.compareUnsigned(hi, lo) < 0) {
            hi = -1L;
          }
          gFn += g.mayContainRange(lo, hi) ? 0 : 1;
          pFn += p.mayContainRange(lo, hi) ? 0 : 1;
        }
        points.add(
            new Point(
                len,
                w,
                bitsPerKey,
                queries,
                gFp,
                bound,
                gBits,
                pFp,
                pBits,
                positives,
                gFn,
                pFn,
                Time.NONE,
                Time.NONE));
      }
    }
    return new Section(n, bitsPerKey, queries, seed, "not timed", points);
  }

  /** Whether no key lies in the unsigned range {@code [lo, hi]} ({@code sorted}: signed-mapped). */
  static boolean empty(long[] sortedSigned, long lo, long hi) {
    int i = Arrays.binarySearch(sortedSigned, RangeFilter.signedKey(lo));
    if (i >= 0) {
      return false;
    }
    int at = -i - 1;
    return at == sortedSigned.length || sortedSigned[at] > RangeFilter.signedKey(hi);
  }

  /**
   * The section with its query times: each filter's cells timed by {@code timer}; where a cell is
   * not at steady state and {@code remeasure} allows, that filter is timed once more by {@link
   * RangeTimer#longer()} and its flagged cells take the new figures (marked re-measured); cells
   * still flagged stay marked.
   */
  static Section timed(Section s, RangeTimer timer, boolean remeasure) throws Exception {
    List<Point> points = new ArrayList<>(s.points());
    for (Structure st : Structure.values()) {
      double[] prefixBits = prefixBits(points);
      double[][] scores = timer.time(st, s.n(), s.bitsPerKey(), LENGTHS, prefixBits, s.seed());
      List<Integer> flagged = new ArrayList<>();
      for (int i = 0; i < points.size(); i++) {
        Time t = Time.of(scores[i], false);
        points.set(i, points.get(i).withTime(st, t));
        if (t.unsteady() != null) {
          flagged.add(i);
        }
      }
      if (!flagged.isEmpty() && remeasure) {
        double[][] again =
            timer.longer().time(st, s.n(), s.bitsPerKey(), LENGTHS, prefixBits, s.seed());
        for (int i : flagged) {
          points.set(i, points.get(i).withTime(st, Time.of(again[i], true)));
        }
      }
    }
    return new Section(s.n(), s.bitsPerKey(), s.queries(), s.seed(), timer.describe(), points);
  }

  /** The baseline's bits per key per length: Grafite's memory at that length. */
  private static double[] prefixBits(List<Point> points) {
    double[] out = new double[LENGTHS.length];
    for (int i = 0; i < LENGTHS.length; i++) {
      long len = LENGTHS[i];
      out[i] =
          points.stream().filter(p -> p.length() == len).findFirst().orElseThrow().grafiteBits();
    }
    return out;
  }

  /** Writes {@code range.md}, {@code range.csv} and the two plots (the standalone run). */
  static void write(Path out, Section s) throws IOException {
    Files.createDirectories(out);
    Doc doc = new Doc();
    RangeSection.write(doc, s, "");
    Files.writeString(out.resolve("range.md"), doc.markdown());
    Files.writeString(out.resolve("range.csv"), csv(s));
    RangeCharts.write(out.toFile(), s);
    System.out.println(RangeAdvice.advice(s));
    System.out.println("wrote " + out.resolve("range.md"));
  }

  /** Writes the FPR-only table of {@code points} (kept for the callers of the first version). */
  static void write(Path out, List<Point> points, int n, double bitsPerKey) throws IOException {
    write(
        out,
        new Section(
            n,
            bitsPerKey,
            points.isEmpty() ? 0 : points.get(0).queries(),
            25,
            "not timed",
            points));
  }

  /** One line per cell. */
  static String csv(Section s) {
    StringBuilder csv =
        new StringBuilder(
            "length,workload,queries,grafite_fp,grafite_rate,grafite_upper999,grafite_bound,"
                + "grafite_bits_per_key,prefix_bloom_fp,prefix_bloom_rate,prefix_bloom_bits_per_key,"
                + "grafite_ns,grafite_ns_error999,prefix_bloom_ns,prefix_bloom_ns_error999\n");
    for (Point p : s.points()) {
      csv.append(
          String.format(
              Locale.ROOT,
              "%d,%s,%d,%d,%.6g,%.6g,%.6g,%.4f,%d,%.6g,%.4f,%.4g,%.4g,%.4g,%.4g%n",
              p.length(),
              p.workload(),
              p.queries(),
              p.grafiteFp(),
              p.grafiteRate(),
              p.grafiteUpper(),
              p.grafiteBound(),
              p.grafiteBits(),
              p.prefixFp(),
              p.prefixRate(),
              p.prefixBits(),
              p.grafiteTime().ns(),
              p.grafiteTime().error(),
              p.prefixTime().ns(),
              p.prefixTime().error()));
    }
    return csv.toString();
  }
}
