package dev.sieve.report;

import dev.sieve.bench.RangeCells;
import dev.sieve.bench.jmh.RangeCellsBenchmark;
import dev.sieve.range.RangeFilter;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.openjdk.jmh.results.BenchmarkResult;
import org.openjdk.jmh.results.IterationResult;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.format.OutputFormatFactory;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;
import org.openjdk.jmh.runner.options.VerboseMode;

/**
 * Times the range section's cells: ns per range query of one filter, per range length and workload,
 * as iteration scores that {@link Rounds#combine} turns into a mean and its 99.9% interval, and
 * that the section's steady-state check ({@link RangeReport#timed}) reads as the point-lookup rows'
 * guard does. {@link #jmh}: one JMH fork per filter ({@link RangeCellsBenchmark}), the cells taking
 * turns one iteration each, {@code warmupRounds} warm-up and {@code rounds} measured iterations per
 * cell; {@link #quick}: in this JVM, {@code rounds} timed passes per cell over a stream after one
 * warm pass (for tests and smoke runs, as the report's {@code --timer quick}).
 */
public interface RangeTimer {

  /**
   * Times every cell of {@code structure}.
   *
   * @param lengths the range lengths, in order
   * @param prefixBits the prefix-Bloom baseline's bits per key per length (Grafite's memory)
   * @return per cell ({@code length index × 2 + workload ordinal}) the measured iteration scores,
   *     ns per range
   */
  double[][] time(
      RangeCells.Structure structure,
      int n,
      double bitsPerKey,
      long[] lengths,
      double[] prefixBits,
      long seed)
      throws Exception;

  /** The same timer with twice the warm-up and twice the measured iterations. */
  RangeTimer longer();

  /** Seconds {@link #time} takes by the plan for one structure; {@code NaN} where unknown. */
  double plannedSeconds(RangeCells.Structure structure, int n, long[] lengths);

  /**
   * Ns per key of drawing the keys (and, in the report's JVM, sorting a copy), for the plan: an
   * upper estimate from runs on 2 cores.
   */
  double KEYS_NS_PER_KEY = 500;

  /** Ns per key of one Grafite build, for the plan (an upper estimate from runs on 2 cores). */
  double GRAFITE_BUILD_NS_PER_KEY = 250;

  /**
   * Ns per key and level of a prefix-Bloom build ({@code ⌈log2 ℓ⌉ + 1} levels: 21 at 2^20), for the
   * plan (an upper estimate from runs on 2 cores).
   */
  double PREFIX_BUILD_NS_PER_KEY_LEVEL = 120;

  /** Seconds of building {@code structure} for every length over {@code n} keys, by the plan. */
  static double buildSeconds(RangeCells.Structure structure, int n, long[] lengths) {
    double ns = 0;
    for (long len : lengths) {
      int levels = len <= 1 ? 1 : 65 - Long.numberOfLeadingZeros(len - 1);
      ns +=
          structure == RangeCells.Structure.GRAFITE
              ? GRAFITE_BUILD_NS_PER_KEY
              : PREFIX_BUILD_NS_PER_KEY_LEVEL * levels;
    }
    return ns * 1e-9 * n;
  }

  /** One line for the report: the engine and its iterations. */
  String describe();

  /** Cells per length: the two workloads. */
  int WORKLOADS = RangeCells.Workload.values().length;

  /** JMH forks of {@link RangeCellsBenchmark}, JMH's output to {@code log}. */
  static RangeTimer jmh(
      int warmupRounds, int rounds, int iterationMillis, String heap, PrintStream log) {
    return new Jmh(warmupRounds, rounds, iterationMillis, heap, log);
  }

  /** The in-process timer: {@code rounds} passes of {@code stream} ranges per cell. */
  static RangeTimer quick(int rounds, int stream) {
    return new Quick(rounds, stream);
  }

  /** The JMH engine. */
  record Jmh(int warmupRounds, int rounds, int iterationMillis, String heap, PrintStream log)
      implements RangeTimer {

    public Jmh {
      if (warmupRounds < 0 || rounds < 2 || iterationMillis < 1) {
        throw new IllegalArgumentException(
            "range timing needs at least 2 measured rounds and a positive iteration time");
      }
    }

    @Override
    public double[][] time(
        RangeCells.Structure structure,
        int n,
        double bitsPerKey,
        long[] lengths,
        double[] prefixBits,
        long seed)
        throws Exception {
      int cells = lengths.length * WORKLOADS;
      OptionsBuilder o = new OptionsBuilder();
      o.include(RangeCellsBenchmark.class.getName() + "\\.query$")
          .param("structure", structure.label())
          .param("n", Integer.toString(n))
          .param("bitsPerKey", Double.toString(bitsPerKey))
          .param("lengths", join(lengths))
          .param("prefixBitsPerKey", join(prefixBits))
          .param("seed", Long.toString(seed))
          .forks(1)
          .jvmArgsAppend(JmhTimer.forkArgs(heap))
          .warmupIterations(cells * warmupRounds)
          .warmupTime(TimeValue.milliseconds(iterationMillis))
          .measurementIterations(cells * rounds)
          .measurementTime(TimeValue.milliseconds(iterationMillis))
          .shouldFailOnError(true);
      List<Double> scores = new ArrayList<>();
      for (RunResult r :
          new Runner(o.build(), OutputFormatFactory.createFormatInstance(log, VerboseMode.NORMAL))
              .run()) {
        for (BenchmarkResult b : r.getBenchmarkResults()) {
          for (IterationResult i : b.getIterationResults()) {
            scores.add(i.getPrimaryResult().getScore());
          }
        }
      }
      return byCell(scores.stream().mapToDouble(Double::doubleValue).toArray(), cells);
    }

    @Override
    public RangeTimer longer() {
      return new Jmh(2 * warmupRounds, 2 * rounds, iterationMillis, heap, log);
    }

    /**
     * {@link JmhTimer#FORK_START_SECONDS}, the fork's set-up (the keys and the structure's filters
     * for every length, {@link RangeTimer#buildSeconds}) and every cell's warm-up and measured
     * iterations.
     */
    @Override
    public double plannedSeconds(RangeCells.Structure structure, int n, long[] lengths) {
      int cells = lengths.length * WORKLOADS;
      return JmhTimer.FORK_START_SECONDS
          + KEYS_NS_PER_KEY * 1e-9 * n
          + buildSeconds(structure, n, lengths)
          + cells * (warmupRounds + rounds) * iterationMillis / 1000.0;
    }

    @Override
    public String describe() {
      return String.format(
          Locale.ROOT,
          "JMH 1.37 (RangeCellsBenchmark), one fork of -Xmx%s per filter, the cells taking turns"
              + " one %d ms iteration each: %d warm-up and %d measured iterations per cell, runs of"
              + " %d ranges",
          heap,
          iterationMillis,
          warmupRounds,
          rounds,
          RangeCellsBenchmark.BATCH);
    }
  }

  /** The in-process engine. */
  record Quick(int rounds, int stream) implements RangeTimer {
    public Quick {
      if (rounds < 2 || stream < 1 || Integer.bitCount(stream) != 1) {
        throw new IllegalArgumentException(
            "the quick range timer needs at least 2 rounds and a power-of-two stream");
      }
    }

    @Override
    public double[][] time(
        RangeCells.Structure structure,
        int n,
        double bitsPerKey,
        long[] lengths,
        double[] prefixBits,
        long seed) {
      long[] keys = RangeCells.keys(n, seed);
      double[][] out = new double[lengths.length * WORKLOADS][];
      int sink = 0;
      for (int i = 0; i < lengths.length; i++) {
        RangeFilter f =
            structure == RangeCells.Structure.GRAFITE
                ? RangeCells.grafite(keys, lengths[i], bitsPerKey)
                : RangeCells.prefixBloom(keys, lengths[i], prefixBits[i]);
        for (RangeCells.Workload w : RangeCells.Workload.values()) {
          long[][] s =
              RangeCells.stream(
                  w, keys, lengths[i], stream, RangeCells.streamSeed(seed, lengths[i], w));
          sink += RangeCells.query(f, s[0], s[1], 0, stream); // warm pass
          double[] scores = new double[rounds];
          for (int r = 0; r < rounds; r++) {
            long t0 = System.nanoTime();
            sink += RangeCells.query(f, s[0], s[1], 0, stream);
            scores[r] = (double) (System.nanoTime() - t0) / stream;
          }
          out[i * WORKLOADS + w.ordinal()] = scores;
        }
      }
      if (sink == -1) {
        throw new AssertionError(); // keeps the answers alive
      }
      return out;
    }

    @Override
    public RangeTimer longer() {
      return new Quick(2 * rounds, stream);
    }

    @Override
    public double plannedSeconds(RangeCells.Structure structure, int n, long[] lengths) {
      return Double.NaN;
    }

    @Override
    public String describe() {
      return "quick in-process nanoTime timer ("
          + rounds
          + " timed passes of "
          + stream
          + " ranges per cell after one warm pass; not JMH)";
    }
  }

  /**
   * Splits the iteration scores of a fork into cells: score {@code i} is cell {@code i mod cells}.
   *
   * @throws IllegalStateException if the count is not a multiple of {@code cells}
   */
  static double[][] byCell(double[] scores, int cells) {
    if (scores.length == 0 || scores.length % cells != 0) {
      throw new IllegalStateException(
          "expected a multiple of " + cells + " iteration scores, got " + scores.length);
    }
    int per = scores.length / cells;
    double[][] out = new double[cells][per];
    for (int i = 0; i < scores.length; i++) {
      out[i % cells][i / cells] = scores[i];
    }
    return out;
  }

  private static String join(long[] v) {
    List<String> s = new ArrayList<>();
    for (long x : v) {
      s.add(Long.toString(x));
    }
    return String.join(",", s);
  }

  private static String join(double[] v) {
    List<String> s = new ArrayList<>();
    for (double x : v) {
      s.add(Double.toString(x));
    }
    return String.join(",", s);
  }
}
