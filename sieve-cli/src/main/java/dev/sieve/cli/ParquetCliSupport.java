package dev.sieve.cli;

import dev.sieve.bloom.SplitBlockBloomFilter;
import dev.sieve.parquet.ParquetFile;
import dev.sieve.parquet.ParquetValues;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import picocli.CommandLine;

/**
 * {@code sieve inspect FILE.parquet} and {@code sieve query FILE.parquet COLUMN VALUE...}: the
 * split-block Bloom filters of a Parquet file ({@link ParquetFile}). {@code InspectCommand} and
 * {@code QueryCommand} hand a file over when it starts with {@code PAR1}.
 */
final class ParquetCliSupport {
  private ParquetCliSupport() {}

  /** Whether {@code file} is a regular file that starts with Parquet's magic {@code PAR1}. */
  static boolean isParquet(Path file) {
    return InputKind.isParquet(file);
  }

  /** One chunk's line of the inspect report. */
  private record Row(
      ParquetFile.ColumnChunk chunk, long filterBytes, double fprAtBound, double estimate) {}

  static int inspect(CommandLine cmd, Path file, boolean json) {
    ParquetFile pf;
    List<Row> rows = new ArrayList<>();
    long size;
    try {
      size = Files.size(file);
      pf = ParquetFile.open(file);
      for (ParquetFile.ColumnChunk c : pf.chunks()) {
        ParquetFile.BloomFilter bf = pf.bloomFilter(c);
        if (bf == null) {
          rows.add(new Row(c, -1, Double.NaN, Double.NaN));
        } else {
          SplitBlockBloomFilter f = bf.filter();
          rows.add(new Row(c, f.sizeInBytes(), f.modelledFpRate(), f.approximateElementCount()));
        }
      }
    } catch (Exception e) {
      return SstCliSupport.badFile(cmd.getErr(), "inspect", file.toString(), e);
    }
    PrintWriter out = cmd.getOut();
    long withFilter = rows.stream().filter(r -> r.filterBytes() >= 0).count();
    if (json) {
      StringBuilder b = new StringBuilder("{");
      b.append("\"format\": \"parquet\", \"file_size\": ").append(size);
      b.append(", \"row_groups\": ").append(pf.numRowGroups());
      b.append(", \"columns\": ").append(pf.columns().size());
      b.append(", \"column_chunks\": ").append(rows.size());
      b.append(", \"bloom_filters\": ").append(withFilter);
      b.append(", \"chunks\": [");
      for (int i = 0; i < rows.size(); i++) {
        Row r = rows.get(i);
        ParquetFile.ColumnChunk c = r.chunk();
        b.append(i == 0 ? "" : ", ").append('{');
        b.append("\"column\": ").append(SstCliSupport.jsonString(c.column().dottedPath()));
        b.append(", \"row_group\": ").append(c.rowGroup());
        b.append(", \"physical_type\": ")
            .append(SstCliSupport.jsonString(c.column().type().name()));
        b.append(", \"annotation\": ").append(SstCliSupport.jsonString(c.column().annotation()));
        b.append(", \"num_values\": ").append(c.numValues());
        b.append(", \"null_count\": ").append(c.nullCount() < 0 ? "null" : c.nullCount());
        b.append(", \"distinct_count\": ")
            .append(c.distinctCount() < 0 ? "null" : c.distinctCount());
        if (r.filterBytes() < 0) {
          b.append(", \"bloom_filter\": false");
        } else {
          b.append(", \"bloom_filter\": true");
          b.append(", \"filter_bytes\": ").append(r.filterBytes());
          b.append(", \"filter_offset\": ").append(c.bloomFilterOffset());
          b.append(", \"modelled_fpr\": ").append(SstCliSupport.jsonNumber(r.fprAtBound()));
          b.append(", \"modelled_fpr_at\": ").append(c.distinctUpperBound());
          b.append(", \"modelled_fpr_basis\": ").append(SstCliSupport.jsonString(basis(c)));
          b.append(", \"distinct_estimated_from_bits\": ")
              .append(SstCliSupport.jsonNumber(Math.rint(r.estimate())));
        }
        b.append('}');
      }
      out.println(b.append("]}"));
      out.flush();
      return 0;
    }
    out.printf(Locale.ROOT, "%-22s %s%n", "format:", "parquet (split-block Bloom filters)");
    out.printf(Locale.ROOT, "%-22s %d%n", "file size:", size);
    out.printf(Locale.ROOT, "%-22s %d%n", "row groups:", pf.numRowGroups());
    out.printf(
        Locale.ROOT,
        "%-22s %d (%d column chunks, %d with a Bloom filter)%n",
        "columns:",
        pf.columns().size(),
        rows.size(),
        withFilter);
    out.println(
        "modelled FPR: at the chunk's distinct count where the file stores one; else at its"
            + " non-null values, an upper bound on the distinct count (shown as <=); 'est' is the"
            + " distinct count estimated from the filter's set bits");
    out.printf(
        Locale.ROOT,
        "%-20s %5s %-22s %10s %12s %10s %-16s %10s%n",
        "column",
        "rg",
        "type",
        "values",
        "filter bytes",
        "bits/value",
        "modelled FPR",
        "est");
    for (Row r : rows) {
      ParquetFile.ColumnChunk c = r.chunk();
      String type =
          c.column().type()
              + (c.column().annotation() != null ? " " + c.column().annotation() : "");
      if (r.filterBytes() < 0) {
        out.printf(
            Locale.ROOT,
            "%-20s %5d %-22s %10d %12s %10s %-16s %10s%n",
            c.column().dottedPath(),
            c.rowGroup(),
            type,
            c.numValues(),
            "none",
            "-",
            "-",
            "-");
        continue;
      }
      long at = c.distinctUpperBound();
      String fpr =
          at <= 0
              ? "0 (no values)"
              : (c.distinctCount() >= 0 ? "" : "<= ") + percent(r.fprAtBound());
      out.printf(
          Locale.ROOT,
          "%-20s %5d %-22s %10d %12d %10s %-16s %10.0f%n",
          c.column().dottedPath(),
          c.rowGroup(),
          type,
          c.numValues(),
          r.filterBytes(),
          at <= 0 ? "-" : String.format(Locale.ROOT, "%.2f", 8.0 * r.filterBytes() / at),
          fpr,
          r.estimate());
    }
    out.flush();
    return 0;
  }

  private static String basis(ParquetFile.ColumnChunk c) {
    if (c.distinctCount() >= 0) {
      return "distinct_count";
    }
    return c.nullCount() >= 0 ? "non_null_values_upper_bound" : "values_upper_bound";
  }

  private static String percent(double p) {
    return Figures.percent(p);
  }

  /**
   * Answers each value as a Parquet reader's Bloom filter check does, row group by row group:
   * {@code VALUE<TAB>absent<TAB>-} when every row group's filter excludes the value (the reader
   * skips them all), else {@code VALUE<TAB>maybe<TAB>G,G,...} with the row groups it would read (a
   * row group without a filter for the column is always read).
   */
  static int query(CommandLine cmd, Path file, List<String> args, boolean hex) {
    if (args.isEmpty()) {
      throw new CommandLine.ParameterException(
          cmd, "a Parquet file needs a COLUMN (dotted path) and then values");
    }
    String columnPath = args.get(0);
    List<String> values = new ArrayList<>(args.subList(1, args.size()));
    ParquetFile pf;
    try {
      pf = ParquetFile.open(file);
    } catch (Exception e) {
      return SstCliSupport.badFile(cmd.getErr(), "query", file.toString(), e);
    }
    ParquetFile.Column column = pf.column(columnPath);
    if (column == null) {
      List<String> names = new ArrayList<>();
      pf.columns().forEach(c -> names.add(c.dottedPath()));
      throw new CommandLine.ParameterException(
          cmd,
          "no column '" + columnPath + "' in " + file + "; columns: " + String.join(", ", names));
    }
    List<Long> hashes = new ArrayList<>();
    for (String v : values) {
      try {
        hashes.add(ParquetValues.hash(column, v, hex));
      } catch (IllegalArgumentException e) {
        throw new CommandLine.ParameterException(cmd, e.getMessage());
      }
    }
    List<ParquetFile.ColumnChunk> chunks = new ArrayList<>();
    List<SplitBlockBloomFilter> filters = new ArrayList<>();
    try {
      for (ParquetFile.ColumnChunk c : pf.chunks()) {
        if (c.column().equals(column)) {
          chunks.add(c);
          ParquetFile.BloomFilter bf = pf.bloomFilter(c);
          filters.add(bf == null ? null : bf.filter());
        }
      }
    } catch (Exception e) {
      return SstCliSupport.badFile(cmd.getErr(), "query", file.toString(), e);
    }
    noteMissingFilters(cmd, column, chunks, filters);
    PrintWriter out = cmd.getOut();
    if (!values.isEmpty()) {
      for (int i = 0; i < values.size(); i++) {
        print(out, values.get(i), hashes.get(i), chunks, filters);
      }
    } else {
      BufferedReader in =
          new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
      int line = 0;
      try {
        for (String v = in.readLine(); v != null; v = in.readLine()) {
          line++;
          long h;
          try {
            h = ParquetValues.hash(column, v, hex);
          } catch (IllegalArgumentException e) {
            out.flush();
            cmd.getErr().println("sieve query: stdin line " + line + ": " + e.getMessage());
            cmd.getErr().flush();
            return SstCliSupport.BAD_FILE;
          }
          print(out, v, h, chunks, filters);
        }
      } catch (IOException e) {
        out.flush();
        cmd.getErr().println("sieve query: stdin: " + e.getMessage());
        cmd.getErr().flush();
        return SstCliSupport.BAD_FILE;
      }
    }
    out.flush();
    return 0;
  }

  /**
   * One line on stderr when some of the column's row groups have no Bloom filter: there a reader
   * cannot skip, so every value answers maybe, which the answers alone do not tell apart from a
   * filter's false positive.
   */
  private static void noteMissingFilters(
      CommandLine cmd,
      ParquetFile.Column column,
      List<ParquetFile.ColumnChunk> chunks,
      List<SplitBlockBloomFilter> filters) {
    StringBuilder without = new StringBuilder();
    int count = 0;
    for (int i = 0; i < chunks.size(); i++) {
      if (filters.get(i) == null) {
        without.append(count++ == 0 ? "" : ",").append(chunks.get(i).rowGroup());
      }
    }
    if (count == 0) {
      return;
    }
    cmd.getErr()
        .println(
            "sieve query: note: column '"
                + column.dottedPath()
                + "' has no Bloom filter in "
                + (count == chunks.size()
                    ? "any of its " + count + " row group" + (count == 1 ? "" : "s")
                    : count + " of its " + chunks.size() + " row groups (" + without + ")")
                + ": there every value answers maybe (the row group is read)");
    cmd.getErr().flush();
  }

  private static void print(
      PrintWriter out,
      String value,
      long hash,
      List<ParquetFile.ColumnChunk> chunks,
      List<SplitBlockBloomFilter> filters) {
    StringBuilder groups = new StringBuilder();
    for (int i = 0; i < chunks.size(); i++) {
      SplitBlockBloomFilter f = filters.get(i);
      if (f == null || f.mayContainHash(hash)) {
        groups.append(groups.length() == 0 ? "" : ",").append(chunks.get(i).rowGroup());
      }
    }
    out.print(value);
    out.print('\t');
    out.print(groups.length() == 0 ? "absent" : "maybe");
    out.print('\t');
    out.println(groups.length() == 0 ? "-" : groups);
  }
}
