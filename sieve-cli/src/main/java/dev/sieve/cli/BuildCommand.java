package dev.sieve.cli;

import dev.sieve.registry.FilterType;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
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
      return ContainerBuild.run(this, form);
    }
    return BlockBuild.run(this, form);
  }

  /** Where the summary line goes: stdout, or stderr when the output itself goes to stdout. */
  java.io.PrintWriter summary() {
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
  void refuse(String what, String... options) {
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
  List<byte[]> readKeys(KeyForm form) {
    return KeyFile.read(keysFile, form, allowEmptyKey, keepOrder, spec.commandLine().getErr());
  }
}
