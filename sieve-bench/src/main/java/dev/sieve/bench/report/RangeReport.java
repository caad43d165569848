package dev.sieve.bench.report;

import dev.sieve.range.GrafiteFilter;
import dev.sieve.range.PrefixBloomRangeFilter;
import dev.sieve.range.RangeFilter;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;

/**
 * Issue 25's range section: Grafite's measured false-positive rate against its bound {@code
 * ℓ/2^(B−2)} and against the prefix-Bloom baseline given the same memory (the baseline is sized to
 * Grafite's bits per key in memory, select samples included), for range lengths 1, 16, 2^10 and
 * 2^20, on the uniform workload (uniform keys, uniform ranges) and the correlated one (ranges that
 * start just after a key, {@code lo = key + 1 + gap}, gap in [0, 16)). The baseline cannot go below
 * one bit per stored prefix (the blocked Bloom filter's floor), so at 2^20 (21 levels) it takes
 * more memory than Grafite; its bits per key are printed beside. Each filter is built for its range
 * length ({@code maxRangeLength = ℓ}). Only empty ranges are asked (checked against the sorted
 * keys), so every "maybe" is a false positive; the 99.9% Wilson interval is printed. Writes {@code
 * range.md} and {@code range.csv}. Query times are JMH's ({@code RangeQueryBenchmark}).
 *
 * <p>From the report: {@code ./sieve report --range-keys 1000000}. Alone: {@code java -cp
 * sieve-bench/target/sieve-bench-all.jar dev.sieve.bench.report.RangeReport --keys 10000000
 * --queries 1000000 --bits 16 --out report/range}.
 */
public final class RangeReport {
  private RangeReport() {}

  /** The range lengths of the section. */
  static final long[] LENGTHS = {1, 16, 1L << 10, 1L << 20};

  /** The workloads. */
  enum Workload {
    UNIFORM,
    CORRELATED
  }

  /** One cell: a range length and workload, both filters. */
  record Point(
      long length,
      Workload workload,
      double bitsPerKey,
      long queries,
      long grafiteFp,
      double grafiteBound,
      double grafiteBits,
      long prefixFp,
      double prefixBits) {
    double grafiteRate() {
      return (double) grafiteFp / queries;
    }

    double prefixRate() {
      return (double) prefixFp / queries;
    }

    double grafiteUpper() {
      return GrowthReport.wilson(grafiteFp, queries, GrowthReport.Z999)[1];
    }

    /** Whether the measured rate is within the bound (its 99.9% lower end at most the bound). */
    boolean withinBound() {
      return GrowthReport.wilson(grafiteFp, queries, GrowthReport.Z999)[0] <= grafiteBound;
    }
  }

  public static void main(String[] args) throws IOException {
    int keys = 10_000_000;
    long queries = 1_000_000;
    double bits = 16;
    Path out = Path.of("report/range");
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--keys" -> keys = Integer.parseInt(args[++i]);
        case "--queries" -> queries = Long.parseLong(args[++i]);
        case "--bits" -> bits = Double.parseDouble(args[++i]);
        case "--out" -> out = Path.of(args[++i]);
        default -> {
          System.err.println("usage: RangeReport [--keys N] [--queries Q] [--bits B] [--out DIR]");
          System.exit(2);
        }
      }
    }
    write(out, measure(keys, queries, bits), keys, bits);
  }

  /** Measures every cell: {@code n} uniform keys, {@code queries} empty ranges each. */
  static List<Point> measure(int n, long queries, double bitsPerKey) {
    long[] keys = new SplittableRandom(25).longs(n).toArray();
    long[] sortedSigned = Arrays.stream(keys).map(RangeFilter::signedKey).sorted().toArray();
    List<Point> points = new ArrayList<>();
    for (long len : LENGTHS) {
      GrafiteFilter g =
          GrafiteFilter.builder().maxRangeLength(len).bitsPerKey(bitsPerKey).buildFromKeys(keys);
      double gBits = (double) g.memoryBits() / n;
      PrefixBloomRangeFilter p =
          PrefixBloomRangeFilter.builder()
              .maxRangeLength(len)
              .bitsPerKey(gBits)
              .buildFromKeys(keys);
      for (Workload w : Workload.values()) {
        SplittableRandom rnd = new SplittableRandom(len * 31 + w.ordinal());
        long asked = 0;
        long gFp = 0;
        long pFp = 0;
        while (asked < queries) {
          long lo =
              w == Workload.UNIFORM ? rnd.nextLong() : keys[rnd.nextInt(n)] + 1 + rnd.nextInt(16);
          long hi = lo + len - 1;
          if (Long.compareUnsigned(lo, hi) > 0 || !empty(sortedSigned, lo, hi)) {
            continue;
          }
          asked++;
          gFp += g.mayContainRange(lo, hi) ? 1 : 0;
          pFp += p.mayContainRange(lo, hi) ? 1 : 0;
        }
        points.add(
            new Point(
                len,
                w,
                bitsPerKey,
                queries,
                gFp,
                g.fpBound(len),
                gBits,
                pFp,
                (double) p.sizeInBits() / n));
      }
    }
    return points;
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

  static void write(Path out, List<Point> points, int n, double bitsPerKey) throws IOException {
    Files.createDirectories(out);
    StringBuilder csv =
        new StringBuilder(
            "length,workload,queries,grafite_fp,grafite_rate,grafite_upper999,grafite_bound,"
                + "grafite_bits_per_key,prefix_bloom_fp,prefix_bloom_rate,prefix_bloom_bits_per_key\n");
    StringBuilder md = new StringBuilder();
    md.append("# Range filters: Grafite against its bound and the prefix-Bloom baseline\n\n");
    md.append(
        String.format(
            Locale.ROOT,
            "%,d uniform 64-bit keys; Grafite at %.1f bits/key (bound ℓ/2^(B−2)), the prefix-Bloom"
                + " baseline given Grafite's memory; each filter built for its range length;"
                + " %,d empty ranges per cell. Correlated: lo = key + 1 + gap, gap in [0, 16)."
                + " Query times: RangeQueryBenchmark (JMH).%n%n",
            n,
            bitsPerKey,
            points.isEmpty() ? 0 : points.get(0).queries()));
    md.append(
        "| ℓ | workload | Grafite FPR | 99.9% upper | bound | within | Grafite bits/key |"
            + " prefix-Bloom FPR | prefix-Bloom bits/key |\n");
    md.append("|---:|---|---:|---:|---:|---|---:|---:|---:|\n");
    for (Point p : points) {
      md.append(
          String.format(
              Locale.ROOT,
              "| %s | %s | %.3g | %.3g | %.3g | %s | %.2f | %.3g | %.2f |%n",
              lengthName(p.length()),
              p.workload().name().toLowerCase(Locale.ROOT),
              p.grafiteRate(),
              p.grafiteUpper(),
              p.grafiteBound(),
              p.withinBound() ? "yes" : "**NO**",
              p.grafiteBits(),
              p.prefixRate(),
              p.prefixBits()));
      csv.append(
          String.format(
              Locale.ROOT,
              "%d,%s,%d,%d,%.6g,%.6g,%.6g,%.4f,%d,%.6g,%.4f%n",
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
              p.prefixBits()));
    }
    Files.writeString(out.resolve("range.md"), md);
    Files.writeString(out.resolve("range.csv"), csv);
    System.out.println("wrote " + out.resolve("range.md"));
  }

  private static String lengthName(long len) {
    return len >= 1024 && Long.bitCount(len) == 1
        ? "2^" + Long.numberOfTrailingZeros(len)
        : Long.toString(len);
  }
}
