package dev.sieve.report;

import static dev.sieve.report.Acceptance.FF_BLOCKED;
import static dev.sieve.report.Acceptance.FF_XOR8;
import static dev.sieve.report.Acceptance.N6;
import static dev.sieve.report.Acceptance.N7;
import static dev.sieve.report.Names.BLOCKED;
import static dev.sieve.report.Names.FAST_HASH;
import static dev.sieve.report.Names.RIBBON;

import dev.sieve.bench.Family;
import dev.sieve.bench.SieveAdapters;
import dev.sieve.report.Acceptance.Check;
import dev.sieve.report.Acceptance.Metric;
import dev.sieve.report.Acceptance.Status;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * The lookup and build goals against the peers: the blocked Bloom filter's batch and single lookups
 * against FastFilter's BlockedBloom, each filter's batch path against its single lookup, Xor8 and
 * Binary Fuse 8 against FastFilter's Xor8, Ribbon against the blocked Bloom filter, Xor8's build
 * against FastFilter's, and no false negative anywhere.
 */
final class AcceptanceLookups {
  private AcceptanceLookups() {}

  static List<Check> checks(List<Row> rows) {
    List<Check> checks = new ArrayList<>();
    String batch = BLOCKED + "-batch";
    for (int n : new int[] {N7, N6}) {
      double limit = n == N7 ? 1.0 : 1.5;
      for (Metric m : List.of(Metric.NEG, Metric.POS)) {
        String side = m == Metric.NEG ? "negative" : "positive";
        checks.add(
            Acceptance.compare(
                "blocked Bloom batch " + side + " lookup vs FastFilter BlockedBloom, n=" + nl(n),
                "blocked Bloom batch " + side + " ≤ " + limit + "× FastFilter BlockedBloom",
                rows,
                n,
                batch,
                FF_BLOCKED,
                List.of(m),
                limit));
      }
    }
    checks.add(
        Acceptance.compare(
            "blocked Bloom single negative lookup vs FastFilter BlockedBloom, n=" + nl(N6),
            "blocked Bloom single-key negative ≤ 1.8× FastFilter BlockedBloom",
            rows,
            N6,
            BLOCKED,
            FF_BLOCKED,
            List.of(Metric.NEG),
            1.8));
    checks.addAll(batchOverSingle(rows));
    checks.add(bestOf("Xor8", Acceptance.XOR8, rows));
    checks.add(bestOf("Binary Fuse 8", Acceptance.FUSE8, rows));
    checks.add(
        Acceptance.compare(
            "Ribbon single lookup vs blocked Bloom single lookup, n=" + nl(N6),
            "Ribbon single lookup (positive and negative) ≤ 1.6× blocked Bloom single",
            rows,
            N6,
            RIBBON,
            BLOCKED,
            List.of(Metric.POS, Metric.NEG),
            1.6));
    for (int n : new int[] {N6, N7}) {
      checks.add(
          Acceptance.compare(
              "Xor8 build vs FastFilter Xor8 build, n=" + nl(n),
              "Xor8 build ≤ 1.1× FastFilter Xor8, after warm-up",
              rows,
              n,
              Acceptance.XOR8,
              FF_XOR8,
              List.of(Metric.BUILD),
              1.1));
    }
    checks.add(contract(rows));
    return checks;
  }

  private static String nl(int n) {
    return Names.nLabel(n);
  }

  /** Each Sieve filter's batch row ≤ 0.65× its single row at 10^7 (positive and negative). */
  private static List<Check> batchOverSingle(List<Row> rows) {
    String what = "Sieve batch ≤ 0.65× Sieve single (positive and negative)";
    List<Check> checks = new ArrayList<>();
    for (Row batch : rows) {
      if (batch.n != N7 || batch.family != Family.SIEVE || !batch.isBatch()) {
        continue;
      }
      String single =
          batch.name.substring(0, batch.name.length() - SieveAdapters.BATCH_SUFFIX.length());
      checks.add(
          Acceptance.compare(
              "batch vs single lookup of " + single + ", n=" + nl(N7),
              what + ": " + single,
              rows,
              N7,
              batch.name,
              single,
              List.of(Metric.POS, Metric.NEG),
              0.65));
    }
    if (checks.isEmpty()) {
      checks.add(
          Acceptance.notRun(
              "batch vs single lookup, n=" + nl(N7),
              what,
              N7,
              "no -batch row at n=" + nl(N7) + " in this run"));
    }
    return checks;
  }

  /**
   * The family's best real lookup row (its batch row, or a fast-hash row) ≤ 1.0× FastFilter Xor8 at
   * 10^6, positive and negative.
   */
  private static Check bestOf(String label, String base, List<Row> rows) {
    String name = label + " best lookup vs FastFilter Xor8, n=" + nl(N6);
    String what =
        label
            + " lookup (positive and negative) ≤ 1.0× FastFilter Xor8, best of batch or fast-hash";
    List<Check> candidates = new ArrayList<>();
    for (Row r : rows) {
      if (r.n == N6 && r.family == Family.SIEVE && isBestOfCandidate(base, r.name)) {
        candidates.add(
            Acceptance.compare(
                name, what, rows, N6, r.name, FF_XOR8, List.of(Metric.POS, Metric.NEG), 1.0));
      }
    }
    Optional<Check> best =
        candidates.stream()
            .filter(c -> c.status() != Status.NOT_RUN && c.status() != Status.EXCLUDED)
            .min(Comparator.comparingDouble(Check::value));
    if (best.isPresent()) {
      return best.get();
    }
    return candidates.isEmpty()
        ? Acceptance.notRun(
            name,
            what,
            N6,
            base + "-batch (or a " + FAST_HASH + " row) not in this run at n=" + nl(N6))
        : candidates.get(0);
  }

  /**
   * Whether {@code name} is a real-lookup variant of {@code base}: its batch or a fast-hash row.
   */
  static boolean isBestOfCandidate(String base, String name) {
    if (name.equals(base + SieveAdapters.BATCH_SUFFIX)) {
      return true;
    }
    return name.startsWith(base + "-")
        && name.contains(FAST_HASH)
        && !name.endsWith(SieveAdapters.PREHASHED_SUFFIX);
  }

  /** The contract: no false negatives on any path of any row at any n. */
  private static Check contract(List<Row> rows) {
    String name = "no false negatives";
    String what = "no false negative in any path (single, batch, pre-hashed) of any filter";
    long total = 0;
    List<String> bad = new ArrayList<>();
    boolean any = false;
    for (Row r : rows) {
      if (r.falseNegatives < 0) {
        continue;
      }
      any = true;
      if (r.falseNegatives > 0) {
        total += r.falseNegatives;
        bad.add(r.name + " at n=" + nl(r.n) + ": " + r.falseNegatives);
      }
    }
    if (!any) {
      return new Check(name, what, "every n", Status.NOT_RUN, Double.NaN, 0, "no set in this run");
    }
    return new Check(
        name,
        what,
        "every n",
        total == 0 ? Status.PASS : Status.MISS,
        total,
        0,
        total == 0
            ? "every key of every row found"
            : "CONTRACT VIOLATION: " + String.join("; ", bad));
  }
}
