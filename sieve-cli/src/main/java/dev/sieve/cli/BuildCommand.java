package dev.sieve.cli;

import dev.sieve.sst.RocksDbFilterPolicy;
import java.io.IOException;
import java.io.InputStream;
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
          + " the policy, with optimize_filters_for_memory=false.",
      "Keys are sorted bytewise and de-duplicated first, as they are in an SST file, unless"
          + " --keep-order is given.",
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
      required = true,
      paramLabel = "POLICY",
      description =
          "bloom:BITS or ribbon:BITS[:BLOOM_BEFORE_LEVEL] (Bloom-equivalent bits). As RocksDB,"
              + " BITS is clamped to [1, 100] and kept in thousandths; the policy applied is"
              + " printed (with a note on stderr when it differs from the one given)")
  String policy;

  @Option(
      names = "-o",
      required = true,
      paramLabel = "OUT",
      description =
          "output file, written to a temporary file beside it and renamed into place (never left"
              + " half-written); must not be the keys file")
  Path output;

  @Option(names = "--hex", description = "keys are hex bytes, one key a line (6b6579 or 0x6b6579)")
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
          "LSM level the table is for, as ribbon's bloom_before_level sees it: -1 (a flush) or"
              + " >= 0; default: unknown (as RocksDB's SstFileWriter), treated as the bottommost")
  Integer level;

  /** The policy as RocksDB applies it: bits per key clamped to [1, 100], in thousandths. */
  static String appliedPolicy(RocksDbFilterPolicy p) {
    String bits =
        java.math.BigDecimal.valueOf(p.millibitsPerKey(), 3).stripTrailingZeros().toPlainString();
    RocksDbFilterPolicy applied =
        p.type() == RocksDbFilterPolicy.Type.BLOOM
            ? RocksDbFilterPolicy.bloom(Double.parseDouble(bits))
            : RocksDbFilterPolicy.ribbon(Double.parseDouble(bits), p.bloomBeforeLevel());
    return applied.equals(p) ? p.toString() : applied.toString();
  }

  /** Whether both paths name one existing file (links, {@code ..} and hard links resolved). */
  private static boolean isSameFile(Path a, Path b) {
    try {
      return Files.exists(a) && Files.exists(b) && Files.isSameFile(a, b);
    } catch (IOException e) {
      return false; // unreadable: the read or the write reports it
    }
  }

  @Override
  public Integer call() {
    RocksDbFilterPolicy p;
    try {
      p = RocksDbFilterPolicy.parse(policy);
    } catch (IllegalArgumentException e) {
      throw new ParameterException(spec.commandLine(), e.getMessage());
    }
    if (p.isNoFilter()) {
      throw new ParameterException(
          spec.commandLine(), "bits per key below 0.5 means no filter; nothing to build");
    }
    if (level != null && level < RocksDbFilterPolicy.FLUSH_LEVEL) {
      throw new ParameterException(
          spec.commandLine(), "--level must be -1 (a flush) or a level >= 0, got " + level);
    }
    if (formatVersion < 2 || formatVersion > 7) {
      throw new ParameterException(
          spec.commandLine(), "--format-version must be in 2..7, got " + formatVersion);
    }
    if (isSameFile(keysFile, output)) {
      throw new ParameterException(
          spec.commandLine(),
          "-o " + output + " is the keys file itself; refusing to overwrite the input");
    }
    List<byte[]> keys = new ArrayList<>();
    try (InputStream in = Files.newInputStream(keysFile)) {
      KeyLines lines = new KeyLines(in, hex, allowEmptyKey);
      try {
        for (byte[] key = lines.next(); key != null; key = lines.next()) {
          keys.add(key);
        }
      } catch (KeyLines.BadLine e) {
        spec.commandLine().getErr().println("sieve build: " + keysFile + ": " + e.getMessage());
        spec.commandLine().getErr().flush();
        return SstCliSupport.BAD_FILE;
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
    String applied = appliedPolicy(p);
    if (!applied.equals(p.toString())) {
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
    byte[] block =
        p.buildFilterBlock(
            keys, formatVersion, level == null ? RocksDbFilterPolicy.UNKNOWN_LEVEL : level);
    try {
      AtomicFiles.write(output, block);
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
                + applied
                + ", format_version "
                + formatVersion
                + ") to "
                + output);
    spec.commandLine().getOut().flush();
    return 0;
  }
}
