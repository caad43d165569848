package dev.sieve.cli;

import dev.sieve.Filter;
import dev.sieve.KeyFilter;
import dev.sieve.format.SieveFormat;
import dev.sieve.interop.ForeignBloomFilter;
import dev.sieve.interop.ForeignFormat;
import dev.sieve.registry.FilterType;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code sieve convert IN OUT --to FORMAT}: moves a filter between forms where nothing is lost, the
 * same bits under the same hash. {@code --to sieve} always works: the container records the foreign
 * type (its registry id), so the filter read back answers as the original; a container holding a
 * foreign filter converts back to its owner's form byte for byte. Everything else is refused with
 * one line saying why (a different hash or bit layout cannot be converted; rebuild from the keys).
 */
@Command(
    name = "convert",
    mixinStandardHelpOptions = true,
    description = {
      "Converts a filter between forms where the conversion is lossless: another system's filter"
          + " (guava, spark, datasketches, cassandra) into a Sieve container (--to sieve) and back, or rewritten in its own"
          + " form. Conversions between different hashes or bit layouts are refused, one line"
          + " saying why.",
      "Exit status: 0 ok, 1 bad input file or a conversion that is not lossless, 2 bad usage."
    })
public final class ConvertCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Parameters(index = "0", paramLabel = "IN", description = "a Sieve container or a foreign filter")
  Path in;

  @Parameters(index = "1", paramLabel = "OUT", description = "the file written")
  Path out;

  @Option(
      names = "--to",
      required = true,
      paramLabel = "FORMAT",
      description =
          "sieve, guava, spark, datasketches, cassandra or cassandra3 (Cassandra 3.x's layout;"
              + " between the two Cassandra layouts conversion is lossless)")
  String to;

  @Option(
      names = "--format",
      paramLabel = "NAME",
      description =
          "read IN as this foreign form (default: recognized by its structure or name; a"
              + " Cassandra 3.x Filter.db needs cassandra3 unless its name carries its SSTable"
              + " version)")
  String format;

  @Override
  public Integer call() {
    ForeignFormat target = null;
    ForeignFormat forced = null;
    try {
      if (!to.equals("sieve")) {
        target = ForeignFormat.named(to);
      }
      if (format != null) {
        forced = ForeignFormat.named(format);
      }
    } catch (IllegalArgumentException e) {
      throw new ParameterException(spec.commandLine(), e.getMessage() + " (or sieve for --to)");
    }
    PrintWriter err = spec.commandLine().getErr();
    KeyFilter filter;
    try {
      ForeignFormat source = forced;
      if (source == null) {
        InputKind kind = InputKind.of(in);
        if (kind == InputKind.FOREIGN) {
          source = ForeignFileReader.recognize(in);
        } else if (kind != InputKind.SIEVE_CONTAINER) {
          return refuse(
              err,
              in
                  + " is neither a Sieve container nor a guava or spark filter ("
                  + kind.name().toLowerCase(java.util.Locale.ROOT).replace('_', ' ')
                  + "): nothing to convert");
        }
      }
      filter =
          source != null
              ? ForeignFileReader.read(in, source)
              : SieveFormat.read(Files.readAllBytes(in), KeyFilter.class);
    } catch (Exception e) {
      return SstCliSupport.badFile(err, "convert", in.toString(), e);
    }
    byte[] bytes;
    if (target == null) {
      bytes = SieveFormat.toBytes(filter);
    } else {
      String why = whyNot(filter, target);
      if (why != null) {
        return refuse(err, why);
      }
      bytes = target.write((ForeignBloomFilter) filter);
    }
    try {
      AtomicFiles.write(out, bytes);
    } catch (java.io.IOException e) {
      return SstCliSupport.badFile(err, "convert", out.toString(), e);
    }
    return 0;
  }

  /** Why {@code filter} cannot become {@code target} without loss, or {@code null} if it can. */
  static String whyNot(KeyFilter filter, ForeignFormat target) {
    ForeignFormat source = ForeignInputs.formOf(filter);
    if (source != null && source.type() == target.type()) {
      return null; // one family (Cassandra's two layouts): the same bits and hash
    }
    FilterType type = FilterType.forClass(filter.getClass());
    String what = type == null ? filter.getClass().getSimpleName() : type.cliName();
    return "a "
        + what
        + " filter cannot become a "
        + target.formatName()
        + " filter without loss: "
        + (source == null
            ? "it hashes keys with Sieve's "
                + ((Filter) filter).keyScheme()
                + " and lays its bits out its own"
                + " way"
            : "it hashes keys with " + hashOf(source))
        + ", a "
        + target.formatName()
        + " filter with "
        + hashOf(target)
        + "; rebuild it from the keys";
  }

  private static String hashOf(ForeignFormat f) {
    return switch (f) {
      case GUAVA -> "Murmur3 x64_128 of the funnel's bytes";
      case SPARK -> "Spark's Murmur3 x86_32 pair";
      case DATASKETCHES -> "a seeded XXH64 pair";
      case CASSANDRA, CASSANDRA3 ->
          "Cassandra's Murmur3 x64_128 variant (sign-extended tail bytes)";
    };
  }

  private static int refuse(PrintWriter err, String why) {
    err.println("sieve convert: " + why);
    err.flush();
    return SstCliSupport.BAD_FILE;
  }
}
