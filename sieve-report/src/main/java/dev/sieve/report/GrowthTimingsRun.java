package dev.sieve.report;

import dev.sieve.bench.jmh.ConcurrentWritersBenchmark;
import dev.sieve.bench.jmh.GrowthInsertBenchmark;
import dev.sieve.bench.jmh.GrowthInsertLatency;
import dev.sieve.bench.jmh.GrowthQueryBenchmark;
import dev.sieve.report.GrowthTimings.Timing;
import dev.sieve.report.GrowthTimings.Verdict;
import dev.sieve.report.GrowthTimings.WorstInsert;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.format.OutputFormat;
import org.openjdk.jmh.runner.format.OutputFormatFactory;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;
import org.openjdk.jmh.runner.options.VerboseMode;

/**
 * Runs the growth report's timings ({@link GrowthTimings}) and writes them: JMH through its {@link
 * Runner} in this process, one fork per structure and benchmark (so each structure's call sites are
 * profiled alone), for {@link GrowthQueryBenchmark} (lookups, single and batch, positive and
 * negative), {@link GrowthInsertBenchmark} (the amortized insert of a whole fill) and {@link
 * ConcurrentWritersBenchmark} (one writer and two), at each of {@link #sizes} and each rate; then
 * {@link GrowthInsertLatency} in a forked JVM of its own ({@link GrowthLatencyFork}) at the largest
 * size. Appends the section to {@code growth.md}, writes {@code growth-timings.csv}, prints the
 * verdicts, and sends JMH's own output and the latency fork's to {@code growth-timings-jmh.log}.
 */
final class GrowthTimingsRun {
  private GrowthTimingsRun() {}

  /** The suffix of a structure asked through its batch form ({@code mayContainHashes}). */
  static final String BATCH = GrowthQueryBenchmark.BATCH_SUFFIX;

  /** The size measured at most, and always when the run reaches it. */
  static final long MAIN_SIZE = 10_000_000;

  /** The second size, when the run reaches it. */
  static final long LARGE_SIZE = 100_000_000;

  /**
   * Seconds a fork costs beyond its iterations (JVM start, JMH's set-up): for the plan, an upper
   * estimate as {@link JmhTimer#FORK_START_SECONDS}.
   */
  static final double FORK_SECONDS = 1.0;

  /** The lookup forks' set-up per key (the filter grown key by key, the streams): for the plan. */
  static final double LOOKUP_SETUP_NS_PER_KEY = 150;

  /**
   * One insert of the expandable filter's fill from no hint, its doublings included, for the plan
   * (an upper estimate at 10^7 keys on 2 idle cores; the right-sized filter's is {@link
   * #RIGHT_SIZED_FILL_NS_PER_KEY}).
   */
  static final double FILL_NS_PER_KEY = 200;

  /** One insert of the right-sized blocked Bloom filter's fill, for the plan. */
  static final double RIGHT_SIZED_FILL_NS_PER_KEY = 30;

  /**
   * What is run: the warm-up and measured iterations of the lookups (their count and time), the
   * single-shot fills' warm-up and measured fills (inserts and writers), the structures of each
   * benchmark, the writer counts, and the latency fork's warm-up fills.
   */
  record Settings(
      int warmups,
      int warmupMillis,
      int iterations,
      int iterationMillis,
      int warmupFills,
      int fills,
      List<String> lookupStructures,
      List<String> insertStructures,
      List<Integer> writers,
      int latencyWarmups) {
    Settings {
      if (warmups < 0 || warmupFills < 0 || latencyWarmups < 0) {
        throw new IllegalArgumentException("warm-up iterations must be 0 or more");
      }
      if (warmupMillis < 1 || iterations < 1 || iterationMillis < 1 || fills < 1) {
        throw new IllegalArgumentException(
            "measured iterations, fills and iteration times must be at least 1");
      }
    }

    /**
     * The report's: 3 × 1 s warm-up and 5 × 1 s measured lookups; 3 warm-up and 5 measured fills (a
     * fill of 10^7 keys into the expandable filter takes about a second or more); every structure.
     */
    static Settings standard() {
      return new Settings(
          3,
          1000,
          5,
          1000,
          3,
          5,
          List.of("expandable", "expandable" + BATCH, "rightsized", "rightsized" + BATCH),
          List.of("expandable", "rightsized"),
          List.of(1, 2),
          3);
    }
  }

  /** {@return the sizes timed for a run to {@code maxN}: 10^7 (or maxN below it), and 10^8} */
  static List<Long> sizes(long maxN) {
    if (maxN < 1) {
      throw new IllegalArgumentException("max-n must be positive, got " + maxN);
    }
    List<Long> sizes = new ArrayList<>(List.of(Math.min(maxN, MAIN_SIZE)));
    if (maxN >= LARGE_SIZE) {
      sizes.add(LARGE_SIZE);
    }
    return sizes;
  }

  /** {@return the rates timed: 1%, then each of {@code rates} not already there} */
  static List<Double> rates(List<Double> rates) {
    List<Double> timed = new ArrayList<>(List.of(0.01));
    rates.stream().filter(f -> !timed.contains(f)).forEach(timed::add);
    return timed;
  }

  /**
   * {@return the forks' heap for {@code n} keys: 6g to 10^7, then 2 GiB per 10^7 (20g at 10^8)} The
   * latency fork holds the keys (8 bytes each), one int of time and one flag per insert, and the
   * filter while it doubles; the lookup forks a filter grown key by key.
   */
  static String heap(long n) {
    return n <= MAIN_SIZE ? "6g" : (2 * ((n + MAIN_SIZE - 1) / MAIN_SIZE)) + "g";
  }

  /** {@return the planned seconds of the section for {@code maxN} and {@code rates}} */
  static double plannedSeconds(long maxN, int rates, Settings s) {
    double total = 0;
    List<Long> sizes = sizes(maxN);
    for (long n : sizes) {
      double lookup =
          FORK_SECONDS
              + LOOKUP_SETUP_NS_PER_KEY * 1e-9 * n
              + (s.warmups() * s.warmupMillis() + s.iterations() * s.iterationMillis()) / 1000.0;
      total += 2 * s.lookupStructures().size() * lookup;
      // each fork draws the keys (about one fill's time) before its warm-up and measured fills
      int fills = 1 + s.warmupFills() + s.fills();
      for (String structure : s.insertStructures()) {
        double perKey =
            structure.startsWith("rightsized") ? RIGHT_SIZED_FILL_NS_PER_KEY : FILL_NS_PER_KEY;
        total += FORK_SECONDS + fills * perKey * 1e-9 * n;
      }
      total += s.writers().size() * (FORK_SECONDS + fills * FILL_NS_PER_KEY * 1e-9 * n);
    }
    long largest = sizes.get(sizes.size() - 1);
    // the latency fork: warm-up fills and the last (each timed and plain), the keys, and a sort
    total += FORK_SECONDS + (2 * s.latencyWarmups() + 4) * FILL_NS_PER_KEY * 1e-9 * largest;
    return rates * total;
  }

  /**
   * Measures every size of {@code maxN} at each of {@code rates}, appends the section to {@code
   * out/growth.md} (written before), writes {@code out/growth-timings.csv} and prints the verdicts.
   */
  static List<Verdict> run(Path out, List<Double> rates, long maxN, Settings s)
      throws IOException, RunnerException, InterruptedException {
    Files.createDirectories(out);
    List<Long> sizes = sizes(maxN);
    System.out.printf(
        Locale.ROOT,
        "timings: n = %s, f = %s; planned about %.1f minutes (JMH's output: %s)%n",
        String.join(", ", sizes.stream().map(Names::nLabel).toList()),
        String.join(", ", rates.stream().map(String::valueOf).toList()),
        plannedSeconds(maxN, rates.size(), s) / 60,
        out.resolve("growth-timings-jmh.log"));
    long start = System.nanoTime();
    double loadStart = MachineInfo.loadAverage();
    List<Timing> timings = new ArrayList<>();
    List<WorstInsert> worst = new ArrayList<>();
    try (PrintStream log =
        new PrintStream(
            new FileOutputStream(out.resolve("growth-timings-jmh.log").toFile()),
            true,
            StandardCharsets.UTF_8)) {
      OutputFormat format = OutputFormatFactory.createFormatInstance(log, VerboseMode.NORMAL);
      for (double f : rates) {
        for (long n : sizes) {
          timings.addAll(lookups(n, f, s, format));
          timings.addAll(fills(GrowthInsertBenchmark.class, n, f, s, format));
          timings.addAll(fills(ConcurrentWritersBenchmark.class, n, f, s, format));
        }
        worst.add(
            GrowthLatencyFork.worstInsert(sizes.get(sizes.size() - 1), f, s.latencyWarmups(), log));
      }
    }
    List<Verdict> verdicts = GrowthTimings.verdicts(timings, worst);
    String about = about(sizes, s, loadStart, (System.nanoTime() - start) / 1e9);
    Files.writeString(
        out.resolve("growth.md"),
        GrowthTimings.markdown(about, timings, worst, verdicts),
        StandardOpenOption.CREATE,
        StandardOpenOption.APPEND);
    Files.writeString(out.resolve("growth-timings.csv"), GrowthTimings.csv(timings, worst));
    verdicts.forEach(v -> System.out.println(v.line()));
    System.out.println("timings: appended to " + out.resolve("growth.md"));
    return verdicts;
  }

  /** The lookups: every lookup structure, positive and negative, each in its own fork. */
  static List<Timing> lookups(long n, double f, Settings s, OutputFormat format)
      throws RunnerException {
    if (s.lookupStructures().isEmpty()) {
      return List.of();
    }
    ChainedOptionsBuilder o =
        base(n, f)
            .include(GrowthQueryBenchmark.class.getName() + "\\.(positive|negative)$")
            .param("structure", s.lookupStructures().toArray(new String[0]))
            .param("guess", "0")
            .warmupIterations(s.warmups())
            .warmupTime(TimeValue.milliseconds(s.warmupMillis()))
            .measurementIterations(s.iterations())
            .measurementTime(TimeValue.milliseconds(s.iterationMillis()));
    List<Timing> timings = new ArrayList<>();
    for (RunResult r : new Runner(o.build(), format).run()) {
      String benchmark = r.getParams().getBenchmark();
      timings.add(
          timing(
              r,
              GrowthTimings.LOOKUP,
              n,
              f,
              benchmark.substring(benchmark.lastIndexOf('.') + 1),
              "ns/lookup",
              1));
    }
    return timings;
  }

  /**
   * The single-shot fills of {@code benchmark}: {@link GrowthInsertBenchmark} for each insert
   * structure (ns per insert = ms per fill × 10^6 ÷ n), or {@link ConcurrentWritersBenchmark} for
   * the expandable filter and each writer count (ms per fill).
   */
  static List<Timing> fills(Class<?> benchmark, long n, double f, Settings s, OutputFormat format)
      throws RunnerException {
    boolean writers = benchmark == ConcurrentWritersBenchmark.class;
    if (writers ? s.writers().isEmpty() : s.insertStructures().isEmpty()) {
      return List.of();
    }
    ChainedOptionsBuilder o =
        base(n, f)
            .include(benchmark.getName() + "\\.fill$")
            .warmupIterations(s.warmupFills())
            .measurementIterations(s.fills());
    if (writers) {
      o.param("structure", "expandable")
          .param("writers", s.writers().stream().map(String::valueOf).toArray(String[]::new));
    } else {
      o.param("structure", s.insertStructures().toArray(new String[0])).param("guess", "0");
    }
    List<Timing> timings = new ArrayList<>();
    for (RunResult r : new Runner(o.build(), format).run()) {
      timings.add(
          writers
              ? timing(
                  r, GrowthTimings.WRITERS, n, f, r.getParams().getParam("writers"), "ms/fill", 1)
              : timing(r, GrowthTimings.INSERT, n, f, "fill", "ns/insert", 1e6 / n));
    }
    return timings;
  }

  private static ChainedOptionsBuilder base(long n, double f) {
    return new OptionsBuilder()
        .param("n", Long.toString(n))
        .param("fpRate", Double.toString(f))
        .forks(1)
        .jvmArgsAppend(JmhTimer.forkArgs(heap(n)))
        .shouldFailOnError(true);
  }

  private static Timing timing(
      RunResult r, String benchmark, long n, double f, String variant, String unit, double factor) {
    return new Timing(
        benchmark,
        n,
        f,
        r.getParams().getParam("structure"),
        variant,
        r.getPrimaryResult().getScore() * factor,
        r.getPrimaryResult().getScoreError() * factor,
        unit);
  }

  /** The section's opening paragraph: what ran, how, on which machine, for how long. */
  static String about(List<Long> sizes, Settings s, double loadStart, double seconds) {
    MachineInfo m = MachineInfo.current();
    double loadEnd = MachineInfo.loadAverage();
    List<String> heaps = sizes.stream().map(n -> heap(n) + " at " + Names.nLabel(n)).toList();
    return String.format(
        Locale.ROOT,
        "JMH 1.37 in this process's Runner, one fork per structure and benchmark, fork heap -Xmx%s"
            + " (-XX:+UseParallelGC). Lookups (GrowthQueryBenchmark, keys pre-hashed, %d per"
            + " invocation, the filters grown key by key, expandable from no hint): %d × %d ms"
            + " warm-up, %d × %d ms measured. Inserts (GrowthInsertBenchmark: one single-shot fill"
            + " of n keys into a fresh filter, ÷ n) and writers (ConcurrentWritersBenchmark: n keys"
            + " split among the writers): %d warm-up and %d measured fills. Errors are JMH's 99.9%%"
            + " half-intervals; a ratio's interval spans both sides' errors, and a goal is judged"
            + " only where that interval lies wholly on one side of it (else \"%s\"). The worst"
            + " single insert: GrowthInsertLatency in a fork of its own with the JVM's default"
            + " collector, every insert of one fill timed after %d warm-up fills, at the largest"
            + " size. Machine: %s, %d cores; caches:"
            + " %s; memory %s. Load average %.2f at the start, %.2f at the end; %.1f minutes.%s",
        String.join(", ", heaps),
        GrowthQueryBenchmark.BATCH,
        s.warmups(),
        s.warmupMillis(),
        s.iterations(),
        s.iterationMillis(),
        s.warmupFills(),
        s.fills(),
        GrowthTimings.UNDECIDED,
        s.latencyWarmups(),
        m.cpu(),
        m.cores(),
        m.caches(),
        m.memory(),
        loadStart,
        loadEnd,
        seconds / 60,
        Math.max(loadStart, loadEnd) > m.cores() / 2.0
            ? " WARNING: the load exceeded half the cores: other processes shared the CPUs, so"
                + " these times are noise, not figures; rerun on an idle machine."
            : "");
  }
}
