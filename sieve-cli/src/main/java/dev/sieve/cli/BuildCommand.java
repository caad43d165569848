package dev.sieve.cli;

import dev.sieve.Filter;
import dev.sieve.FilterBuilder;
import dev.sieve.format.SieveFormat;
import dev.sieve.policy.FilterPolicy;
import dev.sieve.registry.FilterType;
import dev.sieve.sst.RocksDbOptions;
import dev.sieve.sst.RocksDbTableFilter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code sieve build --keys FILE --policy bloom:BITS|ribbon:BITS -o OUT} (a RocksDB filter block)
 * or {@code sieve build --keys FILE --type NAME [--setting S] -o OUT.sieve} (a Sieve container).
 */
@Command(
    name = "build",
    mixinStandardHelpOptions = true,
    description = {
      "Writes the RocksDB filter block (--policy) or a Sieve container (--format sieve, --type) of"
          + " a key file.",
      "RocksDB (the default): writes the raw RocksDB filter block (with its 5-byte filter trailer; not the SST block"
          + " trailer, which depends on the file offset) that RocksDB writes for the keys under"
          + " the policy.",
      "Byte-identical with RocksDB (rocksdbjni 11.8.1, glibc malloc): Bloom (FastLocalBloom and"
          + " legacy) always; Ribbon with --optimize-filters-for-memory=false, and with the"
          + " default true except where glibc hands RocksDB a chunk 16 bytes larger than asked"
          + " for (RocksDB then adds one 16-byte segment; the heap's state decides, not the keys)."
          + " The same holds for prefix filters and for each partition and separator of a"
          + " partitioned filter, except that a grown Ribbon partition lets RocksDB shrink later"
          + " ones (use --optimize-filters-for-memory=false for partitioned Ribbon)."
          + " Not modelled: filters glibc allocates by mmap (above 128 KiB to 32 MiB) and other"
          + " allocators (musl, jemalloc), where RocksDB may round the size up to the allocation;"
          + " prefixes or partitions with legacy Bloom (format_version < 5); filter partitions"
          + " coupled to index partitions; custom comparators, extractors and timestamps.",
      "Keys are sorted bytewise and de-duplicated first, as they are in an SST file, unless"
          + " --keep-order is given (then give them in the table's order, distinct).",
      "With --prefix the filter holds key prefixes (and whole keys unless"
          + " --whole-key-filtering=false), as RocksDB's built-in prefix extractors make them.",
      "With --partition-size (RocksDB's metadata_block_size; partition_filters=true) OUT is a"
          + " directory: partition-NNNNN.block for each filter partition in index order, and"
          + " index.tsv, one line per partition: file name, separator (the partition's last key,"
          + " hex), bytes. The top-level partition index block itself is not written: its values"
          + " are file offsets of the SST (the library's RocksDbTableFilter.partitionIndexBlock"
          + " builds it for a given offset). Partitions are cut as RocksDB 11 does by default"
          + " (decoupled from index partitions, block_size_deviation 10).",
      "Sieve container (--format sieve, the default when OUT ends in .sieve): a filter of any"
          + " registry type (--type; inspect and query read it back, and the library's"
          + " SieveFormat.read), sized by the type's one setting (--setting: bits/key for the Bloom"
          + " filters, Bloom-equivalent bits/key for ribbon, fingerprint bits for cuckoo and"
          + " bumped-ribbon) or by --fp-rate; xor8, xor16, binary-fuse8/16 and sharded have no"
          + " setting (fixed fingerprints) and scalable-bloom grows by itself: they take --fp-rate"
          + " only (the fingerprint filters refuse a rate below their fixed width's). Keys are"
          + " hashed as the library's default hashes them (key scheme FAST, or XXPH3 for blocked-bloom"
          + " and ribbon): text and --hex as mayContain(byte[]), --long as mayContain(long) (under"
          + " FAST recorded as MIX64, its long-only form), --int as mayContainInt(int).",
      "OUT: a regular file (or a new one) is replaced whole, by a rename; a device or a named"
          + " pipe is written in place (never replaced); - or /dev/stdout is standard output (the"
          + " summary line then goes to stderr).",
      "Exit status: 0 ok, 1 bad input file, 2 bad usage."
    })
public final class BuildCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Option(
      names = "--keys",
      required = true,
      paramLabel = "FILE",
      description =
          "one key a line, UTF-8 text (the key is the line's bytes; lines end at \\n, a \\r"
              + " before it is dropped); a line that is not UTF-8 is an error naming it: give"
              + " binary keys with --hex. An empty line is an error unless --allow-empty-key")
  Path keysFile;

  @Option(
      names = "--allow-empty-key",
      description = "an empty line is the empty key (RocksDB allows it) instead of an error")
  boolean allowEmptyKey;

  @Option(
      names = "--policy",
      paramLabel = "POLICY",
      description =
          "RocksDB format (needed there): bloom:BITS or ribbon:BITS[:BLOOM_BEFORE_LEVEL]"
              + " (Bloom-equivalent bits). As RocksDB,"
              + " BITS is clamped to [1, 100] and kept in thousandths; the policy applied is"
              + " printed (with a note on stderr when it differs from the one given)")
  String policy;

  @Option(
      names = "-o",
      required = true,
      paramLabel = "OUT",
      description =
          "output file (a directory with --partition-size), written to a temporary file beside"
              + " it and renamed into place (never left half-written); a device or named pipe is"
              + " written in place; - (or /dev/stdout) is standard output; must not be the keys"
              + " file")
  Path output;

  @Option(names = "--hex", description = "keys are hex bytes, one key a line (6b6579 or 0x6b6579)")
  boolean hex;

  @Option(
      names = "--long",
      description =
          "keys are decimal longs, one a line, as Filter.mayContain(long) hashes them: in"
              + " RocksDB's format and under XXPH3 the 8 big-endian bytes")
  boolean asLong;

  @Option(
      names = "--int",
      description =
          "keys are decimal ints, one a line, as Filter.mayContainInt(int) hashes them: in"
              + " RocksDB's format and under XXPH3 the 4 big-endian bytes")
  boolean asInt;

  @Option(
      names = "--format",
      paramLabel = "rocksdb|sieve",
      description =
          "what OUT holds: the RocksDB filter block (needs --policy) or a Sieve container"
              + " (--type); default: sieve when OUT ends in .sieve, else rocksdb")
  String format;

  @Option(
      names = "--type",
      paramLabel = "NAME",
      completionCandidates = TypeNames.class,
      description =
          "Sieve format: the filter type (default blocked-bloom): ${COMPLETION-CANDIDATES}; "
              + BuildNotes.PREFIX_BLOOM_RANGE_HELP)
  String type;

  /** The registry's type names, for the help text. */
  static final class TypeNames implements Iterable<String> {
    @Override
    public java.util.Iterator<String> iterator() {
      List<String> names = new ArrayList<>();
      for (FilterType t : FilterType.builtIn()) {
        names.add(t.cliName());
      }
      return names.iterator();
    }
  }

  @Option(
      names = "--setting",
      paramLabel = "S",
      description =
          "Sieve format: the type's size setting (bits/key; ribbon: Bloom-equivalent bits/key;"
              + " cuckoo, bumped-ribbon: fingerprint bits); default: the type's default rate")
  Double setting;

  @Option(
      names = "--fp-rate",
      paramLabel = "R",
      description = "Sieve format: size the filter for this false-positive rate instead")
  Double fpRate;

  @Option(
      names = "--seed",
      paramLabel = "N",
      description = "Sieve format: the builder's seed (default: the type's own)")
  Long seed;

  @Option(
      names = "--format-version",
      paramLabel = "N",
      description = "table format_version, 2..7 (Bloom below 5 is the legacy format); default 7")
  int formatVersion = 7;

  @Option(names = "--keep-order", description = "add keys in file order, duplicates included")
  boolean keepOrder;

  @Option(
      names = "--level",
      paramLabel = "L",
      description =
          "LSM level the table is for, as ribbon's bloom_before_level sees it: -1 (a flush) or"
              + " >= 0; default: unknown (as RocksDB's SstFileWriter), treated as the bottommost")
  Integer level;

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

  /** Whether both paths name one existing file (links, {@code ..} and hard links resolved). */
  private static boolean isSameFile(Path a, Path b) {
    try {
      return Files.exists(a) && Files.exists(b) && Files.isSameFile(a, b);
    } catch (IOException e) {
      return false; // unreadable: the read or the write reports it
    }
  }

  @Option(
      names = "--optimize-filters-for-memory",
      arity = "1",
      paramLabel = "true|false",
      defaultValue = "true",
      description =
          "RocksDB's optimize_filters_for_memory (default ${DEFAULT-VALUE}, as in RocksDB):"
              + " FastLocalBloom's probe count from the bits/key of the allocated size")
  boolean optimizeFiltersForMemory = true;

  @Option(
      names = "--prefix",
      paramLabel = "fixed:N|capped:N",
      description =
          "prefix extractor: fixed:N (first N bytes; shorter keys have no prefix) or capped:N"
              + " (first min(N, length) bytes)")
  String prefix;

  @Option(
      names = "--whole-key-filtering",
      arity = "1",
      paramLabel = "true|false",
      defaultValue = "true",
      description = "add whole keys to the filter (default ${DEFAULT-VALUE}); false needs --prefix")
  boolean wholeKeyFiltering = true;

  @Option(
      names = "--partition-size",
      paramLabel = "BYTES",
      description =
          "partitioned filter with this metadata_block_size (RocksDB's default 4096); -o names a"
              + " directory")
  Long partitionSize;

  @Override
  public Integer call() {
    KeyForm form;
    try {
      form = KeyForm.of(hex, asLong, asInt);
    } catch (IllegalArgumentException e) {
      throw new ParameterException(spec.commandLine(), e.getMessage());
    }
    if (isSameFile(keysFile, output)) {
      throw new ParameterException(
          spec.commandLine(),
          "-o " + output + " is the keys file itself; refusing to overwrite the input");
    }
    if (sieveFormat()) {
      refuse(
          "a Sieve container",
          "--policy",
          "--format-version",
          "--level",
          "--optimize-filters-for-memory",
          "--prefix",
          "--whole-key-filtering",
          "--partition-size");
      return buildContainer(form);
    }
    refuse("a RocksDB filter block", "--type", "--setting", "--fp-rate", "--seed");
    if (policy == null) {
      throw new ParameterException(
          spec.commandLine(),
          "a RocksDB filter block needs --policy bloom:BITS or ribbon:BITS (for a Sieve"
              + " container give --format sieve or -o FILE.sieve, with --type)");
    }
    if (partitionSize != null && AtomicFiles.isStdout(output)) {
      throw new ParameterException(
          spec.commandLine(),
          "--partition-size writes a directory; -o " + output + " is standard output");
    }
    FilterPolicy p;
    try {
      p = RocksDbOptions.filterPolicy(policy).orElse(null);
    } catch (IllegalArgumentException e) {
      throw new ParameterException(spec.commandLine(), e.getMessage());
    }
    if (p == null) {
      throw new ParameterException(
          spec.commandLine(), "bits per key below 0.5 means no filter; nothing to build");
    }
    p = p.withOptimizeFiltersForMemory(optimizeFiltersForMemory);
    if (level != null && (level < FilterPolicy.FLUSH || level > FilterPolicy.UNKNOWN_LEVEL)) {
      throw new ParameterException(
          spec.commandLine(),
          "--level must be -1 (a flush) or a level in 0.."
              + FilterPolicy.UNKNOWN_LEVEL
              + " (the last: unknown), got "
              + level);
    }
    if (formatVersion < 2 || formatVersion > 7) {
      throw new ParameterException(
          spec.commandLine(), "--format-version must be in 2..7, got " + formatVersion);
    }
    RocksDbTableFilter tableFilter = null;
    if (prefix != null || !wholeKeyFiltering || partitionSize != null) {
      if (formatVersion < 5) {
        throw new ParameterException(
            spec.commandLine(),
            "--prefix, --whole-key-filtering and --partition-size need --format-version >= 5"
                + " (legacy Bloom is not modelled with them)");
      }
      if (partitionSize != null && (partitionSize < 1 || partitionSize > (1L << 31))) {
        throw new ParameterException(
            spec.commandLine(), "--partition-size must be in 1..2^31 bytes, got " + partitionSize);
      }
      try {
        tableFilter =
            new RocksDbTableFilter(
                p, level == null ? FilterPolicy.UNKNOWN_LEVEL : level, prefix, wholeKeyFiltering);
      } catch (IllegalArgumentException e) {
        throw new ParameterException(spec.commandLine(), e.getMessage());
      }
    }
    List<byte[]> keys = readKeys(form);
    if (keys == null) {
      return SstCliSupport.BAD_FILE;
    }
    String applied = appliedPolicy(p);
    if (!applied.equals(givenPolicy(p, policy))) {
      spec.commandLine()
          .getErr()
          .println(
              "sieve build: note: --policy "
                  + policy
                  + " is applied as "
                  + applied
                  + " (RocksDB clamps bits per key to [1, 100] and keeps thousandths)");
      spec.commandLine().getErr().flush();
    }
    if (partitionSize != null) {
      return writePartitions(
          tableFilter.buildPartitions(keys, partitionSize), keys.size(), applied);
    }
    byte[] block =
        tableFilter != null
            ? tableFilter.buildFullBlock(keys)
            : RocksDbTableFilter.filterBlock(
                p, keys, formatVersion, level == null ? FilterPolicy.UNKNOWN_LEVEL : level);
    try {
      AtomicFiles.write(output, block);
    } catch (IOException e) {
      return SstCliSupport.badFile(spec.commandLine().getErr(), "build", output.toString(), e);
    }
    summary()
        .println(
            "wrote "
                + block.length
                + " bytes ("
                + keys.size()
                + " keys, "
                + applied
                + ", format_version "
                + formatVersion
                + ", optimize_filters_for_memory="
                + optimizeFiltersForMemory
                + (prefix == null
                    ? ""
                    : ", prefix " + prefix + ", whole_key_filtering=" + wholeKeyFiltering)
                + ") to "
                + output);
    summary().flush();
    return 0;
  }

  /** Where the summary line goes: stdout, or stderr when the output itself goes to stdout. */
  private java.io.PrintWriter summary() {
    return AtomicFiles.isStdout(output) ? spec.commandLine().getErr() : spec.commandLine().getOut();
  }

  /**
   * Whether OUT is a Sieve container: {@code --format sieve}, or by default a {@code .sieve} name.
   */
  private boolean sieveFormat() {
    if (format == null) {
      return output.toString().endsWith(".sieve");
    }
    switch (format) {
      case "sieve":
        return true;
      case "rocksdb":
        return false;
      default:
        throw new ParameterException(
            spec.commandLine(), "--format must be rocksdb or sieve, got '" + format + "'");
    }
  }

  /** Bad usage if any of {@code options} was given: they do not apply to {@code what}. */
  private void refuse(String what, String... options) {
    for (String o : options) {
      if (spec.commandLine().getParseResult().hasMatchedOption(o)) {
        throw new ParameterException(spec.commandLine(), o + " does not apply to " + what);
      }
    }
  }

  /**
   * The keys of the keys file, sorted bytewise and de-duplicated unless {@code --keep-order}; null
   * after printing the one-line error for a bad file or line, or for a file without keys.
   */
  private List<byte[]> readKeys(KeyForm form) {
    return KeyFile.read(keysFile, form, allowEmptyKey, keepOrder, spec.commandLine().getErr());
  }

  /** {@code --format sieve}: a filter of the registry type {@code --type}, in a Sieve container. */
  private int buildContainer(KeyForm form) {
    FilterType t;
    try {
      t = FilterType.forName(type == null ? "blocked-bloom" : type);
    } catch (IllegalArgumentException e) {
      throw new ParameterException(spec.commandLine(), "--type: " + e.getMessage());
    }
    if (setting != null && fpRate != null) {
      throw new ParameterException(
          spec.commandLine(), "--setting and --fp-rate exclude each other; give one");
    }
    FilterBuilder<? extends Filter> builder;
    try {
      builder = setting != null ? SizeSettings.builder(t, setting) : t.builder();
      if (fpRate != null) {
        builder = builder.fpRate(fpRate);
      }
      if (seed != null) {
        builder = builder.seed(seed);
      }
    } catch (IllegalArgumentException e) {
      throw new ParameterException(
          spec.commandLine(),
          (setting != null ? "--setting " : "--fp-rate ")
              + "for "
              + t.cliName()
              + ": "
              + e.getMessage());
    }
    List<byte[]> keys = readKeys(form);
    if (keys == null) {
      return SstCliSupport.BAD_FILE;
    }
    Filter filter;
    try {
      filter = KeyFile.build(t, builder, keys, form); // numbers as the library hashes them
    } catch (IllegalArgumentException | IllegalStateException e) {
      spec.commandLine()
          .getErr()
          .println(
              "sieve build: " + t.cliName() + " over " + keys.size() + " keys: " + e.getMessage());
      spec.commandLine().getErr().flush();
      return SstCliSupport.BAD_FILE;
    }
    long[] written = new long[1];
    try {
      AtomicFiles.write(
          output,
          ch ->
              SieveFormat.write(
                  filter,
                  new java.nio.channels.WritableByteChannel() {
                    @Override
                    public int write(java.nio.ByteBuffer src) throws IOException {
                      int n = ch.write(src);
                      written[0] += n;
                      return n;
                    }

                    @Override
                    public boolean isOpen() {
                      return ch.isOpen();
                    }

                    @Override
                    public void close() {
                      // the writer owns the channel
                    }
                  },
                  // recorded, so that query takes the keys as numbers by itself
                  form == KeyForm.LONG && filter.keyScheme() == dev.sieve.KeyScheme.XXPH3));
    } catch (IOException e) {
      return SstCliSupport.badFile(spec.commandLine().getErr(), "build", output.toString(), e);
    }
    summary()
        .println(
            String.format(
                Locale.ROOT,
                "wrote %d bytes (%d keys, %s%s, %s bits/key, modelled FPR %s%s) to %s",
                written[0],
                keys.size(),
                t.cliName(),
                setting != null
                    ? SizeSettings.describe(t, setting)
                    : fpRate != null ? " fp-rate " + fpRate : "",
                Figures.bitsPerKey(filter.bitsPerKey()),
                Figures.percent(filter.modelledFpRate()),
                form == KeyForm.TEXT ? "" : ", keys " + form.option(),
                output));
    String note = BuildNotes.note(t, fpRate);
    if (note != null) {
      summary().println(note);
    }
    summary().flush();
    return 0;
  }

  /** Writes the partitions and index.tsv into the directory {@code output}. */
  private int writePartitions(List<RocksDbTableFilter.Partition> parts, int numKeys, Object p) {
    if (Files.exists(output) && !Files.isDirectory(output)) {
      throw new ParameterException(
          spec.commandLine(),
          "-o " + output + " is a file; a partitioned filter is written to a directory");
    }
    long bytes = 0;
    StringBuilder index = new StringBuilder();
    try {
      Files.createDirectories(output);
      for (int i = 0; i < parts.size(); i++) {
        String name = String.format(Locale.ROOT, "partition-%05d.block", i);
        byte[] block = parts.get(i).block();
        AtomicFiles.write(output.resolve(name), block);
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
          output.resolve("index.tsv"), index.toString().getBytes(StandardCharsets.UTF_8));
    } catch (IOException e) {
      return SstCliSupport.badFile(spec.commandLine().getErr(), "build", output.toString(), e);
    }
    spec.commandLine()
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
                + formatVersion
                + ", optimize_filters_for_memory="
                + optimizeFiltersForMemory
                + (prefix == null ? "" : ", prefix " + prefix)
                + ", whole_key_filtering="
                + wholeKeyFiltering
                + ", metadata_block_size "
                + partitionSize
                + ") to "
                + output
                + "/");
    spec.commandLine().getOut().flush();
    return 0;
  }
}
