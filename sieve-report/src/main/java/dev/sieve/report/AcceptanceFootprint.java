package dev.sieve.report;

import static dev.sieve.report.Names.BLOCKED;
import static dev.sieve.report.Names.RIBBON;

import dev.sieve.bench.Family;
import dev.sieve.report.Acceptance.Check;
import dev.sieve.report.Acceptance.Metric;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The goals held at the run's largest n: the blocked Bloom filter against one raw random read and
 * against Guava; Ribbon's and Binary Fuse 8's bits per key; and for each of Sieve's filters as
 * callers use it, a build cost flat in n, no per-key objects and a bounded build allocation.
 */
final class AcceptanceFootprint {
  private AcceptanceFootprint() {}

  static List<Check> checks(List<Row> rows, double bloomEquivalentBitsPerKey) {
    List<Check> checks = new ArrayList<>();
    int n = rows.stream().mapToInt(r -> r.n).max().orElse(0);
    int nMin = rows.stream().mapToInt(r -> r.n).min().orElse(0);
    checks.add(
        Acceptance.compare(
            "blocked Bloom negative lookup vs one raw random read",
            "blocked Bloom negative ≤ 1.3× one raw random read of the same footprint",
            rows,
            n,
            BLOCKED,
            "raw-read-1x",
            List.of(Metric.NEG),
            1.3));
    checks.add(
        Acceptance.compare(
            "blocked Bloom negative lookup vs Guava BloomFilter",
            "blocked Bloom negative ≤ 0.2× Guava BloomFilter",
            rows,
            n,
            BLOCKED,
            "guava-bloom",
            List.of(Metric.NEG),
            0.2));
    String ribbonName = "Ribbon bits/key over the information floor";
    String ribbonWhat =
        "Ribbon bits/key ≤ 1.06× log2(1/measured FPR) at bloom-equivalent "
            + fmt(bloomEquivalentBitsPerKey);
    Optional<Row> ribbon = Names.find(rows, RIBBON, n, bloomEquivalentBitsPerKey);
    checks.add(
        ribbon.isEmpty()
            ? Acceptance.notRun(ribbonName, ribbonWhat, n, RIBBON + " not in this run")
            : Acceptance.limit(
                ribbonName,
                ribbonWhat,
                n,
                ribbon.get().overheadMeasured(),
                1.06,
                String.format(
                    Locale.ROOT,
                    "%.3f bits/key, floor %.3f",
                    ribbon.get().bitsPerKey(),
                    ribbon.get().floorBitsPerKey())));
    String fuseName = "Binary Fuse 8 bits/key";
    String fuseWhat = "Binary Fuse 8 ≤ 9.1 bits/key";
    Optional<Row> fuse = Names.find(rows, Acceptance.FUSE8, n, bloomEquivalentBitsPerKey);
    checks.add(
        fuse.isEmpty()
            ? Acceptance.notRun(fuseName, fuseWhat, n, Acceptance.FUSE8 + " not in this run")
            : Acceptance.limit(fuseName, fuseWhat, n, fuse.get().bitsPerKey(), 9.1, ""));
    for (Row big : rows) {
      if (isCallersFilter(big) && big.n == n) {
        checks.add(flatBuild(rows, big, n, nMin));
      }
    }
    for (Row r : rows) {
      if (!isCallersFilter(r) || r.n != n) {
        continue;
      }
      if (r.objectCount >= 0) {
        // a filter without per-key objects holds O(1) objects: allow 64 regardless of n
        checks.add(
            Acceptance.limit(
                "no per-key objects: " + r.name,
                r.name + " has no per-key objects (reachable objects ≤ 64)",
                n,
                r.objectCount,
                64,
                r.objectCount + " objects for " + r.n + " keys"));
      }
      if (r.buildAllocatedBytes >= 0) {
        checks.add(
            Acceptance.limit(
                "build allocation: " + r.name,
                r.name + " build memory ≤ 2× filter + input keys",
                n,
                (double) r.buildAllocatedBytes / (2.0 * r.sizeBytes() + 8.0 * r.n),
                1.0,
                String.format(
                    Locale.ROOT,
                    "allocated %,d B; filter %,d B; keys %,d B",
                    r.buildAllocatedBytes,
                    r.sizeBytes(),
                    8L * r.n)));
      }
    }
    return checks;
  }

  /** {@code big}'s build ns per key at {@code n} ≤ 1.5× its figure at the run's smallest n. */
  private static Check flatBuild(List<Row> rows, Row big, int n, int nMin) {
    String name = "build ns/key flat in n: " + big.name;
    String what =
        big.name + " build ns/key flat in n: ≤ 1.5× its figure at n=" + Names.nLabel(nMin);
    Optional<Row> small = Names.find(rows, big.name, nMin, big.bitsPerKeySetting);
    if (n == nMin) {
      return Acceptance.notRun(name, what, n, "one key count in this run");
    }
    if (small.isEmpty()
        || Double.isNaN(small.get().buildNsPerKey)
        || Double.isNaN(big.buildNsPerKey)) {
      return Acceptance.notRun(name, what, n, "build time missing");
    }
    if (big.buildExcluded() || small.get().buildExcluded()) {
      return Acceptance.excluded(name, what, n, big.buildExcluded() ? big : small.get());
    }
    return Acceptance.limit(
        name,
        what,
        n,
        big.buildNsPerKey / small.get().buildNsPerKey,
        1.5,
        String.format(
            Locale.ROOT, "%.1f vs %.1f ns/key", big.buildNsPerKey, small.get().buildNsPerKey));
  }

  /**
   * Sieve's own filters as callers use them: not the batch/pre-hashed variants, not diagnostics.
   */
  private static boolean isCallersFilter(Row r) {
    return r.family == Family.SIEVE && !Names.isDiagnostic(r) && !r.isBatch() && !r.isPrehashed();
  }

  private static String fmt(double d) {
    return d == Math.rint(d) ? Long.toString((long) d) : Double.toString(d);
  }
}
