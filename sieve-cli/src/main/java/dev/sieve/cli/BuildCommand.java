package dev.sieve.cli;

import dev.sieve.sst.RocksDbFilterPolicy;
import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code sieve build --keys FILE --policy bloom:BITS|ribbon:BITS -o OUT}. */
@Command(
    name = "build",
    mixinStandardHelpOptions = true,
    description = {
      "Writes the raw RocksDB filter block (with its 5-byte filter trailer; not the SST block"
          + " trailer, which depends on the file offset) that RocksDB writes for the keys under"
          + " the policy.",
      "Byte-identical with RocksDB (rocksdbjni 11.8.1, glibc malloc): Bloom (FastLocalBloom and"
          + " legacy) always; Ribbon with --optimize-filters-for-memory=false, and with the"
          + " default true except where glibc hands RocksDB a chunk 16 bytes larger than asked"
          + " for (RocksDB then adds one 16-byte segment; the heap's state decides, not the keys)."
          + " Not modelled: filters glibc allocates by mmap (above 128 KiB to 32 MiB) and other"
          + " allocators (musl, jemalloc), where RocksDB may round the size up to the allocation.",
      "Keys are sorted bytewise and de-duplicated first, as they are in an SST file, unless"
          + " --keep-order is given.",
      "Exit status: 0 ok, 1 bad input file, 2 bad usage."
    })
public final class BuildCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Option(names = "--keys", required = true, paramLabel = "FILE", description = "one key a line")
  Path keysFile;

  @Option(
      names = "--policy",
      required = true,
      paramLabel = "POLICY",
      description = "bloom:BITS or ribbon:BITS[:BLOOM_BEFORE_LEVEL] (Bloom-equivalent bits)")
  String policy;

  @Option(names = "-o", required = true, paramLabel = "OUT", description = "output file")
  Path output;

  @Option(names = "--hex", description = "keys are hex bytes")
  boolean hex;

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
          "LSM level the table is for, as ribbon's bloom_before_level sees it (-1 = flush);"
              + " default: unknown (as RocksDB's SstFileWriter), treated as the bottommost")
  Integer level;

  @Option(
      names = "--optimize-filters-for-memory",
      arity = "1",
      paramLabel = "true|false",
      defaultValue = "true",
      description =
          "RocksDB's optimize_filters_for_memory (default ${DEFAULT-VALUE}, as in RocksDB):"
              + " FastLocalBloom's probe count from the bits/key of the allocated size")
  boolean optimizeFiltersForMemory = true;

  @Override
  public Integer call() {
    RocksDbFilterPolicy p;
    try {
      p = RocksDbFilterPolicy.parse(policy);
    } catch (IllegalArgumentException e) {
      throw new ParameterException(spec.commandLine(), e.getMessage());
    }
    p = p.withOptimizeFiltersForMemory(optimizeFiltersForMemory);
    if (p.isNoFilter()) {
      throw new ParameterException(
          spec.commandLine(), "bits per key below 0.5 means no filter; nothing to build");
    }
    if (formatVersion < 2 || formatVersion > 7) {
      throw new ParameterException(
          spec.commandLine(), "--format-version must be in 2..7, got " + formatVersion);
    }
    List<byte[]> keys = new ArrayList<>();
    try (BufferedReader in = Files.newBufferedReader(keysFile, StandardCharsets.UTF_8)) {
      String line;
      int lineNo = 0;
      while ((line = in.readLine()) != null) {
        lineNo++;
        try {
          keys.add(SstCliSupport.decodeKey(line, hex));
        } catch (IllegalArgumentException e) {
          spec.commandLine()
              .getErr()
              .println("sieve build: " + keysFile + ": line " + lineNo + ": " + e.getMessage());
          spec.commandLine().getErr().flush();
          return SstCliSupport.BAD_FILE;
        }
      }
    } catch (IOException | java.io.UncheckedIOException e) {
      return SstCliSupport.badFile(spec.commandLine().getErr(), "build", keysFile.toString(), e);
    }
    if (!keepOrder) {
      keys.sort(Arrays::compareUnsigned);
      List<byte[]> distinct = new ArrayList<>(keys.size());
      for (byte[] k : keys) {
        if (distinct.isEmpty() || !Arrays.equals(distinct.get(distinct.size() - 1), k)) {
          distinct.add(k);
        }
      }
      keys = distinct;
    }
    byte[] block =
        p.buildFilterBlock(
            keys, formatVersion, level == null ? RocksDbFilterPolicy.UNKNOWN_LEVEL : level);
    try {
      Files.write(output, block);
    } catch (IOException e) {
      return SstCliSupport.badFile(spec.commandLine().getErr(), "build", output.toString(), e);
    }
    spec.commandLine()
        .getOut()
        .println(
            "wrote "
                + block.length
                + " bytes ("
                + keys.size()
                + " keys, "
                + p
                + ", format_version "
                + formatVersion
                + ", optimize_filters_for_memory="
                + optimizeFiltersForMemory
                + ") to "
                + output);
    spec.commandLine().getOut().flush();
    return 0;
  }
}
