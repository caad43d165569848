package dev.sieve.report;

import dev.sieve.bench.StructureKind;
import dev.sieve.bloom.BlockedBloomFilter;
import java.lang.management.ManagementFactory;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** How the run was made, for the report's header and results.json: the machine, JVM, options. */
final class RunDescription {
  private RunDescription() {}

  /**
   * The run's {@link ReportWriter.Meta}.
   *
   * @param seconds the run's wall-clock time up to writing
   * @param planned its planned seconds
   * @param loadStart the one-minute load average at the start
   * @param loadEnd the same when the measurements ended
   * @param otherCores the cores other processes kept busy meanwhile
   */
  static ReportWriter.Meta meta(
      ReportCommand c,
      Timer t,
      List<StructureKind> kinds,
      double seconds,
      double planned,
      double loadStart,
      double loadEnd,
      double otherCores) {
    MachineInfo machine = MachineInfo.current();
    boolean simd = BlockedBloomFilter.usesVectorProbe();
    String vm =
        System.getProperty("java.vm.name")
            + " "
            + System.getProperty("java.vm.version")
            + " ("
            + System.getProperty("java.vendor")
            + ")";
    String jdk = "Java " + System.getProperty("java.version") + ", " + vm;
    String jvm =
        vm
            + ", -Xmx"
            + (Runtime.getRuntime().maxMemory() >> 20)
            + "m, blocked Bloom probe: "
            + (simd ? "SIMD (jdk.incubator.vector)" : "scalar")
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
        "sieve report " + options(c),
        t.describe(),
        c.rounds,
        c.fprQueries,
        c.seed,
        List.copyOf(c.ns),
        List.copyOf(c.bitsPerKey),
        names,
        c.baseline == null ? null : c.baseline.getPath(),
        seconds,
        planned,
        otherCores);
  }

  /** Every option that shapes the figures, with its value: the run's full command line. */
  static String options(ReportCommand c) {
    return String.format(
            Locale.ROOT,
            "--n %s --filters %s --bits-per-key %s --fpr-queries %d --timer %s --rounds %d"
                + " --warmup %d --scalar-warmup %d --warmup-ms %d --iterations %d"
                + " --iteration-ms %d --build-warmup %d --build-iterations %d",
            join(c.ns),
            String.join(",", c.filters),
            join(c.bitsPerKey),
            c.fprQueries,
            c.timer,
            c.rounds,
            c.warmup,
            c.scalarWarmup,
            c.warmupMillis,
            c.iterations,
            c.iterationMillis,
            c.buildWarmup,
            c.buildIterations)
        + (c.noColdStart ? " --no-cold-start" : " --cold-samples " + c.coldSamples)
        + String.format(
            Locale.ROOT,
            " --range-keys %d --range-bits %s --range-queries %d",
            c.rangeKeys,
            c.rangeBits,
            c.rangeQueries)
        + (c.baseline == null ? "" : " --baseline " + c.baseline);
  }

  static String join(List<?> l) {
    List<String> s = new ArrayList<>();
    l.forEach(o -> s.add(String.valueOf(o)));
    return String.join(",", s);
  }
}
