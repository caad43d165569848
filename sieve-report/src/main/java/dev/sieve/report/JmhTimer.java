package dev.sieve.report;

import dev.sieve.bench.StructureKind;
import dev.sieve.bench.jmh.BuildBenchmark;
import dev.sieve.bench.jmh.QueryBenchmark;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import org.openjdk.jmh.results.BenchmarkResult;
import org.openjdk.jmh.results.IterationResult;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.format.OutputFormat;
import org.openjdk.jmh.runner.format.OutputFormatFactory;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;
import org.openjdk.jmh.runner.options.VerboseMode;

/**
 * Runs {@link QueryBenchmark} and {@link BuildBenchmark} through JMH's {@link Runner}: per call
 * (one round of one structure) one short fork for positive lookups, one for negative lookups and
 * one for builds, so each structure's call sites are profiled alone. Builds run in average-time
 * mode after several warm-up iterations of whole builds (each iteration at least one build), so the
 * figure is a warmed-up build, not JIT compilation. JMH's own output goes to a log file.
 */
public final class JmhTimer implements Timer {
  /**
   * Seconds a fork costs beyond its iterations: JVM start, JMH's set-up and the benchmark's trial
   * set-up (the keys, the structure and the query streams), for the planned duration. An upper
   * estimate from the report's runs on 2 idle cores (about 0.4-0.6 s at n = 10^6); the set-up's
   * build grows with n, {@link #SETUP_NS_PER_KEY} per key.
   */
  static final double FORK_START_SECONDS = 0.8;

  /** The forks' set-up per key (keys drawn, structure built, query streams): for the plan. */
  static final double SETUP_NS_PER_KEY = 400;

  private final int warmupIterations;
  private final int scalarWarmupIterations;
  private final int warmupMillis;
  private final int iterations;
  private final int iterationMillis;
  private final int buildWarmupIterations;
  private final int buildIterations;
  private final String forkHeap;
  private final PrintStream log;

  /**
   * @param warmupIterations query warm-up iterations per fork of a row that may take a SIMD path
   *     ({@link RowSets#mayTakeSimdPath})
   * @param scalarWarmupIterations the same for every other row (no SIMD gate to wait for: C2 has
   *     compiled a scalar lookup loop well within a second)
   * @param warmupMillis each query warm-up iteration's time
   * @param iterations measured query iterations per fork
   * @param iterationMillis each measured iteration's time (query and build), and each build warm-up
   *     iteration's
   */
  public JmhTimer(
      int warmupIterations,
      int scalarWarmupIterations,
      int warmupMillis,
      int iterations,
      int iterationMillis,
      int buildWarmupIterations,
      int buildIterations,
      String forkHeap,
      PrintStream log) {
    if (warmupIterations < 0
        || scalarWarmupIterations < 0
        || warmupMillis < 1
        || iterations < 1
        || iterationMillis < 1
        || buildWarmupIterations < 0
        || buildIterations < 1) {
      throw new IllegalArgumentException(
          "JMH iterations and iteration time must be positive (warm-ups may be 0)");
    }
    this.warmupIterations = warmupIterations;
    this.scalarWarmupIterations = scalarWarmupIterations;
    this.warmupMillis = warmupMillis;
    this.iterations = iterations;
    this.iterationMillis = iterationMillis;
    this.buildWarmupIterations = buildWarmupIterations;
    this.buildIterations = buildIterations;
    this.forkHeap = forkHeap;
    this.log = log;
  }

  @Override
  public Sample run(Job job, long seed) throws Exception {
    return run(job, seed, true, true);
  }

  @Override
  public Sample run(Job job, long seed, boolean queries, boolean build) throws Exception {
    OutputFormat out = OutputFormatFactory.createFormatInstance(log, VerboseMode.NORMAL);
    Row row = job.row();
    double[] positive = new double[0];
    double[] negative = new double[0];
    double[] builds = new double[0];
    if (queries) {
      ChainedOptionsBuilder query =
          base(job.kind(), row, seed)
              .include(QueryBenchmark.class.getName() + "\\.(positive|negative)$")
              .warmupIterations(warmupIterations(job.kind()))
              .warmupTime(TimeValue.milliseconds(warmupMillis))
              .measurementIterations(iterations)
              .measurementTime(TimeValue.milliseconds(iterationMillis));
      for (RunResult r : new Runner(query.build(), out).run()) {
        double[] scores = iterationScores(r, 1.0);
        if (r.getParams().getBenchmark().endsWith(".positive")) {
          positive = scores;
        } else {
          negative = scores;
        }
      }
    }
    if (build) {
      ChainedOptionsBuilder builder =
          base(job.kind(), row, seed)
              .include(BuildBenchmark.class.getName() + "\\.build$")
              .warmupIterations(buildWarmupIterations)
              .warmupTime(TimeValue.milliseconds(iterationMillis))
              .measurementIterations(buildIterations)
              .measurementTime(TimeValue.milliseconds(iterationMillis));
      for (RunResult r : new Runner(builder.build(), out).run()) {
        builds = iterationScores(r, 1.0 / row.n);
      }
    }
    return new Sample(positive, negative, builds);
  }

  /** The query warm-up iterations of {@code kind}'s forks. */
  int warmupIterations(StructureKind kind) {
    return RowSets.mayTakeSimdPath(kind) ? warmupIterations : scalarWarmupIterations;
  }

  /** Every measured iteration's score of {@code r}, times {@code factor}. */
  private static double[] iterationScores(RunResult r, double factor) {
    List<Double> scores = new ArrayList<>();
    for (BenchmarkResult b : r.getBenchmarkResults()) {
      for (IterationResult i : b.getIterationResults()) {
        scores.add(i.getPrimaryResult().getScore() * factor);
      }
    }
    return scores.stream().mapToDouble(Double::doubleValue).toArray();
  }

  private ChainedOptionsBuilder base(StructureKind kind, Row row, long seed) {
    return new OptionsBuilder()
        .param("structure", kind.name())
        .param("n", Integer.toString(row.n))
        .param("bitsPerKey", Double.toString(row.bitsPerKeySetting))
        .param("seed", Long.toString(seed))
        .forks(1)
        .jvmArgsAppend(forkArgs(forkHeap))
        .shouldFailOnError(true);
  }

  /**
   * The forks' JVM options: the heap, the collector, and the incubating Vector API when this JVM
   * has it (so a structure registered because the module is present can also run in its fork).
   */
  static String[] forkArgs(String heap) {
    List<String> args = new ArrayList<>(List.of("-Xmx" + heap, "-XX:+UseParallelGC"));
    if (ModuleLayer.boot().findModule("jdk.incubator.vector").isPresent()) {
      args.add("--add-modules=jdk.incubator.vector");
    }
    return args.toArray(new String[0]);
  }

  @Override
  public String name() {
    return "jmh";
  }

  @Override
  public Timer longer() {
    return new JmhTimer(
        2 * warmupIterations,
        2 * scalarWarmupIterations,
        warmupMillis,
        2 * iterations,
        iterationMillis,
        2 * buildWarmupIterations,
        2 * buildIterations,
        forkHeap,
        log);
  }

  /**
   * Two query forks (positive, negative) of warm-up plus measurement, and one build fork, each with
   * {@link #FORK_START_SECONDS} and the set-up's {@link #SETUP_NS_PER_KEY} per key.
   */
  @Override
  public double plannedSeconds(int n) {
    return plannedSeconds(n, true, true);
  }

  @Override
  public double plannedSeconds(int n, boolean queries, boolean build) {
    return plannedSeconds(warmupIterations, n, queries, build);
  }

  @Override
  public double plannedSeconds(StructureKind kind, int n) {
    return plannedSeconds(warmupIterations(kind), n, true, true);
  }

  private double plannedSeconds(int warmups, int n, boolean queries, boolean build) {
    double fork = FORK_START_SECONDS + SETUP_NS_PER_KEY * 1e-9 * n;
    double query = (warmups * warmupMillis + iterations * iterationMillis) / 1000.0;
    double builds = (buildWarmupIterations + buildIterations) * iterationMillis / 1000.0;
    return (queries ? 2 * (fork + query) : 0) + (build ? fork + builds : 0);
  }

  @Override
  public String describe() {
    return String.format(
        "JMH 1.37, forks of -Xmx%s; per round and structure one fork each for positive lookups,"
            + " negative lookups and builds; queries: %d×%d ms warm-up (%d× where no SIMD path"
            + " can run), %d×%d ms measured, runs of %d keys; builds: average time of whole builds, %d×%d ms warm-up, %d×%d ms"
            + " measured (each iteration at least one build)",
        forkHeap,
        warmupIterations,
        warmupMillis,
        scalarWarmupIterations,
        iterations,
        iterationMillis,
        QueryBenchmark.BATCH,
        buildWarmupIterations,
        iterationMillis,
        buildIterations,
        iterationMillis);
  }
}
