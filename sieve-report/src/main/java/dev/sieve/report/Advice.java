package dev.sieve.report;

import dev.sieve.bench.Family;
import dev.sieve.registry.FilterType;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Predicate;
import java.util.function.ToDoubleFunction;

/**
 * The summary's "which filter to pick": one recommendation per need a user has (keys added as they
 * come or known up front; lookup speed or space; RocksDB's or Parquet's format; an unknown key
 * count; deletes; merges), each chosen from this run's measured figures at its largest n and stated
 * with them. Nothing here is a fixed ranking: the choice is the measured minimum among the filters
 * whose capabilities fit the need ({@link FilterType}: mutable, RocksDB-compatible; the split-block
 * Bloom is Parquet's; the scalable Bloom and the expandable filter grow; Cuckoo and the expandable
 * filter remove; the expandable filter merges), and a need none of the run's rows meets says so.
 *
 * <p>Speed is the mean of the positive and negative lookup times of the filter's fastest path for a
 * single key stream: the plain lookup, or the batch API or the fast long-key hash where the run
 * measured them (named when they win). Space is the bits per key over the information floor
 * log2(1/FPR) of the measured FPR, so a filter is not preferred only for spending fewer bits at a
 * worse FPR. Rows flagged by {@link SteadyState} are never used.
 */
public final class Advice {
  private Advice() {}

  /** One filter's figures at one n: its best lookup path and its space. */
  record Candidate(
      String filter, FilterType type, Row plain, Row fastest, double lookupNs, double overhead) {

    /** "sieve-xor8" or "sieve-xor8 (batch API)". */
    String named() {
      if (fastest == plain) {
        return filter;
      }
      String path =
          fastest.isBatch()
              ? fastest.name.contains(Names.FAST_HASH)
                  ? "batch API, fast long-key hash"
                  : "batch API"
              : fastest.name.contains(Names.FAST_HASH) ? "fast long-key hash" : fastest.name;
      return filter + " (" + path + ")";
    }

    String figures() {
      return String.format(
          Locale.ROOT,
          "%s ns per lookup, %s bits/key at %s FPR",
          Cells.num(lookupNs, lookupNs >= 100 ? 0 : 1),
          Cells.num(plain.bitsPerKey(), 1),
          shortPct(plain.measuredFpr()));
    }
  }

  /** The Sieve type a row measures, if it is one of Sieve's filters. */
  static Optional<FilterType> type(String baseName) {
    for (FilterType t : FilterType.values()) {
      String prefix = "sieve-" + t.cliName();
      if (baseName.equals(prefix)
          || (baseName.startsWith(prefix) && baseName.substring(prefix.length()).matches("\\d+"))) {
        return Optional.of(t);
      }
    }
    return Optional.empty();
  }

  /** Sieve's filters at {@code n}, each with its fastest unflagged path. */
  static List<Candidate> candidates(List<Row> rows, int n) {
    List<Candidate> out = new ArrayList<>();
    for (Row plain : rows) {
      if (plain.n != n
          || plain.family != Family.SIEVE
          || plain.excluded()
          || Names.isDiagnostic(plain)
          || !RowSets.baseFilter(plain.name).equals(plain.name)
          || !plain.hasFpr()
          || Double.isNaN(lookup(plain))) {
        continue;
      }
      Optional<FilterType> type = type(plain.name);
      if (type.isEmpty() || type.get() == FilterType.SHARDED) {
        continue; // a container of other filters, not a choice of its own
      }
      Row fastest = plain;
      for (Row r : rows) {
        if (r.n == n
            && !r.excluded()
            && !r.isPrehashed()
            && r.name.startsWith(plain.name + "-")
            && RowSets.baseFilter(r.name).equals(plain.name)
            && lookup(r) < lookup(fastest)) {
          fastest = r;
        }
      }
      out.add(
          new Candidate(
              plain.name, type.get(), plain, fastest, lookup(fastest), plain.overheadMeasured()));
    }
    return out;
  }

  /** The mean of a row's positive and negative lookup times. */
  static double lookup(Row r) {
    return (r.positiveNs + r.negativeNs) / 2;
  }

  /**
   * The recommendations, as sentences, from the run's rows at their largest n, for a run whose
   * blocked and split-block Bloom filters took their scalar probes.
   */
  public static List<String> recommend(List<Row> rows) {
    return recommend(rows, false);
  }

  /**
   * The recommendations, as sentences, from the run's rows at their largest n. Where the run's SIMD
   * path ran ({@code simdPath}) and the fastest mutable filter is one of the two that take it, one
   * more sentence names the fastest mutable filter a JVM without the vector module gets: its times
   * are this run's, since a filter with no SIMD path runs the same code either way.
   */
  public static List<String> recommend(List<Row> rows, boolean simdPath) {
    List<String> out = new ArrayList<>();
    int n = rows.stream().mapToInt(r -> r.n).max().orElse(0);
    List<Candidate> all = candidates(rows, n);
    String at = " (n = " + Names.nLabel(n) + ")";
    if (all.isEmpty()) {
      out.add(
          "No recommendation: no Sieve filter of this run has a steady-state lookup time and a"
              + " measured FPR"
              + at
              + ".");
      return out;
    }
    Predicate<Candidate> mutable = c -> c.type().isMutable() && !growable(c);
    Predicate<Candidate> fixed = c -> !c.type().isMutable();
    pickPair(
        out,
        all,
        mutable,
        "Adding keys as they arrive (a mutable filter)",
        "the mutable filters",
        rows,
        n);
    if (simdPath) {
      flagless(out, all, mutable);
    }
    pickPair(
        out,
        all,
        fixed,
        "All keys known when you build (a static filter)",
        "the static filters",
        rows,
        n);
    rocksDb(out, all);
    single(
        out,
        all,
        c -> c.type() == FilterType.SPLIT_BLOCK_BLOOM,
        "Parquet files (the split-block Bloom filter Parquet readers check): ",
        "");
    Optional<Candidate> known = best(all, mutable, Candidate::lookupNs);
    single(
        out,
        all,
        Advice::growable,
        "Key count not known in advance: ",
        " — it grows as keys arrive and keeps its FPR bound"
            + known
                .map(k -> "; sized for n up front, " + k.filter() + " takes " + nsOf(k) + " ns")
                .orElse(""));
    single(
        out,
        all,
        c -> c.type() == FilterType.EXPANDABLE,
        "Key count not known and keys removed or filters merged: ",
        " — the growable filter with remove() and union() (of filters of the same rate); remove"
            + " only keys you added");
    single(
        out,
        all,
        c -> c.type() == FilterType.CUCKOO || c.type() == FilterType.EXPANDABLE,
        "Keys must be removed again: ",
        " — remove only keys you added: removing a key never added may drop another key's"
            + " fingerprint");
    Optional<Row> raw = SteadyState.rawRead(rows, n).filter(r -> !r.excluded());
    Optional<Candidate> fastest = best(all, c -> true, Candidate::lookupNs);
    if (raw.isPresent() && fastest.isPresent() && raw.get().negativeNs > 0) {
      out.add(
          String.format(
              Locale.ROOT,
              "For scale: one random memory read of a filter-sized array costs %s ns here; the"
                  + " fastest lookup above, %s, is %s× that.",
              Cells.num(raw.get().negativeNs, 2),
              fastest.get().named(),
              Cells.num(fastest.get().lookupNs() / raw.get().negativeNs, 1)));
    }
    for (int i = 0; i < out.size(); i++) {
      out.set(i, out.get(i) + (out.get(i).endsWith(".") ? "" : "."));
    }
    return out;
  }

  /**
   * The fastest mutable filter with no SIMD path, when the fastest overall is one whose time this
   * run measured on the vector module (a JVM started without it runs their scalar probes).
   */
  private static void flagless(List<String> out, List<Candidate> all, Predicate<Candidate> group) {
    Predicate<Candidate> simd =
        c -> c.type() == FilterType.BLOCKED_BLOOM || c.type() == FilterType.SPLIT_BLOCK_BLOOM;
    Optional<Candidate> fastest = best(all, group, Candidate::lookupNs);
    if (fastest.isEmpty() || !simd.test(fastest.get())) {
      return;
    }
    best(all, group.and(simd.negate()), Candidate::lookupNs)
        .ifPresent(
            c ->
                out.add(
                    "Adding keys as they arrive, on a JVM started without --add-modules"
                        + " jdk.incubator.vector (the blocked and split-block Bloom filters then"
                        + " take their scalar probes, which this run did not time): "
                        + c.named()
                        + ", the fastest mutable filter here that has no SIMD path — "
                        + c.figures()));
  }

  private static boolean growable(Candidate c) {
    return c.type() == FilterType.SCALABLE_BLOOM || c.type() == FilterType.EXPANDABLE;
  }

  /** The fastest and the smallest of a group, in one sentence when they are the same filter. */
  private static void pickPair(
      List<String> out,
      List<Candidate> all,
      Predicate<Candidate> group,
      String need,
      String groupName,
      List<Row> rows,
      int n) {
    Optional<Candidate> fast = best(all, group, Candidate::lookupNs);
    Optional<Candidate> small = best(all, group, Candidate::overhead);
    if (fast.isEmpty()) {
      List<String> flagged = new ArrayList<>();
      for (Row r : rows) {
        Optional<FilterType> t = type(RowSets.baseFilter(r.name));
        if (r.n == n
            && r.family == Family.SIEVE
            && r.excluded()
            && t.isPresent()
            && group.test(new Candidate(r.name, t.get(), r, r, Double.NaN, Double.NaN))
            && !flagged.contains(r.name)) {
          flagged.add(r.name);
        }
      }
      if (!flagged.isEmpty()) { // the run has such filters, none at steady state
        out.add(
            need
                + ": no recommendation, "
                + groupName
                + " of this run are not at steady state ("
                + String.join(", ", flagged)
                + ")");
      }
      return;
    }
    Candidate f = fast.get();
    String peer = peerNote(f, rows, n);
    if (all.stream().filter(group).count() == 1) {
      out.add(need + ": " + f.named() + ", the only one this run measured — " + f.figures() + peer);
      return;
    }
    if (small.isEmpty() || small.get().filter().equals(f.filter())) {
      out.add(
          need
              + ": "
              + f.named()
              + " is both the fastest and the smallest for its FPR — "
              + f.figures()
              + peer);
      return;
    }
    Candidate s = small.get();
    out.add(
        String.format(
            Locale.ROOT,
            "%s: for speed %s — %s%s; for space %s — %s bits/key at %s FPR (%s× the"
                + " information floor, against %s×), %s ns per lookup",
            need,
            f.named(),
            f.figures(),
            peer,
            s.filter(),
            Cells.num(s.plain().bitsPerKey(), 1),
            shortPct(s.plain().measuredFpr()),
            Cells.num(s.overhead(), 2),
            Cells.num(f.overhead(), 2),
            nsOf(s)));
  }

  /** RocksDB's two formats: the faster, and what the other one trades. */
  private static void rocksDb(List<String> out, List<Candidate> all) {
    Predicate<Candidate> rocks = c -> c.type().isRocksDbCompatible();
    Optional<Candidate> fast = best(all, rocks, Candidate::lookupNs);
    Optional<Candidate> small = best(all, rocks, Candidate::overhead);
    if (fast.isEmpty()) {
      return;
    }
    String need = "RocksDB (filter blocks RocksDB reads and writes): ";
    Candidate f = fast.get();
    if (small.isEmpty() || small.get().filter().equals(f.filter())) {
      out.add(need + f.named() + " — " + f.figures());
      return;
    }
    Candidate s = small.get();
    double saved = 1 - s.plain().bitsPerKey() / f.plain().bitsPerKey();
    out.add(
        String.format(
            Locale.ROOT,
            "%s%s for speed — %s; %s for space — %s bits/key at %s FPR (%s%% fewer bits),"
                + " %s× the lookup time",
            need,
            f.named(),
            f.figures(),
            s.filter(),
            Cells.num(s.plain().bitsPerKey(), 1),
            shortPct(s.plain().measuredFpr()),
            Cells.num(100 * saved, 0),
            Cells.num(s.lookupNs() / f.lookupNs(), 1)));
  }

  private static void single(
      List<String> out, List<Candidate> all, Predicate<Candidate> which, String need, String tail) {
    best(all, which, Candidate::lookupNs)
        .ifPresent(c -> out.add(need + c.named() + " — " + c.figures() + tail));
  }

  private static Optional<Candidate> best(
      List<Candidate> all, Predicate<Candidate> which, ToDoubleFunction<Candidate> by) {
    return all.stream()
        .filter(which)
        .filter(c -> !Double.isNaN(by.applyAsDouble(c)))
        .min(Comparator.comparingDouble(by));
  }

  /** "; FastFilter's BlockedBloom: 6.1 ns (0.8×)" when the row's peer was measured. */
  private static String peerNote(Candidate c, List<Row> rows, int n) {
    String peerName =
        SideBySideSection.PAIRS.stream()
            .filter(p -> c.filter().equals(p.sieve()) && p.peer() != null)
            .map(SideBySideSection.Pair::peer)
            .findFirst()
            .orElse(null);
    if (peerName == null) {
      return "";
    }
    Optional<Row> peer =
        rows.stream().filter(r -> r.name.equals(peerName) && r.n == n && !r.excluded()).findFirst();
    if (peer.isEmpty() || Double.isNaN(lookup(peer.get()))) {
      return "";
    }
    double p = lookup(peer.get());
    return String.format(
        Locale.ROOT,
        " (%s: %s ns, so Sieve takes %s× its time)",
        peerName,
        Cells.num(p, p >= 100 ? 0 : 1),
        Cells.num(c.lookupNs() / p, 2));
  }

  private static String nsOf(Candidate c) {
    return Cells.num(c.lookupNs(), c.lookupNs() >= 100 ? 0 : 1);
  }

  /** An FPR as a short percentage: "0.95%", "0.0061%". */
  static String shortPct(double f) {
    if (Double.isNaN(f)) {
      return "—";
    }
    double p = 100 * f;
    return p >= 0.1
        ? String.format(Locale.ROOT, "%.2f%%", p)
        : p == 0 ? "0%" : String.format(Locale.ROOT, "%.2g%%", p);
  }
}
