package dev.sieve.cli;

import dev.sieve.SieveFormatException;
import dev.sieve.json.JsonFormatException;
import dev.sieve.json.JsonReader;
import dev.sieve.sst.DbFilterReport;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The what-if's per-probe CPU prices read from a {@code ./sieve report} {@code results.json}
 * ({@code inspect DBDIR --cpu-from FILE}): the absent-key single-lookup times ({@code
 * negativeQueryNs}) of the rows {@code sieve-blocked-bloom} and {@code sieve-ribbon}, at n = 10^6
 * if the report has it, else at its largest n, at 10 bits/key if it has that setting.
 */
final class ReportProbeCost {
  /** A results.json larger than this is not a report (the full 10^7 run writes ~1 MB). */
  static final long MAX_BYTES = 64L << 20;

  private ReportProbeCost() {}

  static DbFilterReport.ProbeCost read(Path file) throws IOException {
    long size = Files.size(file);
    if (size > MAX_BYTES) {
      throw new SieveFormatException(
          0, "report of " + size + " bytes is larger than the limit of " + MAX_BYTES);
    }
    Object root;
    try {
      root = JsonReader.parse(Files.readString(file, StandardCharsets.UTF_8));
    } catch (JsonFormatException e) {
      throw new SieveFormatException(
          e.offset(), "report JSON: " + e.problem() + " at character " + e.offset());
    }
    if (!(root instanceof Map<?, ?> m) || !(m.get("rows") instanceof List<?> rows)) {
      throw new SieveFormatException(0, "not a sieve report results.json: no \"rows\" array");
    }
    Map<?, ?> bloom = pick(rows, "sieve-blocked-bloom");
    Map<?, ?> ribbon = pick(rows, "sieve-ribbon");
    double b = number(bloom, "negativeQueryNs");
    double r = number(ribbon, "negativeQueryNs");
    String date =
        m.get("meta") instanceof Map<?, ?> meta && meta.get("date") instanceof String d ? d : "?";
    String source =
        String.format(
            Locale.ROOT,
            "%s (report of %s): sieve-blocked-bloom %.1f ns, sieve-ribbon %.1f ns per absent-key"
                + " lookup at n=%d (ratio %.2f)",
            file,
            date,
            b,
            r,
            (long) number(bloom, "n"),
            r / b);
    try {
      return new DbFilterReport.ProbeCost(b, r, source);
    } catch (IllegalArgumentException e) {
      throw new SieveFormatException(0, e.getMessage());
    }
  }

  private static Map<?, ?> pick(List<?> rows, String name) {
    Map<?, ?> best = null;
    for (Object o : rows) {
      if (!(o instanceof Map<?, ?> row) || !name.equals(row.get("name"))) {
        continue;
      }
      if (!(row.get("negativeQueryNs") instanceof Double) || !(row.get("n") instanceof Double)) {
        continue;
      }
      if (best == null || better(row, best)) {
        best = row;
      }
    }
    if (best == null) {
      throw new SieveFormatException(0, "the report has no timed row " + name);
    }
    return best;
  }

  /** n = 10^6 first, then the larger n; at equal n, 10 bits/key. */
  private static boolean better(Map<?, ?> a, Map<?, ?> b) {
    double na = (Double) a.get("n");
    double nb = (Double) b.get("n");
    if ((na == 1e6) != (nb == 1e6)) {
      return na == 1e6;
    }
    if (na != nb) {
      return na > nb;
    }
    return Double.valueOf(10).equals(a.get("bitsPerKeySetting"))
        && !Double.valueOf(10).equals(b.get("bitsPerKeySetting"));
  }

  private static double number(Map<?, ?> row, String key) {
    return (Double) row.get(key);
  }
}
