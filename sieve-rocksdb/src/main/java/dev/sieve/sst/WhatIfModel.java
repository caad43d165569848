package dev.sieve.sst;

import static dev.sieve.sst.DbFilterReport.LOOKUPS;
import static dev.sieve.sst.DbFilterReport.TOTAL;

import dev.sieve.policy.FilterPolicy;
import dev.sieve.policy.LsmFilterReport;
import dev.sieve.policy.LsmShape;
import dev.sieve.registry.FilterType;
import dev.sieve.ribbon.RibbonSizing;
import dev.sieve.sst.DbFilterReport.LevelCost;
import dev.sieve.sst.DbFilterReport.PolicyCost;
import dev.sieve.sst.DbFilterReport.ProbeCost;
import dev.sieve.sst.DbFilterReport.Row;
import dev.sieve.sst.DbFilterReport.WhatIf;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The what-if of {@link DbFilterReport}: what other filter policies would cost on a database's real
 * tree.
 *
 * <h2>The what-if model</h2>
 *
 * For each column family and level with files: its filter keys ({@code rocksdb.num.filter_entries}
 * summed) and its file count give an {@link LsmShape} with that level alone and its mean keys per
 * filter; the policy's report gives bytes and FPR. Probes are counted per {@link
 * DbFilterReport#LOOKUPS} point lookups of absent keys, each probing every L0 file's filter and one
 * filter on every deeper non-empty level (an absent key inside every level's key range: the worst
 * case, and the case filters are for). Expected false-positive probes are {@code probes × FPR}.
 * Query CPU is priced with {@link DbFilterReport#BLOOM_NS_PER_PROBE} and {@link
 * DbFilterReport#RIBBON_NS_PER_PROBE}, the library's own measured single-lookup times of absent
 * keys. The policy models assume {@code optimize_filters_for_memory=false}; RocksDB's default
 * (true) makes real Bloom filters a few percent larger, so "current" bytes (read from the files)
 * and the {@code bloomfilter:B} row differ by that much even when the policy is the same.
 */
final class WhatIfModel {
  private WhatIfModel() {}

  /** Rows of one column family (without its totals row), by level. */
  private static Map<Integer, Row> levelsOf(List<Row> rows, int cf) {
    Map<Integer, Row> m = new LinkedHashMap<>();
    for (Row r : rows) {
      if (r.columnFamily() == cf && r.level() != TOTAL) {
        m.put(r.level(), r);
      }
    }
    return m;
  }

  /**
   * RocksDB's sanitizing of a bits/key setting ({@code BloomLikeFilterPolicy}'s constructor,
   * table/block_based/filter_policy.cc): below 0.5 no filter (returned as 0), below 1 one bit, 100
   * and above (and NaN) 100.
   */
  static double rocksDbClampBitsPerKey(double bits) {
    if (bits < 0.5) {
      return 0;
    }
    if (bits < 1.0) {
      return 1.0;
    }
    return bits < 100.0 ? bits : 100.0;
  }

  /**
   * The bloom-equivalent bits/key in use in a column family, by key weight over its filters: the
   * Bloom filters' total bits over their total keys, rounded to an integer (RocksDB settings are
   * usually integers; {@code optimize_filters_for_memory} adds a fraction) and clamped as RocksDB
   * clamps a setting ({@link #rocksDbClampBitsPerKey}: a lone filter of one key is a whole 512-bit
   * cache line, 512 bits/key, which no setting gives), else the integer whose Bloom FPR is nearest
   * the Ribbon filters' modelled FPR (Ribbon is sized to Bloom's FPR at the setting), else 10. The
   * what-if prefers the OPTIONS file's setting where there is one ({@link
   * RocksDbOptions#optionsFilterPolicies}).
   */
  static double[] bitsPerKeyInUse(DbView db, int cf) {
    long bloomBits = 0;
    long bloomKeys = 0;
    double ribbonFp = 0;
    long ribbonKeys = 0;
    for (DbView.Table t : db.tables()) {
      if (t.sst() == null || t.columnFamily().id() != cf) {
        continue;
      }
      SstFilter f = t.sst().filter();
      FilterKind k = f.blockKind();
      if (k.isBloom()) {
        bloomBits += f.sizeInBits();
        bloomKeys += f.numKeys();
      } else if (k.filterType() == FilterType.RIBBON) {
        ribbonFp += f.modelledFpRate() * f.numKeys();
        ribbonKeys += f.numKeys();
      }
    }
    if (bloomKeys > 0) {
      return new double[] {
        rocksDbClampBitsPerKey((double) Math.max(1, Math.round((double) bloomBits / bloomKeys))), 1
      };
    }
    if (ribbonKeys > 0 && ribbonFp > 0) {
      double target = Math.log(ribbonKeys / ribbonFp);
      double best = 10;
      double bestErr = Double.POSITIVE_INFINITY;
      for (int b = 1; b <= 100; b++) {
        double err = Math.abs(Math.log(RibbonSizing.oneInFpRateForBloomBitsPerKey(b)) - target);
        if (err < bestErr) {
          bestErr = err;
          best = b;
        }
      }
      return new double[] {best, 2};
    }
    return new double[] {10, 0};
  }

  /** The what-if of every column family: {@link DbFilterReport#whatIf(DbView, double, Integer)}. */
  static List<WhatIf> whatIf(
      DbView db, double bitsPerKey, Integer bloomBeforeLevel, ProbeCost cost) {
    List<Row> rows = DbFilterReport.summarize(db);
    List<WhatIf> out = new ArrayList<>();
    Map<String, String> configured =
        Double.isNaN(bitsPerKey) ? RocksDbOptions.optionsFilterPolicies(db.dir()) : Map.of();
    for (Row total : rows) {
      if (total.level() != TOTAL || total.columnFamily() == DbView.UNKNOWN) {
        continue;
      }
      int cf = total.columnFamily();
      Map<Integer, Row> levels = levelsOf(rows, cf);
      double b;
      String src;
      String policy = configured.get(total.columnFamilyName());
      double fromOptions =
          policy == null ? Double.NaN : rocksDbClampBitsPerKey(RocksDbOptions.policyBits(policy));
      if (Double.isNaN(bitsPerKey) && fromOptions > 0) {
        b = fromOptions;
        src = "in use: " + configured.get("") + "'s filter_policy=" + policy;
      } else if (Double.isNaN(bitsPerKey)) {
        double[] use = bitsPerKeyInUse(db, cf);
        b = use[0];
        src =
            use[1] == 1
                ? "in use: the Bloom filters' bits/key, rounded"
                : use[1] == 2
                    ? "in use: the bits/key whose Bloom FPR the Ribbon filters have"
                    : "no filter in use; default 10";
      } else {
        b = bitsPerKey;
        src = "given";
      }
      int l;
      int configuredLevel = policy == null ? -2 : RocksDbOptions.policyBloomBeforeLevel(policy);
      if (bloomBeforeLevel != null) {
        l = bloomBeforeLevel;
      } else if (configuredLevel != -2) {
        l = configuredLevel;
      } else {
        int first = -2;
        for (Row r : levels.values()) {
          if (r.ribbonFiles() > 0) {
            first = r.level() == 0 ? FilterPolicy.ALWAYS_RIBBON : r.level();
            break;
          }
        }
        l = first == -2 ? 2 : first;
      }
      List<PolicyCost> policies = new ArrayList<>();
      policies.add(current(levels, cost));
      policies.add(policy(levels, "bloomfilter:" + fmt(b), FilterPolicy.bloom(b), cost));
      policies.add(policy(levels, "ribbonfilter:" + fmt(b), FilterPolicy.ribbon(b), cost));
      policies.add(
          policy(levels, "ribbonfilter:" + fmt(b) + ":" + l, FilterPolicy.ribbon(b, l), cost));
      out.add(new WhatIf(cf, total.columnFamilyName(), b, src, l, cost, policies));
    }
    return out;
  }

  private static String fmt(double b) {
    return b == Math.rint(b) ? Long.toString((long) b) : Double.toString(b);
  }

  /**
   * Probes per {@link DbFilterReport#LOOKUPS} lookups: every L0 file's filter, one filter per
   * deeper level.
   */
  private static long probes(Row r) {
    return r.level() == 0 ? LOOKUPS * r.files() : LOOKUPS;
  }

  private static PolicyCost current(Map<Integer, Row> levels, ProbeCost cost) {
    List<LevelCost> out = new ArrayList<>();
    for (Row r : levels.values()) {
      long probes = probes(r);
      double fpr = r.filterKeys() == 0 ? 1.0 : r.modelledFpRate();
      // L0: every file probed; deeper: one file, its kind in proportion to the level's files
      double perFile = r.bloomFiles() * cost.bloomNs() + r.ribbonFiles() * cost.ribbonNs();
      double ns = r.level() == 0 ? LOOKUPS * perFile : LOOKUPS * perFile / r.files();
      out.add(
          new LevelCost(
              r.level(),
              r.files(),
              r.filterKeys(),
              probes,
              r.filterBytes(),
              fpr,
              probes * fpr,
              ns));
    }
    return new PolicyCost("current", out);
  }

  private static PolicyCost policy(
      Map<Integer, Row> levels, String name, FilterPolicy p, ProbeCost cost) {
    List<LevelCost> out = new ArrayList<>();
    for (Row r : levels.values()) {
      long probes = probes(r);
      if (r.filterKeys() == 0 || r.level() < 0) {
        out.add(new LevelCost(r.level(), r.files(), 0, probes, 0, 1.0, probes, 0));
        continue;
      }
      long[] keys = new long[r.level() + 1];
      long[] pr = new long[r.level() + 1];
      keys[r.level()] = r.filterKeys();
      pr[r.level()] = probes;
      long perFilter = Math.max(1, Math.round((double) r.filterKeys() / r.files()));
      LsmFilterReport.Level lv =
          p.report(new LsmShape(keys, pr, perFilter)).levels().get(r.level());
      double ns = probes * (lv.type() == FilterType.RIBBON ? cost.ribbonNs() : cost.bloomNs());
      out.add(
          new LevelCost(
              r.level(),
              r.files(),
              r.filterKeys(),
              probes,
              lv.bytes(),
              lv.fpRate(),
              lv.expectedFalsePositiveProbes(),
              ns));
    }
    return new PolicyCost(name, out);
  }
}
