package dev.sieve.cli;

import dev.sieve.policy.FilterPolicy;
import dev.sieve.sst.RocksDbOptions;
import dev.sieve.sst.RocksDbTableFilter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import picocli.CommandLine.ParameterException;

/**
 * {@code sieve build}'s RocksDB output: the options checked against the policy, then the filter
 * block RocksDB writes for the keys (full, with a prefix extractor, or partitioned into a directory
 * of partition blocks and their index), and the summary line. The options are {@link
 * BuildCommand}'s.
 */
final class BlockBuild {
  private BlockBuild() {}

  /** The policy as RocksDB applies it: bits per key clamped to [1, 100], in thousandths. */
  static String appliedPolicy(FilterPolicy p) {
    return setting(p, p.millibitsPerKey() / 1000.0);
  }

  /** The setting as given: {@code bloom:BITS} or {@code ribbon:BITS[:LEVEL]}, BITS as parsed. */
  static String givenPolicy(FilterPolicy p, String spec) {
    return setting(p, Double.parseDouble(spec.trim().split(":", -1)[1]));
  }

  private static String setting(FilterPolicy p, double bits) {
    if (!p.isRibbonPolicy()) {
      return "bloom:" + bits;
    }
    int level = p.bloomBeforeLevel();
    return "ribbon:" + bits + (level == 0 ? "" : ":" + level);
  }

  /** Builds and writes the RocksDB filter block of the command's keys; the exit status. */
  static int run(BuildCommand c, KeyForm form) {
    c.refuse("a RocksDB filter block", "--type", "--setting", "--fp-rate", "--seed");
    if (c.policy == null) {
      throw new ParameterException(
          c.spec.commandLine(),
          "a RocksDB filter block needs --policy bloom:BITS or ribbon:BITS (for a Sieve"
              + " container give --format sieve or -o FILE.sieve, with --type)");
    }
    if (c.partitionSize != null && AtomicFiles.isStdout(c.output)) {
      throw new ParameterException(
          c.spec.commandLine(),
          "--partition-size writes a directory; -o " + c.output + " is standard output");
    }
    FilterPolicy p;
    try {
      p = RocksDbOptions.filterPolicy(c.policy).orElse(null);
    } catch (IllegalArgumentException e) {
      throw new ParameterException(c.spec.commandLine(), e.getMessage());
    }
    if (p == null) {
      throw new ParameterException(
          c.spec.commandLine(), "bits per key below 0.5 means no filter; nothing to build");
    }
    p = p.withOptimizeFiltersForMemory(c.optimizeFiltersForMemory);
    if (c.level != null && (c.level < FilterPolicy.FLUSH || c.level > FilterPolicy.UNKNOWN_LEVEL)) {
      throw new ParameterException(
          c.spec.commandLine(),
          "--level must be -1 (a flush) or a level in 0.."
              + FilterPolicy.UNKNOWN_LEVEL
              + " (the last: unknown), got "
              + c.level);
    }
    if (c.formatVersion < 2 || c.formatVersion > 7) {
      throw new ParameterException(
          c.spec.commandLine(), "--format-version must be in 2..7, got " + c.formatVersion);
    }
    RocksDbTableFilter tableFilter = null;
    if (c.prefix != null || !c.wholeKeyFiltering || c.partitionSize != null) {
      if (c.formatVersion < 5) {
        throw new ParameterException(
            c.spec.commandLine(),
            "--prefix, --whole-key-filtering and --partition-size need --format-version >= 5"
                + " (legacy Bloom is not modelled with them)");
      }
      if (c.partitionSize != null && (c.partitionSize < 1 || c.partitionSize > (1L << 31))) {
        throw new ParameterException(
            c.spec.commandLine(),
            "--partition-size must be in 1..2^31 bytes, got " + c.partitionSize);
      }
      try {
        tableFilter =
            new RocksDbTableFilter(
                p,
                c.level == null ? FilterPolicy.UNKNOWN_LEVEL : c.level,
                c.prefix,
                c.wholeKeyFiltering);
      } catch (IllegalArgumentException e) {
        throw new ParameterException(c.spec.commandLine(), e.getMessage());
      }
    }
    List<byte[]> keys = c.readKeys(form);
    if (keys == null) {
      return SstCliSupport.BAD_FILE;
    }
    String applied = appliedPolicy(p);
    if (!applied.equals(givenPolicy(p, c.policy))) {
      c.spec
          .commandLine()
          .getErr()
          .println(
              "sieve build: note: --policy "
                  + c.policy
                  + " is applied as "
                  + applied
                  + " (RocksDB clamps bits per key to [1, 100] and keeps thousandths)");
      c.spec.commandLine().getErr().flush();
    }
    if (c.partitionSize != null) {
      return writePartitions(
          c, tableFilter.buildPartitions(keys, c.partitionSize), keys.size(), applied);
    }
    byte[] block =
        tableFilter != null
            ? tableFilter.buildFullBlock(keys)
            : RocksDbTableFilter.filterBlock(
                p, keys, c.formatVersion, c.level == null ? FilterPolicy.UNKNOWN_LEVEL : c.level);
    try {
      AtomicFiles.write(c.output, block);
    } catch (IOException e) {
      return SstCliSupport.badFile(c.spec.commandLine().getErr(), "build", c.output.toString(), e);
    }
    c.summary()
        .println(
            "wrote "
                + block.length
                + " bytes ("
                + keys.size()
                + " keys, "
                + applied
                + ", format_version "
                + c.formatVersion
                + ", optimize_filters_for_memory="
                + c.optimizeFiltersForMemory
                + (c.prefix == null
                    ? ""
                    : ", prefix " + c.prefix + ", whole_key_filtering=" + c.wholeKeyFiltering)
                + ") to "
                + c.output);
    c.summary().flush();
    return 0;
  }

  /** Writes the partitions and index.tsv into the directory {@code output}. */
  private static int writePartitions(
      BuildCommand c, List<RocksDbTableFilter.Partition> parts, int numKeys, Object p) {
    if (Files.exists(c.output) && !Files.isDirectory(c.output)) {
      throw new ParameterException(
          c.spec.commandLine(),
          "-o " + c.output + " is a file; a partitioned filter is written to a directory");
    }
    long bytes = 0;
    StringBuilder index = new StringBuilder();
    try {
      Files.createDirectories(c.output);
      for (int i = 0; i < parts.size(); i++) {
        String name = String.format(Locale.ROOT, "partition-%05d.block", i);
        byte[] block = parts.get(i).block();
        AtomicFiles.write(c.output.resolve(name), block);
        bytes += block.length;
        index
            .append(name)
            .append('\t')
            .append(HexFormat.of().formatHex(parts.get(i).separator()))
            .append('\t')
            .append(block.length)
            .append('\n');
      }
      AtomicFiles.write(
          c.output.resolve("index.tsv"), index.toString().getBytes(StandardCharsets.UTF_8));
    } catch (IOException e) {
      return SstCliSupport.badFile(c.spec.commandLine().getErr(), "build", c.output.toString(), e);
    }
    c.spec
        .commandLine()
        .getOut()
        .println(
            "wrote "
                + parts.size()
                + " partitions, "
                + bytes
                + " bytes ("
                + numKeys
                + " keys, "
                + p
                + ", format_version "
                + c.formatVersion
                + ", optimize_filters_for_memory="
                + c.optimizeFiltersForMemory
                + (c.prefix == null ? "" : ", prefix " + c.prefix)
                + ", whole_key_filtering="
                + c.wholeKeyFiltering
                + ", metadata_block_size "
                + c.partitionSize
                + ") to "
                + c.output
                + "/");
    c.spec.commandLine().getOut().flush();
    return 0;
  }
}
