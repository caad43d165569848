package dev.sieve.bench;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.format.OutputFormat;
import org.openjdk.jmh.runner.format.OutputFormatFactory;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;
import org.openjdk.jmh.runner.options.VerboseMode;

/**
 * Runs {@link BuildBenchmark} and {@link QueryBenchmark} through JMH's {@link Runner}, one forked
 * JVM per benchmark method, so each structure's call sites are profiled alone. JMH's own output
 * goes to a log file.
 */
public final class JmhTimer implements Timer {
  private final int forks;
  private final int warmupIterations;
  private final int iterations;
  private final int iterationMillis;
  private final int buildShots;
  private final String forkHeap;
  private final PrintStream log;

  public JmhTimer(
      int forks,
      int warmupIterations,
      int iterations,
      int iterationMillis,
      int buildShots,
      String forkHeap,
      PrintStream log) {
    this.forks = forks;
    this.warmupIterations = warmupIterations;
    this.iterations = iterations;
    this.iterationMillis = iterationMillis;
    this.buildShots = buildShots;
    this.forkHeap = forkHeap;
    this.log = log;
  }

  @Override
  public void time(StructureKind kind, Row row, long seed) throws Exception {
    OutputFormat out = OutputFormatFactory.createFormatInstance(log, VerboseMode.NORMAL);
    ChainedOptionsBuilder query =
        base(kind, row, seed)
            .include(QueryBenchmark.class.getName() + "\\.(positive|negative)$")
            .warmupIterations(warmupIterations)
            .warmupTime(TimeValue.milliseconds(iterationMillis))
            .measurementIterations(iterations)
            .measurementTime(TimeValue.milliseconds(iterationMillis));
    for (RunResult r : new Runner(query.build(), out).run()) {
      String method = r.getParams().getBenchmark();
      double score = r.getPrimaryResult().getScore();
      double error = r.getPrimaryResult().getScoreError();
      if (method.endsWith(".positive")) {
        row.positiveNs = score;
        row.positiveNsError = error;
      } else {
        row.negativeNs = score;
        row.negativeNsError = error;
      }
    }
    ChainedOptionsBuilder build =
        base(kind, row, seed)
            .include(BuildBenchmark.class.getName() + "\\.build$")
            .warmupIterations(1)
            .measurementIterations(buildShots);
    Collection<RunResult> results = new Runner(build.build(), out).run();
    for (RunResult r : results) {
      row.buildNsPerKey = r.getPrimaryResult().getScore() / row.n;
      row.buildNsPerKeyError = r.getPrimaryResult().getScoreError() / row.n;
    }
    row.timer = "jmh";
  }

  private ChainedOptionsBuilder base(StructureKind kind, Row row, long seed) {
    List<String> jvm = new ArrayList<>(List.of("-Xmx" + forkHeap, "-XX:+UseParallelGC"));
    return new OptionsBuilder()
        .param("structure", kind.name())
        .param("n", Integer.toString(row.n))
        .param("bitsPerKey", Double.toString(row.bitsPerKeySetting))
        .param("seed", Long.toString(seed))
        .forks(forks)
        .jvmArgsAppend(jvm.toArray(new String[0]))
        .shouldFailOnError(true);
  }

  @Override
  public String describe() {
    return String.format(
        "JMH 1.37, %d fork(s) of -Xmx%s; queries: %d×%d ms warm-up, %d×%d ms measured, batches of"
            + " %d; build: single-shot, 1 warm-up + %d measured",
        forks,
        forkHeap,
        warmupIterations,
        iterationMillis,
        iterations,
        iterationMillis,
        QueryBenchmark.BATCH,
        buildShots);
  }
}
