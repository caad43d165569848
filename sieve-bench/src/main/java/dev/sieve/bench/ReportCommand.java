package dev.sieve.bench;

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
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code sieve report}: measures every structure (Sieve's filters, the peers, the exact baselines,
 * the raw random read) on the same keys, checks the targets and writes {@code report/} — report.md,
 * report.html, results.json and the plots.
 */
@Command(
    name = "report",
    mixinStandardHelpOptions = true,
    version = "sieve report 0.1.0",
    description = {
      "Benchmarks every filter side by side with the peers, the exact baselines, theory and a raw"
          + " random memory read, and writes report/ (report.md, report.html, results.json, plots).",
      "The default workload (n=10^5 and 10^6) takes about 3 minutes on 2 cores; the full run is"
          + " --n 1000000,10000000 (add 100000000 with SIEVE_HEAP=20g)."
    })
public final class ReportCommand implements Callable<Integer> {

  @Option(
      names = "--n",
      split = ",",
      description = "key counts (default: ${DEFAULT-VALUE})",
      defaultValue = "100000,1000000")
  List<Integer> ns;

  @Option(
      names = "--filters",
      split = ",",
      description = "structures or families (sieve, peer, exact, limit) to run (default: all)",
      defaultValue = "all")
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
      names = "--forks",
      description = "JMH forks (default: ${DEFAULT-VALUE})",
      defaultValue = "1")
  int forks;

  @Option(
      names = "--warmup",
      description = "JMH warm-up iterations (default: ${DEFAULT-VALUE})",
      defaultValue = "1")
  int warmup;

  @Option(
      names = "--iterations",
      description = "JMH measured iterations (default: ${DEFAULT-VALUE})",
      defaultValue = "3")
  int iterations;

  @Option(
      names = "--iteration-ms",
      description = "JMH iteration time in ms (default: ${DEFAULT-VALUE})",
      defaultValue = "200")
  int iterationMillis;

  @Option(
      names = "--build-shots",
      description = "measured single-shot builds (default: ${DEFAULT-VALUE})",
      defaultValue = "3")
  int buildShots;

  @Option(
      names = "--fork-heap",
      description = "-Xmx of the JMH forks (default: by n: 2g, 6g at 10^7, 16g at 10^8)")
  String forkHeap;

  @Option(
      names = "--out",
      description = "output directory (default: ${DEFAULT-VALUE})",
      defaultValue = "report")
  File out;

  @Option(
      names = "--seed",
      description = "key seed (default: ${DEFAULT-VALUE})",
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

  private final PrintStream console;

  public ReportCommand() {
    this(System.err);
  }

  ReportCommand(PrintStream console) {
    this.console = console;
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
    for (int n : ns) {
      if (n < 1) {
        throw new IllegalArgumentException("--n must be positive, got " + n);
      }
    }
    if (fprQueries < 1 || experimentKeys < 1 || experimentQueries < 1) {
      throw new IllegalArgumentException(
          "--fpr-queries, --experiment-keys and --experiment-queries must be positive");
    }
    List<StructureKind> kinds = select(filters);
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
    warmUpJol();
    int maxN = ns.stream().mapToInt(Integer::intValue).max().orElse(1);
    String heap =
        forkHeap != null ? forkHeap : maxN <= 2_000_000 ? "2g" : maxN <= 20_000_000 ? "6g" : "16g";
    Path jmhLog = out.toPath().resolve("jmh.log");
    try (PrintStream log =
        new PrintStream(new FileOutputStream(jmhLog.toFile()), true, StandardCharsets.UTF_8)) {
      Timer t =
          switch (timer) {
            case "jmh" ->
                new JmhTimer(forks, warmup, iterations, iterationMillis, buildShots, heap, log);
            case "quick" -> new QuickTimer(3, 1 << 18);
            default ->
                throw new IllegalArgumentException("--timer must be jmh or quick, got " + timer);
          };
      List<Row> rows = new ArrayList<>();
      int steps = 0;
      for (int n : ns) {
        for (StructureKind k : kinds) {
          steps += k.sizedByBitsPerKey() ? bitsPerKey.size() : 1;
        }
      }
      steps += 6; // experiments + writing
      ProgressBar bar = new ProgressBar(console, steps, !noProgress && System.console() != null);
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
                    + ": FPR, memory");
            Row row = Measure.measure(kind, workload, b, fprQueries);
            bar.step(kind.name() + " n=" + n + ": " + timer + " timing");
            t.time(kind, row, seed);
            rows.add(row);
            bar.advance();
          }
        }
        workload = null;
      }
      Map<String, Object> experiments = new LinkedHashMap<>();
      int en = Math.min(experimentKeys, maxN);
      Experiments e = new Experiments(Workload.create(en, seed), experimentQueries);
      double b0 = bitsPerKey.get(0);
      bar.step("experiments: set bits vs k");
      experiments.put("setBits", e.setBitsAgainstProbes(10));
      experiments.put("blockedSetBits", e.blockedSetBits(10));
      bar.advance();
      bar.step("experiments: block index reuse");
      experiments.put("blockIndexReuse", e.blockIndexReuse(10, 6));
      bar.advance();
      bar.step("experiments: block sizes");
      experiments.put("blockSizes", e.blockSizes(10, 6));
      experiments.put("blockedAgainstTheory", e.blockedAgainstTheory(b0));
      bar.advance();
      bar.step("experiments: FPR sweep");
      experiments.put(
          "fprSweep",
          e.fprSweep(kinds, sweepBits.stream().mapToDouble(Double::doubleValue).toArray()));
      bar.advance();
      bar.step("experiments: build retries, LSM policy");
      experiments.putAll(PolicyFigures.figures(rows, en, seed));
      bar.advance();
      List<Targets.Check> checks = Targets.check(rows, 10.0);
      bar.step("writing " + out);
      Map<String, Object> meta = meta(t);
      ReportWriter.write(out, new ReportWriter.Run(meta, rows, checks, experiments));
      bar.finish("done: " + new File(out, "report.md"));
      for (Targets.Check c : checks) {
        console.printf(
            Locale.ROOT,
            "%-8s %-7s %s  %s%n",
            c.id(),
            c.status(),
            ReportWriter.num(c.value(), 3) + " (limit " + ReportWriter.num(c.limit(), 3) + ")",
            c.target());
      }
      boolean violation = rows.stream().anyMatch(r -> r.falseNegatives > 0);
      return violation ? 2 : 0;
    }
  }

  private Map<String, Object> meta(Timer t) {
    Map<String, Object> meta = new LinkedHashMap<>();
    meta.put("machine", machine());
    meta.put(
        "jvm",
        System.getProperty("java.vm.name")
            + " "
            + System.getProperty("java.vm.version")
            + " ("
            + System.getProperty("java.vendor")
            + "), -Xmx"
            + (Runtime.getRuntime().maxMemory() >> 20)
            + "m, "
            + String.join(" ", ManagementFactory.getRuntimeMXBean().getInputArguments()));
    meta.put("date", Instant.now().truncatedTo(ChronoUnit.SECONDS).toString());
    meta.put("command", "sieve report " + commandLine());
    meta.put("timer", t.describe());
    meta.put("fprQueries", fprQueries);
    meta.put("seed", seed);
    meta.put("n", ns);
    meta.put("bitsPerKey", bitsPerKey);
    return meta;
  }

  private String commandLine() {
    return String.format(
            Locale.ROOT,
            "--n %s --bits-per-key %s --fpr-queries %d --timer %s --forks %d --warmup %d --iterations %d --iteration-ms %d",
            join(ns),
            join(bitsPerKey),
            fprQueries,
            timer,
            forks,
            warmup,
            iterations,
            iterationMillis)
        + (filters.equals(List.of("all")) ? "" : " --filters " + String.join(",", filters));
  }

  private static String join(List<?> l) {
    List<String> s = new ArrayList<>();
    l.forEach(o -> s.add(String.valueOf(o)));
    return String.join(",", s);
  }

  /** CPU model, cores, memory, OS. */
  static String machine() {
    String cpu = "unknown CPU";
    try {
      for (String line : Files.readAllLines(Path.of("/proc/cpuinfo"))) {
        if (line.startsWith("model name")) {
          cpu = line.substring(line.indexOf(':') + 1).trim();
          break;
        }
      }
    } catch (IOException | RuntimeException e) {
      // not Linux: keep the generic name
    }
    long mem = -1;
    if (ManagementFactory.getOperatingSystemMXBean()
        instanceof com.sun.management.OperatingSystemMXBean os) {
      mem = os.getTotalMemorySize();
    }
    return String.format(
        Locale.ROOT,
        "%s, %d cores visible, %s RAM, %s %s %s",
        cpu,
        Runtime.getRuntime().availableProcessors(),
        mem < 0 ? "?" : (mem >> 30) + " GiB",
        System.getProperty("os.name"),
        System.getProperty("os.version"),
        System.getProperty("os.arch"));
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
      org.openjdk.jol.info.GraphLayout.parseInstance(new long[1]).totalCount();
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
