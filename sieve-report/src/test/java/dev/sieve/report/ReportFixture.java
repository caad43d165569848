package dev.sieve.report;

import dev.sieve.bench.Family;
import java.util.ArrayList;
import java.util.List;

/** A run's figures made by hand (the shape of a real 10^6-key run), for the report's tests. */
final class ReportFixture {
  private ReportFixture() {}

  static final int N = 1_000_000;

  /** A timed filter row with a measured FPR over 10^7 absent keys. */
  static Row filter(String name, Family family, double ns, double bitsPerKey, double fpr) {
    Row r = AcceptanceTest.row(name, family, N, ns, ns, 30);
    r.positiveNsError = ns / 20;
    r.negativeNsError = ns / 20;
    r.buildNsPerKeyError = 1;
    r.sizeBits = Math.round(bitsPerKey * N);
    r.absentQueried = 10_000_000;
    r.falsePositives = Math.round(fpr * r.absentQueried);
    r.modelFpr = fpr;
    return r;
  }

  /**
   * Sieve's filters and the peers at 10^6: the split-block Bloom the fastest mutable filter, the
   * standard Bloom the smallest for its FPR; Binary Fuse 8 through its fast hash the fastest static
   * one, Bumped Ribbon the smallest; Xor16 flagged (0.5 ± 3 ns: it would be the fastest of all).
   */
  static List<Row> rows() {
    List<Row> rows = new ArrayList<>();
    rows.add(filter("sieve-blocked-bloom", Family.SIEVE, 12, 10.2, 0.0095));
    rows.add(filter("sieve-blocked-bloom-batch", Family.SIEVE, 10, 10.2, 0.0095));
    rows.add(filter("sieve-split-block-bloom", Family.SIEVE, 9.5, 10.0, 0.0127));
    rows.add(filter("sieve-standard-bloom", Family.SIEVE, 25, 10.0, 0.0082));
    rows.add(filter("sieve-scalable-bloom", Family.SIEVE, 40, 14.0, 0.006));
    rows.add(filter("sieve-cuckoo8", Family.SIEVE, 30, 8.5, 0.028));
    rows.add(filter("sieve-ribbon", Family.SIEVE, 30, 7.0, 0.0100));
    rows.add(filter("sieve-bumped-ribbon", Family.SIEVE, 35, 7.1, 1 / 128.0));
    rows.add(filter("sieve-xor8", Family.SIEVE, 8, 9.84, 0.0039));
    rows.add(filter("sieve-binary-fuse8", Family.SIEVE, 8.5, 9.0, 0.0039));
    rows.add(filter("sieve-binary-fuse8-fasthash", Family.SIEVE, 4.9, 9.0, 0.0039));
    Row xor16 = filter("sieve-xor16", Family.SIEVE, 0.5, 18.0, 0.00002);
    xor16.negativeNsError = 3;
    rows.add(xor16);
    rows.add(filter("fastfilter-blocked-bloom", Family.PEER, 6.7, 10.5, 0.0130));
    rows.add(filter("fastfilter-xor8", Family.PEER, 5.2, 9.84, 0.0039));
    rows.add(filter("fastutil-hashset", Family.EXACT, 20, 200, 0));
    Row raw = filter("raw-read-1x", Family.LIMIT, 1.45, 10, 0);
    raw.absentQueried = 0;
    rows.add(raw);
    return rows;
  }

  static ReportWriter.Meta meta(double loadStart, double loadEnd, String cpu) {
    return new ReportWriter.Meta(
        cpu + ", 2 cores",
        cpu,
        2,
        "L1d 32 KiB, L1i 32 KiB, L2 512 KiB, L3 32 MiB",
        "Java 17.0.15, OpenJDK 64-Bit Server VM 17.0.15+6 (Debian)",
        true,
        loadStart,
        loadEnd,
        "OpenJDK 64-Bit Server VM",
        "2026-12-04T04:00:00Z",
        "sieve report --n 1000000",
        "JMH 1.37",
        1,
        10_000_000,
        42,
        List.of(N),
        List.of(10.0),
        List.of("sieve-blocked-bloom"),
        null,
        480,
        470,
        Double.NaN);
  }

  /** The fixture's rows, guarded, as a whole run. */
  static ReportWriter.Run run(double loadStart, double loadEnd, String cpu) {
    List<Row> rows = rows();
    SteadyState.flag(rows);
    return new ReportWriter.Run(meta(loadStart, loadEnd, cpu), rows, null, ExperimentResults.NONE);
  }
}
