package dev.sieve.cli;

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
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code sieve inspect FILE.sst [--json]}: what filter a RocksDB SST file holds. */
@Command(
    name = "inspect",
    mixinStandardHelpOptions = true,
    description = {
      "Reads a RocksDB block-based SST file (checksums verified) and reports its filter:",
      "format version, checksum type, entries, filter policy and kind (fastlocalbloom, legacy"
          + " bloom, ribbon, partitioned), size, bits/key, probes or Ribbon seed/blocks, and the"
          + " modelled false-positive rate.",
      "Exit status: 0 ok, 1 bad file, 2 bad usage."
    })
public final class InspectCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Parameters(index = "0", paramLabel = "FILE.sst", description = "the SST file")
  Path file;

  @Option(names = "--json", description = "print one JSON object instead of text")
  boolean json;

  @Override
  public Integer call() {
    PrintWriter out = spec.commandLine().getOut();
    SstFile sst;
    try {
      sst = SstFile.open(file);
    } catch (Exception e) {
      return SstCliSupport.badFile(spec.commandLine().getErr(), "inspect", file.toString(), e);
    }
    Map<String, String> fields = describe(sst);
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
        } else if (v.startsWith("\"")) {
          v = v.substring(1, v.length() - 1).replace("\\\"", "\"").replace("\\\\", "\\");
        }
        out.printf(Locale.ROOT, "%-22s %s%n", e.getKey().replace('_', ' ') + ":", v);
      }
    }
    out.flush();
    return 0;
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
    if (kind == FilterKind.FAST_LOCAL_BLOOM || kind == FilterKind.LEGACY_BLOOM) {
      m.put("num_probes", Integer.toString(f.numProbes()));
    }
    if (kind == FilterKind.RIBBON) {
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
      if (part.block().kind() == FilterKind.RIBBON) {
        return part.block().ribbonResultBits();
      }
    }
    return Double.NaN;
  }
}
