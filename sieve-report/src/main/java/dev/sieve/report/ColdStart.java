package dev.sieve.report;

import dev.sieve.bench.Membership;
import dev.sieve.bench.Structures;
import dev.sieve.bench.Workload;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * The cold-start cost of lookups: what a short-lived JVM (a CLI query, a Spark task's first batch)
 * pays before the JIT has compiled the query code. Each sample is a fresh JVM that builds the
 * filter over {@code n} keys of the benchmark's workload (seed {@link Workload#DEFAULT_SEED}), then
 * times its first single-key lookups, present and absent keys alternating, and reports the time at
 * each checkpoint (default the first 10^3, 10^4 and 10^5 lookups). Every filter runs in two kinds
 * of JVM: without any option ({@code scalar}) and with {@code --add-modules jdk.incubator.vector}
 * ({@code simd}), the JVM under which the Bloom filters take their SIMD probes once those are
 * compiled (and their scalar probes until then: the SIMD column should match the scalar one for the
 * first lookups: no warm-up cliff).
 *
 * <p>The figure per cell is the median over the samples of the mean nanoseconds per lookup up to
 * that checkpoint; {@code simd/scalar} is the ratio of the medians at each checkpoint.
 *
 * <pre>
 * java -cp sieve-report/target/sieve-report-all.jar dev.sieve.report.ColdStart \
 *     [--n 1000000] [--samples 5] [--filters sieve-blocked-bloom,...] [--lookups 1000,10000,100000]
 *     [--heap 2g] [--java PATH] [--csv FILE]
 * </pre>
 *
 * (A self-contained measurement: it writes to standard output, and to {@code --csv} when given, one
 * line per filter, JVM kind and checkpoint.)
 */
public final class ColdStart {
  private ColdStart() {}

  /** The filters measured by default: the Bloom filters with and without SIMD paths, and a peer. */
  public static final List<String> DEFAULT_FILTERS =
      List.of(
          "sieve-blocked-bloom",
          "sieve-split-block-bloom",
          "sieve-split-block-bloom-prehashed",
          "sieve-standard-bloom",
          "sieve-ribbon",
          "sieve-binary-fuse8",
          "fastfilter-blocked-bloom");

  /** One cell: a filter, a JVM kind, a checkpoint, and the samples' nanoseconds per lookup. */
  public record Cell(String filter, String jvm, int lookups, double[] nanosPerLookup) {
    /** {@return the median of the samples} */
    public double median() {
      double[] s = nanosPerLookup.clone();
      Arrays.sort(s);
      int m = s.length / 2;
      return s.length % 2 == 1 ? s[m] : (s[m - 1] + s[m]) / 2;
    }
  }

  /**
   * The report's cold-start section ({@code sieve report}, {@code results.json}'s {@code
   * coldStart}): the cells of {@link #measure} and how they were taken.
   *
   * @param n keys per filter
   * @param samples fresh JVMs per filter and JVM kind
   * @param heap the children's {@code -Xmx}
   * @param lookups the checkpoints
   */
  public record Section(int n, int samples, String heap, List<Integer> lookups, List<Cell> cells) {
    /** {@return the cell of {@code filter}, {@code jvm} and {@code lookups}} */
    public Cell cell(String filter, String jvm, int lookups) {
      return find(cells, filter, jvm, lookups);
    }

    /** {@return the filters, in the order measured} */
    public List<String> filters() {
      List<String> names = new ArrayList<>();
      for (Cell c : cells) {
        if (!names.contains(c.filter())) {
          names.add(c.filter());
        }
      }
      return names;
    }
  }

  /** The report's default checkpoints: the first 10^3, 10^4 and 10^5 lookups. */
  public static final int[] REPORT_CHECKPOINTS = {1_000, 10_000, 100_000};

  /**
   * The report's cold-start filters out of its structure list: every Sieve filter and every peer,
   * single-key path only ({@code -batch} rows time the batch API, which a cold child does not call:
   * their single lookups are those of the base filter).
   */
  public static List<String> filtersOf(List<dev.sieve.bench.StructureKind> kinds) {
    List<String> names = new ArrayList<>();
    for (dev.sieve.bench.StructureKind k : kinds) {
      boolean filter =
          k.family() == dev.sieve.bench.Family.SIEVE || k.family() == dev.sieve.bench.Family.PEER;
      if (filter && !k.name().endsWith("-batch")) {
        names.add(k.name());
      }
    }
    return names;
  }

  /** The java command of this JVM, for children run with the same java. */
  public static String currentJava() {
    return Paths.get(System.getProperty("java.home"), "bin", "java").toString();
  }

  public static void main(String[] args) throws Exception {
    if (args.length > 0 && args[0].equals("--child")) {
      child(args);
      return;
    }
    int n = 1_000_000;
    int samples = 5;
    List<String> filters = DEFAULT_FILTERS;
    int[] checkpoints = {1_000, 10_000, 100_000};
    String heap = "2g";
    String java = currentJava();
    String csv = null;
    for (int i = 0; i < args.length; i++) {
      String a = args[i];
      if (i + 1 >= args.length) {
        fail("option " + a + " needs a value");
      }
      String v = args[++i];
      switch (a) {
        case "--n" -> n = positive(a, v);
        case "--samples" -> samples = positive(a, v);
        case "--filters" -> filters = List.of(v.split(","));
        case "--lookups" ->
            checkpoints =
                Arrays.stream(v.split(",")).mapToInt(s -> positive(a, s)).sorted().toArray();
        case "--heap" -> heap = v;
        case "--java" -> java = v;
        case "--csv" -> csv = v;
        default ->
            fail(
                "unknown option "
                    + a
                    + " (--n, --samples, --filters, --lookups, --heap, --java, --csv)");
      }
    }
    for (String f : filters) {
      if (!Structures.exists(f)) {
        fail("no structure named " + f);
      }
    }
    List<Cell> cells = measure(java, heap, n, samples, filters, checkpoints);
    StringBuilder out = new StringBuilder();
    out.append(
        String.format(
            Locale.ROOT,
            "cold start: first lookups in a fresh JVM, n = %d, median of %d JVMs, ns per lookup%n",
            n,
            samples));
    out.append(
        String.format(
            Locale.ROOT,
            "%-34s %10s %12s %12s %8s%n",
            "filter",
            "lookups",
            "scalar",
            "simd",
            "simd/sc"));
    for (String f : filters) {
      for (int c : checkpoints) {
        double s = find(cells, f, "scalar", c).median();
        double v = find(cells, f, "simd", c).median();
        out.append(
            String.format(Locale.ROOT, "%-34s %10d %12.1f %12.1f %8.2f%n", f, c, s, v, v / s));
      }
    }
    System.out.print(out);
    if (csv != null) {
      StringBuilder lines =
          new StringBuilder("filter,jvm,lookups,median_ns_per_lookup,samples_ns_per_lookup\n");
      for (Cell cell : cells) {
        lines
            .append(cell.filter())
            .append(',')
            .append(cell.jvm())
            .append(',')
            .append(cell.lookups())
            .append(',')
            .append(String.format(Locale.ROOT, "%.2f", cell.median()))
            .append(',');
        StringBuilder s = new StringBuilder();
        for (double x : cell.nanosPerLookup()) {
          s.append(s.length() == 0 ? "" : ";").append(String.format(Locale.ROOT, "%.2f", x));
        }
        lines.append(s).append('\n');
      }
      Files.writeString(Paths.get(csv), lines, StandardCharsets.UTF_8);
    }
  }

  /**
   * Measures every filter in both JVM kinds, {@code samples} fresh JVMs each, the kinds alternated
   * so a noisy neighbour hits both alike.
   */
  public static List<Cell> measure(
      String java, String heap, int n, int samples, List<String> filters, int[] checkpoints)
      throws IOException, InterruptedException {
    List<Cell> cells = new ArrayList<>();
    for (String f : filters) {
      double[][] scalar = new double[checkpoints.length][samples];
      double[][] simd = new double[checkpoints.length][samples];
      for (int s = 0; s < samples; s++) {
        long[] a = runChild(java, heap, false, f, n, checkpoints);
        long[] b = runChild(java, heap, true, f, n, checkpoints);
        for (int c = 0; c < checkpoints.length; c++) {
          scalar[c][s] = (double) a[c] / checkpoints[c];
          simd[c][s] = (double) b[c] / checkpoints[c];
        }
      }
      for (int c = 0; c < checkpoints.length; c++) {
        cells.add(new Cell(f, "scalar", checkpoints[c], scalar[c]));
        cells.add(new Cell(f, "simd", checkpoints[c], simd[c]));
      }
    }
    return cells;
  }

  private static long[] runChild(
      String java, String heap, boolean vector, String filter, int n, int[] checkpoints)
      throws IOException, InterruptedException {
    List<String> command = new ArrayList<>();
    command.add(java);
    command.add("-Xmx" + heap);
    if (vector) {
      command.add("--add-modules");
      command.add("jdk.incubator.vector");
    }
    command.add("-cp");
    command.add(System.getProperty("java.class.path"));
    command.add(ColdStart.class.getName());
    command.add("--child");
    command.add(filter);
    command.add(Integer.toString(n));
    for (int c : checkpoints) {
      command.add(Integer.toString(c));
    }
    Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (!p.waitFor(10, TimeUnit.MINUTES) || p.exitValue() != 0) {
      p.destroyForcibly();
      throw new IOException("cold-start child for " + filter + " failed: " + out);
    }
    for (String line : out.split("\n")) {
      if (line.startsWith("cold ")) {
        String[] parts = line.substring(5).trim().split(" ");
        long[] nanos = new long[parts.length];
        for (int i = 0; i < parts.length; i++) {
          nanos[i] = Long.parseLong(parts[i]);
        }
        return nanos;
      }
    }
    throw new IOException("cold-start child for " + filter + " printed no timing: " + out);
  }

  /** The child JVM: builds, then times the first lookups; prints {@code cold <ns> <ns> ...}. */
  private static void child(String[] args) {
    String filter = args[1];
    int n = Integer.parseInt(args[2]);
    int[] checkpoints = new int[args.length - 3];
    for (int i = 0; i < checkpoints.length; i++) {
      checkpoints[i] = Integer.parseInt(args[3 + i]);
    }
    Workload workload = Workload.create(n, Workload.DEFAULT_SEED);
    Membership m = Structures.byName(filter).build(workload.keys(), 10);
    int total = checkpoints[checkpoints.length - 1];
    long[] present = workload.presentQueries((total + 1) / 2);
    long[] absent = workload.absentQueries((total + 1) / 2);
    long[] queries = new long[total];
    for (int i = 0; i < total; i++) {
      queries[i] = (i & 1) == 0 ? present[i >>> 1] : absent[i >>> 1];
    }
    long[] nanos = new long[checkpoints.length];
    int hits = 0;
    int done = 0;
    long start = System.nanoTime();
    for (int c = 0; c < checkpoints.length; c++) {
      for (; done < checkpoints[c]; done++) {
        hits += m.mayContain(queries[done]) ? 1 : 0;
      }
      nanos[c] = System.nanoTime() - start;
    }
    if (hits < total / 2) {
      throw new AssertionError(filter + " answered absent for a present key");
    }
    StringBuilder line = new StringBuilder("cold");
    for (long x : nanos) {
      line.append(' ').append(x);
    }
    System.out.println(line);
  }

  private static Cell find(List<Cell> cells, String filter, String jvm, int lookups) {
    for (Cell c : cells) {
      if (c.filter().equals(filter) && c.jvm().equals(jvm) && c.lookups() == lookups) {
        return c;
      }
    }
    throw new IllegalStateException("no cell " + filter + "/" + jvm + "/" + lookups);
  }

  private static int positive(String option, String value) {
    try {
      int v = Integer.parseInt(value.trim());
      if (v > 0) {
        return v;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    fail(option + " takes a positive integer, got " + value);
    return 0;
  }

  private static void fail(String message) {
    System.err.println("cold start: " + message);
    System.exit(2);
  }
}
