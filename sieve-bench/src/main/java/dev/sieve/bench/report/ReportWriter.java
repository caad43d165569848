package dev.sieve.bench.report;

import dev.sieve.bench.Family;
import dev.sieve.bench.SieveAdapters;
import dev.sieve.bench.jmh.QueryBenchmark;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.ToDoubleFunction;

/**
 * Writes report.md, report.html, results.json and the plots from one run's figures. The report
 * reads top-down: a short summary and the side-by-side table first, then the hot-path guard, every
 * row's figures, the experiments and plots, and the targets last.
 */
public final class ReportWriter {
  private ReportWriter() {}

  /**
   * How the run was made.
   *
   * @param machine CPU, cores, caches, memory, OS in one line
   * @param jdk the Java runtime (version, VM, vendor)
   * @param simdPath whether the blocked Bloom filter's SIMD path ran
   *     (BlockedBloomFilter.usesVectorProbe())
   * @param loadAverageStart the one-minute load average when the run started ({@code NaN} unknown)
   * @param loadAverageEnd the same when the measurements ended
   * @param baseline the --baseline file, or {@code null}
   * @param seconds wall-clock time of the run up to writing the report
   * @param plannedSeconds the duration the plan predicted, printed at the start
   * @param otherCores the cores other processes kept busy on average while the report measured
   *     ({@link MachineInfo#otherCores}; {@code NaN} unknown)
   */
  public record Meta(
      String machine,
      String cpu,
      int cores,
      String caches,
      String jdk,
      boolean simdPath,
      double loadAverageStart,
      double loadAverageEnd,
      String jvm,
      String date,
      String command,
      String timer,
      int rounds,
      long fprQueries,
      long seed,
      List<Integer> n,
      List<Double> bitsPerKey,
      List<String> structures,
      String baseline,
      double seconds,
      double plannedSeconds,
      double otherCores) {

    /**
     * Whether other processes kept more than half the cores busy while the report measured; where
     * that is unknown, whether the load average at the start or the end exceeded half the cores
     * (which also counts the report's own forks, and a build just before it).
     */
    public boolean loaded() {
      double half = cores / 2.0;
      if (!Double.isNaN(otherCores)) {
        return otherCores > half;
      }
      return loadAverageStart > half || loadAverageEnd > half;
    }
  }

  /**
   * Everything one run produced.
   *
   * @param guard the hot-path guard against --baseline, {@code null} without one
   * @param coldStart the cold-start section, {@code null} when not measured (--no-cold-start)
   */
  public record Run(
      Meta meta,
      List<Row> rows,
      List<Targets.Check> checks,
      List<Guard.Entry> guard,
      ExperimentResults experiments,
      ColdStart.Section coldStart) {

    /** A run without the cold-start section. */
    public Run(
        Meta meta,
        List<Row> rows,
        List<Targets.Check> checks,
        List<Guard.Entry> guard,
        ExperimentResults experiments) {
      this(meta, rows, checks, guard, experiments, null);
    }

    /** The FPR sweep's points. */
    public List<Experiments.SweepPoint> sweep() {
      return experiments.fprSweep();
    }
  }

  /**
   * {@code results.json}: the component names are its keys.
   *
   * @param guard {@code null} without a baseline
   * @param coldStart {@code null} when not measured
   */
  public record Results(
      Meta meta,
      List<Row.Result> rows,
      List<Targets.Check> targets,
      List<Guard.Entry> guard,
      ExperimentResults experiments,
      ColdStart.Section coldStart) {}

  /** A Sieve filter and the peer it is read against, as one line of the side-by-side table. */
  record Pair(String label, String sieve, String peer) {}

  /** The side-by-side table's lines, headline filters first. */
  static final List<Pair> PAIRS =
      List.of(
          new Pair("blocked Bloom", "sieve-blocked-bloom", "fastfilter-blocked-bloom"),
          new Pair("Xor8", "sieve-xor8", "fastfilter-xor8"),
          new Pair("Binary Fuse 8", "sieve-binary-fuse8", "fastfilter-xorfuse8"),
          new Pair("Ribbon", "sieve-ribbon", null),
          new Pair("Bumped Ribbon (BuRR)", "sieve-bumped-ribbon", null),
          new Pair("standard Bloom", "sieve-standard-bloom", "fastfilter-bloom"),
          new Pair("standard Bloom (Guava)", null, "guava-bloom"),
          new Pair("Xor16", "sieve-xor16", "fastfilter-xor16"),
          new Pair("Binary Fuse 16", "sieve-binary-fuse16", null),
          new Pair("Cuckoo 8", "sieve-cuckoo8", "fastfilter-cuckoo8"),
          new Pair("Cuckoo 16", "sieve-cuckoo16", "fastfilter-cuckoo16"),
          new Pair("raw random read (the limit)", null, "raw-read-1x"));

  /** The ratio figures of a row: to the raw random read of the same n and to the best peer. */
  public record Ratios(
      double positiveOverRawRead,
      double negativeOverRawRead,
      double positiveOverBestPeer,
      double negativeOverBestPeer,
      double buildOverBestPeer,
      double overheadOverBestPeer) {}

  /** Writes the report into {@code dir}. */
  public static void write(File dir, Run run) throws IOException {
    File plots = new File(dir, "plots");
    if (!plots.isDirectory() && !plots.mkdirs()) {
      throw new IOException("cannot create " + plots);
    }
    Charts.fprVsBitsPerKey(new File(plots, "fpr-vs-bits-per-key.png"), run.sweep(), run.rows());
    Charts.lookupTimes(plots, run.rows());
    Charts.overheadOverFloor(new File(plots, "bits-over-floor.png"), run.rows());

    Doc doc = document(run);
    Files.writeString(new File(dir, "report.md").toPath(), doc.markdown(), StandardCharsets.UTF_8);
    Files.writeString(
        new File(dir, "report.html").toPath(), doc.html("Sieve report"), StandardCharsets.UTF_8);

    List<Row.Result> rows = new ArrayList<>();
    for (Row r : run.rows()) {
      rows.add(r.result(ratios(r, run.rows())));
    }
    Results json =
        new Results(
            run.meta(), rows, run.checks(), run.guard(), run.experiments(), run.coldStart());
    Files.writeString(
        new File(dir, "results.json").toPath(), Json.write(json), StandardCharsets.UTF_8);
  }

  /**
   * The ratio figures of {@code r} within {@code rows}; {@code NaN} wherever {@code r} or the row
   * it is divided by is flagged by the steady-state guard (no ratio from a flagged row).
   */
  static Ratios ratios(Row r, List<Row> rows) {
    Predicate<Row> lookups = x -> !x.excluded();
    Predicate<Row> builds = x -> !x.buildExcluded();
    double raw =
        r.excluded() ? Double.NaN : reference(rows, r, SteadyState.RAW_READ, x -> x.negativeNs);
    double nan = Double.NaN;
    return new Ratios(
        r.positiveNs / raw,
        r.negativeNs / raw,
        r.excluded() ? nan : r.positiveNs / bestPeer(rows, r.n, x -> x.positiveNs, lookups),
        r.excluded() ? nan : r.negativeNs / bestPeer(rows, r.n, x -> x.negativeNs, lookups),
        r.buildExcluded()
            ? nan
            : r.buildNsPerKey / bestPeer(rows, r.n, x -> x.buildNsPerKey, builds),
        r.overheadMeasured() / bestPeer(rows, r.n, Row::overheadMeasured, x -> true));
  }

  private static double reference(List<Row> rows, Row r, String name, ToDoubleFunction<Row> f) {
    return Targets.find(rows, name, r.n, r.bitsPerKeySetting)
        .filter(x -> !x.excluded())
        .map(f::applyAsDouble)
        .orElse(Double.NaN);
  }

  /** The best peer's figure at n, from the peers whose figure is {@code usable} (not flagged). */
  private static double bestPeer(
      List<Row> rows, int n, ToDoubleFunction<Row> f, Predicate<Row> usable) {
    OptionalDouble best =
        rows.stream()
            .filter(x -> x.family == Family.PEER && x.n == n)
            .filter(usable)
            .mapToDouble(f)
            .filter(v -> !Double.isNaN(v))
            .min();
    return best.orElse(Double.NaN);
  }

  /** The key counts of the run, ascending. */
  private static TreeSet<Integer> ns(List<Row> rows) {
    TreeSet<Integer> ns = new TreeSet<>();
    rows.forEach(r -> ns.add(r.n));
    return ns;
  }

  /** The row {@code name} at {@code n} (the run's first bits/key setting for sized kinds). */
  private static Optional<Row> row(Run run, String name, int n) {
    if (name == null) {
      return Optional.empty();
    }
    return Targets.find(run.rows(), name, n, run.meta().bitsPerKey().get(0));
  }

  /** A fast-hash row of {@code base} at {@code n} (single lookups), if the run has one. */
  private static Optional<Row> fastHash(Run run, String base, int n) {
    if (base == null) {
      return Optional.empty();
    }
    return run.rows().stream()
        .filter(
            r ->
                r.n == n
                    && r.name.startsWith(base + "-" + Targets.FAST_HASH)
                    && !r.isBatch()
                    && !r.isPrehashed())
        .findFirst();
  }

  private static boolean anyFastHash(Run run) {
    return run.rows().stream().anyMatch(r -> r.name.contains("-" + Targets.FAST_HASH));
  }

  /** "12.3 ± 0.4" (the error omitted when unknown). */
  static String pm(double value, double error) {
    if (Double.isNaN(value)) {
      return "—";
    }
    int digits = value >= 100 ? 0 : 1;
    return Double.isNaN(error)
        ? num(value, digits)
        : num(value, digits) + " ± " + num(error, Math.max(digits, error < 0.1 ? 2 : 1));
  }

  /** "pos ± e / neg ± e" of a row, or "—". */
  private static String posNeg(Optional<Row> r) {
    return r.map(
            x ->
                pm(x.positiveNs, x.positiveNsError)
                    + " / "
                    + pm(x.negativeNs, x.negativeNsError)
                    + flagMark(x))
        .orElse("—");
  }

  /** " **(!)**" after the figures of a row not at steady state. */
  static String flagMark(Row r) {
    return r.excluded() ? " **(!)**" : "";
  }

  private static String fpr(Optional<Row> r) {
    return r.filter(Row::hasFpr).map(x -> pct(x.measuredFpr())).orElse("—");
  }

  private static String build(Optional<Row> r) {
    return r.map(x -> pm(x.buildNsPerKey, x.buildNsPerKeyError)).orElse("—");
  }

  /** The side-by-side table at {@code n}: each Sieve filter's rows next to its peer's. */
  static void sideBySide(Doc doc, Run run, int n) {
    boolean fast = anyFastHash(run);
    List<String> header = new ArrayList<>(List.of("filter", "Sieve pos / neg ns", "Sieve batch"));
    header.add("Sieve pre-hashed");
    if (fast) {
      header.add("Sieve fast hash");
    }
    header.addAll(
        List.of(
            "Sieve FPR",
            "Sieve build ns/key",
            "peer",
            "peer pos / neg ns",
            "peer FPR",
            "peer build ns/key"));
    List<List<String>> lines = new ArrayList<>();
    for (Pair p : PAIRS) {
      Optional<Row> single = row(run, p.sieve(), n);
      Optional<Row> batch =
          row(run, p.sieve() == null ? null : p.sieve() + SieveAdapters.BATCH_SUFFIX, n);
      Optional<Row> pre =
          row(run, p.sieve() == null ? null : p.sieve() + SieveAdapters.PREHASHED_SUFFIX, n);
      Optional<Row> fh = fastHash(run, p.sieve(), n);
      Optional<Row> peer = row(run, p.peer(), n);
      if (single.isEmpty() && batch.isEmpty() && pre.isEmpty() && fh.isEmpty() && peer.isEmpty()) {
        continue;
      }
      List<String> line =
          new ArrayList<>(List.of(p.label(), posNeg(single), posNeg(batch), posNeg(pre)));
      if (fast) {
        line.add(posNeg(fh));
      }
      Optional<Row> sieveAny = single.or(() -> batch).or(() -> pre);
      line.addAll(
          List.of(
              fpr(sieveAny),
              build(single),
              p.peer() == null ? "—" : p.peer(),
              posNeg(peer),
              fpr(peer),
              build(peer)));
      lines.add(line);
    }
    doc.table(header, lines);
  }

  /**
   * The header's lines: the machine (CPU model, cores, caches), the JDK and whether the SIMD path
   * ran, the load average at the start and the end (with a warning when it exceeded half the
   * cores), and the run itself (n, structures, rounds, duration against the plan).
   */
  static List<String> header(Meta meta) {
    List<String> lines = new ArrayList<>();
    lines.add(
        "Machine: " + meta.cpu() + ", " + meta.cores() + " cores; caches: " + meta.caches() + ".");
    lines.add(
        "JDK: "
            + meta.jdk()
            + "; SIMD path: "
            + (meta.simdPath()
                ? "ran (blocked Bloom probes on jdk.incubator.vector)."
                : "did not run (scalar probes; it needs --add-modules jdk.incubator.vector).")
            + "");
    lines.add(
        String.format(
            Locale.ROOT,
            "Load average: %s at the start, %s at the end, on %d cores%s.",
            num(meta.loadAverageStart(), 2),
            num(meta.loadAverageEnd(), 2),
            meta.cores(),
            Double.isNaN(meta.otherCores())
                ? ""
                : "; other processes kept "
                    + num(meta.otherCores(), 2)
                    + " cores busy on average while it measured"));
    if (meta.loaded()) {
      lines.add(
          String.format(
              Locale.ROOT,
              "WARNING: the load exceeded half the cores (%s): other processes shared the CPUs, so"
                  + " these times are noise, not figures; rerun on an idle machine.",
              Double.isNaN(meta.otherCores())
                  ? num(meta.cores() / 2.0, 1)
                  : "others used " + num(meta.otherCores(), 2) + " of " + meta.cores()));
    }
    List<String> nl = new ArrayList<>();
    meta.n().forEach(n -> nl.add(Targets.nLabel(n)));
    lines.add(
        String.format(
            Locale.ROOT,
            "Run: n = %s, %d structures, %d round(s), %.1f minutes%s.",
            String.join(", ", nl),
            meta.structures().size(),
            meta.rounds(),
            meta.seconds() / 60,
            Double.isNaN(meta.plannedSeconds())
                ? ""
                : String.format(Locale.ROOT, " (planned %.1f)", meta.plannedSeconds() / 60)));
    return lines;
  }

  /** The summary's bullets after the recommendations: steady state, contract, baseline, noise. */
  static List<String> summary(Run run) {
    List<String> items = new ArrayList<>();
    List<Row> flagged = run.rows().stream().filter(SteadyState::flagged).toList();
    if (flagged.isEmpty()) {
      items.add(
          "Steady state: no row's error exceeds its mean and no filter lookup exceeds "
              + num(SteadyState.MAX_OVER_RAW_READ, 0)
              + "× the raw random read at its n"
              + (run.rows().stream().anyMatch(r -> r.remeasured)
                  ? " (after re-measuring the rows whose first measurement did)."
                  : "."));
    } else {
      List<String> what = new ArrayList<>();
      flagged.forEach(
          r ->
              what.add(
                  r.name + " at n=" + Targets.nLabel(r.n) + " (" + SteadyState.describe(r) + ")"));
      items.add(
          "**Not at steady state** after one longer re-measurement, printed marked **(!)** and"
              + " left out of every ratio, target and recommendation: "
              + String.join("; ", what)
              + ".");
    }
    long fn = run.rows().stream().filter(r -> r.falseNegatives > 0).count();
    items.add(
        fn == 0
            ? "No false negatives: every key of every row found, through the path each row is timed"
                + " on (single, batch or pre-hashed)."
            : "CONTRACT VIOLATION: "
                + fn
                + " row(s) with false negatives (see the contract target).");
    if (run.guard() != null) {
      items.add(baselineLine(run));
    }
    Optional<Row> noisiest =
        run.rows().stream()
            .filter(r -> !Double.isNaN(r.negative.roundSpread()))
            .max(Comparator.comparingDouble(r -> r.negative.roundSpread()));
    noisiest.ifPresent(
        r ->
            items.add(
                String.format(
                    Locale.ROOT,
                    "Largest round-to-round spread of a negative-lookup mean: %s%% (%s at n=%s);"
                        + " ratios within one run are the figures to read.",
                    num(100 * r.negative.roundSpread(), 1),
                    r.name,
                    Targets.nLabel(r.n))));
    return items;
  }

  /** The --baseline comparison in one sentence. */
  static String baselineLine(Run run) {
    List<String> sieve = new ArrayList<>();
    long peers = 0;
    for (Guard.Entry e : run.guard()) {
      if (e.verdict() == Guard.Verdict.SLOWER) {
        if (e.family() == Family.SIEVE) {
          sieve.add(
              e.name()
                  + " "
                  + e.metric()
                  + " at n="
                  + Targets.nLabel(e.n())
                  + " "
                  + num(e.ratio(), 2)
                  + "×");
        } else {
          peers++;
        }
      }
    }
    return String.format(
        Locale.ROOT,
        "Against the baseline %s: %d comparable figures; %s; %d non-Sieve figure(s) also"
            + " slower (if the peers slowed too, the machine did).",
        run.meta().baseline(),
        run.guard().size(),
        sieve.isEmpty()
            ? "no Sieve figure slower by more than " + Guard.THRESHOLD_PERCENT + "%"
            : "Sieve figures slower by more than "
                + Guard.THRESHOLD_PERCENT
                + "%: "
                + String.join(", ", sieve),
        peers);
  }

  /** The text printed on stdout at the end of a run ({@link ConsoleSummary}). */
  public static String consoleSummary(Run run, File dir) {
    return ConsoleSummary.render(run, dir);
  }

  static Doc document(Run run) {
    Meta meta = run.meta();
    Doc doc = new Doc();
    doc.heading(
        1, "Sieve report: Sieve's filters side by side with the peers, theory and the limit");
    doc.para(String.join("  \n", header(meta)));
    doc.heading(2, "Which filter to pick");
    doc.bullets(Advice.recommend(run.rows()));
    doc.para(
        "Chosen from this run's figures at its largest n: speed is the mean of the positive and"
            + " negative lookup times of the filter's fastest path, space the bits per key over"
            + " the information floor log2(1/FPR) of the measured FPR; rows not at steady state"
            + " are never used.");
    doc.heading(2, "Summary");
    doc.bullets(summary(run));
    for (int n : ns(run.rows())) {
      doc.heading(2, "Side by side, n = " + Targets.nLabel(n));
      sideBySide(doc, run, n);
    }
    doc.para(
        "ns per lookup (positive / negative), mean ± 99.9% CI half-width over every round. **Sieve**:"
            + " single lookups through `mayContain(long)`, XXPH3 key hash included; **batch**: the"
            + " filter's batch API over runs of "
            + QueryBenchmark.BATCH
            + " keys (`…-batch` rows); **pre-hashed**: `mayContainHash` with the random key as its own"
            + " hash, which isolates the probe (`…-prehashed` rows)"
            + (anyFastHash(run) ? "; **fast hash**: the filter's one-mixer hash for long keys" : "")
            + ". The FPR is measured over "
            + String.format(Locale.ROOT, "%,d", meta.fprQueries())
            + " absent keys. Every figure of every row is in the tables further down.");
    doc.para(
        "**Machine:** "
            + meta.machine()
            + "  \n**JVM:** "
            + meta.jvm()
            + "  \n**When:** "
            + meta.date()
            + String.format(Locale.ROOT, " (%.1f minutes)", meta.seconds() / 60)
            + "  \n**Command:** `"
            + meta.command()
            + "`  \n**Timing:** "
            + meta.timer()
            + "; "
            + meta.rounds()
            + " round(s), the structures in a shuffled order per round (seed "
            + meta.seed()
            + ").");
    doc.para(
        "Query times are per lookup over a stream of independent lookups (throughput; memory"
            + " accesses may overlap), the same loop for every structure and for the raw random"
            + " read. **Keys:** random 64-bit, seed "
            + meta.seed()
            + "; absent keys are checked absent. **FPR:** 95% Wilson intervals. Numbers from a"
            + " shared or small machine are noisy; ratios within one run are the figures to read.");

    if (run.guard() != null) {
      guard(doc, run);
    }

    for (int n : ns(run.rows())) {
      everyRow(doc, run, n);
    }
    experiments(doc, run);
    if (run.coldStart() != null) {
      coldStart(doc, run.coldStart());
    }

    doc.heading(2, "Plots");
    for (Charts.Plot p : Charts.lookupPlots(run.rows())) {
      doc.image(p.alt(), "plots/" + p.file());
    }
    doc.image("FPR vs bits/key", "plots/fpr-vs-bits-per-key.png");
    doc.image("bits/key over the floor", "plots/bits-over-floor.png");

    targets(doc, run);
    return doc;
  }

  /** The cold-start table: filter × JVM kind × checkpoint, and simd/scalar per checkpoint. */
  static void coldStart(Doc doc, ColdStart.Section c) {
    doc.heading(2, "Cold start");
    doc.para(
        "The first lookups in a fresh JVM, before the JIT has compiled the query code: each"
            + " sample is a new JVM (-Xmx"
            + c.heap()
            + ", the report's java) that builds the filter over "
            + String.format(Locale.ROOT, "%,d", c.n())
            + " keys, then times its first single-key lookups, present and absent alternating."
            + " **scalar**: no JVM option; **simd**: `--add-modules jdk.incubator.vector`. Mean ns"
            + " per lookup up to each checkpoint, median of "
            + c.samples()
            + " JVM(s) per cell; simd/scalar is the ratio of the medians (about 1 means no"
            + " warm-up cliff from the SIMD path).");
    List<String> header = new ArrayList<>(List.of("filter"));
    for (String jvm : List.of("scalar", "simd")) {
      for (int l : c.lookups()) {
        header.add(jvm + " " + Targets.nLabel(l));
      }
    }
    for (int l : c.lookups()) {
      header.add("simd/scalar " + Targets.nLabel(l));
    }
    List<List<String>> lines = new ArrayList<>();
    for (String f : c.filters()) {
      List<String> line = new ArrayList<>(List.of(f));
      for (String jvm : List.of("scalar", "simd")) {
        for (int l : c.lookups()) {
          line.add(num(c.cell(f, jvm, l).median(), 1));
        }
      }
      for (int l : c.lookups()) {
        line.add(num(c.cell(f, "simd", l).median() / c.cell(f, "scalar", l).median(), 2));
      }
      lines.add(line);
    }
    doc.table(header, lines);
  }

  private static void guard(Doc doc, Run run) {
    doc.heading(
        2,
        "Hot-path guard: this run against "
            + run.meta().baseline()
            + " (flagged: more than "
            + Guard.THRESHOLD_PERCENT
            + "% slower)");
    if (run.guard().isEmpty()) {
      doc.para("No row of this run (name, n, bits/key) is in the baseline.");
      return;
    }
    List<List<String>> lines = new ArrayList<>();
    for (Guard.Entry e : run.guard()) {
      lines.add(
          List.of(
              e.name(),
              e.family().label(),
              Targets.nLabel(e.n()),
              e.metric(),
              num(e.before(), 2),
              pm(e.now(), e.nowError()),
              num(e.ratio(), 3),
              e.verdict() == Guard.Verdict.SLOWER
                  ? "**" + e.verdict() + "**"
                  : e.verdict().label()));
    }
    doc.table(
        List.of("structure", "family", "n", "figure", "before", "now", "now ÷ before", "verdict"),
        lines);
  }

  private static void everyRow(Doc doc, Run run, int n) {
    doc.heading(2, "Every row, n = " + Targets.nLabel(n));
    List<List<String>> main = new ArrayList<>();
    List<List<String>> ratio = new ArrayList<>();
    for (Row r : run.rows()) {
      if (r.n != n) {
        continue;
      }
      String name =
          r.name
              + (isSized(r) && countByName(run.rows(), r) > 1
                  ? " @" + num(r.bitsPerKeySetting, 1)
                  : "");
      Ratios x = ratios(r, run.rows());
      main.add(
          List.of(
              name + flagMark(r),
              r.family.label(),
              num(r.bitsPerKey(), 2) + (r.sizeIsMeasuredHeap ? " (heap)" : ""),
              String.format(Locale.ROOT, "%,d", r.sizeBytes()),
              pm(r.buildNsPerKey, r.buildNsPerKeyError) + (r.buildExcluded() ? " **(!)**" : ""),
              pm(r.positiveNs, r.positiveNsError),
              pm(r.negativeNs, r.negativeNsError),
              num(x.positiveOverRawRead(), 2),
              num(x.negativeOverRawRead(), 2),
              num(100 * r.negative.roundSpread(), 1),
              r.hasFpr()
                  ? pct(r.measuredFpr())
                      + " ["
                      + pct(r.measuredFprLow())
                      + ", "
                      + pct(r.measuredFprHigh())
                      + "]"
                  : "—",
              r.family == Family.LIMIT ? "—" : pct(r.modelFpr),
              num(r.measuredFpr() / r.modelFpr, 3),
              num(r.floorBitsPerKey(), 2),
              num(r.overheadMeasured(), 3)));
      ratio.add(
          List.of(
              name,
              num(x.positiveOverRawRead(), 2),
              num(x.negativeOverRawRead(), 2),
              num(x.positiveOverBestPeer(), 2),
              num(x.negativeOverBestPeer(), 2),
              num(x.buildOverBestPeer(), 2),
              num(x.overheadOverBestPeer(), 3),
              num(r.buildMemoryRatio(), 2),
              r.objectCount < 0 ? "—" : Long.toString(r.objectCount),
              r.falseNegatives < 0 ? "—" : Long.toString(r.falseNegatives)));
    }
    doc.table(
        List.of(
            "structure",
            "family",
            "bits/key",
            "bytes",
            "build ns/key",
            "pos ns/op",
            "neg ns/op",
            "pos ÷ raw read",
            "neg ÷ raw read",
            "neg round spread %",
            "measured FPR [95%]",
            "model FPR",
            "FPR/model",
            "log2(1/FPR)",
            "bits/key ÷ floor"),
        main);
    doc.para(
        "Times: mean ± 99.9% CI half-width over every round; round spread: (max - min) of the"
            + " rounds' means over the mean. Ratios at n = "
            + Targets.nLabel(n)
            + ": query time over one raw random 64-bit read from a `long[]` of the blocked Bloom"
            + " filter's size (raw-read-1x), and each figure over the best peer's (Guava,"
            + " FastFilter; lowest is best). Build memory: bytes allocated by the build over (final"
            + " size + 8 bytes per input key). False negatives are counted through the path the row"
            + " is timed on.");
    doc.table(
        List.of(
            "structure",
            "pos ÷ raw read",
            "neg ÷ raw read",
            "pos ÷ best peer",
            "neg ÷ best peer",
            "build ÷ best peer",
            "overhead ÷ best peer",
            "build alloc ÷ (size+keys)",
            "objects",
            "false negatives"),
        ratio);
  }

  private static void experiments(Doc doc, Run run) {
    ExperimentResults ex = run.experiments();
    if (ex.blockedAgainstTheory() != null) {
      Experiments.BlockedAgainstTheory m = ex.blockedAgainstTheory();
      doc.heading(
          2,
          "Blocked Bloom: measured FPR/theory next to CacheLocalFpRate at the measured keys-per-block mean");
      doc.table(
          List.of(
              "n",
              "bits/key",
              "k",
              "keys/block mean",
              "variance (Poisson: = mean)",
              "measured FPR",
              "standard",
              "CacheLocalFpRate",
              "exact Poisson",
              "measured ÷ standard",
              "CacheLocal ÷ standard",
              "measured ÷ CacheLocal"),
          List.of(
              List.of(
                  str(m.n()),
                  num(m.bitsPerKey(), 2),
                  str(m.k()),
                  num(m.keysPerBlockMean(), 2),
                  num(m.keysPerBlockVariance(), 2),
                  pct(m.fprMeasured()) + " [" + pct(m.fprLow95()) + ", " + pct(m.fprHigh95()) + "]",
                  pct(m.fprStandard()),
                  pct(m.fprCacheLocal()),
                  pct(m.fprPoisson()),
                  num(m.ratioMeasuredOverStandard(), 3),
                  num(m.ratioCacheLocalOverStandard(), 3),
                  num(m.ratioMeasuredOverCacheLocal(), 3))));
    }
    experimentTable(
        doc,
        "Q1: fraction of set bits and FPR against k (standard Bloom, 10 bits/key)",
        List.of(
            "k", "fractionSetMeasured", "fractionSetModel", "fprMeasured", "fprModel", "optimalK"),
        ex.setBits(),
        s ->
            List.of(
                s.k(),
                s.fractionSetMeasured(),
                s.fractionSetModel(),
                s.fprMeasured(),
                s.fprModel(),
                s.optimalK()));
    if (ex.blockedSetBits() != null) {
      Experiments.BlockedSetBits bs = ex.blockedSetBits();
      doc.para("Blocked Bloom at its own k:");
      List<String> cols = List.of("bitsPerKey", "k", "fractionSetMeasured", "fractionSetModel");
      List<Object> vals =
          List.of(bs.bitsPerKey(), bs.k(), bs.fractionSetMeasured(), bs.fractionSetModel());
      doc.table(cols, List.of(cells(cols, vals)));
    }
    experimentTable(
        doc,
        "Q2: FPR when the block index reuses the probe bits",
        List.of(
            "blockIndexFrom",
            "blockBits",
            "k",
            "fprMeasured",
            "fprLow95",
            "fprHigh95",
            "fprModelCacheLocal",
            "measuredOverModel"),
        ex.blockIndexReuse(),
        r ->
            List.of(
                r.blockIndexFrom(),
                r.blockBits(),
                r.k(),
                r.fprMeasured(),
                r.fprLow95(),
                r.fprHigh95(),
                r.fprModelCacheLocal(),
                r.measuredOverModel()));
    experimentTable(
        doc,
        "Q3: FPR at 64/128/256/512-bit blocks against the models",
        List.of(
            "blockBits",
            "k",
            "keysPerBlockMean",
            "fprMeasured",
            "fprCacheLocal",
            "fprPoisson",
            "fprStandard",
            "taxMeasured",
            "taxCacheLocal"),
        ex.blockSizes(),
        r ->
            List.of(
                r.blockBits(),
                r.k(),
                r.keysPerBlockMean(),
                r.fprMeasured(),
                r.fprCacheLocal(),
                r.fprPoisson(),
                r.fprStandard(),
                r.taxMeasured(),
                r.taxCacheLocal()));
    experimentTable(
        doc,
        "Q4: build failures and retries (failures = builds whose first attempt failed)",
        List.of("name", "n", "builds", "failures", "failureRate", "retries", "detail"),
        ex.buildRetries(),
        r ->
            List.of(
                r.name(),
                r.n(),
                r.builds(),
                r.failures(),
                r.failureRate(),
                r.retries(),
                r.detail()));
    experimentTable(
        doc,
        "Q5: per-level policy (FilterPolicy.ribbon bloomBeforeLevel) priced with measured ns",
        List.of(
            "bloomBeforeLevel",
            "keys",
            "filterBytes",
            "bitsPerKey",
            "memoryVsAllBloom",
            "falsePositiveProbes",
            "buildCpuSeconds",
            "queryCpuSeconds"),
        ex.lsmPolicy(),
        r ->
            List.of(
                r.bloomBeforeLevel(),
                r.keys(),
                r.filterBytes(),
                r.bitsPerKey(),
                r.memoryVsAllBloom(),
                r.falsePositiveProbes(),
                r.buildCpuSeconds(),
                r.queryCpuSeconds()));
    if (ex.lsmPolicyNote() != null) {
      doc.para(ex.lsmPolicyNote());
    }
    if (!run.sweep().isEmpty()) {
      doc.heading(2, "FPR against bits/key (the plot's measured points)");
      List<List<String>> lines = new ArrayList<>();
      for (Experiments.SweepPoint p : run.sweep()) {
        lines.add(
            List.of(
                p.name(),
                num(p.bitsPerKeySetting(), 1),
                num(p.bitsPerKey(), 3),
                pct(p.fprMeasured()) + " [" + pct(p.fprLow95()) + ", " + pct(p.fprHigh95()) + "]",
                pct(p.fprModel())));
      }
      doc.table(
          List.of("structure", "bits/key asked", "bits/key", "measured FPR [95%]", "model FPR"),
          lines);
    }
  }

  private static void targets(Doc doc, Run run) {
    doc.heading(2, "Project targets (issue 11), each at the n it is stated for");
    doc.para(
        "The project's own goals, by the ids issue 11 gave them (also in results.json). Stated"
            + " for one `./sieve report --n 1000000,10000000` run on a quiet machine; NOT RUN"
            + " where this run lacks the n or a structure a target needs (`--filters full` or"
            + " `all` has more of them); EXCLUDED where a row it needs is not at steady state."
            + " The value is the largest of the ratios the target names (every one must"
            + " pass).");
    targetTable(doc, run.checks().stream().filter(Targets.Check::primary).toList());
    List<Targets.Check> older = run.checks().stream().filter(c -> !c.primary()).toList();
    if (!older.isEmpty()) {
      doc.heading(3, "Secondary: the older targets that still apply, at the run's largest n");
      targetTable(doc, older);
    }
    doc.heading(2, "Closing note");
    List<String> misses = new ArrayList<>();
    List<String> notRun = new ArrayList<>();
    for (Targets.Check c : run.checks()) {
      if (!c.primary()) {
        continue;
      }
      if (c.status() == Targets.Status.MISS) {
        misses.add(
            c.id() + " at " + c.at() + " (" + num(c.value(), 3) + " > " + num(c.limit(), 3) + ")");
      } else if (c.status() == Targets.Status.NOT_RUN || c.status() == Targets.Status.EXCLUDED) {
        notRun.add(c.id() + ": " + c.detail());
      }
    }
    doc.para(
        "Missed in this run: "
            + (misses.isEmpty() ? "none" : String.join("; ", misses))
            + ". Not run or excluded: "
            + (notRun.isEmpty() ? "none" : String.join("; ", notRun))
            + ". Why each miss happens and what would close it: docs/notes.md.");
  }

  private static void targetTable(Doc doc, List<Targets.Check> checks) {
    List<List<String>> t = new ArrayList<>();
    for (Targets.Check c : checks) {
      t.add(
          List.of(
              c.id(),
              c.target(),
              c.at(),
              "**" + c.status().label() + "**",
              num(c.value(), 3),
              num(c.limit(), 3),
              c.detail()));
    }
    doc.table(List.of("id", "target", "stated at", "status", "measured", "limit", "detail"), t);
  }

  /** One experiment's table: a row per record, {@code values} giving its cells in column order. */
  private static <T> void experimentTable(
      Doc doc,
      String title,
      List<String> cols,
      List<T> records,
      Function<T, List<? extends Object>> values) {
    if (records == null || records.isEmpty()) {
      return;
    }
    doc.heading(2, title);
    List<List<String>> rows = new ArrayList<>();
    for (T r : records) {
      rows.add(cells(cols, values.apply(r)));
    }
    doc.table(cols, rows);
  }

  private static List<String> cells(List<String> cols, List<? extends Object> values) {
    List<String> row = new ArrayList<>();
    for (int i = 0; i < cols.size(); i++) {
      row.add(cell(cols.get(i), values.get(i)));
    }
    return row;
  }

  /** A table cell for an experiment figure: FPRs as percentages, large numbers in short form. */
  private static String cell(String column, Object v) {
    return column.toLowerCase(Locale.ROOT).startsWith("fpr")
        ? pct(v)
        : v instanceof Double d
            ? (Math.abs(d) >= 1e5 ? String.format(Locale.ROOT, "%.4g", d) : num(d, 4))
            : v instanceof Long l ? String.format(Locale.ROOT, "%,d", l) : str(v);
  }

  private static long countByName(List<Row> rows, Row r) {
    return rows.stream().filter(o -> o.name.equals(r.name) && o.n == r.n).count();
  }

  private static boolean isSized(Row r) {
    return r.family == Family.SIEVE || r.family == Family.PEER;
  }

  static String str(Object o) {
    return o == null ? "—" : o.toString();
  }

  static String num(Object o, int digits) {
    if (!(o instanceof Number x)) {
      return "—";
    }
    double d = x.doubleValue();
    if (Double.isNaN(d) || Double.isInfinite(d)) {
      return "—";
    }
    return String.format(Locale.ROOT, "%." + digits + "f", d);
  }

  static String pct(Object o) {
    if (!(o instanceof Number x) || Double.isNaN(x.doubleValue())) {
      return "—";
    }
    double d = x.doubleValue() * 100;
    if (d == 0) {
      return "0%";
    }
    return d >= 0.01
        ? String.format(Locale.ROOT, "%.4f%%", d)
        : String.format(Locale.ROOT, "%.3e%%", d);
  }
}
