package dev.sieve.bench.report;

import dev.sieve.bench.Family;
import dev.sieve.bench.SieveAdapters;
import dev.sieve.bench.StructureKind;
import dev.sieve.bench.Structures;
import dev.sieve.bench.Workload;
import dev.sieve.internal.ProgressBar;
import java.io.File;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code sieve report}: measures every structure (Sieve's filters, the peers, the exact baselines,
 * the raw random read) on the same keys, checks the targets and writes {@code report/} — report.md,
 * report.html, results.json and the plots.
 *
 * <p>The run is planned before it starts: every row costs, per round, two JMH query forks (start-up
 * and set-up, then the warm-up and the measured iterations) and one build fork; the sum plus the
 * report's own work per row (FPR, sizes, the contract) and the experiments is printed first ({@code
 * --plan} prints only that). The default is sized from that plan to finish within ten minutes on 2
 * idle cores while warming each query fork up for 3×1 s, long enough for C2 to have compiled the
 * SIMD path (shorter warm-ups measured it interpreted, 1,000× slow). After the rounds, {@link
 * SteadyState} flags rows that cannot be steady-state figures, has them re-measured once with the
 * timer's {@link Timer#longer} form, and marks those still flagged, so that no ratio, target or
 * recommendation comes from them; the header records the machine and the load average at the start
 * and the end ({@link MachineInfo}).
 */
@Command(
    name = "report",
    mixinStandardHelpOptions = true,
    version = "sieve report 1.0.0",
    description = {
      "Benchmarks Sieve's filters side by side with the peers, the exact baselines, theory and a raw"
          + " random memory read, and writes report/ (report.md, report.html, results.json, plots).",
      "The default (n=10^4 and 10^6, 17 structures, one round, the range section at 10^6 keys)"
          + " is planned at about 9.5 minutes on 2"
          + " idle cores and prints its plan when it starts (--plan: the plan alone); the former"
          + " default is --filters full --rounds 2 (about 30 minutes), issue 11's full measurement"
          + " --n 10000,1000000,10000000 --filters all (add 100000000 with SIEVE_HEAP=20g"
          + " --fork-heap 16g)."
    })
public final class ReportCommand implements Callable<Integer> {

  /**
   * The filters whose batch and pre-hashed rows the default run includes (issue 11's targets are
   * about these); the other Sieve filters get their single-lookup row by default.
   */
  static final Set<String> HEADLINE =
      Set.of("sieve-blocked-bloom", "sieve-xor8", "sieve-binary-fuse8", "sieve-ribbon");

  /**
   * The default set: every family with its peer — blocked Bloom (single and batch), Parquet's
   * split-block Bloom, the standard Bloom, the scalable Bloom (the expandable filter is in {@code
   * full} and in the growth section, {@code --growth-max-n}: its row would take the run past its
   * budget), Ribbon and Bumped Ribbon, Xor8, Binary Fuse 8 (and its fast-hash row where this build
   * has one), Cuckoo; the peers of each (Guava, FastFilter's BlockedBloom, Xor8 for Xor and Binary
   * Fuse, Cuckoo8), one exact set and the raw read. Sized to finish in 10 minutes on 2 idle cores
   * with warm-ups long enough for the SIMD path, with room for re-measuring flagged rows (see
   * {@link #plannedSeconds}); {@code full} is the former, larger default.
   */
  static final List<String> DEFAULT =
      List.of(
          "sieve-blocked-bloom",
          "sieve-blocked-bloom-batch",
          "sieve-split-block-bloom",
          "sieve-standard-bloom",
          "sieve-scalable-bloom",
          "sieve-ribbon",
          "sieve-bumped-ribbon",
          "sieve-xor8",
          "sieve-binary-fuse8",
          "sieve-binary-fuse8-fasthash",
          "sieve-cuckoo8",
          "guava-bloom",
          "fastfilter-blocked-bloom",
          "fastfilter-xor8",
          "fastfilter-cuckoo8",
          "fastutil-hashset",
          "raw-read-1x");

  /**
   * Seconds of the report's own work per row (build, sizes, the contract over every key, the FPR
   * over {@code --fpr-queries} absent keys) at the default 10^7 queries, for the plan: an upper
   * estimate from quick-timer runs on the 2-core machine.
   */
  static final double IN_PROCESS_SECONDS_PER_ROW = 1.5;

  /** Seconds of the experiments, the build retries, the plots and the files, for the plan. */
  static final double IN_PROCESS_SECONDS_FIXED = 45;

  /**
   * Wall seconds of one cold-start child JVM (start-up, a build over at most {@link
   * #COLD_START_MAX_N} keys, 10^5 lookups, exit), for the plan: an upper estimate from the 2-core
   * machine (0.22 to 0.37 s measured there while shared, load 2.7, at 10^4 and 10^5 keys; doubled).
   */
  static final double COLD_START_SECONDS_PER_JVM = 0.75;

  /** The cold-start section's keys per filter: the run's smallest n, at most this. */
  static final int COLD_START_MAX_N = 100_000;

  /** The cold-start children's {@code -Xmx}: a filter over at most 10^5 keys. */
  static final String COLD_START_HEAP = "512m";

  /** Exact baselines and limit rows left out of the full set (slow to build, or redundant). */
  static final Set<String> NOT_BY_DEFAULT =
      Set.of("java-hashset", "java-treeset", "sorted-array", "raw-read-10x");

  /** The headline filters whose fast-hash row is in the default set (Ribbon's is not). */
  static final Set<String> HEADLINE_FAST_HASH =
      Set.of("sieve-blocked-bloom", "sieve-xor8", "sieve-binary-fuse8");

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
          "structures or groups to run: default (17: every family and its peer, see the"
              + " README), full (the former default: every Sieve filter single; batch, pre-hashed"
              + " and fast-hash rows of blocked Bloom, Xor8, Binary Fuse 8 and Ribbon; the peers;"
              + " fastutil-hashset, raw-read-1x), all (every row, diagnostics included), the"
              + " families sieve, peer, exact, limit, or names (default: ${DEFAULT-VALUE})",
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
      description = "absent keys per FPR measurement (default: ${DEFAULT-VALUE})",
      defaultValue = "10000000")
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
          "JMH query warm-up iterations per fork; the SIMD path needs about 3 s before C2 has"
              + " compiled it (default: ${DEFAULT-VALUE})",
      defaultValue = "3")
  int warmup;

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
              + " against keys added and issue 23's target verdicts to <out>/growth"
              + " (GrowthReport)",
      defaultValue = "0")
  long growthMaxN;

  @Option(
      names = "--range-keys",
      description =
          "keys of the range section (issue 25; 0: off; 10000000 for its query target): Grafite's"
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

  /** Whether {@code kind} is in the default set. */
  static boolean isDefault(StructureKind kind) {
    return DEFAULT.contains(kind.name());
  }

  /** Whether {@code kind} is in the full set (the former default). */
  static boolean isFull(StructureKind kind) {
    if (kind.description().startsWith("diagnostic:") || NOT_BY_DEFAULT.contains(kind.name())) {
      return false;
    }
    if (kind.family() != Family.SIEVE) {
      return true;
    }
    String base = baseFilter(kind.name());
    if (base.equals(kind.name())) {
      return true; // every filter's single-lookup row
    }
    if (kind.name().contains("-" + Names.FAST_HASH)) {
      return HEADLINE_FAST_HASH.contains(base) && !kind.name().endsWith(SieveAdapters.BATCH_SUFFIX);
    }
    return HEADLINE.contains(base);
  }

  /**
   * The filter a Sieve row measures: {@code sieve-xor8} for {@code sieve-xor8-batch}, {@code
   * sieve-xor8-prehashed}, {@code sieve-xor8-fasthash} or {@code sieve-xor8-fasthash-batch}.
   */
  static String baseFilter(String name) {
    String base = name;
    int fast = base.indexOf("-" + Names.FAST_HASH);
    if (fast > 0) {
      base = base.substring(0, fast);
    }
    for (String suffix : List.of(SieveAdapters.BATCH_SUFFIX, SieveAdapters.PREHASHED_SUFFIX)) {
      if (base.endsWith(suffix)) {
        base = base.substring(0, base.length() - suffix.length());
      }
    }
    return base;
  }

  /** The kinds selected by {@code --filters}. */
  static List<StructureKind> select(List<String> filters) {
    Set<StructureKind> chosen = new LinkedHashSet<>();
    for (String f : filters) {
      String name = f.trim().toLowerCase(Locale.ROOT);
      if (name.equals("all")) {
        chosen.addAll(Structures.all());
        continue;
      }
      if (name.equals("default")) {
        Structures.all().stream().filter(ReportCommand::isDefault).forEach(chosen::add);
        continue;
      }
      if (name.equals("full")) {
        Structures.all().stream().filter(ReportCommand::isFull).forEach(chosen::add);
        continue;
      }
      boolean family = false;
      for (Family fam : Family.values()) {
        if (fam.label().equals(name)) {
          family = true;
          Structures.all().stream().filter(k -> k.family() == fam).forEach(chosen::add);
        }
      }
      if (!family) {
        chosen.add(Structures.byName(name));
      }
    }
    List<StructureKind> ordered = new ArrayList<>();
    for (StructureKind k : Structures.all()) {
      if (chosen.contains(k)) {
        ordered.add(k);
      }
    }
    return ordered;
  }

  @Override
  public Integer call() throws Exception {
    try {
      return run();
    } catch (IllegalArgumentException e) {
      console.println("sieve report: " + e.getMessage());
      return 1;
    }
  }

  private Integer run() throws Exception {
    long start = System.nanoTime();
    for (int n : ns) {
      if (n < 1) {
        throw new IllegalArgumentException("--n must be positive, got " + n);
      }
    }
    if (fprQueries < 1 || experimentKeys < 1 || experimentQueries < 1) {
      throw new IllegalArgumentException(
          "--fpr-queries, --experiment-keys and --experiment-queries must be positive");
    }
    if (rounds < 1) {
      throw new IllegalArgumentException("--rounds must be positive, got " + rounds);
    }
    if (coldSamples < 1) {
      throw new IllegalArgumentException("--cold-samples must be positive, got " + coldSamples);
    }
    if (rangeKeys < 0 || rangeKeys > RangeReport.MAX_KEYS) {
      throw new IllegalArgumentException(
          "--range-keys must be 0 (off) to " + RangeReport.MAX_KEYS + ", got " + rangeKeys);
    }
    if (rangeKeys > 0 && (rangeQueries < 1 || !(rangeBits > 0))) {
      throw new IllegalArgumentException("--range-queries and --range-bits must be positive");
    }
    List<StructureKind> kinds = select(filters);
    List<Guard.Baseline> before = null;
    if (baseline != null) {
      if (!baseline.isFile()) {
        throw new IllegalArgumentException("--baseline " + baseline + ": no such file");
      }
      before = Guard.read(baseline.toPath());
    }
    int maxN = ns.stream().mapToInt(Integer::intValue).max().orElse(1);
    String heap =
        forkHeap != null ? forkHeap : maxN <= 2_000_000 ? "2g" : maxN <= 20_000_000 ? "6g" : "16g";
    int measureSteps = 0;
    for (int n : ns) {
      for (StructureKind k : kinds) {
        measureSteps += k.sizedByBitsPerKey() ? bitsPerKey.size() : 1;
      }
    }
    double planned = plannedSeconds(timer(heap, null), kinds);
    List<String> planLines = new ArrayList<>();
    for (String line : plan(kinds, measureSteps, timer(heap, null), planned).split("\n")) {
      ConsoleSummary.wrap(planLines, line, "", "  ");
    }
    planLines.forEach(console::println);
    if (planOnly) {
      return 0;
    }
    Files.createDirectories(out.toPath());
    if (timer.equals("jmh")) {
      if (ignoreJmhLock) {
        System.setProperty("jmh.ignoreLock", "true");
      } else if (jmhLockHeld()) {
        console.println(
            "sieve report: another JMH run holds "
                + jmhLockFile()
                + " (timings would be shared-CPU noise); wait for it to finish, or pass"
                + " --ignore-jmh-lock");
        return 3;
      }
    }
    double loadStart = MachineInfo.loadAverage();
    MachineInfo.CpuTime cpuStart = MachineInfo.cpuTime();
    warmUpJol();
    Path jmhLog = out.toPath().resolve("jmh.log");
    try (PrintStream log =
        new PrintStream(new FileOutputStream(jmhLog.toFile()), true, StandardCharsets.UTF_8)) {
      Timer t = timer(heap, log);
      List<Row> rows = new ArrayList<>();
      List<Timer.Job> jobs = new ArrayList<>();
      // measure, rounds, experiments, cold start, range + writing
      int steps = measureSteps * (1 + rounds) + 8;
      ProgressBar bar = ProgressBar.steps(console, steps, !noProgress && System.console() != null);
      for (int n : ns) {
        bar.step("keys n=" + n);
        Workload workload = Workload.create(n, seed);
        for (StructureKind kind : kinds) {
          List<Double> settings =
              kind.sizedByBitsPerKey() ? bitsPerKey : List.of(bitsPerKey.get(0));
          for (double b : settings) {
            bar.step(
                kind.name()
                    + " n="
                    + n
                    + (kind.sizedByBitsPerKey() ? " b=" + b : "")
                    + ": FPR, memory, contract");
            Row row = Measure.measure(kind, workload, b, fprQueries);
            rows.add(row);
            jobs.add(new Timer.Job(kind, row));
            bar.advance();
          }
        }
        workload = null;
      }
      Rounds.Progress progress =
          (round, of, job) -> {
            bar.advance();
            bar.step(
                "round "
                    + (round + 1)
                    + "/"
                    + of
                    + ": "
                    + job.kind().name()
                    + " n="
                    + job.row().n
                    + " ("
                    + timer
                    + ")");
          };
      Rounds.run(t, jobs, rounds, seed, progress);
      Timer longer = t.longer();
      List<Row> flagged =
          SteadyState.guard(
              jobs,
              again -> {
                List<Timer.Job> fit =
                    withinBudget(again, longer, (System.nanoTime() - start) / 1e9, planned, kinds);
                List<String> names = new ArrayList<>();
                fit.forEach(j -> names.add(j.kind().name() + " n=" + j.row().n));
                bar.step("not at steady state, re-measuring longer: " + String.join(", ", names));
                Rounds.remeasure(
                    longer,
                    fit,
                    seed,
                    (round, of, job) ->
                        bar.step("re-measuring " + job.kind().name() + " n=" + job.row().n));
                return fit;
              });
      double loadEnd = MachineInfo.loadAverage();
      double otherCores = MachineInfo.otherCores(cpuStart, MachineInfo.cpuTime());
      int en = Math.min(experimentKeys, maxN);
      Experiments e = new Experiments(Workload.create(en, seed), experimentQueries);
      double b0 = bitsPerKey.get(0);
      bar.step("experiments: set bits vs k");
      List<Experiments.SetBits> setBits = e.setBitsAgainstProbes(10);
      Experiments.BlockedSetBits blockedSetBits = e.blockedSetBits(10);
      bar.advance();
      bar.step("experiments: block index reuse");
      List<Experiments.BlockIndexReuse> reuse = e.blockIndexReuse(10, 6);
      bar.advance();
      bar.step("experiments: block sizes");
      List<Experiments.BlockSize> blockSizes = e.blockSizes(10, 6);
      Experiments.BlockedAgainstTheory theory = e.blockedAgainstTheory(b0);
      bar.advance();
      bar.step("experiments: FPR sweep");
      List<Experiments.SweepPoint> sweep =
          e.fprSweep(kinds, sweepBits.stream().mapToDouble(Double::doubleValue).toArray());
      bar.advance();
      bar.step("experiments: build retries, LSM policy");
      PolicyFigures.Figures policy = PolicyFigures.figures(rows, en, seed);
      ExperimentResults experiments =
          new ExperimentResults(
              setBits,
              blockedSetBits,
              reuse,
              blockSizes,
              theory,
              policy.buildRetries(),
              policy.lsmPolicy(),
              policy.lsmPolicyNote(),
              sweep);
      bar.advance();
      ColdStart.Section cold = null;
      List<String> coldFilters = coldFilters(kinds);
      if (!coldFilters.isEmpty()) {
        bar.step(
            "cold start: "
                + 2 * coldSamples * coldFilters.size()
                + " fresh JVMs, n="
                + coldN()
                + " (--no-cold-start to skip)");
        cold =
            new ColdStart.Section(
                coldN(),
                coldSamples,
                COLD_START_HEAP,
                Arrays.stream(ColdStart.REPORT_CHECKPOINTS).boxed().toList(),
                ColdStart.measure(
                    ColdStart.currentJava(),
                    COLD_START_HEAP,
                    coldN(),
                    coldSamples,
                    coldFilters,
                    ColdStart.REPORT_CHECKPOINTS));
      }
      bar.advance();
      RangeReport.Section range = null;
      if (rangeKeys > 0) {
        bar.step(
            "range filters: n="
                + Names.nLabel(rangeKeys)
                + ", "
                + rangeQueries
                + " empty ranges per cell, then ns per range (--range-keys 0 to skip)");
        double elapsed = (System.nanoTime() - start) / 1e9;
        RangeTimer rt = rangeTimer(log);
        range = RangeReport.measure(rangeKeys, rangeQueries, rangeBits, seed);
        // a flagged filter's cells are re-measured only while the run's budget holds room
        double again = RangeReport.plannedRemeasureSeconds(rangeKeys, rt);
        boolean room =
            Double.isNaN(again)
                || Double.isNaN(planned)
                || elapsed + rangeSeconds() + again + IN_PROCESS_SECONDS_FIXED
                    <= Math.max(BUDGET_SECONDS, BUDGET_ROOM * planned);
        range = RangeReport.timed(range, rt, room);
      }
      bar.advance();
      List<Guard.Entry> guard = before == null ? null : Guard.compare(rows, before);
      bar.step("writing " + out);
      ReportWriter.Meta meta =
          meta(
              t, kinds, (System.nanoTime() - start) / 1e9, planned, loadStart, loadEnd, otherCores);
      ReportWriter.Run report =
          new ReportWriter.Run(meta, rows, guard, experiments, cold, range);
      ReportWriter.write(out, report);
      bar.finish("done: " + new File(out, "report.md"));
      stdout.print(ReportWriter.consoleSummary(report, out));
      stdout.flush();
      if (growthMaxN > 0) {
        long queries = Math.min(fprQueries, 1_000_000); // per checkpoint, about 60 of them
        GrowthReport.write(
            new File(out, "growth").toPath(),
            GrowthReport.measureAll(
                0.01, 1_000, growthMaxN, queries, GrowthReport.defaultHints(growthMaxN)),
            1_000,
            growthMaxN);
      }
      if (!flagged.isEmpty()) {
        console.println(
            "sieve report: "
                + flagged.size()
                + " row(s) not at steady state after re-measuring: marked, no ratio from them");
      }
      boolean violation =
          rows.stream().anyMatch(r -> r.falseNegatives > 0)
              || (range != null && range.falseNegatives() > 0);
      return violation ? 2 : 0;
    }
  }

  /**
   * The range section's timer: JMH forks with {@code --timer jmh}, in this JVM with {@code quick};
   * JMH's output to {@code log} (none: only planned with).
   */
  private RangeTimer rangeTimer(PrintStream log) {
    return timer.equals("quick")
        ? RangeReport.defaultQuickTimer()
        : RangeReport.defaultJmhTimer(
            rangeKeys, log == null ? new PrintStream(OutputStream.nullOutputStream()) : log);
  }

  /** The planned seconds of the range section (0 when off, {@code NaN} for the quick timer). */
  double rangeSeconds() {
    return rangeKeys == 0
        ? 0
        : RangeReport.plannedSeconds(rangeKeys, rangeQueries, rangeTimer(null));
  }

  /** The timer {@code --timer} names; JMH's output to {@code log} (none: only planned with). */
  private Timer timer(String heap, PrintStream log) {
    return switch (timer) {
      case "jmh" ->
          new JmhTimer(
              warmup,
              warmupMillis,
              iterations,
              iterationMillis,
              buildWarmup,
              buildIterations,
              heap,
              log == null ? new PrintStream(OutputStream.nullOutputStream()) : log);
      case "quick" -> new QuickTimer(5, 1 << 16);
      default -> throw new IllegalArgumentException("--timer must be jmh or quick, got " + timer);
    };
  }

  /**
   * The planned duration: every row's forks by the timer's plan, times the rounds, plus the
   * report's own work ({@link #IN_PROCESS_SECONDS_PER_ROW} per row at the default FPR queries,
   * scaled by {@code --fpr-queries}, and {@link #IN_PROCESS_SECONDS_FIXED}). {@code NaN} for a
   * timer without a plan.
   */
  double plannedSeconds(Timer t, List<StructureKind> kinds) {
    double timed = 0;
    int rowCount = 0;
    for (int n : ns) {
      for (StructureKind k : kinds) {
        int settings = k.sizedByBitsPerKey() ? bitsPerKey.size() : 1;
        timed += settings * rounds * t.plannedSeconds(n);
        rowCount += settings;
      }
    }
    double perRow = IN_PROCESS_SECONDS_PER_ROW * Math.max(0.1, fprQueries / 1e7);
    return timed
        + rowCount * perRow
        + IN_PROCESS_SECONDS_FIXED
        + coldStartSeconds(kinds)
        + rangeSeconds();
  }

  /** The cold-start section's filters: none with --no-cold-start. */
  private List<String> coldFilters(List<StructureKind> kinds) {
    return noColdStart ? List.of() : ColdStart.filtersOf(kinds);
  }

  /** The cold-start section's keys per filter: the run's smallest n, at most 10^5. */
  private int coldN() {
    int min = ns.stream().mapToInt(Integer::intValue).min().orElse(COLD_START_MAX_N);
    return Math.min(min, COLD_START_MAX_N);
  }

  /**
   * The time a run may take, re-measurements included: 10 minutes, the README's promise for the
   * default run, or {@link #BUDGET_ROOM} × its plan for a larger one.
   */
  static final double BUDGET_SECONDS = 600;

  /** A run planned past {@link #BUDGET_SECONDS} may take this much more than its plan. */
  static final double BUDGET_ROOM = 1.1;

  /**
   * The flagged jobs the run's time budget leaves room to re-measure, lookups first (a flagged
   * lookup keeps a row out of every table and ratio, a flagged build only out of the build ratios),
   * each costing its flagged parts by the longer timer's plan, with the work after the guard
   * (experiments, cold start, files) kept in reserve. A timer without a plan re-measures them all.
   */
  List<Timer.Job> withinBudget(
      List<Timer.Job> flagged,
      Timer longer,
      double elapsed,
      double planned,
      List<StructureKind> kinds) {
    List<Timer.Job> ordered = new ArrayList<>(flagged);
    ordered.sort(Comparator.comparing((Timer.Job j) -> j.row().unsteady == null));
    double budget = Math.max(BUDGET_SECONDS, BUDGET_ROOM * planned);
    double range = rangeSeconds();
    double at =
        elapsed
            + IN_PROCESS_SECONDS_FIXED
            + coldStartSeconds(kinds)
            + (Double.isNaN(range) ? 0 : range);
    List<Timer.Job> fit = new ArrayList<>();
    for (Timer.Job j : ordered) {
      Row r = j.row();
      double cost = longer.plannedSeconds(r.n, r.unsteady != null, r.buildUnsteady != null);
      if (Double.isNaN(cost) || Double.isNaN(planned)) {
        fit.add(j);
      } else if (at + cost <= budget) {
        fit.add(j);
        at += cost;
      }
    }
    return fit;
  }

  /** The planned seconds of the cold-start section: its child JVMs. */
  private double coldStartSeconds(List<StructureKind> kinds) {
    return 2.0 * coldSamples * coldFilters(kinds).size() * COLD_START_SECONDS_PER_JVM;
  }

  private String plan(List<StructureKind> kinds, int rowCount, Timer t, double planned) {
    String forks =
        timer.equals("jmh")
            ? " = " + 3L * rowCount * rounds + " JMH forks (positive, negative, build)"
            : " (in-process timer)";
    String head =
        String.format(
            Locale.ROOT,
            "sieve report: %d structure(s), n = %s: %d rows × %d round(s)%s",
            kinds.size(),
            join(ns),
            rowCount,
            rounds,
            forks);
    if (Double.isNaN(planned)) {
      return head;
    }
    return head
        + String.format(
            Locale.ROOT,
            "%nplanned: about %.1f minutes (per row and round: 2 query forks × (%.1f s start-up"
                + " + %d×%d ms warm-up + %d×%d ms measured) + 1 build fork; plus about %.0f s in"
                + " this JVM for FPR, sizes and experiments, %.0f s for %d cold-start JVMs and"
                + " %s; flagged rows re-measured longer on top)",
            planned / 60,
            JmhTimer.FORK_START_SECONDS,
            warmup,
            warmupMillis,
            iterations,
            iterationMillis,
            planned - timedSeconds(t, kinds) - coldStartSeconds(kinds) - rangeSeconds(),
            coldStartSeconds(kinds),
            2 * coldSamples * coldFilters(kinds).size(),
            rangeKeys == 0
                ? "no range section (--range-keys 0)"
                : String.format(
                    Locale.ROOT,
                    "%.0f s for the range section at n = %s (%d FPR cells of %,d ranges, 2 JMH"
                        + " forks)",
                    rangeSeconds(),
                    Names.nLabel(rangeKeys),
                    RangeReport.LENGTHS.length * RangeTimer.WORKLOADS,
                    rangeQueries));
  }

  private double timedSeconds(Timer t, List<StructureKind> kinds) {
    double timed = 0;
    for (int n : ns) {
      for (StructureKind k : kinds) {
        timed += (k.sizedByBitsPerKey() ? bitsPerKey.size() : 1) * rounds * t.plannedSeconds(n);
      }
    }
    return timed;
  }

  private ReportWriter.Meta meta(
      Timer t,
      List<StructureKind> kinds,
      double seconds,
      double planned,
      double loadStart,
      double loadEnd,
      double otherCores) {
    MachineInfo machine = MachineInfo.current();
    boolean simd = dev.sieve.bloom.BlockedBloomFilter.usesVectorProbe();
    String jdk =
        "Java "
            + System.getProperty("java.version")
            + ", "
            + System.getProperty("java.vm.name")
            + " "
            + System.getProperty("java.vm.version")
            + " ("
            + System.getProperty("java.vendor")
            + ")";
    String jvm =
        System.getProperty("java.vm.name")
            + " "
            + System.getProperty("java.vm.version")
            + " ("
            + System.getProperty("java.vendor")
            + "), -Xmx"
            + (Runtime.getRuntime().maxMemory() >> 20)
            + "m, blocked Bloom probe: "
            + (dev.sieve.bloom.BlockedBloomFilter.usesVectorProbe()
                ? "SIMD (jdk.incubator.vector)"
                : "scalar")
            + ", "
            + String.join(" ", ManagementFactory.getRuntimeMXBean().getInputArguments());
    List<String> names = new ArrayList<>();
    kinds.forEach(k -> names.add(k.name()));
    return new ReportWriter.Meta(
        machine.describe(),
        machine.cpu(),
        machine.cores(),
        machine.caches(),
        jdk,
        simd,
        loadStart,
        loadEnd,
        jvm,
        Instant.now().truncatedTo(ChronoUnit.SECONDS).toString(),
        "sieve report " + commandLine(),
        t.describe(),
        rounds,
        fprQueries,
        seed,
        List.copyOf(ns),
        List.copyOf(bitsPerKey),
        names,
        baseline == null ? null : baseline.getPath(),
        seconds,
        planned,
        otherCores);
  }

  private String commandLine() {
    return String.format(
            Locale.ROOT,
            "--n %s --filters %s --bits-per-key %s --fpr-queries %d --timer %s --rounds %d"
                + " --warmup %d --warmup-ms %d --iterations %d --iteration-ms %d --build-warmup %d"
                + " --build-iterations %d",
            join(ns),
            String.join(",", filters),
            join(bitsPerKey),
            fprQueries,
            timer,
            rounds,
            warmup,
            warmupMillis,
            iterations,
            iterationMillis,
            buildWarmup,
            buildIterations)
        + (noColdStart ? " --no-cold-start" : " --cold-samples " + coldSamples)
        + String.format(
            Locale.ROOT,
            " --range-keys %d --range-bits %s --range-queries %d",
            rangeKeys,
            rangeBits,
            rangeQueries)
        + (baseline == null ? "" : " --baseline " + baseline);
  }

  private static String join(List<?> l) {
    List<String> s = new ArrayList<>();
    l.forEach(o -> s.add(String.valueOf(o)));
    return String.join(",", s);
  }

  private static java.io.File jmhLockFile() {
    return new java.io.File(System.getProperty("java.io.tmpdir"), "jmh.lock");
  }

  /** Whether another JMH process holds JMH's lock file (JMH takes an exclusive file lock). */
  static boolean jmhLockHeld() {
    java.io.File f = jmhLockFile();
    if (!f.exists()) {
      return false;
    }
    try (java.io.RandomAccessFile raf = new java.io.RandomAccessFile(f, "rw");
        java.nio.channels.FileLock lock = raf.getChannel().tryLock()) {
      return lock == null;
    } catch (java.nio.channels.OverlappingFileLockException e) {
      return true;
    } catch (IOException e) {
      return false; // cannot tell: let JMH decide
    }
  }

  /** JOL prints a warning on first use; take it before the progress bar draws. */
  private static void warmUpJol() {
    PrintStream saved = System.out;
    try {
      System.setOut(new PrintStream(OutputStream.nullOutputStream()));
      Measure.objectCount(new long[1]);
    } finally {
      System.setOut(saved);
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
