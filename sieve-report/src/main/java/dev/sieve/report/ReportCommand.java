package dev.sieve.report;

import dev.sieve.bench.Workload;
import java.io.File;
import java.io.PrintStream;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code sieve report}: measures every structure (Sieve's filters, the peers, the exact baselines,
 * the raw random read) on the same keys and writes {@code report/} — report.md, report.html,
 * results.json and the plots — and a results page for the guides ({@link ResultsPage}).
 *
 * <p>This class holds the command line; the run's jobs are their own classes: the arguments are
 * checked by {@link ReportArguments}, the run planned by {@link ReportPlan}, the rows measured and
 * guarded by {@link RowMeasurement}, the experiments, cold-start and range sections made by {@link
 * ExperimentsStep} and {@link SectionSteps}, the run described by {@link RunDescription}, and
 * everything written by {@link ReportOutputs}; {@link ReportRun} puts them in order.
 *
 * <p>The run is planned before it starts: every row costs, per round, two JMH query forks (start-up
 * and set-up, then the warm-up and the measured iterations) and one build fork; the sum plus the
 * report's own work per row (FPR, sizes, the contract) and the experiments is printed first ({@code
 * --plan} prints only that). The default is sized from that plan to finish within ten minutes on 2
 * idle cores while warming each query fork of a row that may take the SIMD path up for 3×1 s, long
 * enough for C2 to have compiled it (shorter warm-ups measured it interpreted, 1,000× slow). After
 * the rounds, {@link SteadyState} flags rows that cannot be steady-state figures, has them
 * re-measured once with the timer's {@link Timer#longer} form, and marks those still flagged, so
 * that no ratio or recommendation comes from them; the header records the machine and the load
 * average at the start and the end ({@link MachineInfo}).
 */
@Command(
    name = "report",
    mixinStandardHelpOptions = true,
    version = "sieve report 1.0.0",
    description = {
      "Benchmarks Sieve's filters side by side with the peers, the exact baselines (HashSet,"
          + " binary search, TreeSet), theory and a raw random memory read, and writes report/"
          + " (report.md, report.html, results.json, plots) and a results page in docs/results.",
      "The default (n=10^4 and 10^6, 20 structures, one round, the range section at 10^6 keys)"
          + " is planned at about 9.5 minutes on 2 idle cores and prints its plan when it starts"
          + " (--plan: the plan alone); --filters full --rounds 2 measures every variant (about"
          + " 30 minutes); --n 10000,1000000,10000000 --filters all measures every row at 10^7"
          + " too (add 100000000 with SIEVE_HEAP=20g --fork-heap 16g)."
    })
public final class ReportCommand implements Callable<Integer> {

  @Option(
      names = "--n",
      split = ",",
      description = "key counts (default: ${DEFAULT-VALUE})",
      defaultValue = "10000,1000000")
  List<Integer> ns;

  @Option(
      names = "--filters",
      split = ",",
      description =
          "structures or groups to run: default (20: every filter type for point lookups, its"
              + " peers, the exact sets HashSet, binary search and TreeSet, and the raw read),"
              + " full (every Sieve filter single; batch, pre-hashed and fast-hash rows of blocked"
              + " Bloom, Xor8, Binary Fuse 8 and Ribbon; the peers; fastutil-hashset,"
              + " raw-read-1x), all (every row, diagnostics included), the families sieve, peer,"
              + " exact, limit, or names (default: ${DEFAULT-VALUE})",
      defaultValue = "default")
  List<String> filters;

  @Option(
      names = "--bits-per-key",
      split = ",",
      description = "bits/key settings (default: ${DEFAULT-VALUE})",
      defaultValue = "10")
  List<Double> bitsPerKey;

  @Option(
      names = "--fpr-queries",
      description =
          "absent keys per FPR measurement, at each n (default: ${DEFAULT-VALUE}; 10^7 per"
              + " filter over the default's two n)",
      defaultValue = "5000000")
  long fprQueries;

  @Option(
      names = "--sweep-bits",
      split = ",",
      description = "bits/key of the FPR sweep (default: ${DEFAULT-VALUE})",
      defaultValue = "4,6,8,10,12,16,20")
  List<Double> sweepBits;

  @Option(
      names = "--experiment-keys",
      description = "keys for the notes experiments (default: ${DEFAULT-VALUE})",
      defaultValue = "1000000")
  int experimentKeys;

  @Option(
      names = "--experiment-queries",
      description = "absent keys per experiment point (default: ${DEFAULT-VALUE})",
      defaultValue = "2000000")
  long experimentQueries;

  @Option(
      names = "--timer",
      description = "jmh or quick (default: ${DEFAULT-VALUE})",
      defaultValue = "jmh")
  String timer;

  @Option(
      names = "--rounds",
      description =
          "rounds: each times every structure once (one short JMH fork per benchmark), in a"
              + " shuffled order that changes per round; figures pool all rounds (default:"
              + " ${DEFAULT-VALUE})",
      defaultValue = "1")
  int rounds;

  @Option(
      names = "--warmup",
      description =
          "JMH query warm-up iterations per fork of a row that may take a SIMD path (blocked,"
              + " split-block and scalable Bloom); the SIMD path needs about 3 s before C2 has"
              + " compiled it (default: ${DEFAULT-VALUE})",
      defaultValue = "3")
  int warmup;

  @Option(
      names = "--scalar-warmup",
      description =
          "JMH query warm-up iterations per fork of every other row (default: ${DEFAULT-VALUE})",
      defaultValue = "2")
  int scalarWarmup;

  @Option(
      names = "--warmup-ms",
      description = "JMH query warm-up iteration time in ms (default: ${DEFAULT-VALUE})",
      defaultValue = "1000")
  int warmupMillis;

  @Option(
      names = "--iterations",
      description =
          "JMH measured query iterations per fork (default: ${DEFAULT-VALUE}; ten short"
              + " iterations give a 99.9%% interval about half as wide as five of twice the"
              + " length)",
      defaultValue = "10")
  int iterations;

  @Option(
      names = "--iteration-ms",
      description =
          "JMH measured iteration time in ms, also the build forks' warm-up iteration time"
              + " (default: ${DEFAULT-VALUE})",
      defaultValue = "100")
  int iterationMillis;

  @Option(
      names = "--plan",
      description = "print the plan (rows, forks, planned duration) and exit without measuring")
  boolean planOnly;

  @Option(
      names = "--build-warmup",
      description =
          "JMH build warm-up iterations per fork, each at least one whole build (default:"
              + " ${DEFAULT-VALUE})",
      defaultValue = "6")
  int buildWarmup;

  @Option(
      names = "--build-iterations",
      description = "JMH measured build iterations per fork (default: ${DEFAULT-VALUE})",
      defaultValue = "10")
  int buildIterations;

  @Option(
      names = "--fork-heap",
      description = "-Xmx of the JMH forks (default: by n: 2g, 6g at 10^7, 16g at 10^8)")
  String forkHeap;

  @Option(
      names = "--baseline",
      description =
          "a previous run's results.json: the report flags every figure more than 10%% slower")
  File baseline;

  @Option(
      names = "--out",
      description = "output directory (default: ${DEFAULT-VALUE})",
      defaultValue = "report")
  File out;

  @Option(
      names = "--results-dir",
      description =
          "where the run's results page goes, <date>-<cpu>.md: the machine, the command and the"
              + " tables, for a guide to link (default: docs/results of the repository the report"
              + " runs from)")
  File resultsDir;

  @Option(
      names = "--seed",
      description = "key seed, also the seed of the rounds' order (default: ${DEFAULT-VALUE})",
      defaultValue = "" + Workload.DEFAULT_SEED)
  long seed;

  @Option(
      names = "--ignore-jmh-lock",
      description =
          "run even if another JMH run holds its lock (the two runs then share the CPUs and both"
              + " measure noise)")
  boolean ignoreJmhLock;

  @Option(names = "--no-progress", description = "print one line per step instead of a redrawn bar")
  boolean noProgress;

  @Option(
      names = "--growth-max-n",
      description =
          "also grow the growable filters to this many keys (0: not run): the ExpandableFilter"
              + " with no hint and with hints of N/2 and N, the ScalableBloomFilter from a guess"
              + " of 10^3, beside a right-sized BlockedBloomFilter; write FPR, bits/key, memory"
              + " against keys added and the growth verdicts to <out>/growth"
              + " (GrowthReport)",
      defaultValue = "0")
  long growthMaxN;

  @Option(
      names = "--growth-timings",
      arity = "0..1",
      fallbackValue = "true",
      description =
          "with --growth-max-n, also time the ExpandableFilter against a right-sized blocked"
              + " Bloom filter by JMH (lookups, amortized and worst single insert, 1 and 2"
              + " writers) at 10^7 keys (or the max below it) and 10^8 when reached, with"
              + " verdicts, into <out>/growth; --growth-timings=false leaves them out (default:"
              + " ${DEFAULT-VALUE})",
      defaultValue = "true")
  boolean growthTimings;

  @Option(
      names = "--range-keys",
      description =
          "keys of the range section (0: off): Grafite's"
              + " FPR against its bound and the prefix-Bloom baseline at equal bits per key, for"
              + " range lengths 1, 16, 2^10, 2^20, uniform and correlated, with ns per range"
              + " (RangeReport; default: ${DEFAULT-VALUE})",
      defaultValue = "1000000")
  int rangeKeys;

  @Option(
      names = "--range-bits",
      description =
          "bits per key of the range section's Grafite filters (default: ${DEFAULT-VALUE})",
      defaultValue = "16")
  double rangeBits;

  @Option(
      names = "--range-queries",
      description =
          "empty ranges per cell of the range section's FPR (8 cells; default: ${DEFAULT-VALUE},"
              + " a 99.9%% Wilson interval of about ±0.07 points at 1%%)",
      defaultValue = "200000")
  long rangeQueries;

  @Option(
      names = "--no-cold-start",
      description = "leave out the cold-start section (fresh JVMs timing their first lookups)")
  boolean noColdStart;

  @Option(
      names = "--cold-samples",
      description =
          "fresh JVMs per filter and JVM kind (scalar, simd) in the cold-start section (default:"
              + " ${DEFAULT-VALUE})",
      defaultValue = "1")
  int coldSamples;

  private final PrintStream console;
  private final PrintStream stdout;

  public ReportCommand() {
    this(System.err, System.out);
  }

  ReportCommand(PrintStream console) {
    this(console, console);
  }

  /**
   * @param console progress and errors
   * @param stdout the summary, the side-by-side table and the paths of the files
   */
  ReportCommand(PrintStream console, PrintStream stdout) {
    this.console = console;
    this.stdout = stdout;
  }

  @Spec CommandSpec spec;

  /** The arguments as typed, for the results page; empty where the command was not parsed. */
  List<String> typedArguments() {
    return spec == null ? List.of() : spec.commandLine().getParseResult().originalArgs();
  }

  PrintStream console() {
    return console;
  }

  PrintStream stdout() {
    return stdout;
  }

  @Override
  public Integer call() throws Exception {
    try {
      ReportArguments.check(this);
      return new ReportRun(this).run();
    } catch (IllegalArgumentException e) {
      console.println("sieve report: " + e.getMessage());
      return 1;
    }
  }

  /** Runs the command line and returns its exit status. */
  public static int execute(String... args) {
    return new CommandLine(new ReportCommand()).execute(args);
  }

  public static void main(String[] args) {
    System.exit(execute(args));
  }
}
