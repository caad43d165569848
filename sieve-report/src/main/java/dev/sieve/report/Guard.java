package dev.sieve.report;

import dev.sieve.bench.Family;
import dev.sieve.json.JsonReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The hot paths' guard: every timed figure of this run against the same row (name, n, bits/key) of
 * a previous run's results.json ({@code --baseline}), flagging a slowdown of more than {@value
 * #THRESHOLD_PERCENT}%. Peers are compared too: if they slowed as much, the machine did.
 */
public final class Guard {
  private Guard() {}

  static final int THRESHOLD_PERCENT = 10;

  /** now/before above this is flagged as a slowdown. */
  public static final double SLOWER = 1 + THRESHOLD_PERCENT / 100.0;

  /** now/before below this is shown as faster. */
  public static final double FASTER = 1 - THRESHOLD_PERCENT / 100.0;

  /** The timed figures of one row of a previous run. */
  public record Baseline(
      String name,
      int n,
      double bitsPerKeySetting,
      double positiveNs,
      double negativeNs,
      double buildNsPerKey) {}

  /** How a figure moved. */
  public enum Verdict {
    SLOWER("SLOWER > " + THRESHOLD_PERCENT + "%"),
    FASTER("faster > " + THRESHOLD_PERCENT + "%"),
    SAME("within " + THRESHOLD_PERCENT + "%");

    private final String label;

    Verdict(String label) {
      this.label = label;
    }

    public String label() {
      return label;
    }

    @Override
    public String toString() {
      return label;
    }
  }

  /** One figure of one row, before and now. */
  public record Entry(
      String name,
      Family family,
      int n,
      String metric,
      double before,
      double now,
      double nowError,
      double ratio,
      Verdict verdict) {}

  /** Reads the rows of a previous run's results.json. */
  public static List<Baseline> read(Path path) throws IOException {
    String text = Files.readString(path, StandardCharsets.UTF_8);
    Object root;
    try {
      root = JsonReader.parse(text);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(path + " is not a results.json: " + e.getMessage(), e);
    }
    if (!(root instanceof Map<?, ?> m) || !(m.get("rows") instanceof List<?> rows)) {
      throw new IllegalArgumentException(path + " is not a results.json: no \"rows\" list");
    }
    List<Baseline> out = new ArrayList<>();
    for (Object o : rows) {
      if (!(o instanceof Map<?, ?> r) || !(r.get("name") instanceof String name)) {
        throw new IllegalArgumentException(path + ": a row without a name");
      }
      out.add(
          new Baseline(
              name,
              (int) number(r.get("n")),
              number(r.get("bitsPerKeySetting")),
              number(r.get("positiveQueryNs")),
              number(r.get("negativeQueryNs")),
              number(r.get("buildNsPerKey"))));
    }
    return out;
  }

  private static double number(Object o) {
    return o instanceof Double d ? d : Double.NaN;
  }

  /** Every figure measured both now and in the baseline, in this run's row order. */
  public static List<Entry> compare(List<Row> rows, List<Baseline> baseline) {
    List<Entry> out = new ArrayList<>();
    for (Row r : rows) {
      if (r.excluded() && r.buildExcluded()) {
        continue; // not at steady state: no ratio from it (SteadyState)
      }
      Optional<Baseline> b =
          baseline.stream()
              .filter(
                  x ->
                      x.name().equals(r.name)
                          && x.n() == r.n
                          && x.bitsPerKeySetting() == r.bitsPerKeySetting)
              .findFirst();
      if (b.isEmpty()) {
        continue;
      }
      if (!r.excluded()) {
        add(out, r, "pos ns", b.get().positiveNs(), r.positiveNs, r.positiveNsError);
        add(out, r, "neg ns", b.get().negativeNs(), r.negativeNs, r.negativeNsError);
      }
      if (!r.buildExcluded()) {
        add(out, r, "build ns/key", b.get().buildNsPerKey(), r.buildNsPerKey, r.buildNsPerKeyError);
      }
    }
    return out;
  }

  private static void add(
      List<Entry> out, Row r, String metric, double before, double now, double nowError) {
    if (Double.isNaN(before) || Double.isNaN(now) || before <= 0) {
      return;
    }
    double ratio = now / before;
    Verdict v = ratio > SLOWER ? Verdict.SLOWER : ratio < FASTER ? Verdict.FASTER : Verdict.SAME;
    out.add(new Entry(r.name, r.family, r.n, metric, before, now, nowError, ratio, v));
  }
}
