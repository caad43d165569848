package dev.sieve.bench.jmh;

import dev.sieve.MutableFilter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;

/**
 * The worst single insert of a growing filter, which JMH cannot give ({@link GrowthInsertBenchmark}
 * gives the amortized cost): fills fresh filters with {@code n} pre-drawn random hashes ({@code
 * addHash}) in one JVM, first {@code --warmup} whole fills to warm it, then one fill that times
 * every insert with {@link System#nanoTime()} and one plain fill timed as a whole. It prints the
 * maximum single insert, where it fell, the largest insert that grew the filter (its {@code
 * sizeInBits()} changed: a doubling, a new stage) and the largest that did not, the 99.99th, 99.9th
 * and 50th percentiles, the timer's own cost (two back-to-back {@code nanoTime} calls, median,
 * which every per-insert figure includes), and the amortized ns per insert of the plain fill. One
 * JVM measures each structure in turn; a garbage collection or a JIT compilation can land on any
 * insert and is part of what a user would see, so run it alone on a quiet machine, with a heap
 * large enough that the fill does not trigger a full collection, and repeat it.
 *
 * <p>Run: {@code java -Xmx8g -cp sieve-bench/target/sieve-bench-all.jar
 * dev.sieve.bench.jmh.GrowthInsertLatency --n 100000000 --structures
 * expandable,expandable-hinted,scalable,rightsized --fp 0.01 --guess 0 --warmup 3}. The structures
 * are {@link GrowthQueryBenchmark#create}'s.
 */
public final class GrowthInsertLatency {
  private GrowthInsertLatency() {}

  /** One structure's figures, all in nanoseconds. */
  record Result(
      String structure,
      long n,
      long maxNs,
      long maxAt,
      long maxGrowthNs,
      long maxPlainNs,
      int growthSteps,
      long p9999Ns,
      long p999Ns,
      long p50Ns,
      long timerNs,
      double amortizedNs) {
    String line() {
      return String.format(
          Locale.ROOT,
          "%-18s n=%d max=%,d ns (insert #%d) max-growing=%,d ns (%d growth steps)"
              + " max-other=%,d ns p99.99=%,d ns p99.9=%,d ns p50=%d ns timer=%d ns"
              + " amortized=%.2f ns/insert",
          structure,
          n,
          maxNs,
          maxAt,
          maxGrowthNs,
          growthSteps,
          maxPlainNs,
          p9999Ns,
          p999Ns,
          p50Ns,
          timerNs,
          amortizedNs);
    }
  }

  public static void main(String[] args) {
    long n = 10_000_000;
    List<String> structures = List.of("expandable", "expandable-hinted", "scalable", "rightsized");
    double fp = 0.01;
    long guess = 0;
    int warmup = 3;
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--n" -> n = Long.parseLong(args[++i]);
        case "--structures" -> structures = List.of(args[++i].split(","));
        case "--fp" -> fp = Double.parseDouble(args[++i]);
        case "--guess" -> guess = Long.parseLong(args[++i]);
        case "--warmup" -> warmup = Integer.parseInt(args[++i]);
        default -> {
          System.err.println(
              "usage: GrowthInsertLatency [--n N] [--structures S,S] [--fp F] [--guess N]"
                  + " [--warmup W]");
          System.exit(2);
        }
      }
    }
    for (Result r : measure(structures, n, fp, guess, warmup)) {
      System.out.println(r.line());
    }
  }

  static List<Result> measure(List<String> structures, long n, double fp, long guess, int warmup) {
    if (n < 1 || n > Integer.MAX_VALUE - 8) {
      throw new IllegalArgumentException("n=" + n + ": between 1 and 2^31 - 9 (a key array)");
    }
    if (warmup < 0 || warmup > 1000) {
      throw new IllegalArgumentException("warmup=" + warmup + ": between 0 and 1000");
    }
    long[] keys = new SplittableRandom(1).longs(n).toArray();
    int[] times = new int[(int) n];
    boolean[] grew = new boolean[(int) n];
    long timer = timerCost();
    List<Result> results = new ArrayList<>();
    for (String s : structures) {
      for (int w = 0; w < warmup; w++) {
        timedFill(GrowthQueryBenchmark.create(s, n, fp, guess), keys, times, grew);
        plainFill(GrowthQueryBenchmark.create(s, n, fp, guess), keys);
      }
      timedFill(GrowthQueryBenchmark.create(s, n, fp, guess), keys, times, grew);
      MutableFilter plain = GrowthQueryBenchmark.create(s, n, fp, guess);
      long t0 = System.nanoTime();
      plainFill(plain, keys);
      double amortized = (double) (System.nanoTime() - t0) / n;
      long max = -1;
      long maxAt = -1;
      long maxGrowth = 0;
      long maxPlain = 0;
      int steps = 0;
      for (int i = 0; i < times.length; i++) {
        if (times[i] > max) {
          max = times[i];
          maxAt = i;
        }
        if (grew[i]) {
          steps++;
          maxGrowth = Math.max(maxGrowth, times[i]);
        } else {
          maxPlain = Math.max(maxPlain, times[i]);
        }
      }
      int[] sorted = times.clone();
      Arrays.sort(sorted);
      results.add(
          new Result(
              s,
              n,
              max,
              maxAt,
              maxGrowth,
              maxPlain,
              steps,
              percentile(sorted, 0.9999),
              percentile(sorted, 0.999),
              percentile(sorted, 0.5),
              timer,
              amortized));
    }
    return results;
  }

  /**
   * The {@code q}-quantile of sorted values: the smallest value with at least q of them at or
   * below.
   */
  static long percentile(int[] sorted, double q) {
    int rank = (int) Math.ceil(q * sorted.length);
    return sorted[Math.max(0, Math.min(sorted.length, rank) - 1)];
  }

  private static void timedFill(MutableFilter f, long[] keys, int[] times, boolean[] grew) {
    long size = f.sizeInBits();
    for (int i = 0; i < keys.length; i++) {
      long t0 = System.nanoTime();
      f.addHash(keys[i]);
      long t1 = System.nanoTime();
      times[i] = (int) Math.min(Integer.MAX_VALUE, t1 - t0);
      long now = f.sizeInBits();
      grew[i] = now != size;
      size = now;
    }
  }

  private static void plainFill(MutableFilter f, long[] keys) {
    for (long k : keys) {
      f.addHash(k);
    }
  }

  /** The median of 10^5 back-to-back {@code nanoTime} differences. */
  private static long timerCost() {
    long[] d = new long[100_001];
    for (int i = 0; i < d.length; i++) {
      long t0 = System.nanoTime();
      d[i] = System.nanoTime() - t0;
    }
    Arrays.sort(d);
    return d[d.length / 2];
  }
}
