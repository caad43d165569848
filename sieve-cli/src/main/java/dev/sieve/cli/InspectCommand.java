package dev.sieve.cli;

import dev.sieve.interop.ForeignFormat;
import dev.sieve.registry.FilterType;
import dev.sieve.sst.FilterKind;
import dev.sieve.sst.SstFile;
import dev.sieve.sst.SstFilter;
import dev.sieve.sst.TableProperties;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code sieve inspect FILE [--json]}: what filter a RocksDB SST file holds, or what the filters of
 * a whole database hold and cost ({@link DbCommands}); a Parquet file's Bloom filters (by its PAR1
 * magic) go to {@link ParquetCliSupport}; a Sieve container, a raw filter block and a
 * partitioned-filter directory to {@link OtherInputs}.
 */
@Command(
    name = "inspect",
    mixinStandardHelpOptions = true,
    description = {
      "Reports the filters of an SST file, a RocksDB database directory, a Parquet file, a Sieve"
          + " container (.sieve), a raw filter block or a partitioned-filter directory.",
      "An SST file (RocksDB block-based; the checksums of its metaindex, properties and filter"
          + " blocks verified): format version, checksum type, entries, filter policy and kind (fastlocalbloom, legacy"
          + " bloom, ribbon, partitioned), size, bits/key, probes or Ribbon seed/blocks, and the"
          + " modelled false-positive rate.",
      "An ORC file (magic ORC) lists each column's Bloom filter per stripe and row group: rows,"
          + " stream, bytes, probes, bits per row, saturation, the FPR at the filter's fill and"
          + " the modelled FPR at the group's rows, and the bytes a Sieve Bloom filter needs for"
          + " the group's values at the asked FPR (--fp-rate; ORC does not record it, so it is"
          + " recovered from the filters' size and the row index stride, else ORC's default 0.01).",
      "A Parquet file (PAR1) lists each column chunk's split-block Bloom filter: column, row"
          + " group, type, values, bytes, bits/value and the modelled false-positive rate.",
      "A Sieve container (.sieve) or a raw filter block as sieve build writes it is recognised by"
          + " its magic (or the block's trailer) and described the same way; so is the directory"
          + " sieve build --partition-size writes (index.tsv and its partition blocks, each checked"
          + " against its index line).",
      "Given a database directory, reads its live SST files (through CURRENT and the MANIFEST,"
          + " or a scan of *.sst without them) in parallel and reports, per column family and"
          + " level, files, keys, filter kinds and policies, filter bytes, bits/key and modelled"
          + " FPR, then what bloomfilter:B, ribbonfilter:B and ribbonfilter:B:L would cost.",
      "Exit status: 0 ok, 1 bad file (in a database: any unreadable file), 2 bad usage."
    })
public final class InspectCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Parameters(
      index = "0",
      paramLabel = "FILE",
      description =
          "an SST file, a RocksDB database directory, a .parquet file, a Sieve container, a raw"
              + " filter block, or a partitioned-filter directory (build --partition-size)")
  Path file;

  @Option(names = "--json", description = "print one JSON object instead of text")
  boolean json;

  @Option(
      names = "--what-if",
      paramLabel = "B[:L]",
      description =
          "database: the bloom-equivalent bits/key B of the what-if policies (default: the one in"
              + " use) and the L of ribbonfilter:B:L (default: the first level holding Ribbon"
              + " filters, else 2)")
  String whatIf;

  @Option(
      names = "--verify",
      description =
          "verify the checksum of every block (data, index and index partitions, filter"
              + " partitions, meta blocks), not only of the blocks the filter report reads;"
              + " compressed index blocks (Snappy, Zlib, LZ4, ZSTD) are decompressed to reach"
              + " the data blocks")
  boolean verify;

  @Option(
      names = "--cpu-from",
      paramLabel = "RESULTS.json",
      description =
          "database: price the what-if's probes with the absent-key lookup times of"
              + " sieve-blocked-bloom and sieve-ribbon in a ./sieve report results.json (default:"
              + " the figures of docs/journal.md)")
  Path cpuFrom;

  @Option(
      names = "--threads",
      paramLabel = "N",
      description = "database: files read at once (default: cores, at most 8)")
  Integer threads;

  @Option(
      names = "--format",
      paramLabel = "NAME",
      description =
          "read FILE as another system's filter form: guava, spark, datasketches, cassandra"
              + " (Filter.db, 4.0+) or cassandra3 (3.x: every 8 bytes reversed; the bytes cannot"
              + " tell it from 4.0+, only --format or an SSTable version ma..me in the file name)"
              + " (default: recognized by its structure or name)")
  String format;

  @Option(
      names = "--accept-always-true",
      description =
          "a raw filter block whose trailer RocksDB does not know (truncated, damaged, not a"
              + " filter) is described as RocksDB reads it, an always-true filter, instead of"
              + " refused")
  boolean acceptAlwaysTrue;

  @Option(
      names = "--fp-rate",
      paramLabel = "P",
      description =
          "another system's filter: the false-positive rate it was asked for (its form does not"
              + " record it; default 2^-k, the rate its probe count k was chosen for; an ORC file:"
              + " recovered from its filters' size and row index stride, else ORC's default 0.01)")
  Double fpRate;

  @Override
  public Integer call() {
    if (fpRate != null && !(fpRate > 0 && fpRate < 1)) {
      throw new ParameterException(spec.commandLine(), "--fp-rate " + fpRate + " is not in (0, 1)");
    }
    ForeignFormat forced = null;
    if (format != null) {
      try {
        forced = ForeignFormat.named(format);
      } catch (IllegalArgumentException e) {
        throw new ParameterException(spec.commandLine(), "--format: " + e.getMessage());
      }
    }
    if (forced == null && ParquetCliSupport.isParquet(file)) { // a .parquet file: its Bloom filters
      return ParquetCliSupport.inspect(spec.commandLine(), file, json);
    }
    if (OrcCliSupport.isOrc(file)) { // an .orc file: its Bloom filter streams
      return OrcCliSupport.inspect(spec.commandLine(), file, json, fpRate == null ? 0 : fpRate);
    }
    PrintWriter out = spec.commandLine().getOut();
    InputKind kind;
    try {
      kind = forced != null ? InputKind.FOREIGN : InputKind.of(file);
    } catch (Exception e) {
      return SstCliSupport.badFile(spec.commandLine().getErr(), "inspect", file.toString(), e);
    }
    if (kind == InputKind.DATABASE) {
      double b = Double.NaN;
      Integer l = null;
      if (whatIf != null) {
        String[] parts = whatIf.split(":", -1);
        try {
          if (parts.length > 2) {
            throw new NumberFormatException();
          }
          b = Double.parseDouble(parts[0]);
          if (parts.length == 2) {
            l = Integer.parseInt(parts[1]);
          }
        } catch (NumberFormatException e) {
          throw new ParameterException(
              spec.commandLine(), "--what-if '" + whatIf + "' is not B or B:L (e.g. 10 or 10:2)");
        }
        if (!(b >= 1 && b <= 100)) {
          throw new ParameterException(
              spec.commandLine(), "--what-if bits/key " + parts[0] + " is not in [1, 100]");
        }
        if (l != null && l < -1) {
          throw new ParameterException(
              spec.commandLine(), "--what-if bloom_before_level " + l + " is less than -1");
        }
      }
      int n = threads == null ? DbCommands.defaultThreads() : threads;
      if (n < 1 || n > 256) {
        throw new ParameterException(spec.commandLine(), "--threads " + n + " is not in [1, 256]");
      }
      return DbCommands.inspect(spec.commandLine(), file, json, b, l, n, verify, cpuFrom);
    }
    if (whatIf != null || threads != null || cpuFrom != null) {
      throw new ParameterException(
          spec.commandLine(),
          "--what-if, --cpu-from and --threads apply to a database directory only");
    }
    Map<String, String> fields;
    try {
      switch (kind) {
        case SIEVE_CONTAINER:
          fields = OtherInputs.describeContainer(file);
          break;
        case FILTER_BLOCK:
          fields = OtherInputs.describeBlock(file, acceptAlwaysTrue);
          break;
        case PARTITIONED_FILTER:
          fields = OtherInputs.describePartitions(file);
          break;
        case FOREIGN:
          {
            ForeignFormat f = forced != null ? forced : ForeignFileReader.recognize(file);
            fields =
                ForeignInputs.describe(
                    f,
                    ForeignFileReader.read(file, f),
                    java.nio.file.Files.size(file),
                    fpRate == null ? 0 : fpRate);
            break;
          }
        default:
          fields = new LinkedHashMap<>();
          fields.put("input_kind", SstCliSupport.jsonString("sst"));
          fields.putAll(describe(UnrecognisedInput.openSst(file, kind)));
          if (verify) {
            dev.sieve.sst.SstVerifier.Result v = dev.sieve.sst.SstVerifier.verify(file);
            fields.put("verified_blocks", Long.toString(v.blocks()));
            fields.put("verified_data_blocks", Long.toString(v.dataBlocks()));
            fields.put("verified_index_blocks", Long.toString(v.indexBlocks()));
            fields.put("verified_meta_blocks", Long.toString(v.metaBlocks()));
            fields.put("verified_filter_blocks", Long.toString(v.filterBlocks()));
            fields.put("verify_note", SstCliSupport.jsonString(v.note()));
          }
      }
    } catch (Exception e) {
      return SstCliSupport.badFile(spec.commandLine().getErr(), "inspect", file.toString(), e);
    }
    if (json) {
      StringBuilder b = new StringBuilder("{");
      boolean first = true;
      for (Map.Entry<String, String> e : fields.entrySet()) {
        b.append(first ? "" : ", ").append(SstCliSupport.jsonString(e.getKey())).append(": ");
        b.append(e.getValue());
        first = false;
      }
      out.println(b.append('}'));
    } else {
      for (Map.Entry<String, String> e : fields.entrySet()) {
        String v = e.getValue();
        if (v.equals("null")) {
          v = e.getKey().endsWith("_fpr") ? "unknown" : "none";
        } else if (isRate(e.getKey())) {
          v = Figures.percent(Double.parseDouble(v));
        } else if (e.getKey().equals("bits_per_key")) {
          v = Figures.bitsPerKey(Double.parseDouble(v));
        } else if (v.startsWith("\"")) {
          v = v.substring(1, v.length() - 1).replace("\\\"", "\"").replace("\\\\", "\\");
        }
        out.printf(Locale.ROOT, "%-22s %s%n", e.getKey().replace('_', ' ') + ":", v);
      }
    }
    out.flush();
    return 0;
  }

  /** Whether the field is a rate, printed as a percentage (JSON keeps the fraction). */
  private static boolean isRate(String key) {
    return key.endsWith("_fpr") || key.contains("fpr_") || key.equals("fill");
  }

  /** The report, keys to JSON values (strings already quoted), in print order. */
  static Map<String, String> describe(SstFile sst) {
    TableProperties p = sst.properties();
    SstFilter f = sst.filter();
    Map<String, String> m = new LinkedHashMap<>();
    m.put("file_size", Long.toString(sst.fileSize()));
    m.put("format_version", Integer.toString(sst.formatVersion()));
    m.put("checksum_type", SstCliSupport.jsonString(sst.checksumType().label()));
    m.put("num_entries", Long.toString(p.numEntries()));
    m.put("num_filter_entries", Long.toString(f.numKeys()));
    m.put("comparator", SstCliSupport.jsonString(f.comparatorName()));
    m.put("filter_policy", SstCliSupport.jsonString(p.filterPolicy()));
    m.put("filter_kind", SstCliSupport.jsonString(f.kind().label()));
    if (f.isPartitioned()) {
      m.put("partition_kind", SstCliSupport.jsonString(f.blockKind().label()));
      m.put("num_partitions", Integer.toString(f.partitions().size()));
      m.put(
          "partition_lookup",
          SstCliSupport.jsonString(
              f.routesPartitions()
                  ? "one partition, by the comparator"
                  : "all partitions ORed (custom comparator)"));
    }
    m.put("whole_key_filtering", Boolean.toString(f.isWholeKeyFilter()));
    m.put("prefix_filter", Boolean.toString(f.isPrefixFilter()));
    m.put("prefix_extractor", SstCliSupport.jsonString(f.prefixExtractorName()));
    m.put("filter_bytes", Long.toString(f.filterBytes()));
    m.put(
        "bits_per_key",
        SstCliSupport.jsonNumber(
            f.numKeys() == 0 ? Double.NaN : (double) f.sizeInBits() / f.numKeys()));
    FilterKind kind = f.blockKind();
    if (kind.isBloom()) {
      m.put("num_probes", Integer.toString(f.numProbes()));
    }
    if (kind.filterType() == FilterType.RIBBON) {
      m.put("ribbon_seed", Integer.toString(f.ribbonSeed()));
      m.put("ribbon_blocks", Long.toString(f.ribbonBlocks()));
      double resultBits =
          f.fullBlock() != null ? f.fullBlock().ribbonResultBits() : firstResultBits(f);
      m.put("ribbon_result_bits", SstCliSupport.jsonNumber(resultBits));
    }
    // without a key count the model has nothing to go on: "unknown", never 0%
    boolean countKnown = f.numKeys() > 0 || f.filterBytes() == 0;
    m.put("modelled_fpr", countKnown ? SstCliSupport.jsonNumber(f.modelledFpRate()) : "null");
    m.put("expected_fpr", SstCliSupport.jsonNumber(f.expectedFpRate()));
    if (f.note() != null) {
      m.put("note", SstCliSupport.jsonString(f.note()));
    }
    return m;
  }

  private static double firstResultBits(SstFilter f) {
    for (SstFilter.Partition part : f.partitions()) {
      if (part.block().kind().filterType() == FilterType.RIBBON) {
        return part.block().ribbonResultBits();
      }
    }
    return Double.NaN;
  }
}
