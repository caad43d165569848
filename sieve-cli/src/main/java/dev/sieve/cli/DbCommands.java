package dev.sieve.cli;

import dev.sieve.console.ProgressBar;
import dev.sieve.sst.DbFilterReport;
import dev.sieve.sst.DbView;
import dev.sieve.sst.Manifest;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import picocli.CommandLine;

/**
 * {@code inspect DBDIR} and {@code query DBDIR KEY...}: a whole RocksDB database in one view, per
 * column family and level, with the what-if of other filter policies (the per-key answers of {@code
 * query} are {@link DbQuery}'s). The JSON schema is documented in docs/db-view.md.
 */
final class DbCommands {
  private DbCommands() {}

  /** The default number of files read at once. */
  static int defaultThreads() {
    return Math.max(1, Math.min(8, Runtime.getRuntime().availableProcessors()));
  }

  /**
   * Opens the database, with a progress bar on a console; prints the one-line error if it fails.
   */
  static DbView open(CommandLine cmd, String command, Path dir, int threads, boolean verify) {
    // silent unless a console is attached and the total is large
    ProgressBar bar =
        ProgressBar.counter(System.err, "reading " + dir.getFileName(), System.console() != null);
    try {
      return DbView.open(dir, threads, verify, bar::update);
    } catch (Exception e) {
      SstCliSupport.badFile(cmd.getErr(), command, dir.toString(), e);
      return null;
    } finally {
      bar.finish();
    }
  }

  /**
   * Prints one line per unreadable file on stderr (for {@code query}, saying that its keys answered
   * maybe); returns the exit status (0 or 1).
   */
  static int reportErrors(CommandLine cmd, String command, DbView db) {
    for (DbView.Table t : db.errors()) {
      cmd.getErr()
          .println(
              "sieve "
                  + command
                  + ": "
                  + t.path()
                  + ": "
                  + t.error()
                  + (command.equals("query")
                      ? " (unreadable: the keys it may hold answered maybe)"
                      : ""));
    }
    cmd.getErr().flush();
    return db.errors().isEmpty() ? 0 : SstCliSupport.BAD_FILE;
  }

  // ---------------------------------------------------------------- inspect

  static int inspect(
      CommandLine cmd,
      Path dir,
      boolean json,
      double bitsPerKey,
      Integer bloomBeforeLevel,
      int threads,
      boolean verify,
      Path cpuFrom) {
    DbFilterReport.ProbeCost cost = DbFilterReport.ProbeCost.MEASURED;
    if (cpuFrom != null) {
      try {
        cost = ReportProbeCost.read(cpuFrom);
      } catch (Exception e) {
        return SstCliSupport.badFile(cmd.getErr(), "inspect", cpuFrom.toString(), e);
      }
    }
    long start = System.nanoTime();
    DbView db = open(cmd, "inspect", dir, threads, verify);
    if (db == null) {
      return SstCliSupport.BAD_FILE;
    }
    double seconds = (System.nanoTime() - start) / 1e9;
    List<DbFilterReport.Row> rows = DbFilterReport.summarize(db);
    List<DbFilterReport.WhatIf> whatIfs =
        db.source() == DbView.Source.MANIFEST
            ? DbFilterReport.whatIf(db, bitsPerKey, bloomBeforeLevel, cost)
            : List.of();
    PrintWriter out = cmd.getOut();
    if (json) {
      out.println(DbJson.json(db, rows, whatIfs));
    } else {
      human(out, db, rows, whatIfs, seconds);
    }
    out.flush();
    return reportErrors(cmd, "inspect", db);
  }

  private static String sourceLine(DbView db) {
    if (db.source() == DbView.Source.MANIFEST) {
      Manifest m = db.manifest();
      return m.manifestName()
          + " (through CURRENT, "
          + m.edits()
          + " edits)"
          + (m.note() == null ? "" : "; note: " + m.note());
    }
    return "no CURRENT file: a directory scan of *.sst (column families and levels unknown)";
  }

  static String levelName(int level) {
    if (level == DbFilterReport.TOTAL) {
      return "total";
    }
    return level == DbView.UNKNOWN ? "?" : "L" + level;
  }

  private static String pct(double p) {
    return Figures.percent(p);
  }

  private static void human(
      PrintWriter out,
      DbView db,
      List<DbFilterReport.Row> rows,
      List<DbFilterReport.WhatIf> whatIfs,
      double seconds) {
    int readable = db.tables().size() - db.errors().size();
    out.printf(
        Locale.ROOT,
        "database %s: %s%n%d live SST files (%d read, %d unreadable) in %.2f s%n",
        db.dir(),
        sourceLine(db),
        db.tables().size(),
        readable,
        db.errors().size(),
        seconds);
    verifyLine(db).ifPresent(out::println);
    Map<Integer, Manifest.ColumnFamily> cfs =
        db.manifest() == null ? Map.of() : db.manifest().columnFamilies();
    String header =
        String.format(
            Locale.ROOT,
            "  %-6s %6s %12s %12s %12s %9s %11s %6s %-9s %s",
            "level",
            "files",
            "keys",
            "filter keys",
            "filter bytes",
            "bits/key",
            "model FPR",
            "part.",
            "keys as",
            "filter kind (policy)");
    int lastCf = Integer.MIN_VALUE;
    for (DbFilterReport.Row r : rows) {
      if (r.columnFamily() != lastCf) {
        lastCf = r.columnFamily();
        Manifest.ColumnFamily cf = cfs.get(r.columnFamily());
        out.printf(
            Locale.ROOT,
            "%ncolumn family '%s' (id %s)%s%n%s%n",
            r.columnFamilyName(),
            r.columnFamily() == DbView.UNKNOWN ? "?" : Integer.toString(r.columnFamily()),
            cf == null || cf.comparator() == null ? "" : ", comparator " + cf.comparator(),
            header);
      }
      out.printf(
          Locale.ROOT,
          "  %-6s %6d %12d %12d %12d %9s %11s %6s %-9s %s (%s)%n",
          levelName(r.level()),
          r.files(),
          r.keys(),
          r.filterKeys(),
          r.filterBytes(),
          Figures.bitsPerKey(r.bitsPerKey()),
          pct(r.modelledFpRate()),
          r.partitionedFiles() + "/" + r.files(),
          keysAs(r),
          String.join(",", r.kinds()),
          r.policies().isEmpty() ? "no policy" : String.join(",", r.policies()));
    }
    DbFilterReport.Row all = DbFilterReport.databaseTotal(rows);
    if (all == null) {
      out.println("(no readable SST file)");
    } else {
      out.printf(
          Locale.ROOT,
          "%nall column families: %d files, %d keys, %d filter keys, %d filter bytes, %s bits/key,"
              + " model FPR %s%n",
          all.files(),
          all.keys(),
          all.filterKeys(),
          all.filterBytes(),
          Figures.bitsPerKey(all.bitsPerKey()),
          pct(all.modelledFpRate()));
    }
    for (DbFilterReport.WhatIf w : whatIfs) {
      out.printf(
          Locale.ROOT,
          "%nwhat-if, column family '%s': bits/key %s (%s), probes per %,d absent-key lookups"
              + " (every L0 file, one file per deeper level)%n",
          w.name(),
          fmt(w.bitsPerKey()),
          w.bitsPerKeySource(),
          DbFilterReport.LOOKUPS);
      out.printf(
          Locale.ROOT,
          "  %-20s %-6s %14s %11s %14s %14s%n",
          "policy",
          "level",
          "filter bytes",
          "model FPR",
          "FP probes",
          "probe CPU ms");
      long currentBytes = w.policies().get(0).bytes();
      for (DbFilterReport.PolicyCost p : w.policies()) {
        for (DbFilterReport.LevelCost l : p.levels()) {
          out.printf(
              Locale.ROOT,
              "  %-20s %-6s %14d %11s %14.1f %14.2f%n",
              p.policy(),
              levelName(l.level()),
              l.bytes(),
              pct(l.fpRate()),
              l.falsePositiveProbes(),
              l.probeNs() / 1e6);
        }
        out.printf(
            Locale.ROOT,
            "  %-20s %-6s %14d %11s %14.1f %14.2f   bytes %s vs current%n",
            p.policy(),
            "total",
            p.bytes(),
            "",
            p.falsePositiveProbes(),
            p.probeNs() / 1e6,
            currentBytes == 0
                ? "-"
                : String.format(
                    Locale.ROOT, "%+.1f%%", 100.0 * (p.bytes() - currentBytes) / currentBytes));
      }
    }
    if (!whatIfs.isEmpty()) {
      out.println();
      out.println("probe CPU priced with " + whatIfs.get(0).cost().source());
      out.println(
          "what-if sizes assume optimize_filters_for_memory=false (RocksDB's default true makes"
              + " Bloom filters a few percent larger than modelled)");
    }
  }

  /** "N blocks verified in M files (...)", if the files were verified. */
  private static java.util.Optional<String> verifyLine(DbView db) {
    long files = 0;
    long blocks = 0;
    long data = 0;
    long partial = 0;
    for (DbView.Table t : db.tables()) {
      if (t.verified() != null) {
        files++;
        blocks += t.verified().blocks();
        data += t.verified().dataBlocks();
        partial += t.verified().note() == null ? 0 : 1;
      }
    }
    if (files == 0) {
      return java.util.Optional.empty();
    }
    return java.util.Optional.of(
        String.format(
            Locale.ROOT,
            "checksums verified: %d blocks (%d data blocks) in %d files%s",
            blocks,
            data,
            files,
            partial == 0
                ? ", every block"
                : "; in "
                    + partial
                    + " files the data blocks were not reached (an index Sieve cannot decode:"
                    + " inspect FILE.sst --verify says why)"));
  }

  private static String keysAs(DbFilterReport.Row r) {
    if (r.prefixFiles() == 0) {
      return "whole";
    }
    if (r.prefixFiles() == r.files()) {
      return "prefix";
    }
    return r.prefixFiles() + " prefix";
  }

  private static String fmt(double b) {
    return b == Math.rint(b) ? Long.toString((long) b) : Double.toString(b);
  }
}
