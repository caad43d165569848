package dev.sieve.cli;

import dev.sieve.interop.OrcBloomFilter;
import dev.sieve.orc.OrcFile;
import dev.sieve.orc.OrcQuery;
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
 * {@code sieve inspect FILE.orc} and {@code sieve query FILE.orc COLUMN VALUE...}: the Bloom
 * filters of an Apache ORC file ({@link OrcFile}), one per column, stripe and row group. {@code
 * InspectCommand} and {@code QueryCommand} hand a file over when it starts with ORC's magic.
 */
final class OrcCliSupport {
  private OrcCliSupport() {}

  /** Whether {@code file} is a regular file that starts with ORC's magic {@code ORC}. */
  static boolean isOrc(Path file) {
    return InputKind.isOrc(file);
  }

  /** The asked rate, the range it was recovered in (NaN unless recovered), and its source. */
  record AskedRate(double rate, double low, double high, String source) {}

  /** ORC's default {@code orc.bloom.filter.fpp} ({@code OrcConf.BLOOM_FILTER_FPP}). */
  static final double ORC_DEFAULT_FPP = 0.01;

  /**
   * The rate ORC's writer was asked for ({@code orc.bloom.filter.fpp}), which no part of an ORC
   * file records (not the footer, its user metadata, the stripe footers nor the index streams):
   * {@code --fp-rate} when given; else recovered from the filters themselves, since ORC's writer
   * sizes every filter for the row index stride {@code S} alone, {@code m = floor(-S ln p / ln²2)}
   * rounded up past the next multiple of 64 and {@code k = max(1, round(m/S · ln 2))}, so the
   * filters' {@code m} (the same in every group) pins {@code p} to {@code (exp(-m ln²2 / S),
   * exp(-(m-64) ln²2 / S)]}; else (no filter, a stride of 0, filters of different sizes or a {@code
   * k} that does not fit) ORC's default 0.01.
   */
  static AskedRate askedRate(List<OrcFile.RowGroup> groups, int stride, double fpRate) {
    if (fpRate > 0) {
      return new AskedRate(fpRate, Double.NaN, Double.NaN, "--fp-rate");
    }
    long bits = -1;
    int k = -1;
    for (OrcFile.RowGroup g : groups) {
      OrcBloomFilter f = g.filter();
      if (f == null) {
        continue;
      }
      if (bits >= 0 && (f.sizeInBits() != bits || f.numHashFunctions() != k)) {
        bits = -2; // filters of different shapes: not one writer setting
        break;
      }
      bits = f.sizeInBits();
      k = f.numHashFunctions();
    }
    double ln2sq = Math.log(2) * Math.log(2);
    boolean fits =
        bits >= 64
            && stride > 0
            && k == Math.max(1, Math.round((double) bits / stride * Math.log(2)));
    if (fits) {
      double low = Math.exp(-bits * ln2sq / stride);
      double high = Math.min(1, Math.exp(-(bits - 64) * ln2sq / stride));
      if (low > 0 && high < 1) {
        return new AskedRate(
            low,
            low,
            high,
            String.format(
                Locale.ROOT,
                "not recorded by ORC; recovered from the filters' %d bits at the row index stride"
                    + " %d, as ORC's writer sizes them: between %s and %s, the stricter taken",
                bits,
                stride,
                percent(low),
                percent(high)));
      }
    }
    return new AskedRate(
        ORC_DEFAULT_FPP,
        Double.NaN,
        Double.NaN,
        "not recorded by ORC and not recoverable from the filters; ORC's default"
            + " orc.bloom.filter.fpp 0.01 assumed");
  }

  static int inspect(CommandLine cmd, Path file, boolean json, double fpRate) {
    long size;
    List<OrcFile.RowGroup> groups = new ArrayList<>();
    OrcFile orc;
    try {
      size = Files.size(file);
      orc = OrcFile.open(file);
      try {
        for (int s = 0; s < orc.stripes().size(); s++) {
          groups.addAll(orc.rowGroups(s));
        }
      } finally {
        orc.close();
      }
    } catch (Exception e) {
      return SstCliSupport.badFile(cmd.getErr(), "inspect", file.toString(), e);
    }
    AskedRate asked = askedRate(groups, orc.rowIndexStride(), fpRate);
    long orcBytes = 0;
    long sieveBytes = 0;
    long distinct = 0;
    long[] sieveOf = new long[groups.size()];
    for (int i = 0; i < groups.size(); i++) {
      OrcBloomFilter f = groups.get(i).filter();
      if (f != null) {
        long keys = Math.max(1, Math.round(f.approximateElementCount()));
        sieveOf[i] = ForeignInputs.sieveBloomBytes(keys, asked.rate());
        orcBytes += f.sizeInBytes();
        sieveBytes += sieveOf[i];
        distinct += keys;
      }
    }
    String advice =
        String.format(
            Locale.ROOT,
            "for the %d distinct values the filters hold (estimated from their bits, summed over"
                + " row groups) at %s: Sieve standard Bloom filters need %d bytes (ORC's take %d),"
                + " the information floor %.0f; ORC's reader consults only its own filters, so"
                + " this prices the rate, it is no drop-in replacement",
            distinct,
            percent(asked.rate()),
            sieveBytes,
            orcBytes,
            ForeignInputs.floorBytes(distinct, asked.rate()));
    PrintWriter out = cmd.getOut();
    if (json) {
      StringBuilder b = new StringBuilder("{");
      b.append("\"format\": \"orc\", \"file_size\": ").append(size);
      b.append(", \"compression\": ").append(SstCliSupport.jsonString(orc.compression().name()));
      b.append(", \"rows\": ").append(orc.numberOfRows());
      b.append(", \"stripes\": ").append(orc.stripes().size());
      b.append(", \"row_index_stride\": ").append(orc.rowIndexStride());
      b.append(", \"writer_version\": ").append(orc.writerVersion());
      b.append(", \"asked_fpr\": ").append(SstCliSupport.jsonNumber(asked.rate()));
      b.append(", \"asked_fpr_low\": ").append(SstCliSupport.jsonNumber(asked.low()));
      b.append(", \"asked_fpr_high\": ").append(SstCliSupport.jsonNumber(asked.high()));
      b.append(", \"asked_fpr_source\": ").append(SstCliSupport.jsonString(asked.source()));
      b.append(", \"orc_bloom_bytes\": ").append(orcBytes);
      b.append(", \"sieve_standard_bloom_bytes\": ").append(sieveBytes);
      b.append(", \"information_floor_bytes\": ")
          .append(SstCliSupport.jsonNumber(ForeignInputs.floorBytes(distinct, asked.rate())));
      b.append(", \"advice\": ").append(SstCliSupport.jsonString(advice));
      b.append(", \"row_groups\": [");
      for (int i = 0; i < groups.size(); i++) {
        OrcFile.RowGroup g = groups.get(i);
        OrcBloomFilter f = g.filter();
        b.append(i == 0 ? "" : ", ").append('{');
        b.append("\"column\": ").append(SstCliSupport.jsonString(g.column().name()));
        b.append(", \"type\": ").append(SstCliSupport.jsonString(g.column().kind().name()));
        b.append(", \"stripe\": ").append(g.stripe());
        b.append(", \"row_group\": ").append(g.rowGroup());
        b.append(", \"rows\": ").append(g.rows());
        b.append(", \"stream\": ")
            .append(SstCliSupport.jsonString(g.utf8() ? "BLOOM_FILTER_UTF8" : "BLOOM_FILTER"));
        if (f == null) {
          b.append(", \"bloom_filter\": false");
        } else {
          b.append(", \"bloom_filter\": true");
          b.append(", \"filter_bytes\": ").append(f.sizeInBytes());
          b.append(", \"num_hash_functions\": ").append(f.numHashFunctions());
          b.append(", \"bits_per_row\": ")
              .append(
                  SstCliSupport.jsonNumber(g.rows() == 0 ? 0 : (double) f.sizeInBits() / g.rows()));
          b.append(", \"saturation\": ").append(SstCliSupport.jsonNumber(f.fractionOfBitsSet()));
          b.append(", \"fpr_at_fill\": ").append(SstCliSupport.jsonNumber(f.expectedFpRate()));
          b.append(", \"modelled_fpr_at_rows\": ")
              .append(SstCliSupport.jsonNumber(f.modelledFpRate()));
          b.append(", \"distinct_estimated_from_bits\": ")
              .append(SstCliSupport.jsonNumber(Math.rint(f.approximateElementCount())));
          b.append(", \"sieve_standard_bloom_bytes\": ").append(sieveOf[i]);
        }
        b.append('}');
      }
      out.println(b.append("]}"));
      out.flush();
      return 0;
    }
    out.printf(Locale.ROOT, "%-22s %s%n", "format:", "orc (Bloom filter streams of the row index)");
    out.printf(Locale.ROOT, "%-22s %d%n", "file size:", size);
    out.printf(
        Locale.ROOT,
        "%-22s %s (block %d bytes)%n",
        "compression:",
        orc.compression(),
        orc.compressionBlockSize());
    out.printf(Locale.ROOT, "%-22s %d%n", "rows:", orc.numberOfRows());
    out.printf(
        Locale.ROOT,
        "%-22s %d (row index stride %d)%n",
        "stripes:",
        orc.stripes().size(),
        orc.rowIndexStride());
    out.println(
        "FPR at fill: (fraction of bits set)^k, the rate a value absent from the group really"
            + " meets; modelled: the standard Bloom model at the group's rows, an upper bound on"
            + " its distinct values (<=); est: distinct values estimated from the set bits; sieve B:"
            + " a Sieve standard Bloom filter for est values at the asked FPR");
    out.printf(Locale.ROOT, "%-22s %s (%s)%n", "asked FPR:", percent(asked.rate()), asked.source());
    out.printf(
        Locale.ROOT,
        "%-16s %-9s %6s %5s %8s %6s %10s %3s %9s %10s %12s %9s %8s%n",
        "column",
        "type",
        "stripe",
        "rg",
        "rows",
        "stream",
        "bytes",
        "k",
        "bits/row",
        "saturation",
        "FPR at fill",
        "est",
        "sieve B");
    for (int i = 0; i < groups.size(); i++) {
      OrcFile.RowGroup g = groups.get(i);
      OrcBloomFilter f = g.filter();
      if (f == null) {
        out.printf(
            Locale.ROOT,
            "%-16s %-9s %6d %5d %8d %6s %10s%n",
            g.column().name(),
            g.column().kind(),
            g.stripe(),
            g.rowGroup(),
            g.rows(),
            g.utf8() ? "utf8" : "orig",
            "not used by ORC");
        continue;
      }
      out.printf(
          Locale.ROOT,
          "%-16s %-9s %6d %5d %8d %6s %10d %3d %9.2f %9.1f%% %12s %9.0f %8d%n",
          g.column().name(),
          g.column().kind(),
          g.stripe(),
          g.rowGroup(),
          g.rows(),
          g.utf8() ? "utf8" : "orig",
          f.sizeInBytes(),
          f.numHashFunctions(),
          g.rows() == 0 ? 0.0 : (double) f.sizeInBits() / g.rows(),
          100 * f.fractionOfBitsSet(),
          percent(f.expectedFpRate()) + " (<= " + percent(f.modelledFpRate()) + ")",
          f.approximateElementCount(),
          sieveOf[i]);
    }
    out.printf(Locale.ROOT, "%-22s %d%n", "ORC Bloom bytes:", orcBytes);
    out.printf(Locale.ROOT, "%-22s %d%n", "Sieve Bloom bytes:", sieveBytes);
    out.printf(Locale.ROOT, "%-22s %s%n", "advice:", advice);
    out.flush();
    return 0;
  }

  private static String percent(double p) {
    return Figures.percent(p);
  }

  /**
   * Answers each value as ORC's reader decides row group by row group (statistics range, then the
   * Bloom filter): {@code VALUE<TAB>absent<TAB>-} when every group is skipped, else {@code
   * VALUE<TAB>maybe<TAB>S:G,S:G,...}, the stripe and row group of each group ORC reads.
   */
  static int query(CommandLine cmd, Path file, List<String> args) {
    if (args.isEmpty()) {
      throw new CommandLine.ParameterException(
          cmd, "an ORC file needs a COLUMN (dotted name) and then values");
    }
    String columnName = args.get(0);
    List<String> values = new ArrayList<>(args.subList(1, args.size()));
    List<OrcFile.RowGroup> groups = new ArrayList<>();
    try {
      OrcFile orc = OrcFile.open(file);
      try {
        OrcFile.Column column;
        try {
          column = orc.column(columnName);
        } catch (IllegalArgumentException e) {
          throw new CommandLine.ParameterException(cmd, e.getMessage() + " in " + file);
        }
        for (int s = 0; s < orc.stripes().size(); s++) {
          for (OrcFile.RowGroup g : orc.rowGroups(s)) {
            if (g.column().id() == column.id()) {
              groups.add(g);
            }
          }
        }
        if (groups.isEmpty()) {
          cmd.getErr()
              .println(
                  "sieve query: note: column '"
                      + columnName
                      + "' has no Bloom filter stream: only its statistics decide, and they are"
                      + " not read without one; every value answers maybe");
          cmd.getErr().flush();
        }
      } finally {
        orc.close();
      }
    } catch (CommandLine.ParameterException e) {
      throw e;
    } catch (Exception e) {
      return SstCliSupport.badFile(cmd.getErr(), "query", file.toString(), e);
    }
    PrintWriter out = cmd.getOut();
    try {
      if (!values.isEmpty()) {
        for (String v : values) {
          print(out, v, groups);
        }
      } else {
        BufferedReader in =
            new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        for (String v = in.readLine(); v != null; v = in.readLine()) {
          print(out, v, groups);
        }
      }
    } catch (IllegalArgumentException e) {
      out.flush();
      throw new CommandLine.ParameterException(cmd, e.getMessage());
    } catch (IOException e) {
      out.flush();
      cmd.getErr().println("sieve query: stdin: " + e.getMessage());
      cmd.getErr().flush();
      return SstCliSupport.BAD_FILE;
    }
    out.flush();
    return 0;
  }

  private static void print(PrintWriter out, String value, List<OrcFile.RowGroup> groups) {
    StringBuilder read = new StringBuilder();
    for (OrcFile.RowGroup g : groups) {
      if (OrcQuery.mayMatch(g, value)) {
        read.append(read.length() == 0 ? "" : ",")
            .append(g.stripe())
            .append(':')
            .append(g.rowGroup());
      }
    }
    boolean absent = !groups.isEmpty() && read.length() == 0;
    out.print(value);
    out.print('\t');
    out.print(absent ? "absent" : "maybe");
    out.print('\t');
    out.println(absent ? "-" : groups.isEmpty() ? "all" : read);
  }
}
