package dev.sieve.report;

import static dev.sieve.report.Cells.flagMark;
import static dev.sieve.report.Cells.pct;
import static dev.sieve.report.Cells.pm;

import dev.sieve.bench.jmh.QueryBenchmark;
import dev.sieve.report.RowKey.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.TreeSet;

/** The side-by-side tables, one per n: each Sieve filter's lookup paths next to its peer's. */
final class SideBySideSection {
  private SideBySideSection() {}

  /** A Sieve filter and the peer it is read against, as one line of the side-by-side table. */
  record Pair(String label, String sieve, String peer) {}

  /** The side-by-side table's lines, headline filters first. */
  static final List<Pair> PAIRS =
      List.of(
          new Pair("blocked Bloom", "sieve-blocked-bloom", "fastfilter-blocked-bloom"),
          new Pair("two-word Bloom", "sieve-two-word-bloom", "fastfilter-blocked-bloom"),
          new Pair("split-block Bloom", "sieve-split-block-bloom", "fastfilter-blocked-bloom"),
          new Pair("Xor8", "sieve-xor8", "fastfilter-xor8"),
          new Pair("Binary Fuse 8", "sieve-binary-fuse8", "fastfilter-xorfuse8"),
          new Pair("Ribbon", "sieve-ribbon", null),
          new Pair("Bumped Ribbon (BuRR)", "sieve-bumped-ribbon", null),
          new Pair("standard Bloom", "sieve-standard-bloom", "fastfilter-bloom"),
          new Pair("standard Bloom (Guava)", null, "guava-bloom"),
          new Pair("Xor16", "sieve-xor16", "fastfilter-xor16"),
          new Pair("Binary Fuse 16", "sieve-binary-fuse16", null),
          new Pair("Cuckoo 8", "sieve-cuckoo8", "fastfilter-cuckoo8"),
          new Pair("Cuckoo 16", "sieve-cuckoo16", "fastfilter-cuckoo16"),
          new Pair("raw random read (the limit)", null, "raw-read-1x"));

  /** The tables for every n of the run, then the paragraph that reads them. */
  static void write(Doc doc, ReportWriter.Run run) {
    RowIndex index = new RowIndex(run.rows());
    for (int n : ns(run.rows())) {
      doc.heading(2, "Side by side, n = " + Names.nLabel(n));
      table(doc, run, index, n);
    }
    doc.para(
        "ns per lookup (positive / negative), mean ± 99.9% CI half-width over every round. **Sieve**:"
            + " single lookups through `mayContain(long)` of a filter made by its type's default builder,"
            + " key hash included (the one-mixer `KeyScheme.FAST` where no format fixes the hash:"
            + " two-word, standard and scalable Bloom, Xor, Binary Fuse, Cuckoo, Bumped Ribbon,"
            + " expandable; XXPH3 over the"
            + " key's eight bytes for the types whose format fixes it: blocked Bloom, Ribbon,"
            + " split-block); **batch**: the"
            + " filter's batch API over runs of "
            + QueryBenchmark.BATCH
            + " keys (`…-batch` rows); **pre-hashed**: `mayContainHash` with the random key as its own"
            + " hash, which isolates the probe (`…-prehashed` rows)"
            + (index.anyFastHash()
                ? "; **fast hash**: the filter's one-mixer hash for long keys"
                : "")
            + ". The FPR is measured over "
            + String.format(Locale.ROOT, "%,d", run.meta().fprQueries())
            + " absent keys. Every figure of every row is in the tables further down.");
  }

  /** The key counts of the run, ascending. */
  static TreeSet<Integer> ns(List<Row> rows) {
    TreeSet<Integer> ns = new TreeSet<>();
    rows.forEach(r -> ns.add(r.n));
    return ns;
  }

  /** The side-by-side table at {@code n}: each Sieve filter's rows next to its peer's. */
  private static void table(Doc doc, ReportWriter.Run run, RowIndex index, int n) {
    boolean fast = index.anyFastHash();
    List<String> header = new ArrayList<>(List.of("filter", "Sieve pos / neg ns", "Sieve batch"));
    header.add("Sieve pre-hashed");
    if (fast) {
      header.add("Sieve fast hash");
    }
    header.addAll(
        List.of(
            "Sieve FPR",
            "Sieve build ns/key",
            "peer",
            "peer pos / neg ns",
            "peer FPR",
            "peer build ns/key"));
    // the run's first bits/key setting for sized kinds; the fast-hash row whatever its setting
    double bits = run.meta().bitsPerKey().get(0);
    List<List<String>> lines = new ArrayList<>();
    for (Pair p : PAIRS) {
      Optional<Row> single = index.find(p.sieve(), n, Path.SINGLE, bits);
      Optional<Row> batch = index.find(p.sieve(), n, Path.BATCH, bits);
      Optional<Row> pre = index.find(p.sieve(), n, Path.PREHASHED, bits);
      Optional<Row> fh = index.first(p.sieve(), n, Path.FAST_HASH);
      Optional<Row> peer = index.find(p.peer(), n, Path.SINGLE, bits);
      if (single.isEmpty() && batch.isEmpty() && pre.isEmpty() && fh.isEmpty() && peer.isEmpty()) {
        continue;
      }
      List<String> line =
          new ArrayList<>(List.of(p.label(), posNeg(single), posNeg(batch), posNeg(pre)));
      if (fast) {
        line.add(posNeg(fh));
      }
      Optional<Row> sieveAny = single.or(() -> batch).or(() -> pre);
      line.addAll(
          List.of(
              fpr(sieveAny),
              build(single),
              p.peer() == null ? "—" : p.peer(),
              posNeg(peer),
              fpr(peer),
              build(peer)));
      lines.add(line);
    }
    doc.table(header, lines);
  }

  /** "pos ± e / neg ± e" of a row, or "—". */
  private static String posNeg(Optional<Row> r) {
    return r.map(
            x ->
                pm(x.positiveNs, x.positiveNsError)
                    + " / "
                    + pm(x.negativeNs, x.negativeNsError)
                    + flagMark(x))
        .orElse("—");
  }

  private static String fpr(Optional<Row> r) {
    return r.filter(Row::hasFpr).map(x -> pct(x.measuredFpr())).orElse("—");
  }

  private static String build(Optional<Row> r) {
    return r.map(x -> pm(x.buildNsPerKey, x.buildNsPerKeyError)).orElse("—");
  }
}
