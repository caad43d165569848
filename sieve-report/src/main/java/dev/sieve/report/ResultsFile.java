package dev.sieve.report;

import dev.sieve.bench.Family;
import dev.sieve.bench.RangeCells.Workload;
import dev.sieve.json.JsonReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A report's {@code results.json} read back: its rows with the figures the acceptance check uses,
 * whether its blocked Bloom rows took the SIMD path, and its range section.
 *
 * @param rows the rows (sizes, FPR counts, timed figures and their steady-state verdicts)
 * @param simdPath whether the run's blocked Bloom filter took its SIMD path
 * @param range the range section, {@code null} where the run had none
 */
record ResultsFile(List<Row> rows, boolean simdPath, RangeFigures.Section range) {

  /** Reads {@code path}; an {@link IllegalArgumentException} names what is wrong with it. */
  static ResultsFile read(Path path) throws IOException {
    Object root;
    try {
      root = JsonReader.parse(Files.readString(path, StandardCharsets.UTF_8));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(path + " is not a results.json: " + e.getMessage(), e);
    }
    if (!(root instanceof Map<?, ?> m) || !(m.get("rows") instanceof List<?> list)) {
      throw new IllegalArgumentException(path + " is not a results.json: no \"rows\" list");
    }
    List<Row> rows = new ArrayList<>();
    for (Object o : list) {
      if (!(o instanceof Map<?, ?> r) || !(r.get("name") instanceof String)) {
        throw new IllegalArgumentException(path + ": a row without a name");
      }
      rows.add(row(r));
    }
    boolean simd =
        m.get("meta") instanceof Map<?, ?> meta && Boolean.TRUE.equals(meta.get("simdPath"));
    RangeFigures.Section range = m.get("range") instanceof Map<?, ?> r ? range(r) : null;
    return new ResultsFile(rows, simd, range);
  }

  private static Row row(Map<?, ?> r) {
    Row row = new Row();
    row.name = (String) r.get("name");
    row.family = family(r.get("family"));
    row.description = r.get("description") instanceof String d ? d : null;
    row.n = (int) number(r.get("n"));
    row.bitsPerKeySetting = number(r.get("bitsPerKeySetting"));
    row.sizeBits = count(r.get("sizeBits"));
    row.sizeIsMeasuredHeap = Boolean.TRUE.equals(r.get("sizeIsMeasuredHeap"));
    row.retainedHeapBytes = count(r.get("retainedHeapBytes"));
    row.buildAllocatedBytes = count(r.get("buildAllocatedBytes"));
    row.objectCount = count(r.get("objectCount"));
    row.falseNegatives = count(r.get("falseNegatives"));
    row.absentQueried = Math.max(0, count(r.get("absentQueried")));
    row.falsePositives = Math.max(0, count(r.get("falsePositives")));
    row.modelFpr = number(r.get("modelFpr"));
    row.buildNsPerKey = number(r.get("buildNsPerKey"));
    row.buildNsPerKeyError = number(r.get("buildNsPerKeyError"));
    row.positiveNs = number(r.get("positiveQueryNs"));
    row.positiveNsError = number(r.get("positiveQueryNsError"));
    row.negativeNs = number(r.get("negativeQueryNs"));
    row.negativeNsError = number(r.get("negativeQueryNsError"));
    row.unsteady = text(r.get("notAtSteadyState"));
    row.buildUnsteady = text(r.get("buildNotAtSteadyState"));
    row.timer = r.get("timer") instanceof String t ? t : "";
    return row;
  }

  private static RangeFigures.Section range(Map<?, ?> r) {
    double bits = number(r.get("bitsPerKey"));
    List<RangeFigures.Point> points = new ArrayList<>();
    if (r.get("cells") instanceof List<?> cells) {
      for (Object o : cells) {
        Map<?, ?> c = (Map<?, ?>) o;
        points.add(
            new RangeFigures.Point(
                count(c.get("length")),
                Workload.valueOf(((String) c.get("workload")).toUpperCase(Locale.ROOT)),
                bits,
                count(c.get("queries")),
                count(c.get("grafiteFalsePositives")),
                number(c.get("grafiteBound")),
                number(c.get("grafiteBitsPerKey")),
                count(c.get("prefixBloomFalsePositives")),
                number(c.get("prefixBloomBitsPerKey")),
                count(c.get("rangesHoldingAKey")),
                count(c.get("grafiteFalseNegatives")),
                count(c.get("prefixBloomFalseNegatives")),
                time(c, "grafite"),
                time(c, "prefixBloom")));
      }
    }
    return new RangeFigures.Section(
        (int) number(r.get("n")),
        bits,
        count(r.get("queriesPerCell")),
        count(r.get("seed")),
        r.get("timer") instanceof String t ? t : "",
        points);
  }

  private static RangeFigures.Time time(Map<?, ?> cell, String prefix) {
    return new RangeFigures.Time(
        number(cell.get(prefix + "NsPerRange")),
        number(cell.get(prefix + "NsError999")),
        0,
        text(cell.get(prefix + "NotAtSteadyState")),
        false);
  }

  private static Family family(Object label) {
    for (Family f : Family.values()) {
      if (f.label().equals(label)) {
        return f;
      }
    }
    throw new IllegalArgumentException("unknown family " + label);
  }

  private static double number(Object o) {
    return o instanceof Double d ? d : Double.NaN;
  }

  /** A count; {@code -1} where it is absent (not measured). */
  private static long count(Object o) {
    return o instanceof Double d ? d.longValue() : -1;
  }

  private static String text(Object o) {
    return o instanceof String s ? s : null;
  }
}
