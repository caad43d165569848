package dev.sieve.sst;

import dev.sieve.policy.FilterPolicy;
import dev.sieve.registry.FilterType;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * What a database's filters hold and cost, per column family and level, and what other policies
 * would cost on the same tree (the "what-if"): {@link FilterPolicy#report} applied to the
 * database's real shape. The JSON form the CLI prints is documented in docs/db-view.md.
 *
 * <p>The what-if prices each column family's levels under the policy in use and under Bloom, Ribbon
 * and Ribbon-below-a-level policies of the same bits/key, per {@link #LOOKUPS} lookups of absent
 * keys.
 */
public final class DbFilterReport {
  /** The absent-key point lookups the probe counts are given per. */
  public static final long LOOKUPS = 1_000_000L;

  /**
   * Blocked Bloom (FastLocalBloom) single lookup of an absent key, ns, at n = 10^6 (JMH
   * QueryBenchmark, docs/journal.md): a price for comparing policies, not a promise of any
   * machine's timing; {@code ./sieve report} measures the machine at hand.
   */
  public static final double BLOOM_NS_PER_PROBE = 11.0;

  /**
   * Standard128Ribbon single lookup of an absent key, ns, same run as {@link #BLOOM_NS_PER_PROBE}.
   */
  public static final double RIBBON_NS_PER_PROBE = 34.0;

  /** Where the two per-probe figures come from, printed with every what-if. */
  public static final String CPU_SOURCE =
      "Sieve's JMH QueryBenchmark, n=10^6, absent keys: blocked Bloom 11.0 ns, Ribbon 34.0 ns"
          + " per probe (ratio 3.09), for comparing policies, not a timing of this machine";

  /**
   * The CPU price of one filter probe of an absent key, per filter kind, and where the figures come
   * from.
   *
   * @param bloomNs a Bloom (FastLocalBloom, legacy) probe, ns
   * @param ribbonNs a Ribbon probe, ns
   * @param source where the two figures come from, printed with every what-if
   */
  public record ProbeCost(double bloomNs, double ribbonNs, String source) {
    /**
     * The library's own measurement ({@link #BLOOM_NS_PER_PROBE}, {@link #RIBBON_NS_PER_PROBE}).
     */
    public static final ProbeCost MEASURED =
        new ProbeCost(BLOOM_NS_PER_PROBE, RIBBON_NS_PER_PROBE, CPU_SOURCE);

    public ProbeCost {
      if (!(bloomNs > 0 && bloomNs < 1e9 && ribbonNs > 0 && ribbonNs < 1e9)) {
        throw new IllegalArgumentException(
            "per-probe times must be in (0, 1e9) ns, got Bloom "
                + bloomNs
                + ", Ribbon "
                + ribbonNs);
      }
      java.util.Objects.requireNonNull(source, "source");
    }

    /** Ribbon's per-probe time over Bloom's. */
    public double ratio() {
      return ribbonNs / bloomNs;
    }
  }

  /** The level value of a column family's totals row. */
  public static final int TOTAL = Integer.MAX_VALUE;

  /**
   * One column family's files on one level (or all its levels: {@link #TOTAL}).
   *
   * @param columnFamily the column family id ({@link DbView#UNKNOWN} after a directory scan)
   * @param columnFamilyName its name
   * @param level the level, {@link DbView#UNKNOWN}, or {@link #TOTAL}
   * @param files readable SST files
   * @param keys entries ({@code rocksdb.num.entries})
   * @param filterKeys filter entries (keys and/or prefixes added to the filters)
   * @param filterBytes filter bytes as {@code rocksdb.filter.size} counts them
   * @param filterBits the filters' bits (without metadata)
   * @param fpWeighted the sum of each file's modelled FPR times its filter keys
   * @param kinds filter kinds (fastlocalbloom, ribbon, legacy bloom, none…)
   * @param policies filter policy names ({@code rocksdb.filter.policy})
   * @param partitionedFiles files with partitioned filters
   * @param prefixFiles files whose filter holds prefixes only
   * @param wholeKeyFiles files whose filter holds whole keys
   * @param ribbonFiles files whose filter blocks are Ribbon
   * @param bloomFiles files whose filter blocks are Bloom (FastLocalBloom or legacy)
   */
  public record Row(
      int columnFamily,
      String columnFamilyName,
      int level,
      int files,
      long keys,
      long filterKeys,
      long filterBytes,
      long filterBits,
      double fpWeighted,
      TreeSet<String> kinds,
      TreeSet<String> policies,
      int partitionedFiles,
      int prefixFiles,
      int wholeKeyFiles,
      int ribbonFiles,
      int bloomFiles) {

    /** Filter bits per filter key (NaN without keys). */
    public double bitsPerKey() {
      return filterKeys == 0 ? Double.NaN : (double) filterBits / filterKeys;
    }

    /** The key-weighted modelled FPR of the filters (NaN without keys). */
    public double modelledFpRate() {
      return filterKeys == 0 ? Double.NaN : fpWeighted / filterKeys;
    }

    Row plus(Row o) {
      TreeSet<String> k = new TreeSet<>(kinds);
      k.addAll(o.kinds);
      TreeSet<String> p = new TreeSet<>(policies);
      p.addAll(o.policies);
      return new Row(
          columnFamily,
          columnFamilyName,
          level == o.level ? level : TOTAL,
          files + o.files,
          keys + o.keys,
          filterKeys + o.filterKeys,
          filterBytes + o.filterBytes,
          filterBits + o.filterBits,
          fpWeighted + o.fpWeighted,
          k,
          p,
          partitionedFiles + o.partitionedFiles,
          prefixFiles + o.prefixFiles,
          wholeKeyFiles + o.wholeKeyFiles,
          ribbonFiles + o.ribbonFiles,
          bloomFiles + o.bloomFiles);
    }
  }

  /**
   * One level under one policy.
   *
   * @param level the level
   * @param files SST files on it
   * @param filterKeys keys in its filters
   * @param probes filter probes per {@link #LOOKUPS} absent-key lookups
   * @param bytes filter memory
   * @param fpRate modelled FPR
   * @param falsePositiveProbes {@code probes × fpRate}
   * @param probeNs query CPU of the probes, ns
   */
  public record LevelCost(
      int level,
      int files,
      long filterKeys,
      long probes,
      long bytes,
      double fpRate,
      double falsePositiveProbes,
      double probeNs) {}

  /**
   * One policy over a column family.
   *
   * @param policy {@code current}, or RocksDB's policy string ({@code bloomfilter:10})
   * @param levels per level
   */
  public record PolicyCost(String policy, List<LevelCost> levels) {
    public long bytes() {
      return levels.stream().mapToLong(LevelCost::bytes).sum();
    }

    public double falsePositiveProbes() {
      return levels.stream().mapToDouble(LevelCost::falsePositiveProbes).sum();
    }

    public double probeNs() {
      return levels.stream().mapToDouble(LevelCost::probeNs).sum();
    }

    public long probes() {
      return levels.stream().mapToLong(LevelCost::probes).sum();
    }
  }

  /**
   * One column family's what-if.
   *
   * @param columnFamily its id
   * @param name its name
   * @param bitsPerKey the bloom-equivalent bits/key the alternatives use
   * @param bitsPerKeySource where it came from ("given", "from the Bloom filters", …)
   * @param bloomBeforeLevel the {@code bloom_before_level} of the {@code ribbonfilter:B:L} row
   * @param cost the per-probe CPU prices used
   * @param policies current, bloomfilter:B, ribbonfilter:B, ribbonfilter:B:L
   */
  public record WhatIf(
      int columnFamily,
      String name,
      double bitsPerKey,
      String bitsPerKeySource,
      int bloomBeforeLevel,
      ProbeCost cost,
      List<PolicyCost> policies) {}

  private DbFilterReport() {}

  /** The figures of one readable file as a row. */
  static Row row(DbView.Table t) {
    SstFile sst = t.sst();
    SstFilter f = sst.filter();
    FilterKind bk = f.blockKind();
    TreeSet<String> kinds = new TreeSet<>();
    kinds.add(bk.label());
    TreeSet<String> policies = new TreeSet<>();
    String pol = sst.properties().filterPolicy();
    if (!pol.isEmpty()) {
      policies.add(pol);
    }
    long fkeys = f.numKeys();
    double fpr = f.modelledFpRate();
    return new Row(
        t.columnFamily().id(),
        t.columnFamily().name(),
        t.level(),
        1,
        sst.properties().numEntries(),
        fkeys,
        f.filterBytes(),
        bk == FilterKind.NONE ? 0 : f.sizeInBits(),
        Double.isNaN(fpr) ? 0 : fpr * fkeys,
        kinds,
        policies,
        f.isPartitioned() ? 1 : 0,
        f.isPrefixFilter() ? 1 : 0,
        f.isWholeKeyFilter() ? 1 : 0,
        bk.filterType() == FilterType.RIBBON ? 1 : 0,
        bk.isBloom() ? 1 : 0);
  }

  /**
   * Rows per column family and level, each column family followed by its totals row ({@link
   * #TOTAL}), in column family id and level order. Unreadable files are left out.
   */
  public static List<Row> summarize(DbView db) {
    Map<Integer, Map<Integer, Row>> by = new TreeMap<>();
    for (DbView.Table t : db.tables()) {
      if (t.sst() == null) {
        continue;
      }
      Row r = row(t);
      by.computeIfAbsent(r.columnFamily(), k -> new TreeMap<>()).merge(r.level(), r, Row::plus);
    }
    List<Row> out = new ArrayList<>();
    for (Map<Integer, Row> levels : by.values()) {
      Row total = null;
      for (Row r : levels.values()) {
        out.add(r);
        total = total == null ? r : total.plus(r);
      }
      out.add(total.plus(emptyLike(total)));
    }
    return out;
  }

  /**
   * The whole database's totals (every column family's totals row summed; column family {@link
   * DbView#UNKNOWN}, name "*", level {@link #TOTAL}), or {@code null} without a readable file.
   */
  public static Row databaseTotal(List<Row> rows) {
    Row total = null;
    for (Row r : rows) {
      if (r.level() == TOTAL) {
        Row named =
            new Row(
                DbView.UNKNOWN,
                "*",
                TOTAL,
                r.files(),
                r.keys(),
                r.filterKeys(),
                r.filterBytes(),
                r.filterBits(),
                r.fpWeighted(),
                r.kinds(),
                r.policies(),
                r.partitionedFiles(),
                r.prefixFiles(),
                r.wholeKeyFiles(),
                r.ribbonFiles(),
                r.bloomFiles());
        total = total == null ? named : total.plus(named);
      }
    }
    return total;
  }

  private static Row emptyLike(Row r) {
    return new Row(
        r.columnFamily(),
        r.columnFamilyName(),
        TOTAL,
        0,
        0,
        0,
        0,
        0,
        0,
        new TreeSet<>(),
        new TreeSet<>(),
        0,
        0,
        0,
        0,
        0);
  }

  /**
   * The what-if of every column family of a MANIFEST-read database.
   *
   * @param bitsPerKey the bloom-equivalent bits/key of the alternatives, or NaN for the one in use
   * @param bloomBeforeLevel the {@code L} of {@code ribbonfilter:B:L}, or {@code null} for the one
   *     in use (the first level holding Ribbon filters) or 2 where no Ribbon filter is in use
   */
  public static List<WhatIf> whatIf(DbView db, double bitsPerKey, Integer bloomBeforeLevel) {
    return whatIf(db, bitsPerKey, bloomBeforeLevel, ProbeCost.MEASURED);
  }

  /** {@link #whatIf(DbView, double, Integer)} with the given per-probe CPU prices. */
  public static List<WhatIf> whatIf(
      DbView db, double bitsPerKey, Integer bloomBeforeLevel, ProbeCost cost) {
    return WhatIfModel.whatIf(db, bitsPerKey, bloomBeforeLevel, cost);
  }
}
