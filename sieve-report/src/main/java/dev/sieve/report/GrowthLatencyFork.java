package dev.sieve.report;

import dev.sieve.bench.jmh.GrowthInsertLatency;
import dev.sieve.report.GrowthTimings.WorstInsert;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The worst single insert of the growth report's timings: {@link GrowthInsertLatency} run in a
 * forked JVM (it times every insert of a fill, and needs a heap for the keys, one time and one flag
 * per insert, and the filter while it doubles), its figures read back from the line it prints.
 */
final class GrowthLatencyFork {
  private GrowthLatencyFork() {}

  /** What {@link GrowthInsertLatency} prints for one structure (its {@code Result.line}). */
  static final Pattern LATENCY_LINE =
      Pattern.compile(
          "^(\\S+)\\s+n=(\\d+) max=([\\d,]+) ns \\(insert #(\\d+)\\) max-growing=([\\d,]+) ns"
              + " \\((\\d+) growth steps\\) max-other=[\\d,]+ ns p99\\.99=([\\d,]+) ns .*"
              + " timer=(\\d+) ns");

  /**
   * The worst single insert of the unhinted expandable filter at {@code n} keys: {@link
   * GrowthInsertLatency} in a fork of this JVM's classpath with {@link GrowthTimingsRun#heap} and
   * the JVM's default collector (a pause of the collector stops the inserting thread too, so the
   * worst insert is the one a user's default JVM sees); its output to {@code log}.
   */
  static WorstInsert worstInsert(long n, double f, int warmups, PrintStream log)
      throws IOException, InterruptedException {
    List<String> command =
        new ArrayList<>(
            List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx" + GrowthTimingsRun.heap(n),
                "-cp",
                System.getProperty("java.class.path"),
                GrowthInsertLatency.class.getName(),
                "--n",
                Long.toString(n),
                "--structures",
                "expandable",
                "--fp",
                Double.toString(f),
                "--guess",
                "0",
                "--warmup",
                Integer.toString(warmups)));
    List<String> shown = new ArrayList<>(command);
    shown.set(shown.indexOf("-cp") + 1, "<this JVM's classpath>");
    log.println("# " + String.join(" ", shown));
    Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
    WorstInsert found = null;
    try (BufferedReader r =
        new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
      for (String line; (line = r.readLine()) != null; ) {
        log.println(line);
        WorstInsert w = parseLatency(line, f);
        found = w != null ? w : found;
      }
    }
    int rc = p.waitFor();
    if (rc != 0 || found == null) {
      throw new IOException(
          "GrowthInsertLatency at n = " + n + " exited " + rc + " without its figure; see the log");
    }
    return found;
  }

  /** {@return the figures of one line of {@link GrowthInsertLatency}, or null if not one} */
  static WorstInsert parseLatency(String line, double f) {
    Matcher m = LATENCY_LINE.matcher(line);
    if (!m.find()) {
      return null;
    }
    long max = number(m.group(3));
    long growing = number(m.group(5));
    int steps = Integer.parseInt(m.group(6));
    return new WorstInsert(
        Long.parseLong(m.group(2)),
        f,
        m.group(1),
        max,
        Long.parseLong(m.group(4)),
        steps > 0 && growing == max,
        steps,
        number(m.group(7)),
        Long.parseLong(m.group(8)));
  }

  private static long number(String grouped) {
    return Long.parseLong(grouped.replace(",", ""));
  }
}
