package dev.sieve.bench;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.TreeSet;
import java.util.function.ToDoubleFunction;

/** Writes report.md, report.html, results.json and the plots from one run's figures. */
public final class ReportWriter {
  private ReportWriter() {}

  /** Everything one run produced. */
  public record Run(
      Map<String, Object> meta,
      List<Row> rows,
      List<Targets.Check> checks,
      Map<String, Object> experiments) {}

  /** Writes the report into {@code dir}. */
  @SuppressWarnings("unchecked")
  public static void write(File dir, Run run) throws IOException {
    File plots = new File(dir, "plots");
    if (!plots.isDirectory() && !plots.mkdirs()) {
      throw new IOException("cannot create " + plots);
    }
    List<Map<String, Object>> sweep =
        (List<Map<String, Object>>) run.experiments().getOrDefault("fprSweep", List.of());
    Charts.fprVsBitsPerKey(new File(plots, "fpr-vs-bits-per-key.png"), sweep, run.rows());
    Charts.queryVsN(new File(plots, "negative-query-vs-n.png"), run.rows(), true);
    Charts.queryVsN(new File(plots, "positive-query-vs-n.png"), run.rows(), false);
    Charts.overheadOverFloor(new File(plots, "bits-over-floor.png"), run.rows());

    Doc doc = document(run);
    Files.writeString(new File(dir, "report.md").toPath(), doc.markdown(), StandardCharsets.UTF_8);
    Files.writeString(
        new File(dir, "report.html").toPath(), doc.html("Sieve report"), StandardCharsets.UTF_8);

    Map<String, Object> json = new LinkedHashMap<>();
    json.put("meta", run.meta());
    List<Map<String, Object>> rows = new ArrayList<>();
    for (Row r : run.rows()) {
      Map<String, Object> m = r.toMap();
      m.putAll(ratios(r, run.rows()));
      rows.add(m);
    }
    json.put("rows", rows);
    List<Map<String, Object>> checks = new ArrayList<>();
    run.checks().forEach(c -> checks.add(c.toMap()));
    json.put("targets", checks);
    json.put("experiments", run.experiments());
    Files.writeString(
        new File(dir, "results.json").toPath(), Json.write(json), StandardCharsets.UTF_8);
  }

  /** The ratio figures of a row: to the raw random read of the same n and to the best peer. */
  static Map<String, Object> ratios(Row r, List<Row> rows) {
    Map<String, Object> m = new LinkedHashMap<>();
    double raw = reference(rows, r, "raw-read-1x", x -> x.negativeNs);
    m.put("positiveOverRawRead", r.positiveNs / raw);
    m.put("negativeOverRawRead", r.negativeNs / raw);
    m.put("positiveOverBestPeer", r.positiveNs / bestPeer(rows, r.n, x -> x.positiveNs));
    m.put("negativeOverBestPeer", r.negativeNs / bestPeer(rows, r.n, x -> x.negativeNs));
    m.put("buildOverBestPeer", r.buildNsPerKey / bestPeer(rows, r.n, x -> x.buildNsPerKey));
    m.put(
        "overheadOverBestPeer", r.overheadMeasured() / bestPeer(rows, r.n, Row::overheadMeasured));
    return m;
  }

  private static double reference(List<Row> rows, Row r, String name, ToDoubleFunction<Row> f) {
    return Targets.find(rows, name, r.n, r.bitsPerKeySetting)
        .map(f::applyAsDouble)
        .orElse(Double.NaN);
  }

  private static double bestPeer(List<Row> rows, int n, ToDoubleFunction<Row> f) {
    OptionalDouble best =
        rows.stream()
            .filter(x -> x.family == Family.PEER && x.n == n)
            .mapToDouble(f)
            .filter(v -> !Double.isNaN(v))
            .min();
    return best.orElse(Double.NaN);
  }

  @SuppressWarnings("unchecked")
  static Doc document(Run run) {
    Map<String, Object> meta = run.meta();
    Doc doc = new Doc();
    doc.heading(
        1,
        "Sieve report: every filter side by side with the peers, the baselines, theory and the physical limit");
    doc.para(
        "**Machine:** "
            + meta.get("machine")
            + "  \n**JVM:** "
            + meta.get("jvm")
            + "  \n**When:** "
            + meta.get("date")
            + "  \n**Command:** `"
            + meta.get("command")
            + "`");
    doc.para(
        "**Timing:** "
            + meta.get("timer")
            + ". **FPR:** "
            + meta.get("fprQueries")
            + " absent keys per filter (exact sets: a tenth, at least 10^5), 95% Wilson intervals."
            + " **Keys:** random 64-bit, seed "
            + meta.get("seed")
            + "; absent keys are checked absent."
            + " Query times are per lookup over a stream of independent lookups (throughput; memory"
            + " accesses may overlap), the same loop for every structure and for the raw random read."
            + " Numbers from a shared or small machine are noisy; ratios within one run are the"
            + " figures to read.");

    doc.heading(2, "Targets");
    List<List<String>> t = new ArrayList<>();
    for (Targets.Check c : run.checks()) {
      t.add(
          List.of(
              c.id(),
              c.target(),
              "**" + c.status() + "**",
              num(c.value(), 3),
              num(c.limit(), 3),
              c.detail()));
    }
    doc.table(List.of("id", "target", "status", "measured", "limit", "detail"), t);

    TreeSet<Integer> ns = new TreeSet<>();
    run.rows().forEach(r -> ns.add(r.n));
    for (int n : ns) {
      doc.heading(2, "Side by side, n = " + String.format(Locale.ROOT, "%,d", n));
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
        main.add(
            List.of(
                name,
                r.family.label(),
                num(r.bitsPerKey(), 2) + (r.sizeIsMeasuredHeap ? " (heap)" : ""),
                String.format(Locale.ROOT, "%,d", r.sizeBytes()),
                num(r.buildNsPerKey, 1),
                num(r.positiveNs, 1),
                num(r.negativeNs, 1),
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
        Map<String, Object> x = ratios(r, run.rows());
        ratio.add(
            List.of(
                name,
                num((Double) x.get("positiveOverRawRead"), 2),
                num((Double) x.get("negativeOverRawRead"), 2),
                num((Double) x.get("positiveOverBestPeer"), 2),
                num((Double) x.get("negativeOverBestPeer"), 2),
                num((Double) x.get("buildOverBestPeer"), 2),
                num((Double) x.get("overheadOverBestPeer"), 3),
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
              "measured FPR [95%]",
              "model FPR",
              "FPR/model",
              "log2(1/FPR)",
              "bits/key ÷ floor"),
          main);
      doc.para(
          "Ratios at n = "
              + n
              + ": query time over one raw random 64-bit read from a `long[]`"
              + " of the blocked Bloom filter's size (raw-read-1x), and each figure over the best peer's"
              + " (Guava, FastFilter; lowest is best). Build memory: bytes allocated by the build over"
              + " (final size + 8 bytes per input key).");
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

    Map<String, Object> ex = run.experiments();
    if (ex.get("blockedAgainstTheory") instanceof Map<?, ?> b) {
      Map<String, Object> m = (Map<String, Object>) b;
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
                  str(m.get("n")),
                  num(m.get("bitsPerKey"), 2),
                  str(m.get("k")),
                  num(m.get("keysPerBlockMean"), 2),
                  num(m.get("keysPerBlockVariance"), 2),
                  pct(m.get("fprMeasured"))
                      + " ["
                      + pct(m.get("fprLow95"))
                      + ", "
                      + pct(m.get("fprHigh95"))
                      + "]",
                  pct(m.get("fprStandard")),
                  pct(m.get("fprCacheLocal")),
                  pct(m.get("fprPoisson")),
                  num(m.get("ratioMeasuredOverStandard"), 3),
                  num(m.get("ratioCacheLocalOverStandard"), 3),
                  num(m.get("ratioMeasuredOverCacheLocal"), 3))));
    }
    experimentTable(
        doc,
        ex,
        "setBits",
        "Q1: fraction of set bits and FPR against k (standard Bloom, 10 bits/key)",
        List.of(
            "k", "fractionSetMeasured", "fractionSetModel", "fprMeasured", "fprModel", "optimalK"));
    if (ex.get("blockedSetBits") instanceof Map<?, ?> bs) {
      doc.para("Blocked Bloom at its own k: " + bs);
    }
    experimentTable(
        doc,
        ex,
        "blockIndexReuse",
        "Q2: FPR when the block index reuses the probe bits",
        List.of(
            "blockIndexFrom",
            "blockBits",
            "k",
            "fprMeasured",
            "fprLow95",
            "fprHigh95",
            "fprModelCacheLocal",
            "measuredOverModel"));
    experimentTable(
        doc,
        ex,
        "blockSizes",
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
            "taxCacheLocal"));
    experimentTable(
        doc,
        ex,
        "buildRetries",
        "Q4: build failures and retries (failures = builds whose first attempt failed)",
        List.of("name", "n", "builds", "failures", "failureRate", "retries", "detail"));
    experimentTable(
        doc,
        ex,
        "lsmPolicy",
        "Q5: per-level policy (RibbonFilterPolicy bloom_before_level) priced with measured ns",
        List.of(
            "bloomBeforeLevel",
            "keys",
            "filterBytes",
            "bitsPerKey",
            "memoryVsAllBloom",
            "falsePositiveProbes",
            "buildCpuSeconds",
            "queryCpuSeconds"));
    if (ex.get("lsmPolicyNote") != null) {
      doc.para(String.valueOf(ex.get("lsmPolicyNote")));
    }
    experimentTable(
        doc,
        ex,
        "fprSweep",
        "FPR against bits/key (the plot's measured points)",
        List.of("name", "bitsPerKeySetting", "bitsPerKey", "fprMeasured", "fprModel"));

    doc.heading(2, "Plots");
    doc.image("FPR vs bits/key", "plots/fpr-vs-bits-per-key.png");
    doc.image("negative query vs n", "plots/negative-query-vs-n.png");
    doc.image("positive query vs n", "plots/positive-query-vs-n.png");
    doc.image("bits/key over the floor", "plots/bits-over-floor.png");

    doc.heading(2, "Closing note");
    List<String> misses = new ArrayList<>();
    List<String> notRun = new ArrayList<>();
    for (Targets.Check c : run.checks()) {
      if (c.status().equals("MISS")) {
        misses.add(c.id() + " (" + num(c.value(), 3) + " > " + num(c.limit(), 3) + ")");
      } else if (c.status().equals("NOT RUN")) {
        notRun.add(c.id() + ": " + c.detail());
      }
    }
    doc.para(
        "Missed in this run: "
            + (misses.isEmpty() ? "none" : String.join("; ", misses))
            + ". Not run: "
            + (notRun.isEmpty() ? "none" : String.join("; ", notRun))
            + ". Why each miss happens and what would close it: docs/notes.md.");
    return doc;
  }

  @SuppressWarnings("unchecked")
  private static void experimentTable(
      Doc doc, Map<String, Object> ex, String key, String title, List<String> cols) {
    if (!(ex.get(key) instanceof List<?> list) || list.isEmpty()) {
      return;
    }
    doc.heading(2, title);
    List<List<String>> rows = new ArrayList<>();
    for (Object o : list) {
      Map<String, Object> m = (Map<String, Object>) o;
      List<String> row = new ArrayList<>();
      for (String c : cols) {
        Object v = m.get(c);
        row.add(
            c.toLowerCase(Locale.ROOT).startsWith("fpr")
                ? pct(v)
                : v instanceof Double d
                    ? (Math.abs(d) >= 1e5 ? String.format(Locale.ROOT, "%.4g", d) : num(d, 4))
                    : v instanceof Long l ? String.format(Locale.ROOT, "%,d", l) : str(v));
      }
      rows.add(row);
    }
    doc.table(cols, rows);
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
