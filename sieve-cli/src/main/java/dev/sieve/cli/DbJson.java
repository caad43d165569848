package dev.sieve.cli;

import dev.sieve.sst.DbFilterReport;
import dev.sieve.sst.DbView;
import dev.sieve.sst.Manifest;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The JSON form of {@code inspect DBDIR --json}: the database, its tables, the rows per column
 * family and level, the what-if of other filter policies and the unreadable files, as
 * docs/db-view.md documents the schema.
 */
final class DbJson {
  private DbJson() {}

  static String json(
      DbView db, List<DbFilterReport.Row> rows, List<DbFilterReport.WhatIf> whatIfs) {
    StringBuilder b = new StringBuilder("{");
    b.append("\"database\": ").append(SstCliSupport.jsonString(db.dir().toString()));
    b.append(", \"source\": ")
        .append(
            SstCliSupport.jsonString(
                db.source() == DbView.Source.MANIFEST ? "manifest" : "directory_scan"));
    b.append(", \"manifest\": ")
        .append(
            SstCliSupport.jsonString(db.manifest() == null ? null : db.manifest().manifestName()));
    b.append(", \"note\": ")
        .append(SstCliSupport.jsonString(db.manifest() == null ? null : db.manifest().note()));
    b.append(", \"files\": ").append(db.tables().size());
    long vFiles = 0;
    long vBlocks = 0;
    long vUnreached = 0;
    for (DbView.Table t : db.tables()) {
      if (t.verified() != null) {
        vFiles++;
        vBlocks += t.verified().blocks();
        vUnreached += t.verified().note() == null ? 0 : 1;
      }
    }
    b.append(", \"verified\": ");
    if (vFiles == 0) {
      b.append("null");
    } else {
      b.append("{\"files\": ").append(vFiles).append(", \"blocks\": ").append(vBlocks);
      b.append(", \"files_with_data_blocks_unreached\": ").append(vUnreached).append('}');
    }
    b.append(", \"column_families\": [");
    Map<Integer, List<DbFilterReport.Row>> byCf = new TreeMap<>();
    for (DbFilterReport.Row r : rows) {
      byCf.computeIfAbsent(r.columnFamily(), k -> new ArrayList<>()).add(r);
    }
    Map<Integer, Manifest.ColumnFamily> cfs =
        db.manifest() == null ? Map.of() : db.manifest().columnFamilies();
    boolean firstCf = true;
    for (Map.Entry<Integer, List<DbFilterReport.Row>> e : byCf.entrySet()) {
      b.append(firstCf ? "" : ", ");
      firstCf = false;
      List<DbFilterReport.Row> cfRows = e.getValue();
      DbFilterReport.Row total = cfRows.get(cfRows.size() - 1);
      Manifest.ColumnFamily cf = cfs.get(e.getKey());
      b.append("{\"id\": ")
          .append(e.getKey() == DbView.UNKNOWN ? "null" : Integer.toString(e.getKey()));
      b.append(", \"name\": ")
          .append(
              SstCliSupport.jsonString(
                  e.getKey() == DbView.UNKNOWN ? null : total.columnFamilyName()));
      b.append(", \"comparator\": ")
          .append(SstCliSupport.jsonString(cf == null ? null : cf.comparator()));
      b.append(", \"levels\": [");
      for (int i = 0; i < cfRows.size() - 1; i++) {
        b.append(i == 0 ? "" : ", ");
        row(b, cfRows.get(i));
      }
      b.append("], \"total\": ");
      row(b, total);
      b.append(", \"what_if\": ");
      DbFilterReport.WhatIf w = null;
      for (DbFilterReport.WhatIf x : whatIfs) {
        if (x.columnFamily() == e.getKey()) {
          w = x;
        }
      }
      if (w == null) {
        b.append("null");
      } else {
        whatIf(b, w);
      }
      b.append('}');
    }
    b.append("], \"total\": ");
    DbFilterReport.Row all = DbFilterReport.databaseTotal(rows);
    if (all == null) {
      b.append("null");
    } else {
      row(b, all);
    }
    b.append(", \"errors\": [");
    boolean first = true;
    for (DbView.Table t : db.errors()) {
      b.append(first ? "" : ", ");
      first = false;
      b.append("{\"file\": ").append(SstCliSupport.jsonString(t.path().toString()));
      b.append(", \"column_family\": ")
          .append(t.columnFamily().id() == DbView.UNKNOWN ? "null" : t.columnFamily().id());
      b.append(", \"level\": ").append(t.level() == DbView.UNKNOWN ? "null" : t.level());
      b.append(", \"error\": ").append(SstCliSupport.jsonString(t.error())).append('}');
    }
    return b.append("]}").toString();
  }

  private static void row(StringBuilder b, DbFilterReport.Row r) {
    b.append("{\"level\": ")
        .append(
            r.level() == DbFilterReport.TOTAL || r.level() == DbView.UNKNOWN
                ? "null"
                : Integer.toString(r.level()));
    b.append(", \"files\": ").append(r.files());
    b.append(", \"keys\": ").append(r.keys());
    b.append(", \"filter_keys\": ").append(r.filterKeys());
    b.append(", \"filter_bytes\": ").append(r.filterBytes());
    b.append(", \"bits_per_key\": ").append(SstCliSupport.jsonNumber(r.bitsPerKey()));
    b.append(", \"modelled_fpr\": ").append(SstCliSupport.jsonNumber(r.modelledFpRate()));
    b.append(", \"filter_kinds\": ").append(stringArray(r.kinds()));
    b.append(", \"filter_policies\": ").append(stringArray(r.policies()));
    b.append(", \"partitioned_files\": ").append(r.partitionedFiles());
    b.append(", \"prefix_files\": ").append(r.prefixFiles());
    b.append(", \"whole_key_files\": ").append(r.wholeKeyFiles());
    b.append(", \"ribbon_files\": ").append(r.ribbonFiles());
    b.append('}');
  }

  private static String stringArray(Iterable<String> xs) {
    StringBuilder b = new StringBuilder("[");
    boolean first = true;
    for (String x : xs) {
      b.append(first ? "" : ", ").append(SstCliSupport.jsonString(x));
      first = false;
    }
    return b.append(']').toString();
  }

  private static void whatIf(StringBuilder b, DbFilterReport.WhatIf w) {
    b.append("{\"bits_per_key\": ").append(SstCliSupport.jsonNumber(w.bitsPerKey()));
    b.append(", \"bits_per_key_source\": ").append(SstCliSupport.jsonString(w.bitsPerKeySource()));
    b.append(", \"bloom_before_level\": ").append(w.bloomBeforeLevel());
    b.append(", \"lookups\": ").append(DbFilterReport.LOOKUPS);
    b.append(", \"bloom_ns_per_probe\": ").append(SstCliSupport.jsonNumber(w.cost().bloomNs()));
    b.append(", \"ribbon_ns_per_probe\": ").append(SstCliSupport.jsonNumber(w.cost().ribbonNs()));
    b.append(", \"cpu_source\": ").append(SstCliSupport.jsonString(w.cost().source()));
    b.append(", \"policies\": [");
    boolean first = true;
    for (DbFilterReport.PolicyCost p : w.policies()) {
      b.append(first ? "" : ", ");
      first = false;
      b.append("{\"policy\": ").append(SstCliSupport.jsonString(p.policy()));
      b.append(", \"bytes\": ").append(p.bytes());
      b.append(", \"probes\": ").append(p.probes());
      b.append(", \"false_positive_probes\": ")
          .append(SstCliSupport.jsonNumber(p.falsePositiveProbes()));
      b.append(", \"probe_ns\": ").append(SstCliSupport.jsonNumber(p.probeNs()));
      b.append(", \"levels\": [");
      boolean fl = true;
      for (DbFilterReport.LevelCost l : p.levels()) {
        b.append(fl ? "" : ", ");
        fl = false;
        b.append("{\"level\": ").append(l.level());
        b.append(", \"files\": ").append(l.files());
        b.append(", \"filter_keys\": ").append(l.filterKeys());
        b.append(", \"probes\": ").append(l.probes());
        b.append(", \"bytes\": ").append(l.bytes());
        b.append(", \"fpr\": ").append(SstCliSupport.jsonNumber(l.fpRate()));
        b.append(", \"false_positive_probes\": ")
            .append(SstCliSupport.jsonNumber(l.falsePositiveProbes()));
        b.append(", \"probe_ns\": ").append(SstCliSupport.jsonNumber(l.probeNs()));
        b.append('}');
      }
      b.append("]}");
    }
    b.append("]}");
  }
}
