package dev.sieve.cli;

import dev.sieve.Filter;
import dev.sieve.FilterBuilder;
import dev.sieve.math.BloomMath;
import dev.sieve.registry.FilterType;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code sieve compare}: a quick side-by-side of Sieve's filters on random {@code long} keys —
 * size, measured FPR against the model and the floor, and rough build/query times from one pass
 * (the JMH-measured figures are the benchmark module's job).
 */
@Command(
    name = "compare",
    mixinStandardHelpOptions = true,
    description =
        "Quick side-by-side of the filters: bits/key, FPR vs model, overhead, rough ns/key.")
public final class CompareCommand implements Callable<Integer> {

  @Spec CommandSpec spec;

  @Option(
      names = "--keys",
      description = "number of keys (default: ${DEFAULT-VALUE})",
      defaultValue = "1000000")
  int numKeys;

  @Option(
      names = "--queries",
      description = "absent keys queried for the FPR (default: ${DEFAULT-VALUE})",
      defaultValue = "2000000")
  int numQueries;

  @Option(
      names = "--bits-per-key",
      split = ",",
      description = "bits/key settings (default: ${DEFAULT-VALUE})",
      defaultValue = "6,10,16")
  double[] bitsPerKey;

  @Option(
      names = "--filters",
      split = ",",
      description =
          "filter types by name, or 'all' (default: the types sized in bits/key,"
              + " standard-bloom and blocked-bloom); the number of --bits-per-key is each type's"
              + " size setting (Ribbon: Bloom-equivalent bits/key, Cuckoo: fingerprint bits;"
              + " Xor, Binary Fuse, sharded and scalable-bloom have none, are built once and show"
              + " '-' in the set column)")
  List<String> filters;

  @Option(
      names = "--seed",
      description = "key generator seed (default: ${DEFAULT-VALUE})",
      defaultValue = "42")
  long seed;

  /**
   * The types compared: those named (from the registry, {@link FilterType#forName}), all of them
   * for {@code all}, or by default those whose size setting is bits per key.
   */
  static List<FilterType> types(List<String> names) {
    List<FilterType> types = new ArrayList<>();
    if (names == null || names.isEmpty()) {
      for (FilterType t : FilterType.builtIn()) {
        if (SizeSettings.isBitsPerKey(t)) {
          types.add(t);
        }
      }
    } else if (names.size() == 1 && names.get(0).equals("all")) {
      types.addAll(FilterType.builtIn());
    } else {
      for (String name : names) {
        types.add(FilterType.forName(name));
      }
    }
    return types;
  }

  /** The builder of {@code type} at setting {@code b}, or its only builder if it has no setting. */
  static FilterBuilder<? extends Filter> builder(FilterType type, double b) {
    return SizeSettings.has(type) ? SizeSettings.builder(type, b) : type.builder();
  }

  @Override
  public Integer call() {
    if (numKeys < 1 || numQueries < 1) {
      throw new picocli.CommandLine.ParameterException(
          spec.commandLine(), "--keys and --queries must be positive");
    }
    List<FilterType> types;
    try {
      types = types(filters);
    } catch (IllegalArgumentException e) {
      throw new picocli.CommandLine.ParameterException(
          spec.commandLine(), "--filters: " + e.getMessage());
    }
    for (double b : bitsPerKey) {
      for (FilterType type : types) {
        try {
          builder(type, b);
        } catch (IllegalArgumentException e) {
          throw new picocli.CommandLine.ParameterException(
              spec.commandLine(),
              "--bits-per-key " + b + " for " + type.cliName() + ": " + e.getMessage());
        }
      }
    }
    PrintWriter out = spec.commandLine().getOut();
    SplittableRandom random = new SplittableRandom(seed);
    long[] keys = new long[numKeys];
    for (int i = 0; i < numKeys; i++) {
      keys[i] = random.nextLong() >>> 1; // top bit clear: queried keys have it set, so are absent
    }
    long[] absent = new long[numQueries];
    for (int i = 0; i < numQueries; i++) {
      absent[i] = random.nextLong() | Long.MIN_VALUE;
    }
    out.printf(
        Locale.ROOT,
        "%d keys, %d absent queries, %s, %s%n",
        numKeys,
        numQueries,
        System.getProperty("java.vm.name") + " " + Runtime.version(),
        Runtime.getRuntime().availableProcessors() + " cpus");
    // the name column fits the longest name compared (split-block-bloom is 17 characters)
    int nameWidth = "filter".length();
    for (FilterType t : types) {
      nameWidth = Math.max(nameWidth, t.cliName().length());
    }
    String row = "%-" + nameWidth + "s %6s %9s %10s %10s %7s %9s %9s %9s%n";
    out.printf(
        Locale.ROOT,
        row,
        "filter",
        "set",
        "bits/key",
        "FPR",
        "model FPR",
        "ratio",
        "overhead",
        "build ns",
        "query ns");
    for (int bi = 0; bi < bitsPerKey.length; bi++) {
      double b = bitsPerKey[bi];
      for (FilterType kind : types) {
        if (bi > 0 && !SizeSettings.has(kind)) {
          continue; // no size setting: one row
        }
        long t0 = System.nanoTime();
        Filter filter = builder(kind, b).build(keys);
        long t1 = System.nanoTime();
        long fp = 0;
        for (long q : absent) {
          if (filter.mayContain(q)) {
            fp++;
          }
        }
        long t2 = System.nanoTime();
        for (long k : keys) {
          if (!filter.mayContain(k)) {
            out.println("FALSE NEGATIVE for key " + k + " in " + kind.cliName());
            return 1;
          }
        }
        double fpr = (double) fp / numQueries;
        out.printf(
            Locale.ROOT,
            row,
            kind.cliName(),
            SizeSettings.has(kind) ? number("%.2f", b) : "-", // fixed size or self-sizing: none
            Figures.bitsPerKey(filter.bitsPerKey()),
            Figures.percent(fpr),
            Figures.percent(filter.modelledFpRate()),
            number("%.3f", fpr / filter.modelledFpRate()),
            // no false positive measured: the overhead over the floor is undefined, not NaN
            number("%.3f", BloomMath.overheadOverFloor(filter.bitsPerKey(), fpr)),
            number("%.1f", (t1 - t0) / (double) numKeys),
            number("%.1f", (t2 - t1) / (double) numQueries));
      }
    }
    out.flush();
    return 0;
  }

  /** {@code value} in {@code format}, or "-" where it is not a finite number. */
  static String number(String format, double value) {
    return Double.isFinite(value) ? String.format(Locale.ROOT, format, value) : "-";
  }
}
